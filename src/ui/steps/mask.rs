//! Step 7: the causal mask, and the tutorial's two ways to apply it side by side.

use leptos::prelude::*;

use crate::core::document::edit::Edit;
use crate::core::i18n::keys::{steps, views};
use crate::core::i18n::Msg;
use crate::core::model::Matrix;
use crate::core::views::pipeline::Step;
use crate::ui::lang::{t, word};
use crate::ui::state::use_app;
use crate::ui::steps::frame::{HeadMatrices, StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: steps::mask_short_title,
    formula: steps::mask_formula,
    explain: steps::mask_explain,
    hint: steps::mask_hint,
    dog: None,
    lab: Some(steps::mask_lab),
};

#[component]
pub fn MaskStep() -> impl IntoView {
    let state = use_app();
    let causal = state.derived.causal;
    let has_source = Memo::new(move |_| state.structure(|m| m.source().is_some()));
    let refused = RwSignal::new(None::<Msg>);
    view! {
        <StepSection step=Step::Mask text=&TEXT>
            <Show
                when=move || causal.get()
                fallback=move || if has_source.get() {
                    view! {
                        <p class="note" data-note="no-mask-with-source">{t(views::no_mask_with_source)}</p>
                    }.into_any()
                } else {
                    view! {
                        <p class="note">
                            {t(views::causal_off)}" "
                            <button type="button" data-action="causal-on" on:click=move |_| refused.set(state.apply(Edit::Causal(true)).err())>{t(views::causal_on)}</button>
                            {move || refused.get().map(|e| view! { <span class="field-error" role="alert">{word(&e)}</span> })}
                        </p>
                    }.into_any()
                }
            >
                <HeadMatrices of=Matrix::MaskedScores/>
                <h3>{t(views::mask_method_1)}</h3>
                <div class="side-by-side">
                <HeadMatrices of=Matrix::MaskedWeightsSimple/>
                <HeadMatrices of=Matrix::MaskedWeightsRenormalized/>
                </div>
                <p class="note">{t(views::mask_method_2)}</p>
            </Show>
        </StepSection>
    }
}
