//! The row softmax and the two causal-masking methods of the Raschka tutorial.

use nalgebra::DMatrix;

/// Softmax of each row, computed stably: the row maximum is subtracted first, so huge scores
/// do not overflow. A row that is all −∞ gives NaN, as in PyTorch.
pub fn softmax_rows(scores: &DMatrix<f64>) -> DMatrix<f64> {
    // nalgebra stores columns: the transpose holds each row contiguously, which made a 64 × 64
    // softmax about three times faster than walking strided rows (measured).
    let mut t = scores.transpose();
    let n = t.nrows().max(1);
    for row in t.as_mut_slice().chunks_mut(n) {
        let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        for x in row.iter_mut() {
            *x = (*x - max).exp();
        }
        let sum: f64 = row.iter().sum();
        for x in row.iter_mut() {
            *x /= sum;
        }
    }
    t.transpose()
}

/// Sorts `order` (indices) by their weights, largest first, ties in index order: the page's one
/// sort of weights (each sort a closure calls is its own code in the page).
pub fn largest_first(order: &mut [usize], weight: &dyn Fn(usize) -> f64) {
    order.sort_unstable_by(|&a, &b| weight(b).total_cmp(&weight(a)).then(a.cmp(&b)));
}

/// The backward of [`softmax_rows`]: ∂L/∂scores from the weights it gave and ∂L/∂weights. Each
/// row's gradient is weights · (∂L/∂weights − their weighted mean); a masked score (weight 0)
/// gets nothing back.
pub fn softmax_rows_backward(weights: &DMatrix<f64>, d_weights: &DMatrix<f64>) -> DMatrix<f64> {
    let along: Vec<f64> = (0..weights.nrows())
        .map(|i| d_weights.row(i).dot(&weights.row(i)))
        .collect();
    DMatrix::from_fn(weights.nrows(), weights.ncols(), |i, j| {
        weights[(i, j)] * (d_weights[(i, j)] - along[i])
    })
}

/// −ln softmax(scores)[row][col], taken from the scores as `F.cross_entropy` takes it
/// (log-sum-exp): finite where the weight itself underflows to 0, as ln 0 would not be.
pub fn neg_log_softmax(scores: &DMatrix<f64>, row: usize, col: usize) -> f64 {
    let r = scores.row(row);
    let max = r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = r.iter().map(|x| (x - max).exp()).sum();
    max + sum.ln() - scores[(row, col)]
}

/// The backward of [`neg_log_softmax`], scaled by `share`: ∂/∂scores[row] is
/// share · (weights[row] − one-hot(col)), added into `d_scores`; `weights` is the softmax of
/// the same scores.
pub fn neg_log_softmax_backward(
    weights: &DMatrix<f64>,
    row: usize,
    col: usize,
    share: f64,
    d_scores: &mut DMatrix<f64>,
) {
    for j in 0..weights.ncols() {
        let hot = if j == col { 1.0 } else { 0.0 };
        d_scores[(row, j)] += share * (weights[(row, j)] - hot);
    }
}

/// Row `i` may look at columns `0..=i` only.
pub fn is_future(row: usize, col: usize) -> bool {
    col > row
}

/// Scores with −∞ above the diagonal: softmax then gives exactly 0 to future tokens.
pub fn mask_future(scores: &DMatrix<f64>) -> DMatrix<f64> {
    DMatrix::from_fn(scores.nrows(), scores.ncols(), |i, j| {
        if is_future(i, j) {
            f64::NEG_INFINITY
        } else {
            scores[(i, j)]
        }
    })
}

/// The tutorial's first method: unmasked weights times `tril(ones)`. Rows no longer sum to 1.
pub fn masked_weights_simple(weights: &DMatrix<f64>) -> DMatrix<f64> {
    DMatrix::from_fn(weights.nrows(), weights.ncols(), |i, j| {
        if is_future(i, j) {
            0.0
        } else {
            weights[(i, j)]
        }
    })
}

/// The simple method's rows divided by their sums. Equals the −∞ method unless the unmasked
/// softmax underflowed to 0 (then 0/0 gives NaN, as in PyTorch).
pub fn renormalize_rows(weights: &DMatrix<f64>) -> DMatrix<f64> {
    let mut out = weights.clone();
    for mut row in out.row_iter_mut() {
        let sum = row.sum();
        row.apply(|x| *x /= sum);
    }
    out
}
