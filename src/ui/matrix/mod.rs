//! One view for every matrix, with two faces: numbers (a table, `table`) and a heat map (a
//! canvas, `heatmap`), and a third once the training lab has a target (∂L/∂cell, `gradient`). Both faces take the same [`MatrixSpec`]; the view adds the caption and
//! the toggle between them. `cell_input` edits a cell in either face, `keyboard` moves between
//! cells.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::i18n::keys::views;
use crate::core::i18n::Arg;
use crate::core::model::Matrix;
use crate::core::teaching::exercise::CellRef;
use crate::core::teaching::exercise::Cover;
use crate::core::teaching::labs;
use crate::core::views::heatmap::{Face, Heat};
use crate::ui::lang::{t, word, Label};
use crate::ui::matrix::faces::Faces;
use crate::ui::matrix::figure::{clicked, csv_button, save, save_menu, Picture};
use crate::ui::state::ExerciseState;
use crate::ui::state::{use_look, AppState, CellEditor};
use gradient::GradientTable;
use heatmap::HeatMap;
use table::MatrixTable;

pub mod cell;
pub mod cell_input;
mod faces;
pub mod figure;
pub mod gradient;
pub mod heatmap;
pub mod keyboard;
pub mod paint;
pub mod spec;
pub mod table;

pub use spec::{caption, shape_of, MatrixSpec, Shows};

/// A matrix of the pipeline with its caption and a toggle between numbers and heat map. Small
/// matrices open as numbers, large ones as heat maps ([`Face::default_for`]); the learner's
/// choice sticks. Its name, caption, colouring, corner, greyed future and gradient face follow
/// from `of` (the last two from the store, when there is one: a matrix mounts alone too).
#[component]
pub fn MatrixView(
    of: Matrix,
    #[prop(default = None)] head: Option<usize>,
    values: Signal<DMatrix<f64>>,
    row_labels: Signal<Vec<String>>,
    col_labels: Signal<Vec<String>>,
    #[prop(optional, into)] followed_row: Option<Signal<Option<usize>>>,
    #[prop(optional)] editor: Option<CellEditor>,
    #[prop(optional)] on_cell_click: Option<Callback<(usize, usize)>>,
    #[prop(optional)] on_row_click: Option<Callback<usize>>,
) -> impl IntoView {
    let look = use_look();
    let store = use_context::<AppState>();
    let greys = of.greys_future();
    // A memo: every cell reads it, and must not re-run on edits that leave `causal` alone.
    let grey_future: Signal<bool> = match store {
        Some(s) if greys => Memo::new(move |_| s.derived.causal.get()).into(),
        _ => Signal::stored(false),
    };
    let gradient = store.and_then(|s| s.gradient_of(of, head));
    let title = caption(of);
    // The exercises live in the store; a matrix mounted alone has none.
    let exercises = use_context::<ExerciseState>();
    let cover: Signal<Cover> = match exercises {
        Some(e) if e.any() => e.cover(of, head).into(),
        _ => Signal::stored(Cover::default()),
    };
    let locked = exercises.is_some_and(|e| e.spec.with_value(|s| s.locked(of)));
    // While an exercise is being made, a click on a computed number picks it.
    let on_cell_click = match exercises {
        Some(e) if editor.is_none() => Some(Callback::new(move |(row, col)| {
            if e.authoring.get_untracked() {
                e.picked.set(Some(CellRef {
                    matrix: of,
                    head,
                    row,
                    col,
                }));
            }
            if let Some(cb) = on_cell_click {
                cb.run((row, col));
            }
        })),
        _ => on_cell_click,
    };
    let spec = MatrixSpec {
        look,
        shows: Shows::Values(of),
        title,
        head,
        matrix: values,
        shape: shape_of(Shows::Values(of), values),
        row_labels,
        col_labels,
        heat: of.heat(),
        followed_row: followed_row.unwrap_or_else(|| Signal::derive(|| None)),
        grey_future,
        flagged: None,
        cover,
        editor,
        on_cell_click,
        on_row_click,
    };
    let covered = Memo::new(move |_| !cover.with(Cover::is_empty));
    let shape = spec.shape;
    let has_gradient = Memo::new(move |_| gradient.is_some_and(|g| g.shown.get()));
    let faces = Faces::new(look.faces, (of, head), covered, shape, has_gradient);
    let face = faces.face;
    let caption = spec.name();
    let body = move || match face.get() {
        Face::Numbers => view! { <MatrixTable spec/> }.into_any(),
        Face::Heatmap => view! { <HeatMap spec/> }.into_any(),
        Face::Gradient => match gradient {
            Some(g) => view! { <GradientTable spec gradient=g.matrix/> }.into_any(),
            None => view! { <MatrixTable spec/> }.into_any(),
        },
    };
    let gradient_values = gradient.map(|g| g.matrix);
    let save_image = move |ev: leptos::ev::MouseEvent| {
        if let Some(format) = clicked(&ev) {
            let face = face.get_untracked();
            let spec = Box::new(spec);
            save(
                Picture::Matrix {
                    spec,
                    face,
                    gradient: gradient_values,
                },
                format,
            );
        }
    };
    view! {
        <figure class="matrix">
            <figcaption on:click=save_image>
                <span class="matrix-title">{move || title.word()}</span>
                {head.map(|h| view! { <span class="matrix-head">" "{move || word(&views::caption_head(h))}</span> })}
                {editor.is_some().then(|| if locked {
                    view! { <span class="editable-tag locked-tag">{t(views::locked)}</span> }
                } else {
                    view! { <span class="editable-tag">{t(views::editable)}</span> }
                })}
                <span class="shape">{move || { let (r, c) = shape.get(); format!("{r} × {c}") }}</span>
                {faces.toggles(&caption)}
                {save_menu(caption, covered.into(), Some(csv_button(&spec).into_any()))}
            </figcaption>
            {body}
        </figure>
    }
}

