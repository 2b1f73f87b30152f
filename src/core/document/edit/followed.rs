//! Which token stays followed across an edit: after a sentence edit the same word, after any
//! other the same place while it is there; after a whole model opens, the same word if it has it.

use crate::core::model::presets::follows;
use crate::core::model::Model;
/// What a sentence edit keeps followed, as its place and word: the learner's pick, else the
/// example's own (the dog's "she").
pub(super) fn followed_before(followed: Option<usize>, model: &Model) -> Option<(usize, String)> {
    let words = &model.tokens().words;
    let at = followed.or_else(|| follows(model.sentence(), words.len()))?;
    // A place past the words (the sentence half typed) is kept; no word is "".
    Some((at, words.get(at).cloned().unwrap_or_default()))
}

/// The token followed after an edit. After a sentence edit (`typed`: what was followed before
/// it), the same word while it is in the sentence, at its occurrence nearest its old place (an
/// edit of another word, or a word put before it, keeps "she" followed); while it is not (being
/// retyped), its place, which the word may come back to. After a whole model opens (`opened`),
/// the same word if it has it, else its own pick: another tokenizer ([CLS] first) keeps "she"
/// followed, not its place. After any other edit, `followed` while the model still has it.
pub(super) fn followed_after(
    followed: Option<usize>,
    typed: Option<&(usize, String)>,
    opened: Option<&(usize, String)>,
    model: &Model,
) -> Option<usize> {
    let words = &model.tokens().words;
    let nearest = |(at, word): &(usize, String)| {
        words
            .iter()
            .enumerate()
            .filter(|(_, w)| *w == word)
            .map(|(i, _)| i)
            .min_by_key(|i| i.abs_diff(*at))
    };
    match (typed, opened) {
        (Some(typed), _) => nearest(typed).or(Some(typed.0)),
        // Where the model's own pick is that word, none is needed (an example opened again).
        (None, Some(opened)) => {
            nearest(opened).filter(|&i| Some(i) != follows(model.sentence(), words.len()))
        }
        (None, None) => followed.filter(|&i| i < words.len()),
    }
}
