//! One editable number that types like a spreadsheet cell: the raw text is kept while it is
//! typed, each valid parse is committed at once, and a focused cell is never rewritten.

use leptos::ev;
use leptos::html::Input;
use leptos::prelude::*;

use crate::core::document::numbers::{read_block, read_cell, CellText};
use crate::core::i18n::keys::views;
use crate::core::i18n::{Arg, Msg};
use crate::core::text::fmt;
use crate::core::views::cells::CellView;
use crate::ui::lang::word;
use crate::ui::matrix::keyboard;
use crate::ui::state::CellEditor;

/// An `<input>` for cell (`row`, `col`) of a matrix. `view` is the committed number and its text;
/// `editor` receives each valid number as it is typed, a pasted block anchored here, and the end
/// of the edit when the cell loses focus.
#[component]
pub fn CellInput(
    row: usize,
    col: usize,
    view: RwSignal<CellView>,
    /// Unique within the page, for the error message's id.
    id: String,
    label: Msg,
    editor: CellEditor,
) -> impl IntoView {
    let input = NodeRef::<Input>::new();
    let focused = RwSignal::new(false);
    // The number in use when the typing began: a wrong text goes back to it, and says so.
    let before = StoredValue::new(0.0_f64);
    let error = RwSignal::new(None::<Msg>);
    let error_id = format!("{id}-error");

    // Show the committed value, formatted, whenever it or the precision changes, unless the
    // learner is typing here: their text stays exactly as typed. Written only when the text
    // differs: the view also changes with its colour, and setting an input's value, even to the
    // same text, cost more than the rest of a cell's repaint (measured: docs/developers/benchmarks.md).
    Effect::new(move |_| {
        let text = view.with(CellView::text);
        if !focused.get_untracked() {
            if let Some(el) = input.get_untracked().filter(|el| el.value() != text) {
                el.set_value(&text);
            }
        }
    });

    let on_input = move |ev: ev::Event| {
        let text = event_target_value(&ev);
        match read_cell(&text) {
            CellText::Number(x) => match editor.commit.run((row, col, x)) {
                Ok(()) => error.set(None),
                // A locked matrix: the number in use stays.
                Err(message) => error.set(Some(views::cell_refused(
                    message,
                    view.with_untracked(CellView::text),
                ))),
            },
            CellText::Incomplete => error.set(None),
            CellText::Invalid(message) => {
                // "1,5" applied "1" on its way: the cell keeps the number from before the typing.
                let kept = before.get_value();
                if view.with_untracked(|c| c.value.to_bits() != kept.to_bits()) {
                    editor.commit.run((row, col, kept)).ok();
                }
                error.set(Some(views::cell_invalid(
                    message,
                    view.with_untracked(|c| fmt(kept, c.precision)),
                )));
            }
        }
    };
    // Leaving the cell shows the number in use again (an unfinished or wrong entry is dropped).
    let on_blur = move |_| {
        focused.set(false);
        // The number typed here is one undo step; coming back later starts another.
        editor.done.run(());
        error.set(None);
        if let Some(el) = input.get_untracked() {
            el.set_value(&view.with_untracked(CellView::text));
        }
    };
    let on_paste_event = move |ev: ev::ClipboardEvent| {
        let Some(text) = ev.clipboard_data().and_then(|d| d.get_data("text").ok()) else {
            return;
        };
        // One number pastes like typing; a block fills the cells from here.
        if !text
            .trim()
            .contains(|c: char| c.is_whitespace() || c == ',' || c == ';')
        {
            return;
        }
        ev.prevent_default();
        match read_block(&text)
            .map_err(Arg::from)
            .and_then(|block| editor.paste.run((row, col, block)).map_err(Arg::from))
        {
            Ok(()) => {
                error.set(None);
                // The block replaced this cell's number too: shown at once, though focused,
                // once the page has the new numbers (the cell may be gone by then).
                request_animation_frame(move || {
                    let (Some(Some(el)), Some(c)) = (
                        input.try_get_untracked(),
                        view.try_with_untracked(|c| (c.text(), c.value)),
                    ) else {
                        return;
                    };
                    el.set_value(&c.0);
                    before.set_value(c.1);
                });
            }
            Err(message) => error.set(Some(views::paste_ignored(message))),
        }
    };

    view! {
        <input
            node_ref=input
            // No `inputmode="decimal"`: an iPhone's decimal keypad has no minus sign.
            type="text"
            enterkeyhint="next"
            autocomplete="off"
            spellcheck="false"
            aria-label=move || word(&label)
            aria-invalid=move || error.with(|e| e.is_some().then_some("true"))
            aria-describedby=move || error.with(|e| e.is_some().then(|| error_id.clone()))
            // A first click selects the number, as Tab does, so typing replaces it; a click in
            // the cell being edited places the caret (as F2 does).
            on:mousedown=move |ev: ev::MouseEvent| {
                if !focused.get_untracked() {
                    ev.prevent_default();
                    if let Some(el) = input.get_untracked() {
                        el.focus().ok();
                        el.select();
                    }
                }
            }
            on:focus=move |_| {
                focused.set(true);
                before.set_value(view.with_untracked(|c| c.value));
            }
            on:blur=on_blur
            on:input=on_input
            on:keydown=keyboard::from_input
            on:paste=on_paste_event
        />
        {move || error.get().map(|message| view! { <span class="cell-error" id=format!("{id}-error") role="alert">{move || word(&message)}</span> })}
    }
}
