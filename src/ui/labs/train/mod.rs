//! The training lab: pick where tokens should look (or an output to match), then step or run an
//! optimiser (`core::gradient`, equal to PyTorch's autograd and `torch.optim`) and watch the
//! loss fall and every table move; race the scalings. A Run is one undo step; Reset goes back
//! to the numbers before training. Its settings are the store's `training` (in the link).

mod plot;
mod race;
mod targets;

use leptos::prelude::*;

use crate::core::document::edit::Edit;
use crate::core::model::presets::{DOG_DOG, DOG_SHE, DOG_SHE_WEIGHT_DOG};
use crate::core::model::Model;
use crate::core::training::lab::dog_untrained;
use crate::core::training::lab::{how_it_fell, scrambled, Setup};
use crate::core::training::{Goal, Objective, Optimizer, Target, Trainer};
use crate::ui::labs::frame::{LabText, Stat};
use crate::ui::state::use_app;

use plot::LossPlot;
use race::Race;
use targets::{Targets, Trains};

/// What the page says about this lab.
pub const TEXT: LabText = LabText {
    title: "Lab: train the weights",
    short_title: "Train lab",
    hint: "Where weights come from: a real model's start random and are nudged, step by step, by training on a great deal of text. Press “Train the dog example from random weights”: from random numbers it trains, step by step, until “she” gives “dog” the hand-made 0.883, with other weights that do the same job. Or pick a key for the followed token to look at (it starts at the runner-up, so training pulls “she” away from “dog”), press Run, and watch the loss fall while every table above moves; Undo takes the whole run back. A real trained model is one click away in the settings (“Open a trained model”).",
};

/// A Run pauses by itself after this many steps (about four minutes at 64 tokens × 8 heads), so
/// a forgotten one does not run for ever.
const RUN_STEPS: usize = 10_000;

