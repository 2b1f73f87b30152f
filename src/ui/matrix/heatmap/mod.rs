//! The heat-map face of a matrix: one `<canvas>`, one coloured rectangle per cell, labels, a
//! legend, and a cursor to read, explain or edit any cell with the mouse or the keyboard. The
//! colours and positions come from [`crate::core::views::heatmap`]; this file only draws and listens.

use leptos::ev;
use leptos::html::Canvas;
use leptos::prelude::*;
use nalgebra::DMatrix;
use web_sys::HtmlCanvasElement;

use crate::core::views::cursor::{cell_key, moved, CellKey};
use crate::core::views::heatmap::{fit_label, Heat, Layout};
use crate::ui::in_view::Painting;
use crate::ui::matrix::spec::MatrixSpec;
use crate::ui::state::use_look;

pub mod canvas;
mod editor;
mod readout;

use canvas::{paint_with, text_width, Marks, Picture};
use editor::edit_box;
use readout::{legend, readout};

/// A matrix as a heat map. Hover or the cursor (arrow keys once the map has focus) shows a cell's
/// labels and full value; a click or Enter explains or edits the cell as in the table.
#[component]
pub fn HeatMap(spec: MatrixSpec) -> impl IntoView {
    let palette = spec.look.palette;
    let canvas = NodeRef::<Canvas>::new();
    let scratch = StoredValue::new_local(None::<HtmlCanvasElement>);
    let widest = |labels: Signal<Vec<String>>| {
        move || {
            labels.with(|l| {
                l.iter()
                    .map(|s| text_width(&fit_label(s)))
                    .fold(0.0, f64::max)
            })
        }
    };
    let (row_label_px, col_label_px) = (widest(spec.row_labels), widest(spec.col_labels));
    let shape = Memo::new(move |_| spec.matrix.with(|m| m.shape()));
    let layout = Memo::new(move |_| {
        let (rows, cols) = shape.get();
        Layout::labelled(rows, cols, row_label_px(), col_label_px())
    });
    let cursor = RwSignal::new(None::<(usize, usize)>);
    let hover = RwSignal::new(None::<(usize, usize)>);
    let editing = RwSignal::new(false);
    // A new shape (a sentence, a resize, a loaded state) closes the edit box and brings the
    // cursor back inside the matrix.
    Effect::new(move |previous: Option<(usize, usize)>| {
        let (rows, cols) = shape.get();
        if previous.is_some_and(|p| p != (rows, cols)) {
            editing.set(false);
            cursor.update(|c| {
                *c = c
                    .filter(|_| rows > 0 && cols > 0)
                    .map(|(i, j)| (i.min(rows - 1), j.min(cols - 1)))
            });
        }
        (rows, cols)
    });

    // The canvas is outside the reactive system: this effect repaints it whenever anything it
    // shows changes (one paint per edit, however many cells changed).
    let painting = Painting::of(canvas);
    Effect::new(move |_| {
        let Some(el) = canvas.get().filter(|_| painting.wanted()) else {
            return;
        };
        painting.painted();
        let marks = Marks {
            row: spec.followed_row.get(),
            cursor: cursor.get(),
            hover: hover.get(),
        };
        let (layout, causal, palette) = (layout.get(), spec.grey_future.get(), palette.get());
        spec.row_labels.with(|rl| {
            spec.col_labels.with(|cl| {
                spec.matrix.with(|m| {
                    paint_with(
                        scratch,
                        &el,
                        &Picture {
                            row_labels: rl,
                            col_labels: cl,
                            marks,
                            ..Picture::unlabelled(layout, m, spec.heat, causal, palette)
                        },
                    );
                })
            })
        });
    });

    // The point in the layout's pixels: a map narrowed to its column is drawn smaller.
    let at = move |ev: &ev::MouseEvent| {
        let shown = canvas
            .get_untracked()
            .map_or(0, |c| c.client_width())
            .max(1);
        let scale = layout.with_untracked(|l| l.width) / f64::from(shown);
        (
            f64::from(ev.offset_x()) * scale,
            f64::from(ev.offset_y()) * scale,
        )
    };
    let cell_under = move |ev: &ev::MouseEvent| {
        let (x, y) = at(ev);
        layout.with_untracked(|l| l.cell_at(x, y))
    };
    let act = move |(i, j): (usize, usize)| {
        cursor.set(Some((i, j)));
        if let Some(cb) = spec.on_cell_click {
            cb.run((i, j));
        }
        if spec.editor.is_some() {
            editing.set(true);
        }
    };
    let on_click = move |ev: ev::MouseEvent| {
        if let Some(cell) = cell_under(&ev) {
            act(cell);
        } else if let Some(i) = layout.with_untracked(|l| {
            let (x, y) = at(&ev);
            l.row_label_at(x, y)
        }) {
            if let Some(cb) = spec.on_row_click {
                cb.run(i);
            }
        }
    };
    let on_key = move |ev: ev::KeyboardEvent| {
        let Some(key) = cell_key(&ev.key(), ev.shift_key(), false) else {
            return;
        };
        ev.prevent_default();
        let (rows, cols) = shape.get_untracked();
        let at = cursor.get_untracked().unwrap_or((0, 0));
        match moved(at, (rows, cols), key) {
            Some(next) => cursor.set(Some(next)),
            // The matrix may have shrunk since the cursor last moved.
            None if key == CellKey::Act && rows > 0 && cols > 0 => {
                act((at.0.min(rows - 1), at.1.min(cols - 1)))
            }
            None => {}
        }
    };

    // The cell read out: under the mouse, else under the cursor.
    let shown = Signal::from(Memo::new(move |_| hover.get().or(cursor.get())));
    let aria_label = move || {
        let (rows, cols) = shape.get();
        format!(
            "{}: heat map of {rows} rows and {cols} columns. Arrow keys move the cursor, {}.",
            spec.label(),
            if spec.editor.is_some() {
                "Enter edits the number"
            } else {
                "Enter explains the cell"
            }
        )
    };
    let readout_id = format!("{}-readout", spec.id());
    view! {
        <div class="heatmap">
            <div class="scroll heatmap-frame">
                <canvas
                    node_ref=canvas
                    data-matrix=spec.shows.name()
                    data-head=spec.head.map(|h| h.to_string())
                    data-view="heatmap"
                    data-rows=move || shape.get().0.to_string()
                    data-cols=move || shape.get().1.to_string()
                    data-cursor=move || cursor.get().map(|(i, j)| format!("{i},{j}"))
                    class:editable=spec.editor.is_some()
                    role="img"
                    tabindex="0"
                    aria-label=aria_label
                    aria-describedby=readout_id.clone()
                    // Only a new cell repaints: the mouse moves far more often than it changes cell.
                    on:mousemove=move |ev| {
                        let cell = cell_under(&ev);
                        if hover.get_untracked() != cell {
                            hover.set(cell);
                        }
                    }
                    on:mouseleave=move |_| hover.set(None)
                    on:click=on_click
                    on:keydown=on_key
                    on:focus=move |_| {
                        if cursor.get_untracked().is_none() {
                            cursor.set(Some((0, 0)));
                        }
                    }
                ></canvas>
                {edit_box(spec, editing, cursor, shape, layout, canvas)}
            </div>
            {readout(spec, readout_id, shown)}
            {legend(spec)}
        </div>
    }
}

