//! The training lab: pick where tokens should look (or an output to match), then step or run an
//! optimiser (`core::training`, equal to PyTorch's autograd and `torch.optim`) and watch the
//! loss fall and every table move; race the scalings. A Run is one undo step; Reset goes back
//! to the numbers before training. Its settings are the store's `training` (in the link).

mod plot;
mod progress;
mod race;
mod runner;
mod settings;
mod targets;

use leptos::prelude::*;

use crate::core::i18n::keys;
use crate::core::model::presets::{DOG_DOG, DOG_SHE, DOG_SHE_WEIGHT_DOG};
use crate::core::training::lab::{dog_untrained, scrambled};
use crate::core::training::{Goal, Objective, Target};
use crate::ui::labs::frame::LabText;
use crate::ui::lang::{t, word};
use crate::ui::state::use_app;

use progress::TrainProgress;
use race::Race;
use runner::Runner;
use settings::TrainSettings;
use targets::Targets;

/// What the page says about this lab.
pub const TEXT: LabText = LabText {
    title: keys::labs::train_title,
    short_title: keys::labs::train_short_title,
    hint: keys::labs::train_hint,
};

/// The lab's body (its frame, `LabSection`, is the page's: it shows while this loads).
#[component]
pub fn TrainLab() -> impl IntoView {
    let state = use_app();
    let head = Memo::new(move |_| state.derived.visible_heads.with(|v| v[0]));
    let targets = Memo::new(move |_| {
        let (query, head) = (state.derived.followed_or_last.get(), head.get());
        state.view.training.with(|s| {
            state.doc.model.with(|m| {
                state
                    .derived
                    .trace
                    .with(|t| s.targets_on(m, t, query, head))
            })
        })
    });
    let objective = Memo::new(move |_| {
        targets.with(|t| {
            state
                .view
                .training
                .with(|s| state.doc.model.with(|m| s.objective(m, t)))
        })
    });
    // Targets the learner (or the link) set are the page's at once: the ∂L faces follow them.
    Effect::new(move |_| {
        let chosen = state
            .view
            .training
            .with(|s| !s.targets.is_empty() || s.output.is_some());
        let now = objective.get();
        if chosen && now.is_some() && state.view.objective.with_untracked(|o| *o != now) {
            state.view.objective.set(now);
        }
    });
    let matching = Memo::new(move |_| {
        objective.with(|o| {
            matches!(
                o,
                Some(Objective {
                    goal: Goal::Output(_),
                    ..
                })
            )
        })
    });
    let runner = Runner::new(targets, objective);
    let (session, running) = (runner.session, runner.running);
    // The dog story backwards: random projections of the dog's sizes, she → dog, then Run.
    let dog_backwards = move |_| {
        runner.start_over(dog_untrained(state.doc.seed.get_untracked()));
        state.view.followed.set(Some(DOG_SHE));
        state.view.training.update(|s| {
            s.output = None;
            s.targets = vec![Target {
                head: 0,
                query: DOG_SHE,
                key: DOG_DOG,
            }];
        });
        runner.run();
        session.update(|s| s.stop_at(DOG_SHE_WEIGHT_DOG));
    };
    let scramble = move |_| {
        runner.start_over(
            state
                .doc
                .model
                .with_untracked(|m| scrambled(m, state.doc.seed.get_untracked())),
        )
    };

    view! {
            <p class="explain">
                {move || (state.preset() == Some("dog")).then(|| format!("{} ", word(&keys::labs::train_mimic.into())))}
                {t(keys::labs::train_what)}
            </p>
            <TrainSettings matching/>
            {move || if matching.get() {
                view! {
                    <p class="train-output">
                        {t(keys::labs::train_output)}
                        " "
                        <button type="button" data-action="train-scramble" on:click=scramble>{t(keys::labs::new_projections)}</button>
                    </p>
                }.into_any()
            } else {
                view! { <Targets targets=targets/> }.into_any()
            }}
            <div class="field buttons train-buttons">
                <button type="button" data-action="train-step" disabled=move || running.get() || objective.with(Option::is_none) on:click=move |_| runner.step_once()>{t(keys::labs::step)}</button>
                <button type="button" data-action="train-run" disabled=move || objective.with(Option::is_none) aria-pressed=move || running.get().to_string() on:click=move |_| runner.toggle()>
                    {move || word(&if running.get() { keys::labs::pause } else { keys::labs::run }.into())}
                </button>
                <button type="button" data-action="train-reset" on:click=move |_| runner.reset() title=t(keys::labs::reset_title)>{t(keys::labs::reset)}</button>
            </div>
            <TrainProgress session objective targets matching/>
            <p>
                <button type="button" data-action="train-dog" on:click=dog_backwards>{t(keys::labs::train_dog)}</button>
                // The tutorial's number is an answer while an exercise is open on the page.
                " "
                {move || word(&if state.exercises.any() {
                    keys::labs::train_dog_note_hidden.into()
                } else {
                    keys::labs::train_dog_note(DOG_SHE_WEIGHT_DOG)
                })}
            </p>
            <Race objective=objective/>
    }
}
