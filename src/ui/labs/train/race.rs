//! Race the scalings: the lab's objective from the numbers as they are, trained under no
//! scaling, ÷√dₖ and ÷dₖ for the same steps (`core::training::Race`, a step of each per frame,
//! so the page keeps answering), three curves on one plot and what the measured numbers mean.

use leptos::prelude::*;

use crate::core::document::edit::Edit;
use crate::core::i18n::{keys, Msg};
use crate::core::model::{Model, Scale};
use crate::core::training::lab::race::{race_example, race_words, Race, RACE_SCALES, RACE_STEPS};
use crate::core::training::Objective;
use crate::ui::fields::{apply_or_say, refusal};
use crate::ui::labs::frame::Stat;
use crate::ui::lang::{figure, with_figures};
use crate::ui::lang::{symbol, t, word};
use crate::ui::state::use_app;
use crate::ui::tasks::each_frame;

use super::plot::LossPlot;

#[component]
pub fn Race(
    /// The lab's objective on the model as it is (`None`: no target fits).
    objective: Memo<Option<Objective>>,
) -> impl IntoView {
    let state = use_app();
    // The race, and the model it started from (the words are written once it has finished).
    let race = RwSignal::new(None::<(Race, Model)>);
    let words = RwSignal::new(Vec::<Msg>::new());
    // Which race is the latest: an earlier one's frames stop.
    let latest = StoredValue::new(0_usize);
    let start = move || {
        let Some(objective) = objective.get_untracked() else {
            return;
        };
        let optimizer = state.view.training.with_untracked(|s| s.optimizer);
        let model = state.doc.model.get_untracked();
        words.set(Vec::new());
        race.set(Some((
            Race::start(&model, &objective, optimizer, RACE_STEPS),
            model,
        )));
        latest.update_value(|n| *n += 1);
        run_frames(race, words, latest, latest.get_value());
    };
    let refused = RwSignal::new(None::<crate::core::i18n::Msg>);
    let example = move |_| {
        let (model, setup) = race_example();
        apply_or_say(
            state,
            Edit::Open(Box::new(model)),
            keys::labs::not_loaded,
            refused,
            || {},
        );
        if refused.with_untracked(Option::is_none) {
            state.view.training.set(setup);
            start();
        }
    };
    let curves = Signal::derive(move || {
        race.with(|r| {
            r.as_ref().map_or_else(Vec::new, |(r, _)| {
                r.lanes()
                    .iter()
                    .map(|l| (l.scale.key(), l.losses.clone()))
                    .collect()
            })
        })
    });
    let steps = move || race.with(|r| r.as_ref().map_or(0, |(r, _)| r.steps()));
    let lane = move |k: usize| {
        let read = move |f: fn(&crate::core::training::lab::race::Lane) -> f64| {
            Signal::derive(move || {
                race.with(|r| r.as_ref().map_or(f64::NAN, |(r, _)| f(&r.lanes()[k])))
            })
        };
        let scale = RACE_SCALES[k];
        view! {
            <li class=format!("choice-{}", scale.key())>
                <span class="swatch"></span>
                {with_figures(
                    || keys::labs::race_lane(figure(0), figure(1), figure(2)),
                    move |i| match i {
                        // "none" is a word; ÷√dₖ and ÷dₖ are symbols.
                        0 => match scale {
                            Scale::None => view! { <strong>{word(&keys::settings::no_scaling.into())}</strong> }.into_any(),
                            _ => view! { <strong>{symbol(scale.label())}</strong> }.into_any(),
                        },
                        1 => view! { <Stat name=format!("race_loss_{}", scale.key()) value=read(|l| *l.losses.last().unwrap_or(&f64::NAN))/> }.into_any(),
                        _ => view! { <Stat name=format!("race_grad_{}", scale.key()) value=read(|l| l.grad_w_query)/> }.into_any(),
                    },
                )}
            </li>
        }
    };
    let stale = move || {
        race.with(|r| {
            r.as_ref()
                .is_some_and(|(_, from)| state.doc.model.with(|m| m != from))
        })
    };
    view! {
        <h3>{t(keys::labs::race_title)}</h3>
        <p>{move || crate::ui::lang::word(&keys::labs::race_what(RACE_STEPS))}</p>
        <p class="buttons">
            <button type="button" data-action="train-race" disabled=move || objective.with(Option::is_none) on:click=move |_| start()>{t(keys::labs::race_title)}</button>
            <button type="button" data-action="train-race-example" on:click=example>{t(keys::labs::race_example)}</button>
            {refusal("race-refused".into(), refused)}
        </p>
        <LossPlot curves=curves label=keys::labs::race_label empty=keys::labs::race_empty>
            {move || race.with(|r| r.is_some()).then(|| view! {
                <span>
                    {with_figures(
                        move || {
                            let said = if stale() { keys::labs::race_steps_stale } else { keys::labs::race_steps };
                            said(figure(0), RACE_STEPS)
                        },
                        move |_| view! { <span data-stat="race_steps">{steps}</span> }.into_any(),
                    )}
                </span>
                <ul class="race-legend">{(0..RACE_SCALES.len()).map(lane).collect_view()}</ul>
            })}
        </LossPlot>
        <div class="race-words" data-stat="race_words">
            {move || words.get().into_iter().map(|w| view! { <p>{word(&w)}</p> }).collect_view()}
        </div>
    }
}

/// Steps the race once a frame until it has taken [`RACE_STEPS`], then writes its words; a new
/// race (`latest` is no longer `this`) or the lab gone ends this one.
fn run_frames(
    race: RwSignal<Option<(Race, Model)>>,
    words: RwSignal<Vec<Msg>>,
    latest: StoredValue<usize>,
    this: usize,
) {
    each_frame((), move |()| {
        if latest.try_get_value() != Some(this) {
            return None;
        }
        let done = race
            .try_update(|r| {
                let (r, _) = r.as_mut()?;
                r.step();
                Some(r.done())
            })
            .flatten()?;
        if !done {
            return Some(());
        }
        race.with_untracked(|r| {
            if let Some((r, from)) = r {
                words.set(race_words(r.lanes(), from, r.objective()));
            }
        });
        None
    });
}
