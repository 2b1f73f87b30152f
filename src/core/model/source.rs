//! Cross-attention's second sentence: the one the keys and values come from.

use crate::core::i18n::keys::edits;
use crate::core::i18n::Msg;
use nalgebra::DMatrix;

use crate::core::model::limits::check_sentence;
use crate::core::model::tokens::{Tokens, TUTORIAL_VOCAB_SIZE};
use crate::core::model::torch_rng::TorchRng;

/// The sentence the keys and values come from in cross-attention, with its own embedding table.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    sentence: String,
    tokens: Tokens,
    /// One row of d_in numbers per vocabulary word of the source, in vocabulary order.
    pub(crate) embedding: DMatrix<f64>,
}

impl Source {
    /// A source sentence within the limits and its table (a row per word of its vocabulary).
    pub fn new(sentence: &str, embedding: DMatrix<f64>) -> Result<Source, Msg> {
        let tokens = check_sentence(sentence).map_err(edits::the_source)?;
        if embedding.nrows() != tokens.vocabulary.len() {
            return Err(edits::source_rows(
                embedding.nrows(),
                tokens.vocabulary.len(),
            ));
        }
        Ok(Source {
            sentence: sentence.to_owned(),
            tokens,
            embedding,
        })
    }

    /// A source whose words take the rows the sentence's table (`tokens`, `embedding`) gives
    /// them (one embedding for both sentences, as a model within one language has), and a new
    /// word the row `nn.Embedding(50_000, d_in)` after `manual_seed(seed)` has at its place past
    /// the sentence's vocabulary.
    pub fn drawn(
        sentence: &str,
        tokens_of: &Tokens,
        embedding: &DMatrix<f64>,
        seed: u64,
    ) -> Result<Source, Msg> {
        Source::retyped(sentence, None, tokens_of, embedding, seed)
    }

    /// [`Source::drawn`], a word of `before` (the source as it was) keeping the row it had
    /// there, edits included.
    pub fn retyped(
        sentence: &str,
        before: Option<&Source>,
        tokens_of: &Tokens,
        embedding: &DMatrix<f64>,
        seed: u64,
    ) -> Result<Source, Msg> {
        let tokens = check_sentence(sentence).map_err(edits::the_source)?;
        let own = &tokens_of.vocabulary;
        let d_in = embedding.ncols();
        let places: Vec<usize> = (0..tokens.vocabulary.len())
            .map(|i| (own.len() + i).min(TUTORIAL_VOCAB_SIZE - 1))
            .collect();
        let fresh = TorchRng::manual_seed(seed).embedding_rows(TUTORIAL_VOCAB_SIZE, d_in, &places);
        let rows: Vec<_> = tokens
            .vocabulary
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let kept = before.and_then(|b| {
                    let k = b.tokens.vocabulary.binary_search(w).ok()?;
                    Some(b.embedding.row(k).into_owned())
                });
                kept.unwrap_or_else(|| match own.binary_search(w) {
                    Ok(k) => embedding.row(k).into_owned(),
                    Err(_) => fresh.row(i).into_owned(),
                })
            })
            .collect();
        Source::new(sentence, DMatrix::from_rows(&rows))
    }

    /// The sentence as typed.
    pub fn sentence(&self) -> &str {
        &self.sentence
    }

    /// Its words, vocabulary and ids.
    pub fn tokens(&self) -> &Tokens {
        &self.tokens
    }

    /// Its embedding table (source vocabulary × d_in).
    pub fn embedding(&self) -> &DMatrix<f64> {
        &self.embedding
    }

    /// Each source token's row.
    pub fn embedded(&self) -> DMatrix<f64> {
        let rows: Vec<_> = self
            .tokens
            .ids
            .iter()
            .map(|&id| self.embedding.row(id))
            .collect();
        DMatrix::from_rows(&rows)
    }
}
