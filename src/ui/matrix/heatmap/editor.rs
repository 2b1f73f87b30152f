//! A heat map's edit box: a table cell's input (same typing, checks, paste and undo) over the
//! map, at the cursor's cell.

use leptos::ev;
use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;

use crate::core::i18n::keys::views;
use crate::core::views::cells::CellView;
use crate::core::views::heatmap::Layout;
use crate::ui::matrix::cell_input::CellInput;
use crate::ui::matrix::spec::MatrixSpec;

/// About how wide and tall the edit box is, in CSS pixels.
const EDIT_BOX_PX: (f64, f64) = (150.0, 64.0);

/// The edit box while `editing`, at `cursor`; closed, the focus goes back to `canvas`.
// A function, not a component: a component's props and erased view cost the page's module.
pub(super) fn edit_box(
    spec: MatrixSpec,
    editing: RwSignal<bool>,
    cursor: RwSignal<Option<(usize, usize)>>,
    shape: Memo<(usize, usize)>,
    layout: Memo<Layout>,
    canvas: NodeRef<Canvas>,
) -> impl IntoView {
    let precision = spec.look.precision;
    let edit_box = move || {
        let editor = spec.editor?;
        if !editing.get() {
            return None;
        }
        let (i, j) = cursor.get()?;
        // A cell that a resize removed has nothing to edit.
        let (rows, cols) = shape.get();
        if i >= rows || j >= cols {
            return None;
        }
        let view = RwSignal::new(CellView::new(0.0, 0, spec.heat, (0.0, 1.0), false));
        Effect::new(move |_| {
            let value = spec.matrix.with(|m| m.get((i, j)).copied().unwrap_or(0.0));
            view.set(CellView::new(
                value,
                precision.get(),
                spec.heat,
                (0.0, 1.0),
                false,
            ));
        });
        let (x, y) = layout.with_untracked(|l| l.box_origin(i, j, EDIT_BOX_PX));
        let close = move || {
            editing.set(false);
            if let Some(c) = canvas.get_untracked() {
                c.focus().ok();
            }
        };
        let row = spec
            .row_labels
            .with_untracked(|l| l.get(i).cloned().unwrap_or_default());
        let input_id = format!("{}-edit", spec.id());
        let frame = NodeRef::<leptos::html::Div>::new();
        // Focus the new input once it is in the page (the box may be gone by then).
        request_animation_frame(move || {
            let input = frame
                .try_get_untracked()
                .flatten()
                .and_then(|f| f.query_selector("input").ok().flatten());
            if let Some(input) = input {
                let input: HtmlInputElement = input.unchecked_into();
                input.focus().ok();
                input.select();
            }
        });
        Some(view! {
            <div
                node_ref=frame
                class="heatmap-editor"
                style:left=format!("{x}px")
                style:top=format!("{y}px")
                on:keydown=move |ev: ev::KeyboardEvent| {
                    if matches!(ev.key().as_str(), "Enter" | "Escape") {
                        ev.prevent_default();
                        close();
                    }
                }
                on:focusout=move |_| editing.set(false)
            >
                <span class="heatmap-editor-label">{format!("{row} · {j}")}</span>
                <CellInput row=i col=j view id=input_id label=views::cell_label(spec.name(), i, j) editor/>
            </div>
        })
    };
    edit_box
}