/// A lab's matrix: numbers only (`data-lab-matrix`), rows (and unless said, columns) the
/// sentence's words, beside the page's own tables.
#[component]
pub fn LabMatrix(
    of: labs::LabMatrix,
    title: crate::core::i18n::Key,
    values: Signal<DMatrix<f64>>,
    words: Signal<Vec<String>>,
    heat: Heat,
    /// The columns' labels, when they are not `words` (keys, components).
    #[prop(optional, into)]
    columns: Option<Signal<Vec<String>>>,
    #[prop(optional, into)] grey_future: Option<Signal<bool>>,
    #[prop(default = None)] flagged: Option<Signal<DMatrix<bool>>>,
    /// The page's matrix (of head 0) whose numbers this table shows: what an open exercise
    /// hides there, it hides too.
    #[prop(optional)]
    same_as: Option<Matrix>,
) -> impl IntoView {
    let cover = match (use_context::<ExerciseState>(), same_as) {
        (Some(e), Some(m)) if e.any() => {
            let cover = e.cover(m, Some(0));
            Signal::derive(move || cover.get().without_answers())
        }
        _ => Signal::stored(Cover::default()),
    };
    let spec = MatrixSpec {
        look: use_look(),
        shows: Shows::Lab(of),
        title: Label::Key(title),
        head: None,
        matrix: values,
        shape: shape_of(Shows::Lab(of), values),
        row_labels: words,
        col_labels: columns.unwrap_or(words),
        heat,
        followed_row: Signal::derive(|| None),
        grey_future: grey_future.unwrap_or_else(|| Signal::stored(false)),
        flagged,
        cover,
        editor: None,
        on_cell_click: None,
        on_row_click: None,
    };
    let shape = move || values.with(|m| format!("{} × {}", m.nrows(), m.ncols()));
    let save_image = move |ev: leptos::ev::MouseEvent| {
        if let Some(format) = clicked(&ev) {
            let picture = Picture::Matrix {
                spec: Box::new(spec),
                face: Face::Numbers,
                gradient: None,
            };
            save(picture, format);
        }
    };
    view! {
        <figure class="matrix">
            <figcaption on:click=save_image>
                <span class="matrix-title">{t(title)}</span>
                <span class="shape">{shape}</span>
                {save_menu(title, Signal::stored(false), Some(csv_button(&spec).into_any()))}
            </figcaption>
            <MatrixTable spec/>
        </figure>
    }
}

/// Column labels 0, 1, … for a matrix of `cols` columns.
pub fn index_labels(cols: impl Fn() -> usize + Send + Sync + 'static) -> Signal<Vec<String>> {
    // A memo, so labels are rewritten only when the width changes, not on every edit.
    Memo::new(move |_| (0..cols()).map(|j| j.to_string()).collect()).into()
}

/// A matrix's title as a message's argument: worded in the page's language, or a symbol as it is.
pub fn title_arg(of: Matrix) -> Arg {
    caption(of).into()
}
