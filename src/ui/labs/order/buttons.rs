//! The buttons that reorder the words: shuffle, swap the first two, reverse.

use leptos::prelude::*;

use crate::core::teaching::order::Reorder;

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
            <button type="button" data-action="order-shuffle" on:click=shuffle>"Shuffle the words"</button>
            <button type="button" data-action="order-swap" on:click=move |_| how.set(Reorder::Swap(0, 1))>"Swap the first two"</button>
            <button type="button" data-action="order-reverse" on:click=move |_| how.set(Reorder::Reverse)>"Reverse"</button>
        </div>
    }
}
