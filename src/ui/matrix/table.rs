//! The numbers face of a matrix: a `<table data-matrix=name>` (a lab's: `data-lab-matrix`)
//! with labelled rows and columns, tinted cells, greyed masked cells, flagged cells and optional
//! editing, keeping the page's DOM contract (`data-matrix`, `data-head`, `data-row`,
//! `data-col`, `data-value`, `data-fails`).

use leptos::prelude::*;

use crate::core::i18n::keys::views;
use crate::core::views::cells::{CellView, Changes};
use crate::core::views::heatmap::Heat;
use crate::ui::lang::t;
use crate::ui::matrix::cell::table_cell;
use crate::ui::matrix::paint::paint_cells;
use crate::ui::matrix::spec::MatrixSpec;

/// A matrix as a table. The rows and cells are rebuilt only when the shape changes; a new value
/// rewrites just the cells whose number changed.
#[component]
pub fn MatrixTable(spec: MatrixSpec) -> impl IntoView {
    let precision = spec.look.precision;
    let names = (spec.id(), spec.name());
    let shape = spec.shape;

    // Everything a cell shows, from the spec.matrix, the precision and the mask.
    let views = move || -> Vec<CellView> {
        let (p, grey) = (precision.get(), spec.grey_future.get());
        let flagged = spec.flagged.map(|f| f.get());
        spec.matrix.with(|m| {
            let mut cells = CellView::of_matrix(m, p, spec.heat, grey);
            let cols = m.ncols();
            for (k, cell) in cells.iter_mut().enumerate() {
                cell.flagged = flagged
                    .as_ref()
                    .is_some_and(|f| f.get((k / cols, k % cols)).copied().unwrap_or(false));
                cell.scientific = spec.shows.is_gradient();
            }
            cells
        })
    };

    // Rebuilt only when the shape changes. The cells hold no signals of their own (bar an
    // editable cell's input): one effect per table compares the new numbers with the shown ones
    // and writes just the changed cells' DOM, as hand-written JS would. Per-cell signals and
    // effects cost more in Leptos's bookkeeping than the DOM writes themselves (measured: see
    // docs/developers/benchmarks.md).
    let tbody = NodeRef::<leptos::html::Tbody>::new();
    let body = move || {
        let (rows, cols) = shape.get();
        // Tracked: answering or predicting rebuilds the table with its numbers.
        let cover = spec.cover.get();
        let shown = untrack(views);
        let inputs: Vec<_> = match spec.editor {
            Some(_) => shown.iter().map(|&v| RwSignal::new(v)).collect(),
            None => Vec::new(),
        };
        let built = (0..rows)
            .map(|i| {
                let label = move || label_of(spec.row_labels, i);
                let row_cells: Vec<_> = (0..cols)
                    .map(|j| {
                        table_cell(
                            spec,
                            (&names.0, names.1.clone()),
                            (i, j),
                            shown[i * cols + j],
                            inputs.get(i * cols + j).copied(),
                            &cover,
                        )
                    })
                    .collect();
                view! {
                    <tr class:selected=move || spec.followed_row.try_get().flatten() == Some(i)>
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
                        {row_cells}
                    </tr>
                }
            })
            .collect_view();
        let covered = (0..rows * cols)
            .map(|k| cover.covers(k / cols, k % cols))
            .collect();
        paint_changes(
            tbody,
            move || shape.get_untracked() == (rows, cols),
            views,
            shown,
            inputs,
            covered,
        );
        built
    };
    let header = move || {
        let cols = shape.get().1;
        (0..cols)
            .map(|j| view! { <th scope="col">{move || label_of(spec.col_labels, j)}</th> })
            .collect_view()
    };

    view! {
        <div class="scroll">
            <table
                data-matrix=(!spec.shows.is_lab()).then_some(spec.shows.name())
                data-lab-matrix=spec.shows.is_lab().then_some(spec.shows.name())
                data-head=spec.head.map(|h| h.to_string())
                data-view=spec.shows.is_gradient().then_some("gradient")
                class:editable=spec.editor.is_some() class:gradient=spec.shows.is_gradient() class=match spec.heat { Heat::Unit => "unit", Heat::Signed | Heat::Spread => "signed" }>
                // A header cell must say something: an empty corner is a plain cell.
                <thead><tr>{if spec.shows.corner().is_none() {
                    view! { <td class="corner"></td> }.into_any()
                } else {
                    view! { <th class="corner" scope="col">{move || spec.shows.corner_words()}</th> }.into_any()
                }}{header}</tr></thead>
                <tbody node_ref=tbody>{body}</tbody>
            </table>
            <p class="scroll-hint" aria-hidden="true">{t(views::scroll_sideways)}</p>
        </div>
    }
}

/// Keeps a table's cells (its `<td>`s, row by row) equal to `views()`: each time the numbers
/// change, only the cells whose view differs from `shown` are written, in one call to
/// [`paint_cells`], and an editable cell's input through its signal in `inputs`; the cells
/// `covered` by an exercise are never written. `same_shape` says the cells are still the ones
/// built; after a new shape the table is rebuilt instead.
fn paint_changes(
    tbody: NodeRef<leptos::html::Tbody>,
    same_shape: impl Fn() -> bool + 'static,
    views: impl Fn() -> Vec<CellView> + 'static,
    mut shown: Vec<CellView>,
    inputs: Vec<RwSignal<CellView>>,
    covered: Vec<bool>,
) {
    let mut cells: Option<web_sys::NodeList> = None;
    let mut changes = Changes::default();
    Effect::new(move |_| {
        let new = views();
        if !same_shape() {
            return;
        }
        // Looked up once the cells are in the page; until then nothing counts as painted.
        if cells.is_none() {
            cells = tbody
                .get_untracked()
                .and_then(|b| b.query_selector_all("td").ok());
        }
        let Some(cells) = &cells else { return };
        changes.clear();
        for (k, (old, new)) in shown.iter_mut().zip(new).enumerate() {
            if *old == new || covered[k] {
                continue;
            }
            changes.push(k, old, &new, inputs.is_empty());
            // An input shows only the number: a new colour alone leaves it be.
            if let Some(input) = inputs.get(k).filter(|_| old.shows_other_number(&new)) {
                input.set(new);
            }
            *old = new;
        }
        if !changes.at.is_empty() {
            paint_cells(cells, &changes.at, &changes.texts, &changes.flags);
        }
    });
}

/// Row or column `i`'s label (its number when there is none). Read with `try_`: the labels are
/// often a wrapper the parent view made, and a label's effect already queued by the same change
/// that rebuilds the parent runs once more after the wrapper is gone (Leptos 0.8).
fn label_of(labels: Signal<Vec<String>>, i: usize) -> String {
    labels
        .try_with(|l| l.get(i).cloned())
        .flatten()
        .unwrap_or_else(|| i.to_string())
}