/// A small unlabelled heat map of one head's weights, for comparing heads at a glance.
#[component]
pub fn Thumbnail(
    head: usize,
    /// A trained model's layer (`data-layer`), when it has several.
    #[prop(optional)]
    layer: Option<usize>,
    matrix: Signal<DMatrix<f64>>,
    /// Grey the cells above the diagonal (causal).
    causal: Signal<bool>,
) -> impl IntoView {
    let palette = use_look().palette;
    let canvas = NodeRef::<Canvas>::new();
    let scratch = StoredValue::new_local(None::<HtmlCanvasElement>);
    let painting = Painting::of(canvas);
    Effect::new(move |_| {
        let Some(el) = canvas.get().filter(|_| painting.wanted()) else {
            return;
        };
        painting.painted();
        let (causal, palette) = (causal.get(), palette.get());
        matrix.with(|m| {
            let layout = Layout::thumbnail(m.nrows(), m.ncols(), THUMBNAIL_PX);
            paint_with(
                scratch,
                &el,
                &Picture::unlabelled(layout, m, Heat::Unit, causal, palette),
            );
        });
    });
    view! {
        <canvas node_ref=canvas data-matrix="weights" data-layer=layer.map(|l| l.to_string()) data-head=head.to_string() data-view="thumbnail" aria-hidden="true"></canvas>
    }
}

/// The side of a head's thumbnail, in CSS pixels.
const THUMBNAIL_PX: f64 = 104.0;
