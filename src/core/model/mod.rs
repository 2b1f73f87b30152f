//! The model a learner edits: an embedding table and one or more attention heads.

mod cells;
mod dims;
mod editable;
mod head;
pub mod layer_record;
mod layered;
pub mod limits;
mod matrix;
mod parts;
pub mod positions;
pub mod presets;
mod reshape;
mod scale;
mod source;
pub mod tokens;
pub mod torch_rng;
mod variants;

use crate::core::i18n::keys::edits;
use crate::core::i18n::Msg;
use std::sync::Arc;

use nalgebra::{DMatrix, RowDVector};

use crate::core::model::positions::Positions;
use crate::core::model::tokens::Tokens;
use crate::core::model::torch_rng::TorchRng;

pub use dims::{check_dims, Dims};
pub use editable::Editable;
pub use head::{
    add_row, linear_backward, seeded_biases, seeded_output, Biases, Head, LinearGradient,
    OutputProjection, Projection,
};
pub use layered::{knocked_in, same_numbers, Attention, Layered, Shipped, WeightChange};
pub use matrix::Matrix;
pub use scale::Scale;
pub use source::Source;
pub use tokens::TUTORIAL_VOCAB_SIZE;

/// Everything the trace is computed from. Build it with [`Model::new`] or read it from a saved
/// state, so that its shapes always agree.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    sentence: String,
    tokens: Tokens,
    /// One row of d_in numbers per vocabulary word, in vocabulary order.
    embedding: DMatrix<f64>,
    /// Shared, not copied, with a trained layer's numbers until the learner changes one.
    heads: Arc<Vec<Head>>,
    /// Hide future tokens from each query.
    pub causal: bool,
    /// What the scores are divided by.
    pub scale: Scale,
    /// The linear layer after the concatenation, if any.
    output: Option<Arc<OutputProjection>>,
    /// How word order enters, if at all.
    positions: Positions,
    /// The trained model this is one layer of, if it is.
    layered: Option<Layered>,
    /// Key/value heads: each shared by `heads / kv_heads` query heads (equal to the heads'
    /// number when none share).
    kv_heads: usize,
    /// Cross-attention's second sentence, which the keys and values come from.
    source: Option<Source>,
}

/// The embedding rows of words the page has seen, so that a word deleted and typed again gets
/// its row back (see [`Model::with_sentence`]). Bounded: past [`WordRows::MAX_WORDS`] the
/// oldest memory goes, except the current model's words.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WordRows {
    rows: Vec<(String, RowDVector<f64>)>,
}

impl WordRows {
    /// Most words remembered.
    pub const MAX_WORDS: usize = 4096;

    /// Remembers the row of every word of `model` (as it is now, edits included).
    pub fn remember(&mut self, model: &Model) {
        if self.rows.len() + model.tokens.vocabulary.len() > Self::MAX_WORDS {
            self.rows.clear();
        }
        for (i, word) in model.tokens.vocabulary.iter().enumerate() {
            let row = model.embedding.row(i).into_owned();
            match self.rows.iter_mut().find(|(w, _)| w == word) {
                Some((_, kept)) => *kept = row,
                None => self.rows.push((word.clone(), row)),
            }
        }
    }

    /// The row `word` had, if the page saw it at this width.
    pub fn row(&self, word: &str, d_in: usize) -> Option<&RowDVector<f64>> {
        self.rows
            .iter()
            .find(|(w, r)| w == word && r.len() == d_in)
            .map(|(_, r)| r)
    }
}

impl Model {
    /// A model whose shapes agree: the embedding has one row per vocabulary word, every head
    /// maps d_in = the embedding's width, and each head's keys are as wide as its queries.
    pub fn new(
        sentence: &str,
        embedding: DMatrix<f64>,
        heads: Vec<Head>,
        causal: bool,
        scale: Scale,
    ) -> Result<Model, Msg> {
        Model::of_tokens(
            sentence,
            Tokens::new(sentence),
            embedding,
            heads.into(),
            causal,
            scale,
        )
    }

    /// One layer of a trained model on `sentence`: `x`, the hidden state entering it (a row per
    /// piece), stands for the embedding; its heads (with their biases) and output projection
    /// are the page's, unmasked and scaled by √dₖ as the encoder is.
    pub fn of_layer(
        sentence: &str,
        pieces: Vec<String>,
        x: DMatrix<f64>,
        heads: Arc<Vec<Head>>,
        output: Arc<OutputProjection>,
        layered: Layered,
    ) -> Result<Model, Msg> {
        let mut model = Model::of_tokens(
            sentence,
            Tokens::pieces(pieces),
            x,
            heads,
            false,
            Scale::SqrtDk,
        )?
        .with_output(Some(output))?;
        model.layered = Some(layered);
        Ok(model)
    }

