//! The lesson's story told from the numbers: where the followed token looks, why (its score
//! against the runner-up's), and what it becomes. Written from the trace after every edit, so it
//! is true for the numbers beside it; on the dog's sentence it also says when an edit has broken
//! the hand-made story ("she" no longer looks most at "dog"); and its short form, what a picture
//! of the attention lines is called.

use crate::core::forward::trace::Trace;
use crate::core::i18n::keys::{page, story, views};
use crate::core::i18n::Msg;
use crate::core::model::presets::{DOG_DOG, DOG_SENTENCE, DOG_SHE};
use crate::core::teaching::labs::largest;
use crate::core::text::fmt;

/// One key the followed token looks at: its place, raw score and weight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Look {
    /// The key's place.
    pub key: usize,
    /// query · key, before any scaling.
    pub score: f64,
    /// The score as the softmax takes it, scaled (÷√dₖ, ÷dₖ or not at all).
    pub scaled: f64,
    /// Its softmax weight.
    pub weight: f64,
}

/// Where token `query` looks in one head: the key it gives the most and the runner-up.
#[derive(Clone, Debug, PartialEq)]
pub struct Story {
    /// The followed token's place.
    pub query: usize,
    /// The key with the largest weight (the first on ties).
    pub top: Look,
    /// The key with the next largest weight, if it may see another.
    pub runner_up: Option<Look>,
    /// The weights of the keys it may see: how many share the top one, as the page shows them.
    pub seen: Vec<f64>,
}

impl Story {
    /// Head `head`'s story of `query`, from the trace; none when either is out of range.
    pub fn of(trace: &Trace, head: usize, query: usize) -> Option<Story> {
        let h = trace.heads.get(head)?;
        if query >= h.weights.nrows() {
            return None;
        }
        let look = |key: usize| Look {
            key,
            score: h.scores[(query, key)],
            scaled: h.scaled_scores[(query, key)],
            weight: h.weights[(query, key)],
        };
        // Keys a causal mask hides have weight exactly 0 and a finite score: never the runner-up.
        // The two largest weights, the earlier key first on ties (as `labs::largest`).
        let mut top: Option<usize> = None;
        let mut second: Option<usize> = None;
        let mut seen = Vec::new();
        let larger = |a: usize, b: Option<usize>| {
            b.is_none_or(|b| {
                h.weights[(query, a)]
                    .total_cmp(&h.weights[(query, b)])
                    .is_gt()
            })
        };
        for j in
            (0..h.weights.ncols()).filter(|&j| h.masked_scores[(query, j)] != f64::NEG_INFINITY)
        {
            seen.push(h.weights[(query, j)]);
            if larger(j, top) {
                second = top;
                top = Some(j);
            } else if larger(j, second) {
                second = Some(j);
            }
        }
        Some(Story {
            query,
            top: look(top?),
            runner_up: second.map(look),
            seen,
        })
    }

    /// How many keys share the top weight at `decimals` (1 when it has no equal).
    pub fn tied(&self, decimals: usize) -> usize {
        alike(&self.seen, self.top.weight, decimals).max(1)
    }

