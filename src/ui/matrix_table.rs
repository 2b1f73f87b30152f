//! One table component for every matrix: labelled rows and columns, heat-map colours, greyed
//! masked cells, optional editing, and the page's DOM contract
//! (`data-matrix`, `data-head`, `data-row`, `data-col`, `data-value`).

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::softmax::is_future;
use crate::core::trace::fmt;
use crate::ui::app::use_app;
use crate::ui::cell_input::CellInput;

/// How a matrix's cells are coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heat {
    /// Diverging around 0, scaled by the matrix's largest magnitude.
    Signed,
    /// Sequential from 0 to 1 (attention weights).
    Unit,
}

/// Editing hooks for a matrix the learner may change.
#[derive(Clone, Copy)]
pub struct Edit {
    pub on_commit: Callback<(usize, usize, f64)>,
    pub on_paste: Callback<(usize, usize, Vec<Vec<f64>>)>,
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
    #[prop(optional)] edit: Option<Edit>,
    /// Clicking a cell (e.g. to explain a score).
    #[prop(optional)]
    on_cell_click: Option<Callback<(usize, usize)>>,
    /// Clicking a row label or cell selects that row's token as the query.
    #[prop(optional)]
    on_row_click: Option<Callback<usize>>,
) -> impl IntoView {
    let precision = use_app().precision;
    let shape = Memo::new(move |_| matrix.with(|m| m.shape()));
    let max_abs = Memo::new(move |_| {
        matrix.with(|m| {
            m.iter()
                .filter(|x| x.is_finite())
                .fold(0f64, |a, x| a.max(x.abs()))
        })
    });
    let highlight_row = highlight_row.unwrap_or_else(|| Signal::derive(|| None));
    let grey_future = grey_future.unwrap_or_else(|| Signal::derive(|| false));
    let id_base = format!("{name}-{}", head.unwrap_or(0));

    let cell = move |i: usize, j: usize| {
        let value = Memo::new(move |_| matrix.with(|m| m.get((i, j)).copied().unwrap_or(0.0)));
        let style = move || {
            let v = value.get();
            let strength = match heat {
                Heat::Unit => v.clamp(0.0, 1.0),
                Heat::Signed if v.is_finite() && max_abs.get() > 0.0 => {
                    (v.abs() / max_abs.get()).min(1.0)
                }
                Heat::Signed => 0.0,
            };
            format!("--heat:{strength:.3}")
        };
        let class = move || {
            let v = value.get();
            let mut c = String::from(if v < 0.0 { "neg" } else { "pos" });
            if grey_future.get() && is_future(i, j) {
                c += " masked";
            }
            c
        };
        let content = match edit {
            Some(edit) => view! {
                <CellInput
                    row=i
                    col=j
                    value
                    precision
                    id=format!("{id_base}-{i}-{j}")
                    label=format!("{title} row {i} column {j}", title = title_for_label(name, head))
                    on_commit=edit.on_commit
                    on_paste=edit.on_paste
                />
            }
            .into_any(),
            None => (move || fmt(value.get(), precision.get())).into_any(),
        };
        view! {
            <td
                data-row=i.to_string()
                data-col=j.to_string()
                data-value=move || value.get().to_string()
                class=class
                style=style
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

    let body = move || {
        let (rows, cols) = shape.get();
        (0..rows)
            .map(|i| {
                let label =
                    move || row_labels.with(|l| l.get(i).cloned().unwrap_or_else(|| i.to_string()));
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
                        {(0..cols).map(|j| cell(i, j)).collect_view()}
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

/// "w_query (head 1)" for screen readers.
fn title_for_label(name: &str, head: Option<usize>) -> String {
    match head {
        Some(h) => format!("{name} (head {h})"),
        None => name.to_owned(),
    }
}

/// Column labels 0, 1, … for a matrix of `cols` columns.
pub fn index_labels(cols: impl Fn() -> usize + Send + Sync + 'static) -> Signal<Vec<String>> {
    Signal::derive(move || (0..cols()).map(|j| j.to_string()).collect())
}
