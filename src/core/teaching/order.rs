//! The order lab: shuffle the learner's sentence as a real model would see it (each word keeps
//! its embedding row; positions belong to places, not words) and measure what attention sees of
//! the change. With no positions every context row is the same numbers in a new place
//! (permutation equivariance); with positions they change. Also RoPE's shift property, and the
//! two RoPE conventions on the same weights.

use crate::core::forward::trace::Trace;
use crate::core::model::positions::{rotate_from, Positions, Rope, DEFAULT_BASE};
use crate::core::model::Model;

/// A way to reorder the words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reorder {
    /// A seeded shuffle of every word (never the order it was, with two words or more).
    Shuffle(u64),
    /// A seeded shuffle of every word but the first (the causal mask's own effect on order).
    ShuffleAfterFirst(u64),
    /// Two places exchanged.
    Swap(usize, usize),
    /// Last word first.
    Reverse,
}

/// The new order of `n` places: `order[j]` is the old place of the word now at place `j`.
pub fn order(n: usize, how: Reorder) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    match how {
        Reorder::Shuffle(seed) => shuffle(&mut order, seed),
        Reorder::ShuffleAfterFirst(seed) => {
            if n > 1 {
                shuffle(&mut order[1..], seed)
            }
        }
        Reorder::Swap(a, b) if a < n && b < n => order.swap(a, b),
        Reorder::Swap(..) => {}
        Reorder::Reverse => order.reverse(),
    }
    order
}

/// Fisher–Yates from MT19937; a result equal to the start is turned by one place, so that a
/// shuffle always moves something.
fn shuffle(items: &mut [usize], seed: u64) {
    let before = items.to_vec();
    let mut rng = rand_mt::Mt::new(seed as u32);
    for i in (1..items.len()).rev() {
        let j = (rng.next_u32() as usize) % (i + 1);
        items.swap(i, j);
    }
    if items.len() > 1 && *items == *before {
        items.rotate_left(1);
    }
}

/// `model` with its words in `order` (see [`order`]): the same words keep their embedding rows
/// (the vocabulary is the same set), the positions stay with the places.
pub fn reordered(model: &Model, order: &[usize]) -> Result<Model, String> {
    let words = &model.tokens().words;
    let sentence: Vec<&str> = order.iter().map(|&i| words[i].as_str()).collect();
    Model::new(
        &sentence.join(" "),
        model.embedding().clone(),
        model.heads().to_vec(),
        model.causal,
        model.scale,
    )?
    .with_output(model.output().cloned())?
    .with_positions(model.positions().clone())
}

/// For each word (by its place before), the largest difference between its output row before
/// and after the reordering: all zero (to rounding) when attention cannot see the order.
pub fn output_moves(before: &Trace, after: &Trace, order: &[usize]) -> Vec<f64> {
    let mut moves = vec![0.0; order.len()];
    for (new, &old) in order.iter().enumerate() {
        moves[old] = before
            .output
            .row(old)
            .iter()
            .zip(after.output.row(new).iter())
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
    }
    moves
}

/// RoPE's shift property on head `head`'s queries and keys (before rotation): the score of
/// `query` and `key` at their places, against the same two shifted `shift` places further:
/// the largest difference over every pair of tokens. `None` for an odd d_k. Without RoPE in the
/// model, Hugging Face's convention at base 10 000 is used.
pub fn rope_shift_diff(model: &Model, trace: &Trace, head: usize, shift: usize) -> Option<f64> {
    let h = trace.heads.get(head)?;
    if h.queries.ncols() % 2 == 1 {
        return None;
    }
    let (base, pairs) = model
        .positions()
        .rope()
        .unwrap_or((DEFAULT_BASE, Rope::Half));
    // Every pair's score at once, with the rows at their places and `shift` further.
    let scores = |first| {
        rotate_from(&h.queries, base, pairs, first)
            * rotate_from(&h.keys, base, pairs, first).transpose()
    };
    let (here, there) = (scores(0), scores(shift));
    Some(
        here.iter()
            .zip(there.iter())
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max),
    )
}

/// The learner's model under each RoPE convention at `base` (its own base if it has RoPE), for
/// side-by-side weights; `Err` says why not (an odd d_k).
pub fn both_conventions(model: &Model) -> Result<[Trace; 2], String> {
    let base = model
        .positions()
        .rope()
        .map_or(DEFAULT_BASE, |(base, _)| base);
    let under = |pairs: Rope| {
        model
            .clone()
            .with_positions(Positions::Rope { base, pairs })
            .map(|m| Trace::of(&m))
    };
    Ok([under(Rope::Half)?, under(Rope::Interleaved)?])
}

/// The largest difference between two traces' weights, over every head.
pub fn largest_weight_difference(a: &Trace, b: &Trace) -> f64 {
    a.heads
        .iter()
        .zip(&b.heads)
        .flat_map(|(x, y)| {
            x.weights
                .iter()
                .zip(y.weights.iter())
                .map(|(p, q)| (p - q).abs())
        })
        .fold(0.0, f64::max)
}
