//! The model a learner edits: an embedding table and one or more attention heads.

mod editable;
mod head;
pub mod layer_record;
mod layered;
pub mod limits;
mod matrix;
pub mod positions;
pub mod presets;
mod reshape;
mod source;
pub mod tokens;
pub mod torch_rng;
mod variants;

use nalgebra::{DMatrix, RowDVector};
use serde::Serialize;

use crate::core::model::limits::{within_limits, MAX_DIM, MAX_HEADS};
use crate::core::model::positions::Positions;
use crate::core::model::tokens::Tokens;
use crate::core::model::torch_rng::TorchRng;

pub use editable::Editable;
pub use head::{
    add_row, linear_backward, seeded_biases, seeded_output, Biases, Head, LinearGradient,
    OutputProjection, Projection,
};
pub use layered::{Attention, Layered, WeightChange};
pub use matrix::Matrix;
pub use source::Source;
pub use tokens::TUTORIAL_VOCAB_SIZE;

/// What the scores are divided by before the softmax.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    /// Divide by √dₖ: keeps the scores' variance near 1 whatever dₖ is (the transformer's choice).
    #[default]
    SqrtDk,
    /// Divide by dₖ: shrinks the scores too much as dₖ grows, so the softmax flattens.
    Dk,
    /// No scaling: scores grow with dₖ and the softmax saturates to one-hot.
    None,
}

impl Scale {
    /// Every option, in the order a picker lists them.
    pub const ALL: [Scale; 3] = [Scale::SqrtDk, Scale::Dk, Scale::None];

    /// The divisor for keys of width `d_k`.
    pub fn divisor(self, d_k: usize) -> f64 {
        match self {
            Scale::SqrtDk => (d_k as f64).sqrt(),
            Scale::Dk => d_k as f64,
            Scale::None => 1.0,
        }
    }

    /// The name used in the saved state and the page (`sqrt_dk`, `dk`, `none`).
    pub fn key(self) -> &'static str {
        match self {
            Scale::SqrtDk => "sqrt_dk",
            Scale::Dk => "dk",
            Scale::None => "none",
        }
    }

    /// Parses [`Scale::key`].
    pub fn from_key(key: &str) -> Option<Scale> {
        Scale::ALL.into_iter().find(|s| s.key() == key)
    }

    /// What the page calls it, in the controls and the labs: `÷√dₖ`, `÷dₖ`, `none`.
    pub fn label(self) -> &'static str {
        match self {
            Scale::SqrtDk => "÷√dₖ",
            Scale::Dk => "÷dₖ",
            Scale::None => "none",
        }
    }

    /// How the divisor reads in a formula.
    pub fn symbol(self) -> &'static str {
        match self {
            Scale::SqrtDk => "√dₖ",
            Scale::Dk => "dₖ",
            Scale::None => "1",
        }
    }
}

/// Everything the trace is computed from. Build it with [`Model::new`] or read it from a saved
/// state, so that its shapes always agree.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    sentence: String,
    tokens: Tokens,
    /// One row of d_in numbers per vocabulary word, in vocabulary order.
    embedding: DMatrix<f64>,
    heads: Vec<Head>,
    /// Hide future tokens from each query.
    pub causal: bool,
    /// What the scores are divided by.
    pub scale: Scale,
    /// The linear layer after the concatenation, if any.
    output: Option<OutputProjection>,
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

