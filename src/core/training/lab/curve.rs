//! A loss curve: drawn on a log scale, and how it fell in words.

use crate::core::i18n::keys::labs;
use crate::core::i18n::Key;

/// The most points [`loss_curves`] draws of a curve (one every few steps beyond).
pub const MAX_POINTS: usize = 400;

/// A plot of loss curves on one log scale: each curve's SVG path (one point per step) in a
/// `width` × `height` box, and the powers of ten the scale spans (for its axis labels). Losses
/// that are not positive and finite are left out; `None` with none left.
pub fn loss_curves(curves: &[&[f64]], width: f64, height: f64) -> Option<(Vec<String>, Vec<i32>)> {
    // At most about MAX_POINTS points a curve: a long run draws as fast as a short one. A loss
    // that cannot be drawn is kept as a gap (None): the line stops there, not bridging it.
    let logs = |losses: &[f64]| -> Vec<(usize, Option<f64>)> {
        let stride = losses.len().div_ceil(MAX_POINTS).max(1);
        losses
            .iter()
            .enumerate()
            .filter(|(k, _)| k % stride == 0 || *k + 1 == losses.len())
            .map(|(k, l)| (k, (l.is_finite() && *l > 0.0).then(|| l.log10())))
            .collect()
    };
    let (low, high) = curves
        .iter()
        .flat_map(|c| logs(c))
        .filter_map(|(_, y)| y)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
            (a.min(y), b.max(y))
        });
    if !low.is_finite() {
        return None;
    }
    let (bottom, top) = (
        low.floor() as i32,
        (high.ceil() as i32).max(low.floor() as i32 + 1),
    );
    let steps = curves.iter().map(|c| c.len()).max().unwrap_or(0).max(2) - 1;
    let x = |k: usize| width * k as f64 / steps as f64;
    let y = |v: f64| height * (f64::from(top) - v) / f64::from(top - bottom);
    let paths = curves
        .iter()
        .map(|c| {
            let mut pen_up = true;
            let mut d = Vec::new();
            for (k, v) in logs(c) {
                match v {
                    Some(v) => {
                        d.push(format!(
                            "{}{:.1},{:.1}",
                            if pen_up { 'M' } else { 'L' },
                            x(k),
                            y(v)
                        ));
                        pen_up = false;
                    }
                    None => pen_up = true,
                }
            }
            d.join(" ")
        })
        .collect();
    Some((paths, (bottom..=top).collect()))
}

/// How a loss curve went, said of its numbers: a curve that rose well past its start (or to an
/// infinite loss: a weight of 0) overshot, from its first step; else whether more of its fall
/// came in its first half or its second (a curve from random weights often starts flat); none
/// before two steps or when it did not fall.
pub fn how_it_fell(losses: &[f64]) -> Option<Key> {
    let (first, last) = (*losses.first()?, *losses.last()?);
    let middle = losses[losses.len() / 2];
    if losses.len() > 1 && losses.iter().any(|&l| !l.is_finite() || l > first * 1.5) {
        return Some(if last < first {
            labs::rose_then_fell
        } else {
            labs::rose
        });
    }
    if losses.len() < 3 || last >= first {
        return None;
    }
    Some(if first - middle >= middle - last {
        labs::fell_fast
    } else {
        labs::fell_slowly
    })
}