    /// This layer of a trained model as a decoder's: its keys masked causally, its queries and
    /// keys rotated by RoPE (Hugging Face's pairs, `base`), its query heads sharing `kv_heads`
    /// key/value heads (each group's keys and values alike in its heads).
    pub fn as_decoder_layer(mut self, kv_heads: usize, base: f64) -> Result<Model, Msg> {
        limits::check_kv_heads(self.heads.len(), kv_heads)?;
        self.causal = true;
        self.kv_heads = kv_heads;
        self.with_positions(Positions::Rope {
            base,
            pairs: positions::Rope::Half,
        })
    }

    /// The trained model this is one layer of, if it is.
    pub fn layered(&self) -> Option<&Layered> {
        self.layered.as_ref()
    }

    /// A trained encoder's layer: it reads the whole sentence at once and never masks.
    pub fn is_encoder_layer(&self) -> bool {
        self.layered.is_some() && !self.causal
    }

    fn of_tokens(
        sentence: &str,
        tokens: Tokens,
        embedding: DMatrix<f64>,
        heads: Arc<Vec<Head>>,
        causal: bool,
        scale: Scale,
    ) -> Result<Model, Msg> {
        if tokens.is_empty() {
            return Err(edits::sentence_no_words.into());
        }
        if embedding.nrows() != tokens.vocabulary.len() {
            return Err(edits::embedding_rows(
                embedding.nrows(),
                tokens.vocabulary.len(),
            ));
        }
        if heads.is_empty() {
            return Err(edits::one_head.into());
        }
        let d_in = embedding.ncols();
        for (h, head) in heads.iter().enumerate() {
            for p in Projection::ALL {
                if head[p].nrows() != d_in {
                    return Err(edits::head_rows(h, p.key(), head[p].nrows(), d_in));
                }
            }
            if head.w_key.ncols() != head.w_query.ncols() {
                return Err(edits::key_columns(
                    h,
                    head.w_key.ncols(),
                    head.w_query.ncols(),
                ));
            }
            if let Some(b) = &head.biases {
                for p in Projection::ALL {
                    check_bias(&b[p], head[p].ncols())
                        .map_err(|e| edits::head_bias(h, Editable::Bias(h, p).key(), e))?;
                }
            }
        }
        let kv_heads = heads.len();
        Ok(Model {
            sentence: sentence.to_owned(),
            tokens,
            embedding,
            heads,
            causal,
            scale,
            output: None,
            positions: Positions::None,
            layered: None,
            kv_heads,
            source: None,
        })
    }

    /// The tutorial's initialisation: after `manual_seed(seed)` the embedding is rows 0..vocab of
    /// `nn.Embedding(50_000, d_in)`; after `manual_seed(seed)` again each head draws
    /// `w_query`, `w_key`, `w_value` with `torch.rand`, head after head.
    pub fn seeded(
        sentence: &str,
        dims: Dims,
        seed: u64,
        causal: bool,
        scale: Scale,
    ) -> Result<Model, Msg> {
        let tokens = Tokens::new(sentence);
        let rows: Vec<usize> = (0..tokens.vocabulary.len()).collect();
        let embedding =
            TorchRng::manual_seed(seed).embedding_rows(TUTORIAL_VOCAB_SIZE, dims.d_in, &rows);
        let mut rng = TorchRng::manual_seed(seed);
        let heads = (0..dims.heads)
            .map(|_| Head::rand(&mut rng, dims.d_in, dims.d_k, dims.d_v))
            .collect::<Vec<_>>();
        Model::new(sentence, embedding, heads, causal, scale)
    }

    /// The sentence as typed.
    pub fn sentence(&self) -> &str {
        &self.sentence
    }

    /// Its words, vocabulary and ids.
    pub fn tokens(&self) -> &Tokens {
        &self.tokens
    }

    /// The embedding table: a row per vocabulary word (vocabulary × d_in).
    pub fn embedding(&self) -> &DMatrix<f64> {
        &self.embedding
    }

    /// Each head's projections.
    pub fn heads(&self) -> &[Head] {
        self.heads.as_slice()
    }

    /// The heads as shared: a copy that is the same copy holds the same numbers.
    pub fn shared_heads(&self) -> &Arc<Vec<Head>> {
        &self.heads
    }

    /// The output projection as shared, if any.
    pub fn shared_output(&self) -> Option<&Arc<OutputProjection>> {
        self.output.as_ref()
    }

    /// The sizes of this model (d_k and d_v of the first head).
    pub fn dims(&self) -> Dims {
        Dims {
            d_in: self.embedding.ncols(),
            d_k: self.heads[0].d_k(),
            d_v: self.heads[0].d_v(),
            heads: self.heads.len(),
        }
    }

    /// The embedded sentence: each token's row of the embedding table.
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

/// A bias must be one row of `width` numbers.
fn check_bias(b: &DMatrix<f64>, width: usize) -> Result<(), Msg> {
    if b.nrows() != 1 || b.ncols() != width {
        return Err(edits::bias_numbers(b.len(), width));
    }
    Ok(())
}
