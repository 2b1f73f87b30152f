//! Sentence → words → sorted vocabulary → token ids, as the Raschka tutorial does it.

/// A tokenised sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tokens {
    /// The words in sentence order.
    pub words: Vec<String>,
    /// The distinct words sorted by byte order (Python's `sorted`, case-sensitive).
    pub vocabulary: Vec<String>,
    /// For each word, its index in `vocabulary`.
    pub ids: Vec<usize>,
}

impl Tokens {
    /// Drops commas and splits on white space; a word used twice gets one id.
    pub fn new(sentence: &str) -> Self {
        let words: Vec<String> = sentence
            .replace(',', "")
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        let mut vocabulary = words.clone();
        vocabulary.sort();
        vocabulary.dedup();
        let ids = words
            .iter()
            .map(|w| {
                vocabulary
                    .binary_search(w)
                    .expect("every word is in the vocabulary")
            })
            .collect();
        Tokens {
            words,
            vocabulary,
            ids,
        }
    }

    /// The number of tokens in the sentence.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// True when the sentence has no words.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}
