//! Race the scalings: the lab's objective from the numbers as they are, trained under no
//! scaling, ÷√dₖ and ÷dₖ for the same steps (`core::training::race`), three curves on one plot
//! and what the measured numbers mean in words.

use leptos::prelude::*;

use crate::core::edit::Edit;
use crate::core::gradient::Objective;
use crate::core::training::{race, race_example, race_words, Lane, RACE_STEPS};
use crate::ui::labs::frame::Stat;
use crate::ui::state::use_app;

use super::plot::LossPlot;

/// What a race found: each scaling's run and the words for them.
type Result = (Vec<Lane>, Vec<String>);

#[component]
pub fn Race(
    /// The lab's objective on the model as it is (`None`: no target fits).
    objective: Memo<Option<Objective>>,
) -> impl IntoView {
    let state = use_app();
    let result = RwSignal::new(None::<Result>);
    let run = move || {
        let Some(objective) = objective.get_untracked() else {
            return;
        };
        let optimizer = state.training.with_untracked(|s| s.optimizer);
        result.set(Some(state.model.with_untracked(|m| {
            let lanes = race(m, &objective, optimizer, RACE_STEPS);
            let words = race_words(&lanes, m, &objective);
            (lanes, words)
        })));
    };
    let example = move |_| {
        let (model, setup) = race_example();
        state.apply(Edit::Open(Box::new(model))).ok();
        state.training.set(setup);
        run();
    };
    let curves = Signal::derive(move || {
        result.with(|r| {
            r.as_ref().map_or_else(Vec::new, |(lanes, _)| {
                lanes
                    .iter()
                    .map(|l| (l.scale.key(), l.losses.clone()))
                    .collect()
            })
        })
    });
    let lane = move |k: usize| {
        let last = move || {
            result.with(|r| {
                r.as_ref()
                    .map_or(f64::NAN, |(l, _)| *l[k].losses.last().unwrap_or(&f64::NAN))
            })
        };
        let grad = move || result.with(|r| r.as_ref().map_or(f64::NAN, |(l, _)| l[k].grad_w_query));
        let scale = crate::core::training::RACE_SCALES[k];
        view! {
            <li class=format!("choice-{}", scale.key())>
                <span class="swatch"></span>
                <strong>{scale.label()}</strong>
                ": loss after " {RACE_STEPS} " steps " <Stat name=format!("race_loss_{}", scale.key()) value=Signal::derive(last)/>
                ", ‖∂L/∂W_query‖ at the start " <Stat name=format!("race_grad_{}", scale.key()) value=Signal::derive(grad)/>
            </li>
        }
    };
    view! {
        <h3>"Race the scalings"</h3>
        <p>
            "The tutorial says that without ÷√dₖ the softmax saturates and “gradients approach 0”. Try it: the same target from the same numbers, trained " {RACE_STEPS} " steps with each scaling."
        </p>
        <p class="buttons">
            <button type="button" data-action="train-race" disabled=move || objective.with(Option::is_none) on:click=move |_| run()>"Race the scalings"</button>
            <button type="button" data-action="train-race-example" on:click=example>"Load the race example and race"</button>
        </p>
        <LossPlot curves=curves label="Each scaling's loss at each step, on a log scale" empty="Race to draw three curves">
            {move || result.with(|r| r.is_some()).then(|| view! {
                <ul class="race-legend">{(0..3).map(lane).collect_view()}</ul>
            })}
        </LossPlot>
        <div class="race-words" data-stat="race_words">
            {move || result.with(|r| r.as_ref().map(|(_, words)| words.iter().map(|w| view! { <p>{w.clone()}</p> }).collect_view()))}
        </div>
    }
}
