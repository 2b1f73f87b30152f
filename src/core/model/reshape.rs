//! A model made anew around what stays: a new sentence (each word keeps its row) and new
//! sizes (each number whose place remains is kept, new places drawn from the seed).

use crate::core::i18n::Msg;
use nalgebra::{DMatrix, RowDVector};

use crate::core::model::positions::{seeded_table, PositionKind, Positions, DEFAULT_BASE};
use crate::core::model::source::Source;
use crate::core::model::tokens::Tokens;
use crate::core::model::torch_rng::TorchRng;
use crate::core::model::{
    seeded_biases, seeded_output, Dims, Head, Model, Projection, WordRows, TUTORIAL_VOCAB_SIZE,
};

impl Model {
    /// A new sentence. A word keeps its embedding row: a word of this model its row here, a word
    /// the page saw before (`remembered`, at this d_in) the row it had then; a word never seen
    /// gets the row a fresh seeded model would give it at its place in the vocabulary, unless
    /// another word already has that row: then the next row of the seeded table that no word
    /// has. So no two words share a row by accident, and typing a sentence again gives it back.
    pub fn with_sentence(
        &self,
        sentence: &str,
        seed: u64,
        remembered: &WordRows,
    ) -> Result<Model, Msg> {
        let vocabulary = Tokens::new(sentence).vocabulary;
        let d_in = self.embedding.ncols();
        let known: Vec<Option<RowDVector<f64>>> = vocabulary
            .iter()
            .map(|w| match self.tokens.vocabulary.binary_search(w) {
                Ok(old) => Some(self.embedding.row(old).into_owned()),
                Err(_) => remembered.row(w, d_in).cloned(),
            })
            .collect();
        let new_words = known.iter().filter(|k| k.is_none()).count();
        // Enough candidates for every new word past every row a word has (this model's and the
        // remembered ones), drawn in one pass; none at all when a word was just deleted.
        let count = (vocabulary.len() + self.embedding.nrows() + remembered.rows.len())
            .min(TUTORIAL_VOCAB_SIZE);
        let fresh = if new_words == 0 {
            DMatrix::zeros(0, d_in)
        } else {
            let candidates: Vec<usize> = (0..count).collect();
            TorchRng::manual_seed(seed).embedding_rows(TUTORIAL_VOCAB_SIZE, d_in, &candidates)
        };
        let mut picked: Vec<RowDVector<f64>> = Vec::new();
        let taken = |c: usize, picked: &[RowDVector<f64>]| {
            let candidate = fresh.row(c);
            self.embedding
                .row_iter()
                .any(|r| same_bits(r.iter(), candidate.iter()))
                || remembered
                    .rows
                    .iter()
                    .any(|(_, r)| same_bits(r.iter(), candidate.iter()))
                || picked.iter().any(|r| same_bits(r.iter(), candidate.iter()))
        };
        let rows: Vec<RowDVector<f64>> = known
            .into_iter()
            .enumerate()
            .map(|(place, kept)| {
                kept.unwrap_or_else(|| {
                    let free = (place..count)
                        .chain(0..place)
                        .find(|&c| !taken(c, &picked))
                        .unwrap_or(place.min(count - 1));
                    let row = fresh.row(free).into_owned();
                    picked.push(row.clone());
                    row
                })
            })
            .collect();
        let embedding = if rows.is_empty() {
            DMatrix::zeros(0, d_in)
        } else {
            DMatrix::from_rows(&rows)
        };
        // Positions belong to places: a learned table keeps its rows for the places that remain.
        let positions = match &self.positions {
            Positions::Learned(old) => {
                let n = Tokens::new(sentence).len();
                Positions::Learned(overlay(&seeded_table(seed, n, d_in), old))
            }
            other => other.clone(),
        };
        Model::new(
            sentence,
            embedding,
            self.heads.to_vec(),
            self.causal,
            self.scale,
        )?
        .with_output(self.output.clone())?
        .with_positions(positions)?
        .with_variants_of(self, seed)
    }

