//! WordPiece tokens as transformers' `BertTokenizer` makes them (uncased; since transformers 5 it
//! runs Hugging Face tokenizers' `BertNormalizer`, `BertPreTokenizer` and `WordPiece`): the text
//! cleaned, Chinese characters spaced, accents stripped, lower-cased, split on whitespace and
//! punctuation, then each word cut greedily into the longest pieces in the vocabulary
//! (`##` marks a piece inside a word; a word that cannot be cut is `[UNK]`), between `[CLS]` and
//! `[SEP]`. Special tokens typed in the text stay whole, as the tokenizer keeps them.

use std::collections::HashMap;

// Hugging Face tokenizers' own tables (Unicode 9), so that a mark or symbol newer than them is
// what it is there.
use unicode_categories::UnicodeCategories;
use unicode_normalization::UnicodeNormalization;

use crate::core::i18n::keys::models;
use crate::core::i18n::Msg;

/// Most tokens a sentence may have, `[CLS]` and `[SEP]` included.
pub const MAX_PIECES: usize = 64;
/// A longer word is `[UNK]`, as `WordpieceTokenizer`'s `max_input_chars_per_word`.
const MAX_WORD_CHARS: usize = 100;
/// The tokens the tokenizer never splits.
const SPECIAL: [&str; 5] = ["[CLS]", "[SEP]", "[UNK]", "[PAD]", "[MASK]"];

/// `vocab.txt`: one piece a line, its id the line's number.
#[derive(Clone, Debug, PartialEq)]
pub struct Vocabulary {
    pieces: Vec<String>,
    ids: HashMap<String, u32>,
}

impl Vocabulary {
    /// Reads `vocab.txt`; it must hold `[CLS]`, `[SEP]` and `[UNK]`.
    pub fn read(text: &str) -> Result<Vocabulary, Msg> {
        let pieces: Vec<String> = text.lines().map(str::to_owned).collect();
        let mut ids = HashMap::with_capacity(pieces.len());
        for (id, piece) in pieces.iter().enumerate() {
            // As transformers' load_vocab: a piece listed twice keeps its last line.
            ids.insert(piece.clone(), id as u32);
        }
        let vocabulary = Vocabulary { pieces, ids };
        for special in ["[CLS]", "[SEP]", "[UNK]"] {
            if vocabulary.id(special).is_none() {
                return Err(models::vocab_lacks(special));
            }
        }
        Ok(vocabulary)
    }

    /// How many pieces.
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// A piece's id.
    pub fn id(&self, piece: &str) -> Option<u32> {
        self.ids.get(piece).copied()
    }

    /// The piece of an id.
    pub fn piece(&self, id: u32) -> Option<&str> {
        self.pieces.get(id as usize).map(String::as_str)
    }

    /// `[CLS]`, the sentence's pieces and `[SEP]`, or why not (more than [`MAX_PIECES`]).
    pub fn encode(&self, text: &str) -> Result<Vec<String>, Msg> {
        let mut pieces = vec!["[CLS]".to_owned()];
        for chunk in split_special(text) {
            match chunk {
                Chunk::Special(s) => pieces.push(s.to_owned()),
                Chunk::Text(t) => {
                    for word in basic_words(t) {
                        pieces.extend(self.word_pieces(&word));
                    }
                }
            }
            if pieces.len() + 1 > MAX_PIECES {
                break;
            }
        }
        pieces.push("[SEP]".to_owned());
        if pieces.len() > MAX_PIECES {
            return Err(models::too_many_pieces(MAX_PIECES));
        }
        Ok(pieces)
    }

    /// The ids of `pieces` (each in the vocabulary, as [`Vocabulary::encode`] gives them).
    pub fn ids(&self, pieces: &[String]) -> Vec<u32> {
        let unk = self.id("[UNK]").unwrap_or(0);
        pieces.iter().map(|p| self.id(p).unwrap_or(unk)).collect()
    }

    /// One word cut greedily into the longest pieces in the vocabulary, or `[UNK]`.
    fn word_pieces(&self, word: &str) -> Vec<String> {
        let chars: Vec<char> = word.chars().collect();
        if chars.len() > MAX_WORD_CHARS {
            return vec!["[UNK]".into()];
        }
        let mut pieces = Vec::new();
        let mut start = 0;
        while start < chars.len() {
            let found = (start + 1..=chars.len()).rev().find_map(|end| {
                let body: String = chars[start..end].iter().collect();
                let piece = if start > 0 { format!("##{body}") } else { body };
                self.ids.contains_key(&piece).then_some((piece, end))
            });
            match found {
                Some((piece, end)) => {
                    pieces.push(piece);
                    start = end;
                }
                None => return vec!["[UNK]".into()],
            }
        }
        pieces
    }
}

/// A stretch of the text: a special token typed whole, or text between them.
enum Chunk<'a> {
    Special(&'a str),
    Text(&'a str),
}

/// The text cut at the special tokens it holds.
fn split_special(text: &str) -> Vec<Chunk<'_>> {
    let mut chunks = Vec::new();
    let mut rest = text;
    while let Some((at, special)) = SPECIAL
        .iter()
        .filter_map(|s| rest.find(s).map(|at| (at, *s)))
        .min_by_key(|&(at, _)| at)
    {
        chunks.push(Chunk::Text(&rest[..at]));
        chunks.push(Chunk::Special(special));
        rest = &rest[at + special.len()..];
    }
    chunks.push(Chunk::Text(rest));
    chunks
}

/// The words of `BertNormalizer` then `BertPreTokenizer` (what `BertTokenizer` runs): the text
/// cleaned, Chinese characters apart, accents stripped (NFD without nonspacing marks), lower-cased
/// a character at a time, split on whitespace and around each punctuation mark.
fn basic_words(text: &str) -> Vec<String> {
    let mut cleaned = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\0' || c == '\u{fffd}' || is_control(c) {
            continue;
        }
        if c.is_whitespace() {
            cleaned.push(' ');
        } else if is_chinese(c) {
            cleaned.extend([' ', c, ' ']);
        } else {
            cleaned.push(c);
        }
    }
    let normalized: String = cleaned
        .nfd()
        .filter(|c| !c.is_mark_nonspacing())
        .flat_map(char::to_lowercase)
        .collect();
    let mut words = Vec::new();
    for token in normalized.split_whitespace() {
        let mut word = String::new();
        for c in token.chars() {
            if is_punctuation(c) {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                words.push(c.to_string());
            } else {
                word.push(c);
            }
        }
        if !word.is_empty() {
            words.push(word);
        }
    }
    words
}

/// A control character: Cc, Cf or Co but tab, newline and return (an unassigned code point is
/// kept, to become `[UNK]`).
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

/// Punctuation: ASCII's non-letters and non-digits, or a P category.
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || c.is_punctuation()
}

/// A CJK ideograph, by the blocks the tokenizer lists (0x2B920, not 0x2B820, as it has it).
fn is_chinese(c: char) -> bool {
    matches!(u32::from(c),
        0x4E00..=0x9FFF
        | 0x3400..=0x4DBF
        | 0x20000..=0x2A6DF
        | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F
        | 0x2B920..=0x2CEAF
        | 0xF900..=0xFAFF
        | 0x2F800..=0x2FA1F)
}
