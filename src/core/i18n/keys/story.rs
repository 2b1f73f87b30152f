//! The lesson's story, told from the numbers (`core::teaching::story`).

keys! { "story";
    looks(word, share, key, score, other_score, other, gap, weight, other_weight, blend) = "“{word}” pays {share} of its attention to “{key}”: its query matches that key best (score {score} against {other_score} for “{other}”, the runner-up), and the softmax turns {gap} into weights of {weight} and {other_weight}; {blend}.";
    only(word, key, blend) = "“{word}” may only look at “{key}”, so it pays it all of its attention; {blend}.";
    ties(word, count, weight, score, blend) = "“{word}” gives {count} keys the same weight, {weight} each: its query matches them equally well (score {score} each); {blend}.";
    even_all = "so its new vector is an even blend of their values";
    even_mostly = "so its new vector is mostly an even blend of their values";
    even_partly = "so its new vector is partly an even blend of their values";
    gap(gap) = "the gap of {gap}";
    gap_scaled(gap) = "the gap, {gap} once scaled,";
    own_all = "so its new vector is its own value";
    own_mostly = "so its new vector is mostly its own value";
    own_partly = "so its new vector is partly its own value";
    value_all(key) = "so its new vector (its context) is the value of “{key}”";
    value_mostly(key) = "so its new vector (its context) is mostly the value of “{key}”";
    value_partly(key) = "so its new vector (its context) is partly the value of “{key}”";
    here(story) = "Here {story}";
    in_head(head, story) = "In head {head}: {story}";
    broken = "In the hand-made example “she” looked most at “dog” (0.883): your edits changed that. Undo or Reset brings it back.";
}