    /// New sizes. Numbers whose position still exists are kept; new positions are filled from a
    /// fresh model seeded with `seed`.
    pub fn resized(&self, dims: Dims, seed: u64) -> Result<Model, Msg> {
        let fresh = Model::seeded(&self.sentence, dims, seed, self.causal, self.scale)?;
        let embedding = overlay(&fresh.embedding, &self.embedding);
        let heads = fresh
            .heads
            .iter()
            .enumerate()
            .map(|(h, new)| match self.heads.get(h) {
                Some(old) => Head {
                    w_query: overlay(&new.w_query, &old.w_query),
                    w_key: overlay(&new.w_key, &old.w_key),
                    w_value: overlay(&new.w_value, &old.w_value),
                    biases: None,
                },
                None => new.clone(),
            })
            .collect::<Vec<_>>();
        let mut model = Model::new(&self.sentence, embedding, heads, self.causal, self.scale)?;
        // What this model adds keeps its numbers where they still fit, like the weights.
        if self.has_biases() {
            let fresh = seeded_biases(seed, dims.d_in, &model.heads);
            let kept = fresh
                .into_iter()
                .enumerate()
                .map(|(h, mut b)| {
                    if let Some(old) = self.heads.get(h).and_then(|o| o.biases.as_ref()) {
                        for p in Projection::ALL {
                            b[p] = overlay(&b[p], &old[p]);
                        }
                    }
                    b
                })
                .collect();
            model = model.with_biases(Some(kept))?;
        }
        if let Some(old) = &self.output {
            let width = model.heads.iter().map(Head::d_v).sum();
            // An output as wide as the embedding (nn.MultiheadAttention's) stays so.
            let d_out = if old.w_output.ncols() == self.embedding.ncols() {
                dims.d_in
            } else {
                old.w_output.ncols()
            };
            let mut fresh = seeded_output(seed, width, d_out, old.b_output.is_some());
            fresh.w_output = overlay(&fresh.w_output, &old.w_output);
            fresh.b_output = fresh
                .b_output
                .zip(old.b_output.as_ref())
                .map(|(b, o)| overlay(&b, o));
            model = model.with_output(Some(fresh))?;
        }
        let positions = match &self.positions {
            Positions::Learned(old) => Positions::Learned(overlay(
                &seeded_table(seed, self.tokens.len(), dims.d_in),
                old,
            )),
            other => other.clone(),
        };
        model
            .with_positions(positions)?
            .with_variants_of(self, seed)
    }

    /// Every number drawn again as `torch.manual_seed(seed)` would, the model's shape kept: its
    /// sizes, mask and scaling, biases, output projection and positions (a learned table drawn
    /// again), its shared key/value heads, and its source sentence (its rows drawn again as a
    /// new source's).
    pub fn redrawn(&self, seed: u64) -> Result<Model, Msg> {
        let next = Model::seeded(&self.sentence, self.dims(), seed, self.causal, self.scale)?
            .with_biases_on(self.has_biases(), seed)?
            .with_output_drawn_like(self, seed)?;
        let base = self.positions.base().unwrap_or(DEFAULT_BASE);
        let next = match &self.positions {
            Positions::Learned(_) => next.with_positions_of(PositionKind::Learned, base, seed)?,
            other => next.with_positions(other.clone())?,
        };
        let source = self
            .source()
            .map(|s| Source::drawn(s.sentence(), next.tokens(), next.embedding(), seed))
            .transpose()?;
        next.with_kv_heads(self.kv_heads())?.with_source(source)
    }
}

/// Whether two rows hold the same numbers bit for bit (so −0.0 and 0.0 differ, as the saved
/// state writes them) and are as long.
fn same_bits<'a>(
    a: impl IntoIterator<Item = &'a f64>,
    b: impl IntoIterator<Item = &'a f64>,
) -> bool {
    let (mut a, mut b) = (a.into_iter(), b.into_iter());
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x.to_bits() == y.to_bits() => {}
            _ => return false,
        }
    }
}

/// `base` with the top-left block that `top` covers taken from `top`.
pub(crate) fn overlay(base: &DMatrix<f64>, top: &DMatrix<f64>) -> DMatrix<f64> {
    DMatrix::from_fn(base.nrows(), base.ncols(), |i, j| {
        top.get((i, j)).copied().unwrap_or(base[(i, j)])
    })
}
