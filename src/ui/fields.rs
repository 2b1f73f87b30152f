//! Form fields shared by the controls and the labs.

use leptos::html::Input;
use leptos::prelude::*;

use crate::core::document::numbers::read_whole;

/// A whole-number field that keeps the last good value while its text is wrong: the text stays
/// as typed, marked invalid, with a message naming the allowed range, until it is corrected or
/// the value changes elsewhere (undo, a preset). `on_change` may refuse a number with a message.
#[component]
pub fn IntegerField(
    control: &'static str,
    label: &'static str,
    min: u64,
    max: u64,
    value: Signal<u64>,
    on_change: Callback<u64, Result<(), String>>,
) -> impl IntoView {
    let input = NodeRef::<Input>::new();
    let error = RwSignal::new(None::<String>);
    let error_id = format!("{control}-error");
    // A value set elsewhere replaces whatever the field holds, a wrong text included.
    Effect::new(move |_| {
        let text = value.get().to_string();
        error.set(None);
        if let Some(el) = input.get_untracked() {
            if el.value() != text {
                el.set_value(&text);
            }
        }
    });
    let on_input = move |ev| {
        let result = read_whole(&event_target_value(&ev), min, max).and_then(|n| {
            if n == value.get_untracked() {
                Ok(())
            } else {
                on_change.run(n)
            }
        });
        error.set(
            result
                .err()
                .map(|e| format!("{label}: {e}; still using {}.", value.get_untracked())),
        );
    };
    view! {
        <label class="field">
            <span>{label}</span>
            <input
                node_ref=input
                type="text"
                inputmode="numeric"
                autocomplete="off"
                spellcheck="false"
                data-control=control
                on:input=on_input
                aria-invalid=move || error.with(|e| e.is_some().then_some("true"))
                aria-describedby={
                    let id = error_id.clone();
                    move || error.with(|e| e.is_some().then(|| id.clone()))
                }
            />
            {move || error.get().map(|e| view! { <span class="field-error" id=error_id.clone() role="alert">{e}</span> })}
        </label>
    }
}

/// An `on_change` for a field whose every in-range number is fine.
pub fn accept(set: impl Fn(u64) + Send + Sync + 'static) -> Callback<u64, Result<(), String>> {
    Callback::new(move |n| {
        set(n);
        Ok(())
    })
}