/// The lab's body (its frame, `LabSection`, is the page's: it shows while this loads).
#[component]
pub fn TrainLab() -> impl IntoView {
    let state = use_app();
    let head = Memo::new(move |_| state.visible_heads.with(|v| v[0]));
    let targets = Memo::new(move |_| {
        let (query, head) = (state.query.get(), head.get());
        state.training.with(|s| {
            state
                .model
                .with(|m| state.trace.with(|t| s.targets_on(m, t, query, head)))
        })
    });
    let objective = Memo::new(move |_| {
        targets.with(|t| {
            state
                .training
                .with(|s| state.model.with(|m| s.objective(m, t)))
        })
    });
    // Targets the learner (or the link) set are the page's at once: the ∂L faces follow them.
    Effect::new(move |_| {
        let chosen = state
            .training
            .with(|s| !s.targets.is_empty() || s.output.is_some());
        let now = objective.get();
        if chosen && now.is_some() && state.objective.with_untracked(|o| *o != now) {
            state.objective.set(now);
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
    let loss = Signal::derive(move || {
        objective.with(|o| {
            o.as_ref()
                .map_or(f64::NAN, |o| state.trace.with(|t| o.loss(t)))
        })
    });
    // The first target's weight now.
    let first = Memo::new(move |_| targets.with(|t| t.first().copied()));
    let weight = Signal::derive(move || {
        first.get().map_or(f64::NAN, |t: Target| {
            state.trace.with(|tr| {
                tr.heads
                    .get(t.head)
                    .and_then(|h| h.weights.get((t.query, t.key)).copied())
                    .unwrap_or(f64::NAN)
            })
        })
    });
    // The trainer, with the model its last step made and the objective it stepped towards, and
    // the numbers before the first step (Reset).
    let trainer = StoredValue::new(None::<(Trainer, Model, Objective)>);
    let before = StoredValue::new(None::<Model>);
    let losses = RwSignal::new(Vec::<f64>::new());
    // Why the last step was not taken (the model and the optimiser stay as they were).
    let refused = RwSignal::new(None::<String>);
    let running = RwSignal::new(false);
    // A Run towards the dog story stops where the tutorial's weight is.
    let until = StoredValue::new(None::<f64>);
    let step = move || {
        let Some(objective) = objective.get_untracked() else {
            return false;
        };
        // Training changes which key is second: the targets stay the ones trained towards.
        if state
            .training
            .with_untracked(|s| s.targets.is_empty() && s.output.is_none())
        {
            let fixed = targets.get_untracked();
            state.training.update(|s| s.targets = fixed);
        }
        let mut model = state.model.get_untracked();
        state.objective.set(Some(objective.clone()));
        let optimizer = state.training.with_untracked(|s| s.optimizer);
        // A new target or optimiser starts a new curve; another edit, a new optimiser state.
        // Taken, not copied: the trainer holds a model and Adam's moments.
        let kept = trainer
            .try_update_value(Option::take)
            .flatten()
            .filter(|(t, _, towards)| *towards == objective && t.optimizer() == optimizer);
        if kept.is_none() {
            losses.set(Vec::new());
            refused.set(None);
        }
        let mut t = kept
            .filter(|(_, last, _)| *last == model)
            .map(|(t, ..)| t)
            .unwrap_or_else(|| Trainer::new(optimizer));
        if before.with_value(Option::is_none) {
            before.set_value(Some(model.clone()));
        }
        let stepped = t.step(&mut model, &objective);
        trainer.set_value(Some((t, model.clone(), objective)));
        let loss = match stepped {
            Ok(g) => g.loss,
            Err(r) => {
                refused.set(Some(r.message()));
                return false;
            }
        };
        refused.set(None);
        losses.update(|l| l.push(loss));
        if let Err(e) = state.apply(Edit::Train(Box::new(model))) {
            refused.set(Some(e));
            return false;
        }
        let reached = until
            .get_value()
            .is_some_and(|goal| weight.get_untracked() >= goal);
        !reached
    };
    // The curve is of the run that made the numbers on the page: an Undo past it, or any
    // other change of the model, leaves numbers it did not make, so it goes.
    Effect::new(move |_| {
        let made = state
            .model
            .with(|m| trainer.with_value(|t| t.as_ref().is_some_and(|(_, last, _)| last == m)));
        if !made && !losses.with_untracked(Vec::is_empty) {
            losses.set(Vec::new());
            trainer.set_value(None);
        }
    });
    let stop = move || {
        running.set(false);
        until.set_value(None);
        state.apply(Edit::Seal).ok();
    };
    let run = move || {
        running.set(true);
        run_frames(step, running, stop, RUN_STEPS);
    };
    let reset = move |_| {
        stop();
        if let Some(model) = before.get_value() {
            state.apply(Edit::Open(Box::new(model))).ok();
            before.set_value(None);
        }
        trainer.set_value(None);
        losses.set(Vec::new());
        refused.set(None);
    };
    // A fresh start to train from: the projections drawn at random (the seed above).
    let start_over = move |model: Model| {
        stop();
        state.apply(Edit::Open(Box::new(model.clone()))).ok();
        before.set_value(Some(model));
    };
    // The dog story backwards: random projections of the dog's sizes, she → dog, then Run.
    let dog_backwards = move |_| {
        start_over(dog_untrained(state.seed.get_untracked()));
        state.selected.set(Some(DOG_SHE));
        state.training.update(|s| {
            s.output = None;
            s.targets = vec![Target {
                head: 0,
                query: DOG_SHE,
                key: DOG_DOG,
            }];
        });
        run();
        until.set_value(Some(DOG_SHE_WEIGHT_DOG));
    };
    let set_goal = move |ev: leptos::ev::Event| {
        let output = (event_target_value(&ev) == "output")
            .then(|| state.trace.with_untracked(|t| t.output.clone()));
        state.training.update(|s| s.output = output);
    };
    let scramble = move |_| {
        start_over(
            state
                .model
                .with_untracked(|m| scrambled(m, state.seed.get_untracked())),
        )
    };

    let lr_text = RwSignal::new(
        state
            .training
            .with_untracked(|s| s.optimizer.lr())
            .to_string(),
    );
    let lr_error = RwSignal::new(None::<String>);
    let set_optimizer = move |name: &str, lr: f64| {
        if let Ok(o) = Optimizer::named(Some(name), lr) {
            state.training.update(|s| s.optimizer = o);
        }
    };
    let curves = Signal::derive(move || {
        losses.with(|l| {
            if l.is_empty() {
                Vec::new()
            } else {
                vec![("loss", l.clone())]
            }
        })
    });
    let word = move |k: usize| state.words.with(|w| w.get(k).cloned().unwrap_or_default());
    view! {
            <p class="explain">
                {move || (state.preset() == Some("dog")).then_some("The dog example's hand-made weights “mimic where the weights might end up after training”, as the tutorial it comes from says. ")}
                "Where a real model's weights come from: they start random and are trained on a great deal of text, each step nudging every number so that the model predicts the next word a little better; no one tells a model to make “she” look at “dog”, it ends up doing so because that helps. Here you train towards a goal of your own: the loss is −ln of the weight from a token to the key you pick (the mean over several targets), or how far the output is from one to match, and each step moves every number that trains a little against its gradient (the same numbers PyTorch's autograd gives). Watch the tables above while it runs."
            </p>
            <div class="lab-controls">
                <label class="field">
                    <span>"Goal"</span>
                    <select data-control="train-goal" on:change=set_goal>
                        <option value="attend" selected=move || !matching.get()>"attention weights"</option>
                        <option value="output" selected=move || matching.get()>"match an output"</option>
                    </select>
                </label>
                <Trains/>
                <label class="field">
                    <span>"Optimiser"</span>
                    <select data-control="train-optimizer" on:change=move |ev| set_optimizer(&event_target_value(&ev), state.training.with_untracked(|s| s.optimizer.lr()))>
                        {["adam", "sgd"].map(|name| view! {
                            <option value=name selected=move || state.training.with(|s| s.optimizer.name() == name)>{if name == "adam" { "Adam" } else { "SGD" }}</option>
                        })}
                    </select>
                </label>
                <label class="field">
                    <span>"Learning rate"</span>
                    <input type="text" data-control="train-lr" prop:value=move || lr_text.get() aria-invalid=move || lr_error.with(|e| e.is_some().then_some("true")) on:input=move |ev| {
                        let text = event_target_value(&ev);
                        let (name, lr) = state.training.with_untracked(|s| (s.optimizer.name(), s.optimizer.lr()));
                        match Setup::read_lr(&text) {
                            Ok(x) => { lr_error.set(None); set_optimizer(name, x); }
                            Err(e) => lr_error.set(Some(format!("{e}; still using {lr}."))),
                        }
                        lr_text.set(text);
                    }/>
                    {move || lr_error.get().map(|e| view! { <span class="field-error" role="alert">{e}</span> })}
                </label>
            </div>
            {move || if matching.get() {
                view! {
                    <p class="train-output">
                        "The target is the output as it was when you chose this goal. Draw new projections at random (the seed above) and train back to it: "
                        <button type="button" data-action="train-scramble" on:click=scramble>"New random projections"</button>
                    </p>
                }.into_any()
            } else {
                view! { <Targets targets=targets/> }.into_any()
            }}
            <div class="field buttons train-buttons">
                <button type="button" data-action="train-step" disabled=move || running.get() || objective.with(Option::is_none) on:click=move |_| { step(); state.apply(Edit::Seal).ok(); }>"Step"</button>
                <button type="button" data-action="train-run" disabled=move || objective.with(Option::is_none) aria-pressed=move || running.get().to_string() on:click=move |_| if running.get_untracked() { stop() } else { run() }>
                    {move || if running.get() { "Pause" } else { "Run" }}
                </button>
                <button type="button" data-action="train-reset" on:click=reset title="The numbers from before training (Undo brings the trained ones back)">"Reset"</button>
            </div>
            <p>
                "Loss " <Stat name="loss" value=loss/>
                {move || (!matching.get()).then(|| view! {
                    " · weight " {move || first.get().map(|t| format!("“{}” → “{}”", word(t.query), state.key_words.with(|w| w.get(t.key).cloned().unwrap_or_default())))} " " <Stat name="target_weight" value=weight/>
                })}
                // After a reload the model may be trained, but its curve is not kept: said so.
                {move || if losses.with(Vec::is_empty) { " · no steps on this page yet (a curve is not kept in links or saved work)" } else { " · steps " }}
                <span data-stat="train_steps" hidden=move || losses.with(Vec::is_empty)>{move || losses.with(Vec::len)}</span>
            </p>
            {move || refused.get().map(|e| view! { <p class="field-error train-refused" role="alert" data-stat="train_refused">{e}</p> })}
            <LossPlot curves=curves label="The loss at each step, on a log scale" empty="Step or Run to draw the loss">
                "The loss at each step (log scale)."
                {move || losses.with(|l| how_it_fell(l)).map(|fell| format!(" {fell}"))}
                {move || (!matching.get()).then_some(" A weight can approach 1 but never reach it.")}
            </LossPlot>
            <p>
                <button type="button" data-action="train-dog" on:click=dog_backwards>"Train the dog example from random weights"</button>
                // The tutorial's number is an answer while an exercise is open on the page.
                {format!(
                    " The dog's embedding with projections drawn at random (the seed above), trained until “she” attends to “dog” as much as in the tutorial{}: compare the trained W_query and W_key with the hand-made ones, one of many that work.",
                    if state.exercises.any() { String::new() } else { format!(" ({DOG_SHE_WEIGHT_DOG})") }
                )}
            </p>
            <Race objective=objective/>
    }
}

/// Steps once a frame while `running`, at most `left` more times, then calls `stop` (also when a
/// step is refused).
fn run_frames(
    step: impl Fn() -> bool + Copy + 'static,
    running: RwSignal<bool>,
    stop: impl Fn() + Copy + 'static,
    left: usize,
) {
    request_animation_frame(move || {
        // Gone with the lab, or paused.
        if !running.try_get_untracked().unwrap_or(false) {
            return;
        }
        if left == 0 || !step() {
            stop();
            return;
        }
        run_frames(step, running, stop, left - 1);
    });
}
