//! The page root: reads the link and the saved work, builds the store, installs the scripting
//! API, and lays out the steps from the pipeline catalogue, each lab after its step.

use leptos::prelude::*;

use crate::core::document::edit::Session;
use crate::core::formats::link::Controls as Level;
use crate::core::formats::link::{self, Link};
use crate::core::i18n::keys::{exercises, page, settings};
use crate::core::i18n::Msg;
use crate::core::model::presets::{matching, PRESETS};
use crate::core::views::pipeline::Step;
use crate::ui::controls::Controls;
use crate::ui::exercises::engine::exercise_engine;
use crate::ui::fields::clause;
use crate::ui::intro::Intro;
use crate::ui::lang::{t, word};
use crate::ui::on_demand::{Loaded, LoadedNear, Opening};
use crate::ui::page_tools::page_tools;
use crate::ui::prerendered::Handover;
use crate::ui::pretrained::language::LanguageModelInEmbed;
use crate::ui::pretrained::PretrainedInEmbed;
use crate::ui::state::{use_app, AppState};
use crate::ui::{embed, labs, scroll, steps, theme};

/// The whole page: controls, then the pipeline top to bottom; embedded (`embed=1`), only the
/// steps asked for, with the controls asked for.
#[component]
pub fn App(
    /// What the visit opens ([`crate::ui::share::opening`]); `None` when the link's reader could not be
    /// fetched: then the default example, and the link and saved work are left as they are.
    opened: Option<link::Opening>,
) -> impl IntoView {
    let unread = opened.is_none();
    let opened = opened.unwrap_or_else(link::unread_opening);
    let start = opened.start;
    let colours = start.theme;
    theme::apply(colours);
    // "Reset to the example" opens the link's preset: the default one under saved work.
    let example = start
        .preset
        .filter(|_| !opened.restored)
        .unwrap_or(PRESETS[0].name);
    let embed = start.embed;
    let mut state = AppState::new(
        start.model.clone(),
        &start.shown,
        example,
        start.walk && !embed,
        embed,
    );
    state.doc.pretrained.set(start.pretrained.clone());
    state.page.trained_example = start
        .pretrained
        .clone()
        .filter(|_| embed)
        .map(|p| &*p.leak());
    // Once per page: the embed's steps, for their badges.
    state.page.numbered = start
        .steps
        .clone()
        .filter(|_| embed)
        .map(|s| &*Vec::leak(s));
    state.page.controls = start.controls();
    state.page.link_unread = unread;
    state.exercises.open(start.exercises.clone());
    state
        .doc
        .session
        .set_value(Session::new(start.exercises.locks.clone()));
    // The training lab leaves locked matrices alone (a step that moved one would be refused).
    let locks = &start.exercises.locks;
    if !locks.is_empty() {
        state
            .view
            .training
            .update(|t| t.train.retain(|p| !locks.contains(&p.matrix())));
    }
    // A link's target is the page's from the first paint (its ∂L faces, the loss, Copy as
    // PyTorch's backward), before the training lab has loaded.
    let setup = state.view.training.get_untracked();
    if !setup.targets.is_empty() {
        let objective = state
            .doc
            .model
            .with_untracked(|m| setup.objective(m, &setup.targets));
        state.view.objective.set(objective);
    }
    state.provide();
    let opening = Opening::provide();
    theme::follow_colour_scheme(state.view.look.palette, colours);
    // `at=STEP` (the full explorer opened from an embed): once the page is laid out, and again
    // once the labs above it have come (a browser without scroll anchoring would move it).
    if let Some(step) = start.at {
        request_animation_frame(move || scroll::scroll_to(step.id()));
        opening.when_ready(move || scroll::scroll_to(step.id()));
    }

    let chosen = start.steps.clone();
    let shown: Vec<Step> = Step::ALL
        .into_iter()
        .filter(|step| chosen.as_ref().is_none_or(|s| s.contains(step)))
        .collect();
    // Its head, then each step with its labs.
    let handover = Handover::new(1 + shown.len(), opening);
    // The link's messages one after another, each in the page's language.
    let message = (!start.messages.is_empty()).then(|| {
        let messages = start.messages.clone();
        move || messages.iter().map(word).collect::<Vec<_>>().join(" ")
    });
    let restored = opened.restored;
    // The settings open folded, unless the link or the saved work opened more than an example
    // as it is (a model of its own, a trained layer, exercises): then they are what it is about.
    let unfolded = matching(&start.model).is_none()
        || start.pretrained.is_some()
        || !start.exercises.is_empty();
    let restorable = RwSignal::new(opened.restorable);
    let level = start.controls();
    view! {
        <main class:embedded=embed>
            {(!embed).then(Intro)}
            {embed.then(|| view! { <h1 class="visually-hidden">{t(page::title)}</h1> })}
            {message.map(|m| view! { <p class="load-message" role="alert">{m}</p> })}
            <SavedWork restored restorable/>
            {state.exercises.any().then(|| view! { <Loaded load=exercise_engine what=exercises::the_exercises/> })}
            {(!embed).then(|| view! {
                <details class="contents">
                    <summary>{t(page::contents)}</summary>
                    <LoadedNear load=steps::pipeline_nav what=page::contents soon=true/>
                </details>
            })}
            <Controls level unfolded/>
            // The settings hold the trained model's button; an embed without them opens it too.
            {(embed && level != Level::All).then(PretrainedInEmbed)}
            {(embed && level != Level::All).then(LanguageModelInEmbed)}
            // Each lab follows its step, except in an embed.
            {shown
                .into_iter()
                .enumerate()
                .map(|(part, step)| view! {
                    <Show when=move || handover.built(part + 1)>
                        {steps::render(step)}
                        {(!embed).then(|| step.labs().iter().map(|&lab| labs::render(lab)).collect_view())}
                    </Show>
                })
                .collect_view()}
            {embed.then(embed::open_full::OpenFull)}
            <Loaded load=page_tools what=settings::the_page_tools quiet=true/>
        </main>
    }
}

/// Says when the learner's saved work was restored, or offers it back when a link opened
/// another model (one click, undoable like any other change).
#[component]
fn SavedWork(restored: bool, restorable: RwSignal<Option<Link>>) -> impl IntoView {
    let state = use_app();
    // Why a click changed nothing (an exercise's lock).
    let refused = RwSignal::new(None::<Msg>);
    let restore = move |_| {
        if let Some(saved) = restorable.get_untracked() {
            match state.open(&saved) {
                Ok(()) => restorable.set(None),
                Err(e) => refused.set(Some(page::not_restored(clause(e)))),
            }
        }
    };
    let reset = move |_| {
        refused.set(state.reset().err().map(|e| page::not_reset(clause(e))));
    };
    view! {
        {restored.then(|| view! {
            <p class="work-note" role="status">
                {t(page::work_back)} " "
                <button type="button" data-action="reset" on:click=reset>{t(page::reset_example)}</button>
            </p>
        })}
        <Show when=move || restorable.with(Option::is_some)>
            <p class="work-note" role="status">
                {t(page::link_own_model)} " "
                <button type="button" data-action="restore" on:click=restore>{t(page::restore_work)}</button>
            </p>
        </Show>
        {move || refused.get().map(|e| view! { <p class="work-note field-error" role="alert" data-stat="work-refused">{word(&e)}</p> })}
    }
}
