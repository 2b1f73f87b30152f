//! The lab "why several heads?": what a head is, and the dog with a second hand-made head
//! (`core::model::presets::dog_two_heads`) in which "she" looks for something else. A fixed
//! example beside the learner's model, opened in the page with one click (undoable).

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::document::edit::Edit;
use crate::core::forward::trace::Trace;
use crate::core::i18n::keys;
use crate::core::model::presets::{dog_two_heads, DOG_SHE};
use crate::core::teaching::labs;
use crate::core::views::heatmap::Heat;
use crate::ui::labs::frame::{LabText, Stat};
use crate::ui::lang::{figure, with_figures};
use crate::ui::lang::{t, word};
use crate::ui::matrix::LabMatrix;
use crate::ui::state::use_app;

/// What the page says about this lab.
pub const TEXT: LabText = LabText {
    title: keys::labs::several_heads_title,
    short_title: keys::labs::several_heads_short_title,
    hint: keys::labs::several_heads_hint,
};

#[component]
pub fn SeveralHeadsLab() -> impl IntoView {
    let state = use_app();
    let model = dog_two_heads();
    let trace = Trace::of(&model);
    let words: Vec<String> = model.tokens().words.clone();
    // "she"'s row in each head: one row per head.
    let rows = DMatrix::from_fn(trace.heads.len(), words.len(), |h, j| {
        trace.heads[h].weights[(DOG_SHE, j)]
    });
    let ball = rows[(1, 4)];
    let heads = Signal::derive(|| (0..2).map(|h| word(&keys::labs::head(h))).collect());
    let refused = RwSignal::new(None::<crate::core::i18n::Msg>);
    let open = move |_| {
        refused.set(state.apply(Edit::Open(Box::new(dog_two_heads()))).err());
    };
    view! {
        <p>{t(keys::labs::heads_what)}</p>
        <p>{t(keys::labs::heads_here)}</p>
        // An exercise on the dog's weights would find its answer in head 0's row.
        {(!state.exercises.any()).then(move || view! {
            <LabMatrix
                of=labs::LabMatrix::TwoHeads
                title=keys::labs::she_weights
                values=Signal::stored(rows)
                words=heads
                columns=Signal::stored(words)
                heat=Heat::Unit
            />
            <p>
                {with_figures(
                    || keys::labs::heads_ball(figure(0)),
                    move |_| view! { <Stat name="heads_lab" value=Signal::stored(ball)/> }.into_any(),
                )}
            </p>
        })}
        <p>{t(keys::labs::heads_why)}</p>
        <p>
            <button type="button" data-action="open-two-heads" on:click=open>
                {t(keys::labs::open_two_heads)}
            </button>
            " "
            {t(keys::labs::undo_brings_back)}
            {move || refused.get().map(|e| view! { <span class="field-error" role="alert">{word(&e)}</span> })}
        </p>
    }
}