    /// The story in words. `words` are the queries' tokens, `keys` the keys' (the same without a
    /// source sentence); `decimals` the page's. On the dog's sentence with "she" followed, it
    /// says whether the hand-made story still holds.
    pub fn telling(
        &self,
        sentence: &str,
        words: &[String],
        keys: &[String],
        decimals: usize,
    ) -> Msg {
        let word = |k: usize| words.get(k).map_or("?", String::as_str);
        let key = |k: usize| keys.get(k).map_or("?", String::as_str);
        let q = word(self.query);
        let top = self.top;
        let own = self.top.key == self.query && words.len() == keys.len();
        // All of it (one key it may see, or the others' weights lost to rounding), most or part.
        let share = |w: f64| match w {
            w if w >= 1.0 => 2,
            w if w > 0.5 => 1,
            _ => 0,
        };
        let blend = match (own, share(top.weight)) {
            (true, 2) => story::own_all.into(),
            (true, 1) => story::own_mostly.into(),
            (true, _) => story::own_partly.into(),
            (false, 2) => story::value_all(key(top.key)),
            (false, 1) => story::value_mostly(key(top.key)),
            (false, _) => story::value_partly(key(top.key)),
        };
        let tied = self.tied(decimals);
        let told = match self.runner_up {
            // Keys it gives the same weight (a repeated word's): none of them is "best".
            Some(_) if tied > 1 => {
                let all = top.weight * tied as f64;
                let blend: Msg = match share(all + 5e-9) {
                    2 => story::even_all.into(),
                    1 => story::even_mostly.into(),
                    _ => story::even_partly.into(),
                };
                story::ties(q, tied, fmt(top.weight, decimals), fmt(top.score, 1), blend)
            }
            Some(r) => {
                // The gap the softmax sees: the scaled one.
                let gap = fmt(top.scaled - r.scaled, 1);
                let gap = if top.scaled == top.score {
                    story::gap(gap)
                } else {
                    story::gap_scaled(gap)
                };
                story::looks(
                    q,
                    percent(top.weight),
                    key(top.key),
                    fmt(top.score, 1),
                    fmt(r.score, 1),
                    key(r.key),
                    gap,
                    fmt(top.weight, decimals),
                    fmt(r.weight, decimals),
                    blend,
                )
            }
            None => story::only(q, key(top.key), blend),
        };
        if sentence == DOG_SENTENCE && self.query == DOG_SHE && (top.key != DOG_DOG || tied > 1) {
            page::sentences(told, story::broken)
        } else {
            told
        }
    }
}

/// The story `told` as the context step says it, of `head` (the first shown): naming the head
/// when the model has several.
pub fn blend(told: Msg, head: usize, heads: usize) -> Msg {
    if heads > 1 {
        story::in_head(head, told)
    } else {
        story::here(told)
    }
}

/// How many of `weights` read as `top` at `decimals`: keys a row gives the same weight, of
/// which none is "most" (a repeated word's copies, a row of equal scores).
pub fn alike(weights: &[f64], top: f64, decimals: usize) -> usize {
    let text = fmt(top, decimals);
    // Only a weight within a last decimal of the top can read as it: the others are not
    // formatted (two captions say this on every edit).
    let near = 10f64.powi(-(decimals as i32));
    weights
        .iter()
        .filter(|&&w| (w - top).abs() < near && fmt(w, decimals) == text)
        .count()
}

/// A weight as a percentage with one decimal: "88.3%".
pub fn percent(weight: f64) -> String {
    format!("{}%", fmt(100.0 * weight, 1))
}

/// What a picture of `word`'s lines in `head` of `heads` is called, from its weights `row` (empty
/// while an exercise hides it) at `decimals`: where it looks, and most to which of the `keys`.
/// The page's `opening` leaves out the head of a one-head model (heads are explained further
/// down).
pub fn lines_caption(
    word: &str,
    (head, heads, opening): (usize, usize, bool),
    row: &[f64],
    keys: &[String],
    decimals: usize,
) -> Msg {
    let largest = largest(row.iter().copied());
    let most = largest.map(|(j, w)| {
        let key = keys.get(j).map_or("", String::as_str);
        (key, fmt(w, decimals))
    });
    let hidden = row.is_empty();
    let named = !opening || heads > 1;
    // Keys given the top weight alike (a repeated word's): none is "most".
    let alike = largest.map_or(0, |(_, top)| alike(row, top, decimals));
    match (named, most) {
        (false, Some((_, weight))) if alike > 1 => views::looks_even(word, alike, weight),
        (true, Some((_, weight))) if alike > 1 => views::looks_head_even(word, head, alike, weight),
        (false, Some((key, weight))) => views::looks_most(word, key, weight),
        (true, Some((key, weight))) => views::looks_head_most(word, head, key, weight),
        (false, None) if hidden => views::looks_hidden(word),
        (true, None) if hidden => views::looks_head_hidden(word, head),
        (false, None) => views::looks(word),
        (true, None) => views::looks_head(word, head),
    }
}
