//! A byte-level BPE tokenizer (GPT-2's kind, as a GGUF file of `tokenizer.ggml.model` "gpt2"
//! holds it), as transformers builds it from the file: the special tokens (token type 3) taken
//! whole where they appear; the rest cut by GPT-2's pattern (contractions, letters, digits,
//! other marks, each with at most one space before it; runs of white space), each piece's UTF-8
//! bytes written as GPT-2's 256 printable stand-ins (`Ġ` a space, `Ċ` a newline) and merged by
//! the file's merges, lowest rank first.

use std::collections::HashMap;

use unicode_categories::UnicodeCategories;

use crate::core::i18n::keys::models;
use crate::core::i18n::Msg;

/// The tokenizer: the vocabulary, the merges' ranks and the special tokens.
#[derive(Clone, Debug)]
pub struct Bpe {
    /// Every token's text one after another, and where each ends (49 152 strings would cost
    /// 2 MB more).
    text: String,
    ends: Vec<usize>,
    /// Each merge by the ids of its two tokens: its rank and the id of the token it makes
    /// (ids, not strings: 49 000 merges read without 98 000 strings, and merged without
    /// copying one).
    ranks: HashMap<(u32, u32), (u32, u32)>,
    /// The id of each byte's stand-in (`u32::MAX` if the vocabulary lacks it).
    byte_ids: [u32; 256],
    /// Special tokens, longest first (a longer one wins where two start together).
    special: Vec<(String, u32)>,
    /// The byte of each stand-in.
    char_bytes: HashMap<char, u8>,
}

/// GPT-2's stand-ins: printable bytes stand for themselves, the others for 256, 257, ….
pub fn byte_chars() -> [char; 256] {
    let printable = |b: u8| (b'!'..=b'~').contains(&b) || (0xA1..=0xAC).contains(&b) || b >= 0xAE;
    let mut out = ['\0'; 256];
    let mut next = 256u32;
    for b in 0..=255u8 {
        out[b as usize] = if printable(b) {
            char::from(b)
        } else {
            next += 1;
            char::from_u32(next - 1).unwrap_or('\u{FFFD}')
        };
    }
    out
}

