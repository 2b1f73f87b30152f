//! The training lab's settings: the goal (attention weights or an output to match), what
//! trains, the optimiser and its learning rate (a bad rate is said beside it, the last good one
//! kept). They are the store's `training`, which the link carries.

use leptos::prelude::*;

use crate::core::i18n::keys::labs;
use crate::core::i18n::Msg;
use crate::core::training::lab::Setup;
use crate::core::training::Optimizer;
use crate::ui::lang::{t, word};
use crate::ui::state::use_app;

use super::targets::Trains;

/// The settings' row; `matching`: the goal is an output to match.
#[component]
pub(super) fn TrainSettings(matching: Memo<bool>) -> impl IntoView {
    let state = use_app();
    let set_goal = move |ev: leptos::ev::Event| {
        let output = (event_target_value(&ev) == "output")
            .then(|| state.derived.trace.with_untracked(|t| t.output.clone()));
        state.view.training.update(|s| s.output = output);
    };
    let lr_text = RwSignal::new(
        state
            .view
            .training
            .with_untracked(|s| s.optimizer.lr())
            .to_string(),
    );
    let lr_error = RwSignal::new(None::<Msg>);
    let set_optimizer = move |name: &str, lr: f64| {
        if let Ok(o) = Optimizer::named(Some(name), lr) {
            state.view.training.update(|s| s.optimizer = o);
        }
    };
    view! {
    <div class="lab-controls">
        <label class="field">
            <span>{t(labs::goal)}</span>
            <select data-control="train-goal" on:change=set_goal>
                <option value="attend" selected=move || !matching.get()>{t(labs::goal_attend)}</option>
                <option value="output" selected=move || matching.get()>{t(labs::goal_output)}</option>
            </select>
        </label>
        <Trains/>
        <label class="field">
            <span>{t(labs::optimiser)}</span>
            <select data-control="train-optimizer" on:change=move |ev| set_optimizer(&event_target_value(&ev), state.view.training.with_untracked(|s| s.optimizer.lr()))>
                {["adam", "sgd"].map(|name| view! {
                    <option value=name selected=move || state.view.training.with(|s| s.optimizer.name() == name)>{if name == "adam" { "Adam" } else { "SGD" }}</option>
                })}
            </select>
        </label>
        <label class="field">
            <span>{t(labs::learning_rate)}</span>
            <input type="text" data-control="train-lr" prop:value=move || lr_text.get() aria-invalid=move || lr_error.with(|e| e.is_some().then_some("true")) on:input=move |ev| {
                let text = event_target_value(&ev);
                let (name, lr) = state.view.training.with_untracked(|s| (s.optimizer.name(), s.optimizer.lr()));
                match Setup::read_lr(&text) {
                    Ok(x) => { lr_error.set(None); set_optimizer(name, x); }
                    Err(e) => lr_error.set(Some(labs::still_using(e, lr))),
                }
                lr_text.set(text);
            }/>
            {move || lr_error.get().map(|e| view! { <span class="field-error" role="alert">{move || word(&e)}</span> })}
        </label>
    </div>
    }
}
