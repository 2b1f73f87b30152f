//! What a matrix view shows and reports ([`MatrixSpec`]), the one small interface of both
//! faces, and what one cell shows ([`CellView`]).

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::teaching::exercise::Cover;
use crate::core::text::{fmt, fmt_scientific};
use crate::core::views::heatmap::Heat;
use crate::ui::state::{CellEditor, Look};

/// What a matrix view shows and what it reports: the one small interface of both faces.
#[derive(Clone, Copy)]
pub struct MatrixSpec {
    /// The DOM contract's name (`scores`, `w_query`, …).
    pub name: &'static str,
    /// What the caption calls it (`W_query`, `Q·Kᵀ`, …).
    pub title: &'static str,
    /// Its head, for a head's matrix.
    pub head: Option<usize>,
    /// What rows and columns are ([`QUERY_BY_KEY`](crate::core::views::pipeline::QUERY_BY_KEY), `place`, `∂L/∂`), or empty.
    pub corner: &'static str,
    /// The numbers.
    pub matrix: Signal<DMatrix<f64>>,
    /// What each row is called.
    pub row_labels: Signal<Vec<String>>,
    /// What each column is called.
    pub col_labels: Signal<Vec<String>>,
    /// How the numbers are coloured.
    pub heat: Heat,
    /// The followed token's row.
    pub followed_row: Signal<Option<usize>>,
    /// Grey the cells above the diagonal (causal).
    pub grey_future: Signal<bool>,
    /// Cells to flag (the masking lab's disagreeing cells), if any.
    pub flagged: Option<Signal<DMatrix<bool>>>,
    /// A lab's matrix: `data-lab-matrix` instead of `data-matrix`, numbers only (a face choice
    /// is part of the link, which names only the pipeline's matrices).
    pub lab: bool,
    /// The numbers are a gradient (the gradient face): cells carry `data-grad`, not
    /// `data-value`, and the table `data-view="gradient"`.
    pub grad: bool,
    /// Decimals, colours: how every matrix looks.
    pub look: Look,
    /// Present when the learner may edit the numbers.
    pub editor: Option<CellEditor>,
    /// What an open exercise hides: answer fields and rows hidden until predicted (see
    /// [`Cover`]); always empty for a lab's matrix or the gradient face.
    pub cover: Signal<Cover>,
    /// A cell was clicked or chosen with Enter (e.g. to explain a score).
    pub on_cell_click: Option<Callback<(usize, usize)>>,
    /// A row label was clicked (e.g. to follow that token).
    pub on_row_click: Option<Callback<usize>>,
}

impl MatrixSpec {
    /// "W_query, head 1" for captions and screen readers.
    pub fn label(&self) -> String {
        match self.head {
            Some(h) => format!("{}, head {h}", self.title),
            None => self.title.to_owned(),
        }
    }

    /// Unique within the page, for element ids.
    pub fn id(&self) -> String {
        format!("{}-{}", self.name, self.head.unwrap_or(0))
    }
}

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
    /// Flagged (see [`MatrixSpec::flagged`]).
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

    /// Bit 1: masked; bit 2: flagged, as the table's painter takes them (it adds bit 4 when
    /// the flag changed).
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
}