impl Bpe {
    /// From the file's tokens, their types (3: special) and merges (`"Ġ t"`).
    pub fn new(tokens: Vec<String>, types: &[i64], merges: &[String]) -> Result<Bpe, Msg> {
        if tokens.is_empty() || tokens.len() > u32::MAX as usize {
            return Err(models::no_tokenizer_tokens.into());
        }
        let ids: HashMap<String, u32> = tokens
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        let id = |t: &str| ids.get(t).copied();
        let mut ranks = HashMap::with_capacity(merges.len());
        for (rank, merge) in merges.iter().enumerate() {
            let (a, b) = merge
                .split_once(' ')
                .ok_or_else(|| models::merge_not_two(rank, merge))?;
            // As transformers' tokenizer refuses it: a merge of or into a token not in the
            // vocabulary.
            let (Some(a), Some(b), Some(made)) = (id(a), id(b), id(&format!("{a}{b}"))) else {
                return Err(models::merge_unknown(rank, merge));
            };
            ranks.entry((a, b)).or_insert((rank as u32, made));
        }
        let mut special: Vec<(String, u32)> = types
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t == 3)
            .filter_map(|(i, _)| Some((tokens.get(i)?.clone(), i as u32)))
            .filter(|(t, _)| !t.is_empty())
            .collect();
        special.sort_by_key(|s| std::cmp::Reverse(s.0.len()));
        let byte_chars = byte_chars();
        let char_bytes = byte_chars
            .iter()
            .enumerate()
            .map(|(b, &c)| (c, b as u8))
            .collect();
        let byte_ids = byte_chars.map(|c| id(&c.to_string()).unwrap_or(u32::MAX));
        let ends = tokens
            .iter()
            .scan(0, |end, t| {
                *end += t.len();
                Some(*end)
            })
            .collect();
        Ok(Bpe {
            text: tokens.concat(),
            ends,
            ranks,
            byte_ids,
            special,
            char_bytes,
        })
    }

    /// How many tokens the vocabulary has.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the vocabulary is empty (never, once built).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Token `id` as the file writes it (`Ġdog`), as transformers' `convert_ids_to_tokens`.
    pub fn token(&self, id: u32) -> Option<&str> {
        let id = id as usize;
        let end = *self.ends.get(id)?;
        let start = id.checked_sub(1).map_or(0, |before| self.ends[before]);
        Some(&self.text[start..end])
    }

    /// Whether token `id` is a special token (`<|endoftext|>`), which the text never makes
    /// unless it is typed whole.
    pub fn is_special(&self, id: u32) -> bool {
        self.special.iter().any(|&(_, s)| s == id)
    }

    /// The text of `ids`: their bytes, read as UTF-8 (a cut character as U+FFFD).
    pub fn decode(&self, ids: &[u32]) -> String {
        let mut bytes = Vec::new();
        for &id in ids {
            let Some(token) = self.token(id) else {
                continue;
            };
            if self.is_special(id) {
                bytes.extend(token.bytes());
            } else {
                bytes.extend(token.chars().filter_map(|c| self.char_bytes.get(&c)));
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Token `id` as the page shows it: its text, with a space as ␣, a newline as ↵ and a tab
    /// as ⇥, so that a piece that starts a word shows it.
    pub fn shown(&self, id: u32) -> String {
        self.decode(&[id])
            .chars()
            .map(|c| match c {
                ' ' => '␣',
                '\n' => '↵',
                '\t' => '⇥',
                '\r' => '␍',
                c => c,
            })
            .collect()
    }

    /// The ids of `text`, without special tokens added.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let next = rest.char_indices().find_map(|(at, _)| {
                self.special
                    .iter()
                    .find(|(s, _)| rest[at..].starts_with(s.as_str()))
                    .map(|(s, id)| (at, s.len(), *id))
            });
            let (plain, after) = match next {
                Some((at, len, id)) => {
                    self.encode_plain(&rest[..at], &mut out);
                    out.push(id);
                    (None, &rest[at + len..])
                }
                None => (Some(rest), ""),
            };
            if let Some(plain) = plain {
                self.encode_plain(plain, &mut out);
            }
            rest = after;
        }
        out
    }

    fn encode_plain(&self, text: &str, out: &mut Vec<u32>) {
        for piece in pieces(text) {
            let symbols = piece.bytes().map(|b| self.byte_ids[b as usize]).collect();
            // Every stand-in is in a byte-level vocabulary; a file without one gives token 0
            // for it rather than failing.
            out.extend(
                self.merge(symbols)
                    .into_iter()
                    .map(|id| if id == u32::MAX { 0 } else { id }),
            );
        }
    }

    /// Merges the pair of lowest rank, everywhere it occurs from left to right, until no pair
    /// has a rank.
    fn merge(&self, mut symbols: Vec<u32>) -> Vec<u32> {
        let merge = |a: u32, b: u32| self.ranks.get(&(a, b)).copied();
        loop {
            let best = symbols.windows(2).filter_map(|w| merge(w[0], w[1])).min();
            let Some((rank, _)) = best else {
                return symbols;
            };
            let mut merged = Vec::with_capacity(symbols.len());
            let mut i = 0;
            while i < symbols.len() {
                match symbols.get(i + 1).and_then(|&b| merge(symbols[i], b)) {
                    Some((r, made)) if r == rank => {
                        merged.push(made);
                        i += 2;
                    }
                    _ => {
                        merged.push(symbols[i]);
                        i += 1;
                    }
                }
            }
            symbols = merged;
        }
    }
}

/// What kind of character, for GPT-2's pattern.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Letter,
    Number,
    Space,
    Other,
}

fn class(c: char) -> Class {
    if c.is_whitespace() {
        Class::Space
    } else if c.is_letter() {
        Class::Letter
    } else if c.is_number() {
        Class::Number
    } else {
        Class::Other
    }
}

/// GPT-2's pre-tokenization, `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`,
/// its alternatives tried in order at each place.
pub fn pieces(text: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let at = |i: usize| chars.get(i).map_or(text.len(), |&(b, _)| b);
    let run = |from: usize, kind: Class| {
        let mut j = from;
        while j < chars.len() && class(chars[j].1) == kind {
            j += 1;
        }
        j
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let rest = &text[at(i)..];
        let contraction = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d"]
            .into_iter()
            .find(|c| rest.starts_with(c))
            .map(|c| i + c.chars().count());
        let end = contraction.unwrap_or_else(|| {
            let after_space = if chars[i].1 == ' ' { i + 1 } else { i };
            match chars.get(after_space).map(|&(_, c)| class(c)) {
                Some(kind @ (Class::Letter | Class::Number | Class::Other)) => {
                    run(after_space, kind)
                }
                _ => {
                    // White space: all of it at the end of the text, else all but the last
                    // (which goes with what follows), else the one.
                    let end = run(i, Class::Space);
                    if end == chars.len() || end - i == 1 {
                        end
                    } else {
                        end - 1
                    }
                }
            }
        });
        out.push(&text[at(i)..at(end)]);
        i = end;
    }
    out
}
