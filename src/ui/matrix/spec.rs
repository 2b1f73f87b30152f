//! What a matrix view shows and reports ([`MatrixSpec`]), the one small interface of both
//! faces.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::i18n::keys::views;
use crate::core::i18n::{Arg, Key};
use crate::core::model::Matrix;
use crate::core::pretrained::LayerPart;
use crate::core::teaching::exercise::Cover;
use crate::core::teaching::labs::LabMatrix;
use crate::core::views::heatmap::Heat;
use crate::ui::lang::{word, Label};
use crate::ui::state::{AppState, CellEditor, Look};

/// What a matrix view shows and what it reports: the one small interface of both faces.
#[derive(Clone, Copy)]
pub struct MatrixSpec {
    /// What it shows: its name, corner and data attributes follow.
    pub shows: Shows,
    /// What the caption calls it (`W_query`, `Q·Kᵀ`, queries, …).
    pub title: Label,
    /// Its head, for a head's matrix.
    pub head: Option<usize>,
    /// The numbers.
    pub matrix: Signal<DMatrix<f64>>,
    /// Their number of rows and columns ([`shape_of`]), one memo for every face.
    pub shape: Memo<(usize, usize)>,
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

/// What a page's matrix's caption calls it.
pub fn caption(matrix: Matrix) -> Label {
    match matrix.title_key() {
        Some(key) => Label::Key(key),
        None => Label::Text(matrix.title()),
    }
}

impl MatrixSpec {
    /// "W_query, head 1" for captions and screen readers, in the page's language (tracked).
    pub fn label(&self) -> String {
        match self.name() {
            Arg::Msg(name) => word(&name),
            Arg::Text(name) => name,
        }
    }

    /// [`MatrixSpec::label`] as a message's argument, worded each time the message is: a label
    /// kept in a view follows the page's language.
    pub fn name(&self) -> Arg {
        match self.head {
            Some(h) => Arg::Msg(views::matrix_head(self.title, h)),
            None => self.title.into(),
        }
    }

    /// Unique within the page, for element ids.
    pub fn id(&self) -> String {
        format!("{}-{}", self.shows.name(), self.head.unwrap_or(0))
    }
}

/// The shape of `matrix`, showing `shows`, for its spec. A page's matrix changes shape only with the model's
/// structure, so the shape tracks that, not every new number: a number typed does not wake what
/// the shape decides (a table's rows, its header, its caption's size), which cost more per edit
/// than painting the changed cells. Any other matrix's (a lab's, a gradient's) tracks its numbers.
pub fn shape_of(shows: Shows, matrix: Signal<DMatrix<f64>>) -> Memo<(usize, usize)> {
    match use_context::<AppState>() {
        Some(state) if matches!(shows, Shows::Values(_)) => {
            Memo::new(move |_| state.structure(|_| matrix.with_untracked(DMatrix::shape)))
        }
        _ => Memo::new(move |_| matrix.with(DMatrix::shape)),
    }
}

/// What a matrix view shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shows {
    /// A matrix of the pipeline (`data-matrix`).
    Values(Matrix),
    /// ∂L with respect to a matrix of the pipeline (the gradient face: `data-view="gradient"`,
    /// each cell's `data-grad`).
    Gradient(Matrix),
    /// A lab's matrix, numbers only (`data-lab-matrix`: a face choice is part of the link,
    /// which names only the pipeline's matrices).
    Lab(LabMatrix),
    /// A step of a trained layer after its attention, read-only (`data-matrix`).
    Layer(LayerPart),
}

impl Shows {
    /// Its name in the DOM contract.
    pub fn name(self) -> &'static str {
        match self {
            Shows::Values(m) | Shows::Gradient(m) => m.key(),
            Shows::Lab(l) => l.key(),
            Shows::Layer(p) => p.key(),
        }
    }

    /// What its table's corner says its rows and columns are, or empty.
    pub fn corner(self) -> Option<Key> {
        match self {
            Shows::Values(m) => m.corner(),
            Shows::Gradient(_) => Some(views::gradient_corner),
            Shows::Lab(l) => l.corner(),
            Shows::Layer(_) => Some(views::piece_number),
        }
    }

    /// Its corner in the page's language (tracked), or nothing.
    pub fn corner_words(self) -> String {
        self.corner()
            .map(|key| word(&key.into()))
            .unwrap_or_default()
    }

    /// Whether it is a lab's matrix.
    pub fn is_lab(self) -> bool {
        matches!(self, Shows::Lab(_))
    }

    /// Whether it is a gradient.
    pub fn is_gradient(self) -> bool {
        matches!(self, Shows::Gradient(_))
    }
}
