//! The training lab's progress: the loss and the first target's weight now, the steps taken,
//! why a step was refused, and the loss curve of the run that made the page's numbers.

use leptos::prelude::*;

use crate::core::i18n::keys::labs;
use crate::core::training::lab::curve::how_it_fell;
use crate::core::training::lab::session::{first_weight, Session};
use crate::core::training::{Objective, Target};
use crate::ui::labs::frame::Stat;
use crate::ui::lang::{t, word};
use crate::ui::state::use_app;

use super::plot::LossPlot;

/// The progress of `session` towards `objective` (`targets`' first is the weight shown, unless
/// `matching` an output).
#[component]
pub(super) fn TrainProgress(
    session: RwSignal<Session>,
    objective: Memo<Option<Objective>>,
    targets: Memo<Vec<Target>>,
    matching: Memo<bool>,
) -> impl IntoView {
    let state = use_app();
    let loss = Signal::derive(move || {
        objective.with(|o| {
            o.as_ref()
                .map_or(f64::NAN, |o| state.derived.trace.with(|t| o.loss(t)))
        })
    });
    // The first target's weight now.
    let first = Memo::new(move |_| targets.with(|t| t.first().copied()));
    let weight = Signal::derive(move || {
        objective.with(|o| {
            o.as_ref().map_or(f64::NAN, |o| {
                state.derived.trace.with(|t| first_weight(t, o))
            })
        })
    });
    let steps = Memo::new(move |_| session.with(|s| s.losses().len()));
    // Each step's loss is taken before it: the loss now ends the curve (a last step that sent
    // it to 1e16 is on it, as the number above says).
    let curves = Memo::new(move |_| {
        session.with(|s| {
            if s.losses().is_empty() {
                return Vec::new();
            }
            let mut l = s.losses().to_vec();
            l.push(loss.get());
            vec![("loss", l)]
        })
    });
    let token = move |k: usize| {
        state
            .derived
            .words
            .with(|w| w.get(k).cloned().unwrap_or_default())
    };
    view! {
    <p>
        {t(labs::loss_now)} " " <Stat name="loss" value=loss/>
        {move || (!matching.get()).then(|| view! {
            " · " {t(labs::weight_now)} " " {move || first.get().map(|t| format!("“{}” → “{}”", token(t.query), state.derived.key_words.with(|w| w.get(t.key).cloned().unwrap_or_default())))} " " <Stat name="target_weight" value=weight/>
        })}
        // After a reload the model may be trained, but its curve is not kept: said so.
        " · " {move || if steps.get() == 0 { word(&labs::no_steps_yet.into()) } else { format!("{} ", word(&labs::steps_taken.into())) }}
        <span data-stat="train_steps" hidden=move || steps.get() == 0>{move || steps.get()}</span>
    </p>
    {move || session.with(|s| s.refused().cloned()).map(|e| view! { <p class="field-error train-refused" role="alert" data-stat="train_refused">{word(&e)}</p> })}
    <LossPlot curves=curves label=labs::loss_label empty=labs::loss_empty>
        {t(labs::loss_caption)}
        {move || curves.with(|c| c.first().and_then(|(_, l)| how_it_fell(l))).map(|fell| format!(" {}", word(&fell.into())))}
        {move || (!matching.get()).then(|| format!(" {}", word(&labs::never_one.into())))}
    </LossPlot>
    }
}
