//! Form fields shared by the controls and the labs.

use leptos::html::Input;
use leptos::prelude::*;

use crate::core::document::edit::Edit;
use crate::core::document::numbers::read_whole;
use crate::core::model::limits::MAX_DIM;
use crate::core::model::positions::{PositionKind, DEFAULT_BASE};
use crate::core::model::Model;
use crate::core::text::sentence;
use crate::ui::state::{use_app, AppState};

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
    view! { <NumberField control=control label=label numeric="numeric" read=Callback::new(move |t: String| read_whole(&t, min, max)) value=value on_change=on_change/> }
}

/// A number field (`read` turns its text into a number, or says why not) that keeps the last
/// good value while its text is wrong, as [`IntegerField`]; `numeric` is the phone keyboard's
/// `inputmode` (`numeric`, `decimal`).
#[component]
pub fn NumberField<T>(
    control: &'static str,
    label: &'static str,
    numeric: &'static str,
    read: Callback<String, Result<T, String>>,
    value: Signal<T>,
    on_change: Callback<T, Result<(), String>>,
) -> impl IntoView
where
    T: Copy + PartialEq + std::fmt::Display + Send + Sync + 'static,
{
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
        let result = read.run(event_target_value(&ev)).and_then(|n| {
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
                inputmode=numeric
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

/// How word order enters: the kind, and the base of sinusoidal and RoPE angles (a typed base
/// that is not a number above 1 is named, and the last good one kept). RoPE on an odd dₖ is
/// offered the fix in place. `control` names the select (`positions`; the order lab has its
/// own, `order-positions`), and `{control}-base` the base.
#[component]
pub fn PositionsField(control: &'static str) -> impl IntoView {
    let state = use_app();
    let kind = Memo::new(move |_| state.doc.model.with(|m| m.positions().kind()));
    let base = Memo::new(move |_| state.doc.model.with(|m| m.positions().base()));
    let error = RwSignal::new(None::<String>);
    // RoPE refused for an odd dₖ: the kind asked for and the dₖ that would take it.
    let offer = RwSignal::new(None::<(PositionKind, usize)>);
    let set = move |kind: PositionKind, text: Option<String>| {
        offer.set(None);
        let base = match text {
            Some(t) => match t.trim().replace('_', "").parse::<f64>() {
                Ok(b) => b,
                Err(_) => {
                    error.set(Some(format!(
                        "Base: “{t}” is not a number; still using the last one."
                    )));
                    return;
                }
            },
            None => base.get_untracked().unwrap_or(DEFAULT_BASE),
        };
        let d_k = state.doc.model.with_untracked(|m| m.dims().d_k);
        let refused = state.apply(Edit::Positions { kind, base }).err();
        if refused.is_some() && kind.is_rope() && d_k % 2 == 1 && d_k < MAX_DIM {
            offer.set(Some((kind, d_k + 1)));
            error.set(None);
        } else {
            error.set(refused.map(|e| format!("Positions: {e}; still using the last ones.")));
        }
    };
    // Two undo steps, as if done by hand: dₖ, then RoPE.
    let take_offer = move |_| {
        let Some((kind, d_k)) = offer.get_untracked() else {
            return;
        };
        let mut dims = state.doc.model.with_untracked(Model::dims);
        dims.d_k = d_k;
        if let Err(e) = state.apply(Edit::Resize(dims)) {
            error.set(Some(format!("dₖ: {e}.")));
        } else {
            set(kind, None);
        }
    };
    let base_control = format!("{control}-base");
    view! {
        <label class="field">
            <span>"Positions"</span>
            <select
                data-control=control
                // Set again after a refusal: the select names the positions in use.
                prop:value=move || { error.track(); offer.track(); kind.get().key() }
                on:change=move |ev| {
                    if let Ok(kind) = PositionKind::named(&event_target_value(&ev)) {
                        set(kind, None);
                    }
                }
            >
                {PositionKind::ALL.map(|kind| view! { <option value=kind.key()>{match kind {
                    PositionKind::RopeHalf => "RoPE, pairs (i, i+d/2)",
                    PositionKind::RopeInterleaved => "RoPE, pairs (2i, 2i+1)",
                    other => other.key(),
                }}</option> })}
            </select>
        </label>
        <Show when=move || base.get().is_some()>
            <label class="field">
                <span>"Base"</span>
                <input type="text" inputmode="decimal" data-control=base_control.clone() size="7"
                    prop:value=move || base.get().map(|b| b.to_string()).unwrap_or_default()
                    on:change=move |ev| set(kind.get_untracked(), Some(event_target_value(&ev)))/>
            </label>
        </Show>
        {move || error.get().map(|e| view! { <span class="field-error" role="alert">{e}</span> })}
        {move || offer.get().map(|(_, d_k)| view! {
            <span class="field-offer" role="alert">
                {format!("RoPE turns pairs of a query's components, so it needs an even dₖ (here {}). ", d_k - 1)}
                <button type="button" data-action="rope-even-dk" on:click=take_offer>{format!("Make dₖ {d_k} and use RoPE")}</button>
            </span>
        })}
    }
}

/// A control's edit, applied; refused, the control is set back to the model's state
/// (`restore`) and `refused` says why beside it, until the model next changes. The one path
/// for every control that applies an edit.
pub fn apply_or_say(
    state: AppState,
    edit: Edit,
    what: &str,
    refused: RwSignal<Option<String>>,
    restore: impl FnOnce(),
) {
    match state.apply(edit) {
        Ok(()) => refused.set(None),
        Err(e) => {
            restore();
            refused.set(Some(sentence(&format!("{what}: {e}"))));
        }
    }
}

/// Why a control's last edit was refused, beside it (`data-stat` names it); gone once the
/// model changes.
pub fn refusal(stat: String, refused: RwSignal<Option<String>>) -> impl IntoView {
    let state = use_app();
    Effect::new(move |_| {
        state.doc.model.track();
        refused.set(None);
    });
    move || {
        let stat = stat.clone();
        refused
            .get()
            .map(|e| view! { <span class="field-error" role="alert" data-stat=stat>{e}</span> })
    }
}
