//! What a run says about its heads and layers: the logit lens (the most likely next token after
//! each layer, read through the final norm and the LM head) and the head gallery (how much each
//! head behaves as a previous-token, a first-token or an induction head, measured as Olsson et
//! al. 2022 and Nanda's induction mosaic do, on a random token sequence said twice).

use nalgebra::{DMatrix, Scalar};
use rand_mt::Mt;

use crate::core::i18n::Msg;

use super::model::Decoder;
use super::run::{top, LayerRun, Run};
use super::steps::{log_sum_exp, rms_norm};

/// After one layer: the most likely next token at the last position and its probability.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lens {
    /// Its id.
    pub id: u32,
    /// Its probability.
    pub probability: f64,
}

/// The logit lens of `run`: each layer's output at the last token through the final RMSNorm and
/// the LM head (the last layer's is the run's own next token).
pub fn logit_lens(decoder: &Decoder, run: &Run) -> Vec<Lens> {
    run.layers
        .iter()
        .map(|layer| {
            let last: Vec<f64> = layer
                .output
                .row(layer.output.nrows() - 1)
                .iter()
                .copied()
                .collect();
            Lens::of(decoder, &last)
        })
        .collect()
}

impl Lens {
    /// What a hidden state (a layer's output at a token) says comes next, read through the
    /// final RMSNorm and the LM head.
    pub fn of(decoder: &Decoder, hidden: &[f64]) -> Lens {
        let last = DMatrix::from_row_slice(1, hidden.len(), hidden);
        let normed = rms_norm(&last, &decoder.norm, decoder.config.eps);
        let logits = decoder.logits(normed.as_slice());
        let (id, best) = top(&logits, 1)[0];
        Lens {
            id,
            probability: libm::exp(best - log_sum_exp(&logits)),
        }
    }
}

/// A head's scores, each a mean attention weight between 0 and 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeadScores {
    /// On the token just before, from every token but the first.
    pub previous: f64,
    /// On the first token, from every token but the first (where a head rests: an "attention
    /// sink").
    pub first: f64,
    /// From each token of the sequence's second copy to the token after its first occurrence.
    pub induction: f64,
}

impl HeadScores {
    /// The scores of a head's `weights` (query × key) on a sequence whose last `repeat` tokens
    /// say its `repeat` before them again.
    pub fn of<W: Scalar + Copy + Into<f64>>(weights: &DMatrix<W>, repeat: usize) -> HeadScores {
        let n = weights.nrows();
        let weights = |at: (usize, usize)| -> f64 { weights[at].into() };
        let mean = |values: Vec<f64>| values.iter().sum::<f64>() / values.len().max(1) as f64;
        let start = n - repeat;
        HeadScores {
            previous: mean((1..n).map(|q| weights((q, q - 1))).collect()),
            first: mean((1..n).map(|q| weights((q, 0))).collect()),
            induction: mean(
                (0..repeat.saturating_sub(1))
                    .map(|i| weights((start + i, start - repeat + i + 1)))
                    .collect(),
            ),
        }
    }
}

/// Each head's scores, by layer then head.
#[derive(Clone, Debug, PartialEq)]
pub struct Gallery {
    /// The ids the heads were measured on: random tokens said twice.
    pub ids: Vec<u32>,
    /// `scores[layer][head]`.
    pub scores: Vec<Vec<HeadScores>>,
}

/// How many random tokens the gallery says twice.
pub const GALLERY_TOKENS: usize = 24;

impl Gallery {
    /// Every head measured on [`GALLERY_TOKENS`] random tokens (from `seed`, none of them a
    /// special token) said twice.
    pub fn of(decoder: &Decoder, seed: u32) -> Result<Gallery, Msg> {
        let ids = Gallery::tokens(decoder, seed);
        let run = decoder.run(&ids, &[])?;
        Ok(Gallery::measured(ids, &run.layers))
    }

    /// The gallery's tokens: [`GALLERY_TOKENS`] random ones from `seed`, said twice.
    pub fn tokens(decoder: &Decoder, seed: u32) -> Vec<u32> {
        let mut generator = Mt::new(seed);
        let vocabulary = decoder.config.vocabulary as u32;
        let mut once = Vec::with_capacity(GALLERY_TOKENS);
        while once.len() < GALLERY_TOKENS {
            let id = generator.next_u32() % vocabulary;
            if !decoder.tokenizer.is_special(id) && !once.contains(&id) {
                once.push(id);
            }
        }
        once.iter().chain(&once).copied().collect()
    }

    /// Every head's scores in `layers`, a run on the gallery's `ids`.
    pub fn measured<W: Scalar + Copy + Into<f64>>(
        ids: Vec<u32>,
        layers: &[LayerRun<W>],
    ) -> Gallery {
        let scores = layers
            .iter()
            .map(|layer| {
                layer
                    .weights
                    .iter()
                    .map(|w| HeadScores::of(w, GALLERY_TOKENS))
                    .collect()
            })
            .collect();
        Gallery { ids, scores }
    }

    /// The head (layer, head) scoring highest by `score`, with its score.
    pub fn strongest(&self, score: impl Fn(&HeadScores) -> f64) -> (usize, usize, f64) {
        let mut best = (0, 0, f64::NEG_INFINITY);
        for (l, heads) in self.scores.iter().enumerate() {
            for (h, s) in heads.iter().enumerate() {
                if score(s) > best.2 {
                    best = (l, h, score(s));
                }
            }
        }
        best
    }
}
