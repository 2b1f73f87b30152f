//! One table component for every matrix: labelled rows and columns, heat-map colours, greyed
//! masked cells, optional editing, and the page's DOM contract
//! (`data-matrix`, `data-head`, `data-row`, `data-col`, `data-value`).

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::model::Editable;
use crate::core::softmax::is_future;
use crate::core::trace::fmt;
use crate::ui::app::{use_app, EditKey};
use crate::ui::cell_input::CellInput;
use crate::ui::keyboard;

/// How a matrix's cells are coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heat {
    /// Diverging around 0, scaled by the matrix's largest magnitude.
    Signed,
    /// Sequential from 0 to 1 (attention weights).
    Unit,
}

/// A matrix as a `<table data-matrix=name>`. The rows and cells are rebuilt only when the shape
/// changes; a new value re-runs just the cells whose number changed.
#[component]
pub fn MatrixTable(
    /// The DOM contract's name (`scores`, `w_query`, …).
    name: &'static str,
    /// What the caption calls it (`W_query`, `Q·Kᵀ`, …).
    title: String,
    #[prop(optional)] head: Option<usize>,
    /// The corner's text, saying what rows and columns are (`query ╲ key`).
    #[prop(optional)]
    corner: &'static str,
    matrix: Signal<DMatrix<f64>>,
    row_labels: Signal<Vec<String>>,
    col_labels: Signal<Vec<String>>,
    heat: Heat,
    /// Row to highlight (the followed token).
    #[prop(optional, into)]
    highlight_row: Option<Signal<Option<usize>>>,
    /// Grey the cells above the diagonal (causal).
    #[prop(optional, into)]
    grey_future: Option<Signal<bool>>,
    /// The model's matrix that this table edits, if it is editable.
    #[prop(optional)]
    edit: Option<Editable>,
    /// Clicking a cell (e.g. to explain a score).
    #[prop(optional)]
    on_cell_click: Option<Callback<(usize, usize)>>,
    /// Clicking a row label (e.g. to follow that token).
    #[prop(optional)]
    on_row_click: Option<Callback<usize>>,
) -> impl IntoView {
    let state = use_app();
    let precision = state.precision;
    let shape = Memo::new(move |_| matrix.with(|m| m.shape()));
    let highlight_row = highlight_row.unwrap_or_else(|| Signal::derive(|| None));
    let grey_future = grey_future.unwrap_or_else(|| Signal::derive(|| false));
    let id_base = format!("{name}-{}", head.unwrap_or(0));

    // Everything a cell shows, from the matrix, the precision and the mask.
    let views = move || -> Vec<CellView> {
        let (p, grey) = (precision.get(), grey_future.get());
        matrix.with(|m| {
            let max_abs = m
                .iter()
                .filter(|x| x.is_finite())
                .fold(0f64, |a, x| a.max(x.abs()));
            // Row-major, as the cells are laid out (nalgebra stores columns first).
            let (rows, cols) = m.shape();
            (0..rows)
                .flat_map(|i| (0..cols).map(move |j| (i, j)))
                .map(|(i, j)| CellView::new(m[(i, j)], p, heat, max_abs, grey && is_future(i, j)))
                .collect()
        })
    };

    let cell = move |i: usize, j: usize, view: RwSignal<CellView>| {
        let content = match edit {
            Some(target) => view! {
                <CellInput
                    row=i
                    col=j
                    view
                    id=format!("{id_base}-{i}-{j}")
                    label=format!("{title} row {i} column {j}", title = title_for_label(name, head))
                    on_commit=Callback::new(move |(i, j, x)| state.edit(EditKey::Cell(target, i, j), |m| m.set(target, i, j, x)))
                    on_paste=Callback::new(move |(i, j, block): (usize, usize, Vec<Vec<f64>>)| state.edit(EditKey::Other, |m| m.paste(target, i, j, &block)))
                />
            }
            .into_any(),
            None => (move || view.with(|c| c.text.clone())).into_any(),
        };
        view! {
            <td
                data-row=i.to_string()
                data-col=j.to_string()
                data-value=move || view.with(|c| c.value.to_string())
                class:masked=move || view.with(|c| c.masked)
                style=move || view.with(|c| format!("--heat:{:.3}", c.heat))
                // Read-only cells are reachable from the keyboard: the first one is a tab stop,
                // arrows move from there, Enter clicks.
                tabindex=edit.is_none().then_some(if i == 0 && j == 0 { "0" } else { "-1" })
                on:keydown=move |ev| {
                    if edit.is_none() {
                        keyboard::from_cell(ev);
                    }
                }
                on:click=move |_| {
                    if let Some(cb) = on_cell_click {
                        cb.run((i, j));
                    }
                }
            >
                {content}
            </td>
        }
    };

    // Rebuilt only when the shape changes. Each cell owns one signal, and one effect per table
    // writes just the cells whose view changed: cells never subscribe to the whole matrix, whose
    // thousands of subscribers would make every update quadratic in Leptos's subscriber lists.
    let body = move || {
        let (rows, cols) = shape.get();
        let cells: Vec<RwSignal<CellView>> =
            untrack(views).into_iter().map(RwSignal::new).collect();
        let synced = cells.clone();
        Effect::new(move |_| {
            for (cell, new) in synced.iter().zip(views()) {
                if cell.with_untracked(|old| *old != new) {
                    cell.set(new);
                }
            }
        });
        (0..rows)
            .map(|i| {
                let label =
                    move || row_labels.with(|l| l.get(i).cloned().unwrap_or_else(|| i.to_string()));
                let row_cells = cells[i * cols..(i + 1) * cols].to_vec();
                view! {
                    <tr class:selected=move || highlight_row.get() == Some(i)>
                        <th
                            scope="row"
                            class:clickable=on_row_click.is_some()
                            on:click=move |_| {
                                if let Some(cb) = on_row_click {
                                    cb.run(i);
                                }
                            }
                        >
                            {label}
                        </th>
                        {row_cells.into_iter().enumerate().map(|(j, view)| cell(i, j, view)).collect_view()}
                    </tr>
                }
            })
            .collect_view()
    };
    let header = move || {
        let cols = shape.get().1;
        (0..cols)
            .map(|j| view! { <th scope="col">{move || col_labels.with(|l| l.get(j).cloned().unwrap_or_else(|| j.to_string()))}</th> })
            .collect_view()
    };

    view! {
        <figure class="matrix">
            <figcaption>
                <span class="matrix-title">{title}</span>
                {head.map(|h| view! { <span class="matrix-head">{format!(" · head {h}")}</span> })}
                {edit.is_some().then(|| view! { <span class="editable-tag">"editable"</span> })}
                <span class="shape">{move || { let (r, c) = shape.get(); format!("{r} × {c}") }}</span>
            </figcaption>
            <div class="scroll">
                <table data-matrix=name data-head=head.map(|h| h.to_string()) class:editable=edit.is_some() class=match heat { Heat::Unit => "unit", Heat::Signed => "signed" }>
                    <thead><tr><th class="corner">{corner}</th>{header}</tr></thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        </figure>
    }
}

