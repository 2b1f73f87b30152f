//! Sentence → words → sorted vocabulary → token ids, as the Raschka tutorial does it; how a
//! token is named in a list.

use crate::core::i18n::keys::settings;
use crate::core::i18n::Msg;
use crate::core::text::ordinal;

/// The number of rows of the embedding table the tutorial draws from (`nn.Embedding(50_000, d)`).
pub const TUTORIAL_VOCAB_SIZE: usize = 50_000;

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
    /// Drops commas and splits on white space as Python's `str.split()` does; a word used twice
    /// gets one id.
    pub fn new(sentence: &str) -> Self {
        let words: Vec<String> = sentence
            .replace(',', "")
            .split(is_python_space)
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect();
        let mut vocabulary = words.clone();
        vocabulary.sort_unstable();
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

    /// A trained model's pieces, as its own tokenizer cut them: each place its own row (the
    /// hidden state entering a layer differs at every place, whatever the piece).
    pub fn pieces(pieces: Vec<String>) -> Self {
        Tokens {
            ids: (0..pieces.len()).collect(),
            vocabulary: pieces.clone(),
            words: pieces,
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

/// Python's `str.isspace()`: Unicode white space plus the four ASCII separators (U+001C…U+001F)
/// that Rust's `char::is_whitespace` leaves out.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Invisible characters inside the words (zero-width spaces and joiners, the byte-order mark,
/// soft hyphens, direction marks): they make a word differ from one that looks the same, so the
/// page names them. Each is given once, as `U+200B`.
pub fn invisible_characters(sentence: &str) -> Vec<String> {
    let mut found: Vec<String> = sentence
        .chars()
        .filter(|c| {
            matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}' | '\u{feff}')
        })
        .map(|c| format!("U+{:04X}", c as u32))
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// How a token is named in a list of the sentence's tokens, as the tables name their rows: by
/// its word, quoted as the page's language quotes, and a word used twice also by which one it is
/// (“the” (2nd)). None past the sentence.
pub fn token_label(words: &[String], k: usize) -> Option<Msg> {
    let word = words.get(k)?;
    Some(if words.iter().filter(|w| *w == word).count() > 1 {
        let n = words[..k].iter().filter(|w| *w == word).count() + 1;
        // The ordinal as English writes it, in every language (as the tables' rows).
        settings::quoted_nth(settings::quoted(word.as_str()), ordinal(n))
    } else {
        settings::quoted(word.as_str())
    })
}
