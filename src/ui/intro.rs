//! The page's opening: what attention is for, in plain words, then its result on the page's own
//! numbers (where the followed token looks, and why, told from the numbers), with one invitation
//! to act on it; the lesson's walk starts here. Meaning first, the steps that make it below.

use leptos::prelude::*;

use crate::core::i18n::keys::{intro, page};
use crate::ui::lang::picker::LangPicker;
use crate::ui::lang::{t, word};
use crate::ui::lines::AttentionLines;
use crate::ui::state::use_app;
use crate::ui::walk::Walk;

#[component]
pub fn Intro() -> impl IntoView {
    let state = use_app();
    let head = Memo::new(move |_| state.derived.visible_heads.with(|v| v[0]));
    // Where this model's numbers come from: said, since a learner may take hand-made for learned.
    let origin = move || {
        if state.structure(|m| m.layered().is_some()) {
            intro::origin_learned
        } else if state.preset() == Some("dog") {
            intro::origin_by_hand
        } else {
            intro::origin_random
        }
    };
    let what_for = page::sentences(
        page::sentences(intro::what_for_1, intro::what_for_2),
        intro::what_for_3,
    );
    // An exercise's page opens on its questions: the result would give answers away.
    if state.exercises.any() {
        return view! {
            <header class="intro">
                <div class="title-bar"><h1>{t(page::title)}</h1><LangPicker/></div>
                <p>{t(intro::with_exercises)}</p>
                <Walk/>
            </header>
        }
        .into_any();
    }
    view! {
        <header class="intro">
            <div class="title-bar"><h1>{t(page::title)}</h1><LangPicker/></div>
            <div class="intro-grid">
                <div class="intro-text">
                    <p class="lead" data-stat="what-for">
                        {move || word(&what_for)}
                    </p>
                    <ol class="moves">
                        <li>{t(intro::move_embedding)}</li>
                        <li>{t(intro::move_qkv)}</li>
                        <li>{t(intro::move_scores)}</li>
                        <li>{t(intro::move_blend)}</li>
                    </ol>
                    <p>{move || word(&page::sentences(intro::below, origin()))}</p>
                    <Walk/>
                </div>
                <div class="payoff">
                    {move || view! { <AttentionLines head=head.get() opening=true/> }}
                    <p class="story" data-stat="story" data-says-numbers="">{move || state.story().map(|s| word(&s))}</p>
                    <p class="note">{t(intro::invite)}</p>
                </div>
            </div>
        </header>
    }
    .into_any()
}