/// Sizes for a freshly initialised model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    /// The embedding's width.
    pub d_in: usize,
    /// Queries' and keys' width.
    pub d_k: usize,
    /// Values' width.
    pub d_v: usize,
    /// The number of heads.
    pub heads: usize,
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
    ) -> Result<Model, String> {
        Model::of_tokens(
            sentence,
            Tokens::new(sentence),
            embedding,
            heads,
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
        heads: Vec<Head>,
        output: OutputProjection,
        layered: Layered,
    ) -> Result<Model, String> {
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

    /// The trained model this is one layer of, if it is.
    pub fn layered(&self) -> Option<&Layered> {
        self.layered.as_ref()
    }

    fn of_tokens(
        sentence: &str,
        tokens: Tokens,
        embedding: DMatrix<f64>,
        heads: Vec<Head>,
        causal: bool,
        scale: Scale,
    ) -> Result<Model, String> {
        if tokens.is_empty() {
            return Err("the sentence has no words".into());
        }
        if embedding.nrows() != tokens.vocabulary.len() {
            return Err(format!(
                "the embedding has {} rows but the vocabulary has {} words",
                embedding.nrows(),
                tokens.vocabulary.len()
            ));
        }
        if heads.is_empty() {
            return Err("there must be at least one head".into());
        }
        let d_in = embedding.ncols();
        for (h, head) in heads.iter().enumerate() {
            for p in Projection::ALL {
                if head[p].nrows() != d_in {
                    return Err(format!(
                        "head {h}: {} has {} rows, expected d_in = {d_in}",
                        p.key(),
                        head[p].nrows()
                    ));
                }
            }
            if head.w_key.ncols() != head.w_query.ncols() {
                return Err(format!(
                    "head {h}: w_key has {} columns but w_query has {}",
                    head.w_key.ncols(),
                    head.w_query.ncols()
                ));
            }
            if let Some(b) = &head.biases {
                for p in Projection::ALL {
                    check_bias(&b[p], head[p].ncols())
                        .map_err(|e| format!("head {h}: {}: {e}", Editable::Bias(h, p).key()))?;
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

    /// The same model with these positions, if they fit (a learned table of n × d_in, an even
    /// d_k for RoPE); the message says why not.
    pub fn with_positions(mut self, positions: Positions) -> Result<Model, String> {
        if self.source.is_some() && positions != Positions::None {
            return Err(
                "positions with a source sentence are not shown: remove the source first".into(),
            );
        }
        let d_ks: Vec<usize> = self.heads.iter().map(Head::d_k).collect();
        positions.check(self.tokens.len(), self.embedding.ncols(), &d_ks)?;
        self.positions = positions;
        Ok(self)
    }

    /// How word order enters.
    pub fn positions(&self) -> &Positions {
        &self.positions
    }

    /// The embedded sentence with the positions added (sinusoidal or learned), which the
    /// projections take; the embedded sentence itself otherwise.
    pub fn positioned(&self) -> DMatrix<f64> {
        let embedded = self.embedded();
        self.added_positions(&embedded).unwrap_or(embedded)
    }

    /// `embedded` plus the positions' table, if the positions are added to the embedding.
    pub fn added_positions(&self, embedded: &DMatrix<f64>) -> Option<DMatrix<f64>> {
        self.positions
            .table(embedded.nrows(), embedded.ncols())
            .map(|t| embedded + t)
    }

    /// What `from` adds beside its heads (the output projection, the positions), on this model.
    fn with_parts_of(self, from: &Model) -> Result<Model, String> {
        self.with_output(from.output.clone())?
            .with_positions(from.positions.clone())?
            // The same d_in: the source keeps its rows and nothing is drawn.
            .with_variants_of(from, 0)
    }

    /// The same model with this output projection (or none); its rows must match the
    /// concatenation's width.
    pub fn with_output(mut self, output: Option<OutputProjection>) -> Result<Model, String> {
        if let Some(o) = &output {
            let width: usize = self.heads.iter().map(Head::d_v).sum();
            if o.w_output.nrows() != width {
                return Err(format!(
                    "w_output has {} rows, expected {width} (every head's d_v side by side)",
                    o.w_output.nrows()
                ));
            }
            if o.w_output.ncols() == 0 {
                return Err("w_output has no columns".into());
            }
            if let Some(b) = &o.b_output {
                check_bias(b, o.w_output.ncols()).map_err(|e| format!("b_output: {e}"))?;
            }
        }
        self.output = output;
        Ok(self)
    }

    /// The output projection, if any.
    pub fn output(&self) -> Option<&OutputProjection> {
        self.output.as_ref()
    }

    /// Whether any head has biases.
    pub fn has_biases(&self) -> bool {
        self.heads.iter().any(|h| h.biases.is_some())
    }

    /// Positions of `kind` (`base` for the kinds with one; a learned table kept if the model has
    /// one, else drawn from `seed`).
    pub fn with_positions_of(&self, kind: &str, base: f64, seed: u64) -> Result<Model, String> {
        let positions = match (&self.positions, kind) {
            (Positions::Learned(t), "learned") => Positions::Learned(t.clone()),
            _ => Positions::of_kind(kind, base, seed, self.tokens.len(), self.embedding.ncols())?,
        };
        self.clone().with_positions(positions)
    }

    /// Biases on (each head keeps its own, a head without gets them drawn from `seed`, see
    /// [`seeded_biases`]) or off.
    pub fn with_biases_on(&self, on: bool, seed: u64) -> Result<Model, String> {
        let biases = on.then(|| {
            seeded_biases(seed, self.embedding.ncols(), &self.heads)
                .into_iter()
                .zip(&self.heads)
                .map(|(fresh, h)| h.biases.clone().unwrap_or(fresh))
                .collect()
        });
        self.with_biases(biases)
    }

    /// The output projection on (kept if there is one, else `nn.Linear(Σ d_v, d_in)` drawn from
    /// `seed`, as `nn.MultiheadAttention`'s `out_proj` maps back to the embedding's width) or off.
    pub fn with_output_on(&self, on: bool, seed: u64) -> Result<Model, String> {
        let width = self.heads.iter().map(Head::d_v).sum();
        let output = on.then(|| {
            self.output
                .clone()
                .unwrap_or_else(|| seeded_output(seed, width, self.embedding.ncols(), true))
        });
        self.clone().with_output(output)
    }

    /// The output projection of `like` (if it has one) drawn again from `seed` for this model's
    /// heads, keeping its width d_out and whether it has a bias.
    pub fn with_output_drawn_like(self, like: &Model, seed: u64) -> Result<Model, String> {
        let width = self.heads.iter().map(Head::d_v).sum();
        let output = like
            .output
            .as_ref()
            .map(|o| seeded_output(seed, width, o.w_output.ncols(), o.b_output.is_some()));
        self.with_output(output)
    }

    /// The same model with `biases` (one per head) or none.
    pub fn with_biases(&self, biases: Option<Vec<Biases>>) -> Result<Model, String> {
        let mut heads = self.heads.clone();
        for (h, head) in heads.iter_mut().enumerate() {
            head.biases = biases.as_ref().and_then(|b| b.get(h).cloned());
        }
        Model::new(
            &self.sentence,
            self.embedding.clone(),
            heads,
            self.causal,
            self.scale,
        )?
        .with_parts_of(self)
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
    ) -> Result<Model, String> {
        let tokens = Tokens::new(sentence);
        let rows: Vec<usize> = (0..tokens.vocabulary.len()).collect();
        let embedding =
            TorchRng::manual_seed(seed).embedding_rows(TUTORIAL_VOCAB_SIZE, dims.d_in, &rows);
        let mut rng = TorchRng::manual_seed(seed);
        let heads = (0..dims.heads)
            .map(|_| Head::rand(&mut rng, dims.d_in, dims.d_k, dims.d_v))
            .collect();
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
        &self.heads
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

    /// One of the learner's editable matrices, if it exists.
    pub fn matrix(&self, target: Editable) -> Option<&DMatrix<f64>> {
        match target {
            Editable::Embedding => Some(&self.embedding),
            Editable::Weight(head, p) => self.heads.get(head).map(|h| &h[p]),
            Editable::Bias(head, p) => self.heads.get(head)?.biases.as_ref().map(|b| &b[p]),
            Editable::OutputWeight => self.output.as_ref().map(|o| &o.w_output),
            Editable::OutputBias => self.output.as_ref()?.b_output.as_ref(),
            Editable::Positions => match &self.positions {
                Positions::Learned(t) => Some(t),
                _ => None,
            },
            Editable::SourceEmbedding => self.source.as_ref().map(|s| &s.embedding),
        }
    }

    /// Every number the learner can edit finite and within ±[`MAX_ABS_VALUE`](limits::MAX_ABS_VALUE),
    /// as a saved state must be to be read back; else which matrix holds what.
    pub fn check_limits(&self) -> Result<(), String> {
        // Each kind in head 0 stands for every head's: the search goes on past what is absent.
        for kind in Editable::EVERY {
            for h in 0..self.heads.len() {
                let target = kind.in_head(h);
                let Some(m) = self.matrix(target) else {
                    continue;
                };
                if let Some(&x) = m.iter().find(|&&x| !within_limits(x)) {
                    return Err(outside_limits(target, x));
                }
                if target.head().is_none() {
                    break;
                }
            }
        }
        Ok(())
    }

    /// One of the learner's editable matrices, to change in place (its shape stays).
    pub(crate) fn matrix_mut(&mut self, target: Editable) -> Option<&mut DMatrix<f64>> {
        match target {
            Editable::Embedding => Some(&mut self.embedding),
            Editable::Weight(head, p) => self.heads.get_mut(head).map(|h| &mut h[p]),
            Editable::Bias(head, p) => self.heads.get_mut(head)?.biases.as_mut().map(|b| &mut b[p]),
            Editable::OutputWeight => self.output.as_mut().map(|o| &mut o.w_output),
            Editable::OutputBias => self.output.as_mut()?.b_output.as_mut(),
            Editable::Positions => match &mut self.positions {
                Positions::Learned(t) => Some(t),
                _ => None,
            },
            Editable::SourceEmbedding => self.source.as_mut().map(|s| &mut s.embedding),
        }
    }

    /// Whether a pasted `block` (rectangular, as `read_block` gives) fits with its top-left at
    /// (`row`, `col`) of `target`: a paste that does not fit is refused whole, never clipped
    /// silently. The message says how much room there is.
    pub fn check_paste(
        &self,
        target: Editable,
        row: usize,
        col: usize,
        block: &[Vec<f64>],
    ) -> Result<(), String> {
        let (rows, cols) = self.matrix(target).map_or((0, 0), DMatrix::shape);
        let (need_rows, need_cols) = (block.len(), block.first().map_or(0, Vec::len));
        let (room_rows, room_cols) = (rows.saturating_sub(row), cols.saturating_sub(col));
        if need_rows > room_rows || need_cols > room_cols {
            return Err(format!(
                "the block is {need_rows} × {need_cols} but only {room_rows} × {room_cols} cells lie from this one to the matrix's corner"
            ));
        }
        Ok(())
    }

    /// Sets one number; positions outside the matrix are ignored.
    pub fn set(&mut self, target: Editable, row: usize, col: usize, value: f64) {
        self.paste(target, row, col, &[vec![value]]);
    }

    /// Writes a block of numbers with its top-left at (`row`, `col`); what falls outside the
    /// matrix is dropped.
    pub fn paste(&mut self, target: Editable, row: usize, col: usize, block: &[Vec<f64>]) {
        let target = self.kv_home(target);
        let Some(m) = self.matrix_mut(target) else {
            return;
        };
        for (i, values) in block.iter().enumerate() {
            for (j, &x) in values.iter().enumerate() {
                if let Some(cell) = m.get_mut((row + i, col + j)) {
                    *cell = x;
                }
            }
        }
        self.share_kv();
    }
}

/// A bias must be one row of `width` numbers.
fn check_bias(b: &DMatrix<f64>, width: usize) -> Result<(), String> {
    if b.nrows() != 1 || b.ncols() != width {
        return Err(format!("{} numbers, expected {width}", b.len()));
    }
    Ok(())
}

/// Why `x` may not stand in `target`: not a number, or past the limits a saved state keeps.
fn outside_limits(target: Editable, x: f64) -> String {
    let name = match target.head() {
        Some(h) => format!("{} of head {}", target.key(), h + 1),
        None => target.key().to_string(),
    };
    if x.is_finite() {
        // Four figures of the shortest form (Rust's rounding exponent formatter is 3 KB of wasm).
        let shortest = format!("{x:e}");
        let (mantissa, exponent) = shortest.split_once('e').unwrap_or((&shortest, "0"));
        let figures = &mantissa[..mantissa.len().min(5 + usize::from(x < 0.0))];
        format!("{name} would hold about {figures}e{exponent}, past ±1e6")
    } else {
        format!("{name} would hold a number that is not finite")
    }
}

/// Sizes within the limits: d_in, d_k, d_v from 1 to [`MAX_DIM`], heads from 1 to
/// [`MAX_HEADS`]. The error names the first size out of range.
pub fn check_dims(dims: Dims) -> Result<(), String> {
    for (name, n, max) in [
        ("d_in", dims.d_in, MAX_DIM),
        ("d_k", dims.d_k, MAX_DIM),
        ("d_v", dims.d_v, MAX_DIM),
        ("heads", dims.heads, MAX_HEADS),
    ] {
        if !(1..=max).contains(&n) {
            return Err(format!(
                "{name} must be a whole number from 1 to {max}, not {n}"
            ));
        }
    }
    Ok(())
}
