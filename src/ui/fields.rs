//! Form fields shared by the controls and the labs.

use leptos::html::Input;
use leptos::prelude::*;

use crate::core::document::edit::Edit;
use crate::core::document::numbers::whole;
use crate::core::i18n::keys::{edits, settings};
use crate::core::i18n::{Arg, Msg};
use crate::core::model::limits::MAX_DIM;
use crate::core::model::positions::{PositionKind, DEFAULT_BASE};
use crate::core::model::Model;
use crate::ui::lang::Label;
use crate::ui::lang::{t, word};
use crate::ui::state::{use_app, AppState};

/// A whole-number field that keeps the last good value while its text is wrong: the text stays
/// as typed, marked invalid, with a message naming the allowed range, until it is corrected or
/// the value changes elsewhere (undo, a preset). `on_change` may refuse a number with a message
/// (or a text not yet in the catalogue).
#[component]
pub fn IntegerField(
    control: &'static str,
    #[prop(into)] label: Label,
    min: u64,
    max: u64,
    value: Signal<u64>,
    on_change: Callback<u64, Result<(), Arg>>,
) -> impl IntoView {
    view! { <NumberField control=control label=label numeric="numeric" read=Callback::new(move |t: String| whole(&t, min, max)) value=value on_change=on_change/> }
}

/// A number field (`read` turns its text into a number, or says why: a message, or a text not
/// yet in the catalogue) that keeps the last good value while its text is wrong, as
/// [`IntegerField`]; `numeric` is the phone keyboard's `inputmode` (`numeric`, `decimal`).
#[component]
pub fn NumberField<T, E>(
    control: &'static str,
    #[prop(into)] label: Label,
    numeric: &'static str,
    read: Callback<String, Result<T, E>>,
    value: Signal<T>,
    on_change: Callback<T, Result<(), Arg>>,
) -> impl IntoView
where
    T: Copy + PartialEq + std::fmt::Display + Send + Sync + 'static,
    E: Into<Arg> + 'static,
{
    let input = NodeRef::<Input>::new();
    let error = RwSignal::new(None::<Msg>);
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
        let result = read
            .run(event_target_value(&ev))
            .map_err(Into::into)
            .and_then(|n| {
                if n == value.get_untracked() {
                    Ok(())
                } else {
                    on_change.run(n)
                }
            });
        error.set(
            result
                .err()
                .map(|e| settings::still_using(label, e, value.get_untracked())),
        );
    };
    view! {
        <label class="field">
            <span>{move || label.word()}</span>
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
            {move || error.get().map(|e| view! { <span class="field-error" id=error_id.clone() role="alert">{word(&e)}</span> })}
        </label>
    }
}

/// An `on_change` for a field whose every in-range number is fine.
pub fn accept(set: impl Fn(u64) + Send + Sync + 'static) -> Callback<u64, Result<(), Arg>> {
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
    let kind = Memo::new(move |_| state.structure(|m| m.positions().kind()));
    let base = Memo::new(move |_| state.structure(|m| m.positions().base()));
    let error = RwSignal::new(None::<Msg>);
    // RoPE refused for an odd dₖ: the kind asked for and the dₖ that would take it.
    let offer = RwSignal::new(None::<(PositionKind, usize)>);
    let set = move |kind: PositionKind, text: Option<String>| {
        offer.set(None);
        let base = match text {
            Some(t) => match t.trim().replace('_', "").parse::<f64>() {
                Ok(b) => b,
                Err(_) => {
                    error.set(Some(settings::base_not_number(t)));
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
            error.set(refused.map(settings::positions_refused));
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
            error.set(Some(settings::d_k_refused(e)));
        } else {
            set(kind, None);
        }
    };
    let base_control = format!("{control}-base");
    view! {
        <label class="field">
            <span>{t(settings::positions)}</span>
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
                {PositionKind::ALL.map(|kind| view! { <option value=kind.key()>{t(match kind {
                    PositionKind::None => settings::positions_none,
                    PositionKind::Sinusoidal => settings::positions_sinusoidal,
                    PositionKind::Learned => settings::positions_learned,
                    PositionKind::RopeHalf => settings::rope_half,
                    PositionKind::RopeInterleaved => settings::rope_interleaved,
                })}</option> })}
            </select>
        </label>
        <Show when=move || base.get().is_some()>
            <label class="field">
                <span>{t(settings::base)}</span>
                <input type="text" inputmode="decimal" data-control=base_control.clone() size="7"
                    prop:value=move || base.get().map(|b| b.to_string()).unwrap_or_default()
                    on:change=move |ev| set(kind.get_untracked(), Some(event_target_value(&ev)))/>
            </label>
        </Show>
        {move || error.get().map(|e| view! { <span class="field-error" role="alert">{word(&e)}</span> })}
        {move || offer.get().map(|(_, d_k)| view! {
            <span class="field-offer" role="alert">
                {move || word(&settings::rope_needs_even_d_k(d_k - 1))} " "
                <button type="button" data-action="rope-even-dk" on:click=take_offer>{move || word(&settings::make_d_k_even(d_k))}</button>
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
    what: impl Into<Label>,
    refused: RwSignal<Option<Msg>>,
    restore: impl FnOnce(),
) {
    match state.apply(edit) {
        Ok(()) => refused.set(None),
        Err(e) => {
            restore();
            refused.set(Some(settings::refused(what.into(), clause(e))));
        }
    }
}

/// A refusal of the core's as a clause of another sentence: an exercise's lock says it in a
/// sentence of its own, full stop included.
pub fn clause(why: Msg) -> Msg {
    match why.args.as_slice() {
        [matrix, free] if why.key == edits::locked("", "").key => {
            edits::locked_clause(matrix.clone(), free.clone())
        }
        _ => why,
    }
}

/// Why a control's last edit was refused, beside it (`data-stat` names it); gone once the
/// model changes.
pub fn refusal(stat: String, refused: RwSignal<Option<Msg>>) -> impl IntoView {
    let state = use_app();
    // The model is tracked only while a refusal is shown: an edit wakes no control's effect.
    let shown = Memo::new(move |_| refused.with(Option::is_some));
    Effect::new(move |was_shown: Option<bool>| {
        let now = shown.get();
        if now {
            state.doc.model.track();
            // Shown already when the model changed (not this refusal arriving): it goes.
            if was_shown == Some(true) {
                refused.set(None);
            }
        }
        now
    });
    move || {
        let stat = stat.clone();
        refused.get().map(
            |e| view! { <span class="field-error" role="alert" data-stat=stat>{word(&e)}</span> },
        )
    }
}
