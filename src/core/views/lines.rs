//! The attention lines' geometry (as BertViz draws them): where each token sits, and how thick
//! and opaque a line of a given weight is.

/// The picture's width, in CSS pixels.
pub const WIDTH: f64 = 300.0;
/// Where the query tokens end (their text is right-aligned here).
pub const QUERY_X: f64 = 100.0;
/// Where the key tokens start.
pub const KEY_X: f64 = 200.0;

/// Height of one token's row, by sentence length: roomy for tutorial sentences, compact at 64.
pub fn row_height(n: usize) -> f64 {
    if n <= 24 {
        20.0
    } else {
        11.0
    }
}

/// The middle of token `k`'s row, for a sentence of `n` tokens.
pub fn token_y(k: usize, n: usize) -> f64 {
    (k as f64 + 0.5) * row_height(n) + 4.0
}

/// The picture's height for `n` tokens.
pub fn height(n: usize) -> f64 {
    n as f64 * row_height(n) + 8.0
}

/// The label's font size for `n` tokens.
pub fn font_px(n: usize) -> &'static str {
    if n <= 24 {
        "12"
    } else {
        "9"
    }
}

/// A line's stroke width for `weight` (kept within 0 … 1), as its SVG attribute.
pub fn stroke_width(weight: f64) -> String {
    format!("{:.2}", 0.5 + 6.0 * weight.clamp(0.0, 1.0))
}

/// A line's opacity for `weight` (kept within 0 … 1): a weight of 0 stays faintly visible.
pub fn stroke_opacity(weight: f64) -> String {
    format!("{:.3}", 0.12 + 0.88 * weight.clamp(0.0, 1.0))
}

/// Each key's line for the weights `row` as the lines' painter (`paint_lines` in
/// `ui/matrix/paint.rs`) takes them: its weight, stroke width and opacity, each followed by
/// U+0001.
pub fn paint_parts(row: &[f64]) -> String {
    row.iter()
        .map(|&w| format!("{w}\u{1}{}\u{1}{}\u{1}", stroke_width(w), stroke_opacity(w)))
        .collect()
}

/// Whether the query may see key `j`: not a future key under the causal mask.
pub fn visible(causal: bool, query: usize, key: usize) -> bool {
    !(causal && key > query)
}