/// What one cell shows.
#[derive(Clone, Debug, PartialEq)]
pub struct CellView {
    /// Full precision, for `data-value` and editing.
    pub value: f64,
    /// Formatted with the page's precision (−∞ as "−∞").
    pub text: String,
    /// Colour strength: in [−1, 1] for signed matrices (relative to the largest magnitude), [0, 1]
    /// for weights.
    pub heat: f64,
    /// Above the diagonal of a causal matrix.
    pub masked: bool,
}

impl CellView {
    fn new(value: f64, precision: usize, heat: Heat, max_abs: f64, masked: bool) -> Self {
        let heat = match heat {
            Heat::Unit => value.clamp(0.0, 1.0),
            Heat::Signed if value.is_finite() && max_abs > 0.0 => {
                (value / max_abs).clamp(-1.0, 1.0)
            }
            Heat::Signed => 0.0,
        };
        CellView {
            value,
            text: fmt(value, precision),
            heat,
            masked,
        }
    }
}

/// "w_query (head 1)" for screen readers.
fn title_for_label(name: &str, head: Option<usize>) -> String {
    match head {
        Some(h) => format!("{name} (head {h})"),
        None => name.to_owned(),
    }
}

/// Column labels 0, 1, … for a matrix of `cols` columns.
pub fn index_labels(cols: impl Fn() -> usize + Send + Sync + 'static) -> Signal<Vec<String>> {
    // A memo, so headers are rewritten only when the width changes, not on every edit.
    Memo::new(move |_| (0..cols()).map(|j| j.to_string()).collect()).into()
}
