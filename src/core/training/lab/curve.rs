//! A loss curve: drawn on a log scale, and how it fell in words.

/// The most points [`loss_curves`] draws of a curve (one every few steps beyond).
pub const MAX_POINTS: usize = 400;

/// A plot of loss curves on one log scale: each curve's SVG path (one point per step) in a
/// `width` × `height` box, and the powers of ten the scale spans (for its axis labels). Losses
/// that are not positive and finite are left out; `None` with none left.
pub fn loss_curves(curves: &[&[f64]], width: f64, height: f64) -> Option<(Vec<String>, Vec<i32>)> {
    // At most about MAX_POINTS points a curve: a long run draws as fast as a short one.
    let logs = |losses: &[f64]| -> Vec<(usize, f64)> {
        let stride = losses.len().div_ceil(MAX_POINTS).max(1);
        losses
            .iter()
            .enumerate()
            .filter(|(k, _)| k % stride == 0 || *k + 1 == losses.len())
            .filter(|(_, l)| l.is_finite() && **l > 0.0)
            .map(|(k, l)| (k, l.log10()))
            .collect()
    };
    let (low, high) = curves
        .iter()
        .flat_map(|c| logs(c))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (_, y)| {
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
            logs(c)
                .iter()
                .enumerate()
                .map(|(n, &(k, v))| {
                    format!("{}{:.1},{:.1}", if n == 0 { 'M' } else { 'L' }, x(k), y(v))
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    Some((paths, (bottom..=top).collect()))
}

/// How a loss curve fell, said of its numbers: whether more of its fall came in its first half
/// or its second (a curve from random weights often starts flat); none before two steps or
/// when it did not fall.
pub fn how_it_fell(losses: &[f64]) -> Option<&'static str> {
    let (first, last) = (*losses.first()?, *losses.last()?);
    let middle = losses[losses.len() / 2];
    if losses.len() < 3 || last >= first {
        return None;
    }
    Some(if first - middle >= middle - last {
        "It fell fast at first, then slowly."
    } else {
        "It fell slowly at first, then faster."
    })
}
