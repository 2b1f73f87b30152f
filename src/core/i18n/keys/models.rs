//! The trained models: the BERT encoder's and the language model's panels, their downloads, heads and writing, and the core's words for them.

keys! { "models";
}
