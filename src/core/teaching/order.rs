//! The order lab: shuffle the learner's sentence as a real model would see it (each word keeps
//! its embedding row; positions belong to places, not words) and measure what attention sees of
//! the change. With no positions every context row is the same numbers in a new place
//! (permutation equivariance); with positions they change. Also RoPE's shift property, and the
//! two RoPE conventions on the same weights.

use nalgebra::DMatrix;

use crate::core::forward::trace::Trace;
use crate::core::i18n::Msg;
use crate::core::model::positions::{rotate_from, Positions, Rope, DEFAULT_BASE};
use crate::core::model::Model;
use crate::core::pretrained::Encoder;

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
/// (the vocabulary is the same set), the positions stay with the places, a source stays.
pub fn reordered(model: &Model, order: &[usize]) -> Result<Model, Msg> {
    let words = &model.tokens().words;
    let sentence: Vec<&str> = order.iter().map(|&i| words[i].as_str()).collect();
    Model::new(
        &sentence.join(" "),
        model.embedding().clone(),
        model.heads().to_vec(),
        model.causal,
        model.scale,
    )
    .and_then(|m| m.with_output(model.output().cloned()))
    .and_then(|m| m.with_positions(model.positions().clone()))
    .and_then(|m| m.with_kv_heads(model.kv_heads()))
    .and_then(|m| m.with_source(model.source().cloned()))
}

/// For each word (by its place before), the largest difference between its output row before
/// and after the reordering: all zero (to rounding) when attention cannot see the order.
pub fn output_moves(before: &Trace, after: &Trace, order: &[usize]) -> Vec<f64> {
    row_moves(&before.output, &after.output, order)
}

/// For each row of `before`, the largest difference from its row of `after`, where `order` put it.
fn row_moves(before: &DMatrix<f64>, after: &DMatrix<f64>, order: &[usize]) -> Vec<f64> {
    let mut moves = vec![0.0; order.len()];
    for (new, &old) in order.iter().enumerate() {
        moves[old] = before
            .row(old)
            .iter()
            .zip(after.row(new).iter())
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
    }
    moves
}

/// Where `order` puts each word: `places[i]` is the new place of the word at place `i`.
pub fn new_places(order: &[usize]) -> Vec<usize> {
    let mut places = vec![0; order.len()];
    for (new, &old) in order.iter().enumerate() {
        places[old] = new;
    }
    places
}

/// The new order of a trained model's `n` pieces: `how` among those between `[CLS]` and
/// `[SEP]`, which stay at the ends, where the model always has them.
pub fn order_of_pieces(n: usize, how: Reorder) -> Vec<usize> {
    if n < 3 {
        return (0..n).collect();
    }
    std::iter::once(0)
        .chain(order(n - 2, how).into_iter().map(|i| i + 1))
        .chain([n - 1])
        .collect()
}

/// The hidden states entering a trained layer model's layer for its pieces as they are and in
/// `order` (the layers below run again), with the model's learned positions and without: what
/// [`trained_moves`] compares, computed once while only the layer's own numbers change.
#[derive(Clone, Debug, PartialEq)]
pub struct ReorderedInputs {
    order: Vec<usize>,
    /// `[with positions, without]`, each `[as they are, reordered]`.
    x: [[DMatrix<f64>; 2]; 2],
}

impl ReorderedInputs {
    /// The new order: `order[j]` is the old place of the piece now at place `j`.
    pub fn order(&self) -> &[usize] {
        &self.order
    }
}

/// [`ReorderedInputs`] of `model` (none for other models).
pub fn reordered_inputs(
    encoder: &Encoder,
    model: &Model,
    order: Vec<usize>,
) -> Option<ReorderedInputs> {
    let ids = &model.layered()?.ids;
    let reordered: Vec<u32> = order.iter().map(|&i| ids[i]).collect();
    let both = |positions: bool| {
        Some([
            encoder.layer_input(model, ids, positions)?,
            encoder.layer_input(model, &reordered, positions)?,
        ])
    };
    Some(ReorderedInputs {
        x: [both(true)?, both(false)?],
        order,
    })
}

/// What reordering a trained layer model's pieces does to its layer's attention output
/// (`attended`): for each piece, the largest change of its row, with the model's learned
/// positions (`[0]`) and with them left out (`[1]`). None for other models.
pub fn trained_moves(
    encoder: &Encoder,
    model: &Model,
    inputs: &ReorderedInputs,
) -> Option<[Vec<f64>; 2]> {
    let layer = model.layered()?.layer;
    let attended = |x: &DMatrix<f64>| encoder.layer_in_page(model, layer, x).map(|t| t.attended);
    let moves = |[before, after]: &[DMatrix<f64>; 2]| {
        Some(row_moves(
            &attended(before)?,
            &attended(after)?,
            &inputs.order,
        ))
    };
    Some([moves(&inputs.x[0])?, moves(&inputs.x[1])?])
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
pub fn both_conventions(model: &Model) -> Result<[Trace; 2], Msg> {
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

/// What one reordering did: the sentences, each word's largest output change, and the largest.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The sentence before.
    pub before: String,
    /// The sentence after.
    pub after: String,
    /// (word, place before, place after, largest change of its output row)
    pub rows: Vec<(String, usize, usize, f64)>,
    /// The largest change of any output row.
    pub largest: f64,
}

/// `how` applied to `model` with the mask as `causal`.
pub fn outcome(model: &Model, how: Reorder, causal: bool) -> Option<Outcome> {
    let mut model = model.clone();
    model.causal = causal;
    let n = model.tokens().len();
    let order = order(n, how);
    let after = reordered(&model, &order).ok()?;
    let (a, b) = (Trace::of(&model), Trace::of(&after));
    let moves = output_moves(&a, &b, &order);
    let new_place = new_places(&order);
    let words = &model.tokens().words;
    Some(Outcome {
        before: model.sentence().to_owned(),
        after: after.sentence().to_owned(),
        rows: (0..n)
            .map(|t| (words[t].clone(), t, new_place[t], moves[t]))
            .collect(),
        largest: moves.iter().copied().fold(0.0, f64::max),
    })
}
