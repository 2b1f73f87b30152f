//! The buttons that reorder the words: shuffle, swap the first two, reverse.

use leptos::prelude::*;

use crate::core::i18n::keys::labs;
use crate::core::teaching::order::Reorder;
use crate::ui::lang::t;

/// The reorderings the lab offers: a new shuffle each press, a swap of the first two, reverse.
#[component]
pub(super) fn ReorderButtons(how: RwSignal<Reorder>) -> impl IntoView {
    let shuffles = StoredValue::new(1u64);
    let shuffle = move |_| {
        shuffles.update_value(|s| *s += 1);
        how.set(Reorder::Shuffle(shuffles.get_value()));
    };
    view! {
        <div class="field buttons">
            <button type="button" data-action="order-shuffle" on:click=shuffle>{t(labs::shuffle)}</button>
            <button type="button" data-action="order-swap" on:click=move |_| how.set(Reorder::Swap(0, 1))>{t(labs::swap)}</button>
            <button type="button" data-action="order-reverse" on:click=move |_| how.set(Reorder::Reverse)>{t(labs::reverse)}</button>
        </div>
    }
}
