//! The heat-map face of a matrix: one `<canvas>`, one coloured rectangle per cell, labels, a
//! legend, and a cursor to read, explain or edit any cell with the mouse or the keyboard. The
//! colours and positions come from [`crate::core::views::heatmap`]; this file only draws and listens.

use leptos::html::Canvas;
use leptos::prelude::*;
use nalgebra::DMatrix;
use web_sys::HtmlCanvasElement;

use crate::core::i18n::keys::views;
use crate::core::views::heatmap::{fit_label, Heat, Layout};
use crate::ui::in_view::Painting;
use crate::ui::lang::word;
use crate::ui::matrix::spec::MatrixSpec;
use crate::ui::state::use_look;

pub mod canvas;
mod editor;
mod pointer;
mod readout;

use canvas::{paint_with, text_width, Marks, Picture, Scratch};
use editor::edit_box;
use pointer::Pointer;
use readout::{legend, readout};

/// A matrix as a heat map. Hover or the cursor (arrow keys once the map has focus) shows a cell's
/// labels and full value; a click or Enter explains or edits the cell as in the table.
#[component]
pub fn HeatMap(spec: MatrixSpec) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
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
    let shape = spec.shape;
    let layout = Memo::new(move |_| {
        let (rows, cols) = shape.get();
        Layout::labelled(rows, cols, row_label_px(), col_label_px())
    });
    let pointer = Pointer::new(spec, canvas, shape, layout);
    keep_painted(spec, canvas, layout, pointer);

    // The cell read out: under the mouse, else under the cursor.
    let shown = pointer.shown();
    let aria_label = move || {
        let (rows, cols) = shape.get();
        word(&if spec.editor.is_some() {
            views::heatmap_edits(spec.label(), rows, cols)
        } else {
            views::heatmap_explains(spec.label(), rows, cols)
        })
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
                    data-cursor=move || pointer.cursor.get().map(|(i, j)| format!("{i},{j}"))
                    class:editable=spec.editor.is_some()
                    role="img"
                    tabindex="0"
                    aria-label=aria_label
                    aria-describedby=readout_id.clone()
                    on:mousemove=move |ev| pointer.hover(&ev)
                    on:mouseleave=move |_| pointer.hover.set(None)
                    on:click=move |ev| pointer.click(&ev)
                    on:keydown=move |ev| pointer.key(&ev)
                    on:focus=move |_| pointer.focus()
                ></canvas>
                {edit_box(spec, pointer.editing, pointer.cursor, shape, layout, canvas)}
            </div>
            {readout(spec, readout_id, shown)}
            {legend(spec)}
        </div>
    }
}

/// Repaints `canvas` whenever anything it shows changes (one paint per edit, however many cells
/// changed): the canvas is outside the reactive system.
fn keep_painted(spec: MatrixSpec, canvas: NodeRef<Canvas>, layout: Memo<Layout>, pointer: Pointer) {
    // Read with `try_`: a paint already queued by the change that removes the map runs once
    // more after the parent's wrappers are gone (see `table::label_of`); nothing to paint then.
    paint_when_seen(canvas, Painting::of(canvas), move |el, scratch| {
        let marks = Marks {
            row: spec.followed_row.try_get()?,
            cursor: pointer.cursor.try_get()?,
            hover: pointer.hover.try_get()?,
        };
        let (layout, causal, palette) = (
            layout.try_get()?,
            spec.grey_future.try_get()?,
            spec.look.palette.try_get()?,
        );
        // Borrowed, not cloned: this runs at every edit of every map in view.
        spec.row_labels.try_with(|rows| {
            spec.col_labels.try_with(|cols| {
                spec.matrix.try_with(|m| {
                    paint_with(
                        scratch,
                        el,
                        &Picture {
                            row_labels: rows,
                            col_labels: cols,
                            marks,
                            ..Picture::unlabelled(layout, m, spec.heat, causal, palette)
                        },
                    );
                })
            })
        })??
    });
}

/// Runs `paint` on `canvas` (with its own scratch canvas) whenever what it reads changes, when
/// `painting` wants it.
fn paint_when_seen(
    canvas: NodeRef<Canvas>,
    painting: Painting,
    paint: impl Fn(&HtmlCanvasElement, Scratch) -> Option<()> + 'static,
) {
    let scratch = StoredValue::new_local(None::<HtmlCanvasElement>);
    Effect::new(move |_| {
        let Some(el) = canvas.try_get().flatten().filter(|_| painting.wanted()) else {
            return;
        };
        painting.painted();
        paint(&el, scratch);
    });
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
    /// Its side in CSS pixels.
    #[prop(default = THUMBNAIL_PX)]
    side: f64,
) -> impl IntoView {
    let palette = use_look().palette;
    let canvas = NodeRef::<Canvas>::new();
    paint_when_seen(canvas, Painting::in_sight(canvas), move |el, scratch| {
        let (causal, palette) = (causal.try_get()?, palette.try_get()?);
        matrix.try_with(|m| {
            let layout = Layout::thumbnail(m.nrows(), m.ncols(), side);
            paint_with(
                scratch,
                el,
                &Picture::unlabelled(layout, m, Heat::Unit, causal, palette),
            );
        })
    });
    view! {
        // Its size from the start (a canvas not yet painted is 300 × 150): square, `side` wide.
        <canvas node_ref=canvas data-matrix="weights" data-layer=layer.map(|l| l.to_string()) data-head=head.to_string() data-view="thumbnail" aria-hidden="true"
            width=side.to_string() height=side.to_string() style:width=format!("{side}px")></canvas>
    }
}

/// The side of a head's thumbnail, in CSS pixels.
pub const THUMBNAIL_PX: f64 = 104.0;
