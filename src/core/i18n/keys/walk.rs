//! The guided walk: its buttons, where it is, and what the lesson's end adds.

keys! { "walk";
    start = "Start the lesson: a guided walk";
    resume(stop, of) = "Resume the walk at stop {stop} of {of}";
    label = "Guided walk";
    where_(stop, of, title) = "{stop} of {of} · {title}";
    where_further(stop, of, title) = "{stop} of {of} · {title} · further";
    back = "Back";
    next = "Next";
    finish = "Finish";
    further = "Go further";
    end = "End";
    lesson_summary = "That is self-attention: each token turns its embedding into a query, a key and a value; its query is scored against every key, the scores (÷√dₖ, masked) become shares by the softmax, and its new vector is the values blended in those shares. The weights that make it work are learned. Go further for word order, the KV cache and FlashAttention's tiles, or type a sentence of your own.";
    further_summary = "Shuffling the words showed that attention alone is blind to order until positions put it back; the KV cache and the tiles computed the same numbers as decoders and FlashAttention do. Where next: type a sentence of your own, edit a weight and watch every weight move, or open another example.";
}
