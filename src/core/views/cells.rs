//! What a table's cells show ([`CellView`]) and how a change of them is told to the page's cell
//! painter (`paint_cells` in `ui/matrix/paint.rs`): one string of parts and a flag per cell. The
//! live page's tables and the opening page made live before them (`ui/live/`) paint alike.

use std::fmt::Write;

use nalgebra::DMatrix;

use crate::core::forward::softmax::is_future;
use crate::core::text::{fmt, fmt_scientific};
use crate::core::views::heatmap::Heat;

/// What one cell shows, as numbers: comparing it is cheap, and only the cells whose view
/// changed are formatted (an edit in `dog` compares about 600 cells and formats a few dozen).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellView {
    /// Full precision, for `data-value` and editing.
    pub value: f64,
    /// Decimals shown.
    pub precision: usize,
    /// Colour strength (see [`Heat::level`]).
    pub heat: f64,
    /// Above the diagonal of a causal matrix.
    pub masked: bool,
    /// Flagged (the masking lab's disagreeing cells).
    pub flagged: bool,
    /// Written in powers of ten, whatever the decimals: a gradient (1.6e-5 at four decimals
    /// would read 0.0000).
    pub scientific: bool,
}

impl CellView {
    /// A cell of `value`, coloured on the matrix's scale `span` (see [`Heat::span`]).
    pub fn new(value: f64, precision: usize, heat: Heat, span: (f64, f64), masked: bool) -> Self {
        CellView {
            value,
            precision,
            heat: heat.level(value, span),
            masked,
            flagged: false,
            scientific: false,
        }
    }

    /// Every cell of `m`, row by row as a table lays them out (nalgebra stores columns first),
    /// coloured as `heat` says; `grey` greys the cells above the diagonal.
    pub fn of_matrix(m: &DMatrix<f64>, precision: usize, heat: Heat, grey: bool) -> Vec<CellView> {
        let span = heat.span(m, grey);
        let (rows, cols) = m.shape();
        (0..rows)
            .flat_map(|i| (0..cols).map(move |j| (i, j)))
            .map(|(i, j)| CellView::new(m[(i, j)], precision, heat, span, grey && is_future(i, j)))
            .collect()
    }

    /// Bit 1: masked; bit 2: flagged.
    pub fn flags(&self) -> u8 {
        u8::from(self.masked) | u8::from(self.flagged) << 1
    }

    /// The value with the page's precision (−∞ as "−∞"), or scientific.
    pub fn text(&self) -> String {
        if self.scientific {
            fmt_scientific(self.value)
        } else {
            fmt(self.value, self.precision)
        }
    }

    /// Whether `other` writes another number than this (its value, decimals or notation).
    pub fn shows_other_number(&self, other: &CellView) -> bool {
        self.value.to_bits() != other.value.to_bits()
            || self.precision != other.precision
            || self.scientific != other.scientific
    }

    /// The painter's flags for a cell going from `old` to this: [`CellView::flags`], and bit 4
    /// when the flag changed, 8 for a gradient's value (written as `data-grad`), 16 when the mask
    /// changed, so the painter touches those only then.
    pub fn paint_flags(&self, old: &CellView) -> u8 {
        self.flags()
            | u8::from(old.flagged != self.flagged) << 2
            | u8::from(self.scientific) << 3
            | u8::from(old.masked != self.masked) << 4
    }

    /// Appends the painter's parts for a cell going from `old` to this: its `data-value`, its
    /// text and its `--heat`, each followed by U+0001, empty where it did not change; `text`
    /// says the cell's text is its only child (not an input, which is written apart).
    pub fn paint_parts(&self, old: &CellView, text: bool, out: &mut String) {
        if old.value != self.value {
            write!(out, "{}", self.value).ok();
        }
        out.push('\u{1}');
        if text && (old.value != self.value || old.precision != self.precision) {
            out.push_str(&self.text());
        }
        out.push('\u{1}');
        if old.heat != self.heat {
            out.push_str(&heat_text(self.heat));
        }
        out.push('\u{1}');
    }
}

/// A colour strength as the `--heat` custom property takes it.
pub fn heat_text(heat: f64) -> String {
    format!("{heat:.3}")
}

/// The cells of a table to paint, with their parts and flags, as `paint_cells` takes them.
#[derive(Default)]
pub struct Changes {
    /// The cells' places, row by row.
    pub at: Vec<u32>,
    /// Their parts ([`CellView::paint_parts`]).
    pub texts: String,
    /// Their flags ([`CellView::paint_flags`]).
    pub flags: Vec<u8>,
}

impl Changes {
    /// Emptied, for the next paint (its buffers kept).
    pub fn clear(&mut self) {
        self.at.clear();
        self.texts.clear();
        self.flags.clear();
    }

    /// Cell `k` goes from `old` to `new`.
    pub fn push(&mut self, k: usize, old: &CellView, new: &CellView, text: bool) {
        self.at.push(k as u32);
        self.flags.push(new.paint_flags(old));
        new.paint_parts(old, text, &mut self.texts);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_value_sends_its_parts_and_an_unchanged_one_nothing() {
        let old = CellView::new(0.5, 2, Heat::Unit, (0.0, 1.0), false);
        let new = CellView::new(0.25, 2, Heat::Unit, (0.0, 1.0), true);
        let mut changes = Changes::default();
        changes.push(3, &old, &new, true);
        changes.push(4, &new, &new, false);
        assert_eq!(changes.at, [3, 4]);
        assert_eq!(changes.texts, "0.25\u{1}0.25\u{1}0.250\u{1}\u{1}\u{1}\u{1}");
        assert_eq!(changes.flags, [1 | 16, 1]);
    }

    #[test]
    fn a_new_colour_alone_shows_the_same_number() {
        let cell = CellView::new(0.5, 2, Heat::Signed, (-1.0, 1.0), false);
        let recoloured = CellView::new(0.5, 2, Heat::Signed, (-2.0, 2.0), false);
        assert_ne!(cell, recoloured);
        assert!(!cell.shows_other_number(&recoloured));
        assert!(cell.shows_other_number(&CellView {
            precision: 3,
            ..cell
        }));
        assert!(cell.shows_other_number(&CellView {
            value: 0.25,
            ..cell
        }));
    }

    #[test]
    fn a_causal_matrix_greys_its_future() {
        let m = DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.5, 0.5]);
        let cells = CellView::of_matrix(&m, 4, Heat::Unit, true);
        assert_eq!(
            cells.iter().map(|c| c.masked).collect::<Vec<_>>(),
            [false, true, false, false]
        );
        assert_eq!(cells[2].text(), "0.5000");
    }
}
