//! The opening: what attention is for, its four moves, and where the numbers come from.

keys! { "intro";
    with_exercises = "Attention lets each word of a sentence look at the others and take in what they carry. Every number below is live: answer the exercises beside the steps.";
    what_for_1 = "Read “The dog fetched the ball and she was happy” and you know at once that “she” is the dog.";
    what_for_2 = "A word's meaning depends on the words around it, so a program that reads must work out which other words matter to each one: “she” has to find whom she means.";
    what_for_3 = "Attention is how language models such as GPT (the programs behind chatbots, which read and write text a word at a time) do it: each word looks at every other, decides how much each matters to it, and takes in a blend of what they carry.";
    move_embedding = "Each word becomes a row of numbers, its embedding.";
    move_qkv = "From it, each word makes a query (what am I looking for?), a key (what do I offer?) and a value (what do I pass on?).";
    move_scores = "Each query is scored against every key, and the softmax turns a row of scores into shares that add up to 1.";
    move_blend = "Each word's new vector is the values blended in those shares.";
    below = "Below is a real attention layer (one building block of such a model) with every number shown and editable, in the order it is computed.";
    origin_learned = "This layer's numbers were learned by a real model from a great deal of text.";
    origin_by_hand = "A trained model learns its numbers from a great deal of text; these were made by hand to show what trained ones do.";
    origin_random = "A trained model learns its numbers from a great deal of text; these are random, as a model's are before training, or your own.";
    invite = "Click another word on the left to see where it looks; change any number below and watch these lines move.";
}
