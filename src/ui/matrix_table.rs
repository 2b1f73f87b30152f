//! The numbers face of a matrix: a `<table data-matrix=name>` with labelled rows and columns,
//! tinted cells, greyed masked cells and optional editing, keeping the page's DOM contract
//! (`data-matrix`, `data-head`, `data-row`, `data-col`, `data-value`).

use leptos::prelude::*;

use crate::core::heatmap::{max_abs, Heat};
use crate::core::softmax::is_future;
use crate::core::trace::fmt;
use crate::ui::app::use_app;
use crate::ui::cell_input::CellInput;
use crate::ui::keyboard;
use crate::ui::matrix_view::MatrixSpec;

/// A matrix as a table. The rows and cells are rebuilt only when the shape changes; a new value
/// re-runs just the cells whose number changed.
#[component]
pub fn MatrixTable(spec: MatrixSpec) -> impl IntoView {
    let precision = use_app().precision;
    let (id_base, label) = (spec.id(), spec.label());
    let shape = Memo::new(move |_| spec.matrix.with(|m| m.shape()));

    // Everything a cell shows, from the spec.matrix, the precision and the mask.
    let views = move || -> Vec<CellView> {
        let (p, grey) = (precision.get(), spec.grey_future.get());
        spec.matrix.with(|m| {
            let top = max_abs(m);
            // Row-major, as the cells are laid out (nalgebra stores columns first).
            let (rows, cols) = m.shape();
            (0..rows)
                .flat_map(|i| (0..cols).map(move |j| (i, j)))
                .map(|(i, j)| CellView::new(m[(i, j)], p, spec.heat, top, grey && is_future(i, j)))
                .collect()
        })
    };

    let cell = move |i: usize, j: usize, view: RwSignal<CellView>| {
        let content = match spec.editor {
            Some(editor) => view! {
                <CellInput
                    row=i
                    col=j
                    view
                    id=format!("{id_base}-{i}-{j}")
                    label=format!("{label} row {i} column {j}")
                    editor
                />
            }
            .into_any(),
            None => (move || view.with(CellView::text)).into_any(),
        };
        view! {
            <td
                data-row=i.to_string()
                data-col=j.to_string()
                data-value=move || view.with(|c| c.value.to_string())
                class:masked=move || view.with(|c| c.masked)
                style:--heat=move || view.with(|c| format!("{:.3}", c.heat))
                // Read-only cells are reachable from the keyboard: the first one is a tab stop,
                // arrows move from there, Enter clicks.
                tabindex=spec.editor.is_none().then_some(if i == 0 && j == 0 { "0" } else { "-1" })
                on:keydown=move |ev| {
                    if spec.editor.is_none() {
                        keyboard::from_cell(ev);
                    }
                }
                on:click=move |_| {
                    if let Some(cb) = spec.on_cell_click {
                        cb.run((i, j));
                    }
                }
            >
                {content}
            </td>
        }
    };

    // Rebuilt only when the shape changes. Each cell owns one signal, and one effect per table
    // writes just the cells whose view changed: cells never subscribe to the whole spec.matrix, whose
    // thousands of subscribers would make every update quadratic in Leptos's subscriber lists.
    let body = move || {
        let (rows, cols) = shape.get();
        let cells = synced_cells(views);
        (0..rows)
            .map(|i| {
                let label =
                    move || spec.row_labels.with(|l| l.get(i).cloned().unwrap_or_else(|| i.to_string()));
                let row_cells = cells[i * cols..(i + 1) * cols].to_vec();
                view! {
                    <tr class:selected=move || spec.highlight_row.get() == Some(i)>
                        <th
                            scope="row"
                            class:clickable=spec.on_row_click.is_some()
                            on:click=move |_| {
                                if let Some(cb) = spec.on_row_click {
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
            .map(|j| view! { <th scope="col">{move || spec.col_labels.with(|l| l.get(j).cloned().unwrap_or_else(|| j.to_string()))}</th> })
            .collect_view()
    };

    view! {
        <div class="scroll">
            <table data-matrix=spec.name data-head=spec.head.map(|h| h.to_string()) class:editable=spec.editor.is_some() class=match spec.heat { Heat::Unit => "unit", Heat::Signed => "signed" }>
                // A header cell must say something: an empty corner is a plain cell.
                <thead><tr>{if spec.corner.is_empty() {
                    view! { <td class="corner"></td> }.into_any()
                } else {
                    view! { <th class="corner" scope="col">{spec.corner}</th> }.into_any()
                }}{header}</tr></thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}

/// One signal per cell, kept equal to `views()` (row by row) by one effect that writes only the
/// cells whose view changed. Call it where the cells are built: a new shape makes new signals.
pub fn synced_cells<T>(views: impl Fn() -> Vec<T> + Send + Sync + 'static) -> Vec<RwSignal<T>>
where
    T: PartialEq + Send + Sync + 'static,
{
    let cells: Vec<RwSignal<T>> = untrack(&views).into_iter().map(RwSignal::new).collect();
    let synced = cells.clone();
    Effect::new(move |_| {
        for (cell, new) in synced.iter().zip(views()) {
            if cell.with_untracked(|old| *old != new) {
                cell.set(new);
            }
        }
    });
    cells
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
}

impl CellView {
    pub fn new(value: f64, precision: usize, heat: Heat, max_abs: f64, masked: bool) -> Self {
        CellView {
            value,
            precision,
            heat: heat.level(value, max_abs),
            masked,
        }
    }

    /// The value with the page's precision (−∞ as "−∞").
    pub fn text(&self) -> String {
        fmt(self.value, self.precision)
    }
}
