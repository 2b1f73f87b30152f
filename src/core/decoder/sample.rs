//! Choosing the next token as transformers' `generate(do_sample=True)` warps the logits:
//! temperature, then top-k, then top-p, then softmax; a draw from a seeded generator, so the
//! same seed writes the same text again.

use rand_mt::Mt;

use crate::core::i18n::keys::models;
use crate::core::i18n::Msg;

use super::run::top;

/// How the next token is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    /// The logits are divided by it (above 0; 1 leaves them).
    pub temperature: f64,
    /// Only the k most likely stay (0: all).
    pub top_k: usize,
    /// Only the most likely whose probabilities add up to at least p stay (1: all).
    pub top_p: f64,
}

impl Default for Sampling {
    fn default() -> Self {
        Sampling {
            temperature: 1.0,
            top_k: 0,
            top_p: 1.0,
        }
    }
}

impl Sampling {
    /// A setting that can be applied, or why not.
    pub fn checked(self) -> Result<Sampling, Msg> {
        if !(self.temperature.is_finite() && self.temperature > 0.0) {
            return Err(models::temperature_above(self.temperature));
        }
        if !(self.top_p > 0.0 && self.top_p <= 1.0) {
            return Err(models::top_p_range(self.top_p));
        }
        Ok(self)
    }

    /// The probabilities of every token after the warpers (0 for those they remove).
    pub fn probabilities(self, logits: &[f64]) -> Vec<f64> {
        let mut warped: Vec<f64> = logits.iter().map(|l| l / self.temperature).collect();
        if self.top_k > 0 {
            let k = self.top_k.min(warped.len());
            let threshold = top(&warped, k).last().map_or(f64::NEG_INFINITY, |t| t.1);
            for w in warped.iter_mut().filter(|w| **w < threshold) {
                *w = f64::NEG_INFINITY;
            }
        }
        if self.top_p < 1.0 {
            // From the least likely up: those whose running total stays within 1 − p go (the
            // most likely always stays).
            let mut order: Vec<usize> = (0..warped.len()).collect();
            order.sort_by(|&a, &b| warped[a].total_cmp(&warped[b]));
            let sorted: Vec<f64> = order.iter().map(|&i| warped[i]).collect();
            let probs = softmax(&sorted);
            let mut total = 0.0;
            let last = order.len() - 1;
            for (k, (&i, p)) in order.iter().zip(probs).enumerate() {
                total += p;
                if total <= 1.0 - self.top_p && k != last {
                    warped[i] = f64::NEG_INFINITY;
                }
            }
        }
        softmax(&warped)
    }
}

/// How the page chooses the next token: the most likely, or drawn after the warpers from a
/// generator seeded by `seed` and the token's place, so that the same seed writes the same text
/// again (after an undo too).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Choosing {
    /// Drawn (sampling) rather than the most likely (greedy).
    pub draw: bool,
    /// The warpers a draw goes through.
    pub sampling: Sampling,
    /// The draws' seed.
    pub seed: u64,
}

impl Choosing {
    /// The token to write after `at` tokens whose last has these `logits`.
    pub fn pick(self, logits: &[f64], at: usize) -> u32 {
        if !self.draw {
            return super::run::greedy(logits);
        }
        Draw::new(self.seed.wrapping_add(at as u64)).pick(&self.sampling.probabilities(logits))
    }
}

/// Softmax in float64 (`-∞` gives 0).
fn softmax(x: &[f64]) -> Vec<f64> {
    let max = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = x.iter().map(|&v| libm::exp(v - max)).collect();
    let sum: f64 = exps.iter().sum();
    exps.into_iter().map(|e| e / sum).collect()
}

/// A seeded draw of tokens: the same seed and the same probabilities give the same tokens.
#[derive(Clone, Debug)]
pub struct Draw {
    generator: Mt,
}

impl Draw {
    /// A draw from `seed`.
    pub fn new(seed: u64) -> Draw {
        Draw {
            generator: Mt::new_with_key([seed as u32, (seed >> 32) as u32]),
        }
    }

    /// One token from `probabilities` (they add up to 1): the first whose running total passes
    /// a uniform number in [0, 1).
    pub fn pick(&mut self, probabilities: &[f64]) -> u32 {
        let u = (self.generator.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let mut total = 0.0;
        let mut last = 0;
        for (i, &p) in probabilities.iter().enumerate() {
            if p > 0.0 {
                total += p;
                last = i;
                if u < total {
                    return i as u32;
                }
            }
        }
        last as u32
    }
}
