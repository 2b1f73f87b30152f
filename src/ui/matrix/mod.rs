//! One view for every matrix, with two faces: numbers (a table, `table`) and a heat map (a
//! canvas, `heatmap`), and a third once the training lab has a target (∂L/∂cell, `gradient`). Both faces take the same [`MatrixSpec`]; the view adds the caption and
//! the toggle between them. `cell_input` edits a cell in either face, `keyboard` moves between
//! cells.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::formats::report::matrix_csv;
use crate::core::teaching::exercise::CellRef;
use crate::core::views::heatmap::{Face, Heat};
use crate::ui::exercises::{Cover, ExerciseState};
use crate::ui::export::download;
use crate::ui::state::{use_look, CellEditor, GradientOf};
use gradient::GradientTable;
use heatmap::HeatMap;
use table::MatrixTable;

pub mod cell_input;
pub mod gradient;
pub mod heatmap;
pub mod keyboard;
pub mod spec;
pub mod table;

pub use spec::{CellView, MatrixSpec};

/// A matrix with its caption and a toggle between numbers and heat map. Small matrices open as
/// numbers, large ones as heat maps ([`Face::default_for`]); the learner's choice sticks.
#[component]
pub fn MatrixView(
    name: &'static str,
    title: &'static str,
    #[prop(default = None)] head: Option<usize>,
    #[prop(optional)] corner: &'static str,
    matrix: Signal<DMatrix<f64>>,
    row_labels: Signal<Vec<String>>,
    col_labels: Signal<Vec<String>>,
    heat: Heat,
    #[prop(optional, into)] highlight_row: Option<Signal<Option<usize>>>,
    #[prop(optional, into)] grey_future: Option<Signal<bool>>,
    #[prop(default = None)] flagged: Option<Signal<DMatrix<bool>>>,
    #[prop(optional)] lab: bool,
    #[prop(optional)] editor: Option<CellEditor>,
    #[prop(optional)] on_cell_click: Option<Callback<(usize, usize)>>,
    #[prop(optional)] on_row_click: Option<Callback<usize>>,
    /// ∂L/∂cell, while the training lab has a target: a third face.
    #[prop(default = None)]
    gradient: Option<GradientOf>,
) -> impl IntoView {
    let look = use_look();
    // The exercises live in the store; a matrix mounted alone (or a lab's) has none.
    let exercises = use_context::<ExerciseState>().filter(|_| !lab);
    let cover: Signal<Cover> = match exercises {
        Some(e) if e.any() => e.cover(name, head).into(),
        _ => Signal::stored(Cover::default()),
    };
    let covered = Memo::new(move |_| !cover.with(Cover::is_empty));
    let locked = exercises.is_some_and(|e| e.spec.with_value(|s| s.locked(name)));
    // While an exercise is being made, a click on a computed number picks it.
    let on_cell_click = match exercises {
        Some(e) if editor.is_none() => Some(Callback::new(move |(row, col)| {
            if e.authoring.get_untracked() {
                e.picked.set(Some(CellRef {
                    matrix: name,
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
        name,
        title,
        head,
        corner,
        matrix,
        row_labels,
        col_labels,
        heat,
        highlight_row: highlight_row.unwrap_or_else(|| Signal::derive(|| None)),
        grey_future: grey_future.unwrap_or_else(|| Signal::derive(|| false)),
        flagged,
        lab,
        grad: false,
        cover,
        editor,
        on_cell_click,
        on_row_click,
    };
    let faces = look.faces;
    let key = (name, head);
    let shape = Memo::new(move |_| matrix.with(|m| m.shape()));
    let has_gradient = Memo::new(move |_| gradient.is_some_and(|g| g.shown.get()));
    let face = Memo::new(move |_| {
        // An open exercise's answer fields and hidden rows are in the numbers face only.
        if lab || covered.get() {
            return Face::Numbers;
        }
        let default = || Face::default_for(shape.get().0, shape.get().1);
        match faces.with(|f| f.get(&key).copied()) {
            // Without a target there is no gradient to show: the numbers, until there is.
            Some(Face::Gradient) if !has_gradient.get() => default(),
            Some(face) => face,
            None => default(),
        }
    });
    let toggle_gradient = move |_| {
        let next = if face.get_untracked() == Face::Gradient {
            Face::Numbers
        } else {
            Face::Gradient
        };
        faces.update(|f| {
            f.insert(key, next);
        });
    };
    let toggle = move |_| {
        let next = face.get_untracked().toggled();
        faces.update(|f| {
            f.insert(key, next);
        });
    };
    let caption = spec.label();
    let body = move || match face.get() {
        Face::Numbers => view! { <MatrixTable spec/> }.into_any(),
        Face::Heatmap => view! { <HeatMap spec/> }.into_any(),
        Face::Gradient => match gradient {
            Some(g) => view! { <GradientTable spec gradient=g.matrix/> }.into_any(),
            None => view! { <MatrixTable spec/> }.into_any(),
        },
    };
    view! {
        <figure class="matrix">
            <figcaption>
                <span class="matrix-title">{title}</span>
                {head.map(|h| view! { <span class="matrix-head">{format!(" · head {h}")}</span> })}
                {editor.is_some().then(|| if locked {
                    view! { <span class="editable-tag locked-tag">"locked"</span> }
                } else {
                    view! { <span class="editable-tag">"editable"</span> }
                })}
                <span class="shape">{move || { let (r, c) = shape.get(); format!("{r} × {c}") }}</span>
                <button
                    type="button"
                    class="face-toggle"
                    data-action="toggle-view"
                    hidden=move || lab || covered.get()
                    aria-label=move || match face.get() {
                        Face::Numbers => format!("Show {caption} as a heat map"),
                        Face::Heatmap | Face::Gradient => format!("Show {caption} as numbers"),
                    }
                    on:click=toggle
                >
                    {move || match face.get() { Face::Numbers => "heat map", Face::Heatmap | Face::Gradient => "numbers" }}
                </button>
                <button
                    type="button"
                    class="face-toggle"
                    data-action="toggle-gradient"
                    hidden=move || !has_gradient.get()
                    aria-pressed=move || (face.get() == Face::Gradient).to_string()
                    aria-label=format!("Show the loss's gradient with respect to {}", spec.label())
                    on:click=toggle_gradient
                >
                    "∂L"
                </button>
                <button
                    type="button"
                    class="face-toggle"
                    data-action="download-csv"
                    hidden=move || covered.get()
                    aria-label=format!("Download {} as CSV", spec.label())
                    on:click=move |_| {
                        let csv = matrix.with_untracked(|m| {
                            row_labels.with_untracked(|r| col_labels.with_untracked(|c| matrix_csv(m, r, c)))
                        });
                        let file = match head {
                            Some(h) => format!("{name}-head{h}.csv"),
                            None => format!("{name}.csv"),
                        };
                        download(&file, "text/csv", &csv);
                    }
                >
                    "CSV"
                </button>
            </figcaption>
            {body}
        </figure>
    }
}

/// Column labels 0, 1, … for a matrix of `cols` columns.
pub fn index_labels(cols: impl Fn() -> usize + Send + Sync + 'static) -> Signal<Vec<String>> {
    // A memo, so labels are rewritten only when the width changes, not on every edit.
    Memo::new(move |_| (0..cols()).map(|j| j.to_string()).collect()).into()
}
