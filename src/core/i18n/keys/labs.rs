//! Each lab: its heading, its name in the contents, and what the walk suggests trying there.

keys! { "labs";
    flash_title = "FlashAttention: the softmax a tile at a time";
    flash_short_title = "Tiles lab";
    flash_hint = "Step through the key tiles: when a tile holds a larger score, m grows and what was summed so far shrinks by e^(m_old − m_new). After the last tile, O / l is the context, without the n × n matrix ever being held.";
    kv_cache_title = "The KV cache: decoding one token at a time";
    kv_cache_short_title = "KV cache lab";
    kv_cache_hint = "Press Decode next token: only the new token's query, key and value are computed; its key and value join the cache, and one row of weights is taken against it. It equals the full causal computation's row.";
    mask_title = "Lab: why mask with −∞?";
    mask_short_title = "−∞ lab";
    mask_hint = "Raise the magnitude step by step until renormalising breaks (cells marked in red), while −∞ stays exact.";
    order_title = "Word order: what attention cannot see";
    order_short_title = "Order lab";
    order_hint = "Shuffle the words with no positions: every output row is the same numbers in a new place. Then choose sinusoidal positions or RoPE and shuffle again.";
    several_heads_title = "Why several heads?";
    several_heads_short_title = "Heads lab";
    several_heads_hint = "A head is one set of the three weight matrices (W_query, W_key, W_value): one way of attending. In the two-head dog below, head 0 sends “she” to “dog” (whom she means) and head 1 to “ball” (the thing in the story). Open it in the page to see both heads in every step.";
    sqrt_dk_title = "Lab: why divide by √dₖ?";
    sqrt_dk_short_title = "√dₖ lab";
    sqrt_dk_hint = "Drag dₖ up to 1024: unscaled, the variance grows like dₖ and the largest weight heads for 1 while the gradient dies; ÷dₖ flattens every row; ÷√dₖ stays put.";
    train_title = "Lab: train the weights";
    train_short_title = "Train lab";
    train_hint = "Where weights come from: a real model's start random and are nudged, step by step, by training on a great deal of text. Press “Train the dog example from random weights”: from random numbers it trains, step by step, until “she” gives “dog” the hand-made 0.883, with other weights that do the same job. Or pick a key for the followed token to look at (it starts at the runner-up, so training pulls “she” away from “dog”), press Run, and watch the loss fall while every table above moves; Undo takes the whole run back. A real trained model is one click away in the settings (“Open a trained model”).";
}
