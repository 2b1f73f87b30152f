//! The training lab: pick where the followed token should look, then step or run an optimiser
//! (`core::gradient`, equal to PyTorch's autograd and `torch.optim`) and watch the loss fall and
//! every table move. A Run is one undo step; Reset goes back to the numbers before training.

use leptos::prelude::*;

use crate::core::edit::Edit;
use crate::core::gradient::{
    loss_curve, second_key, Goal, Objective, Optimizer, Param, Target, Trainer, DEFAULT_LR,
};
use crate::core::lines::visible;
use crate::core::model::Model;
use crate::core::pipeline::Lab;
use crate::core::presets::{dog_untrained, DOG_DOG, DOG_SHE, DOG_SHE_WEIGHT_DOG};
use crate::ui::labs::frame::{LabSection, LabText, Stat};
use crate::ui::state::use_app;

/// What the page says about this lab.
pub const TEXT: LabText = LabText {
    title: "Lab: train the weights",
    short_title: "Train lab",
    hint: "Pick a key for the followed token to look at, press Run, and watch the loss fall while every table above moves; Undo takes the whole run back.",
};

/// A Run stops by itself after this many steps.
const RUN_STEPS: usize = 400;
/// The loss curve's box, in SVG units.
const PLOT: (f64, f64) = (320.0, 140.0);

#[component]
pub fn TrainLab() -> impl IntoView {
    let state = use_app();
    let head = Memo::new(move |_| state.visible_heads.with(|v| v[0]));
    // The key the followed token should look at: the learner's pick, else the one it looks at
    // second most (dog's "she": "ball", as a teacher asks "make her look at the ball instead").
    let picked = RwSignal::new(None::<usize>);
    let key = Memo::new(move |_| {
        let (i, h, n, causal) = (
            state.query.get(),
            head.get(),
            state.words.with(Vec::len),
            state.causal.get(),
        );
        picked
            .get()
            .filter(|&j| j < n && visible(causal, i, j))
            .unwrap_or_else(|| {
                state.trace.with(|t| {
                    t.heads
                        .get(h)
                        .map_or(0, |w| second_key(&w.weights, i, causal))
                })
            })
    });
    let method = RwSignal::new("adam".to_owned());
    let lr = RwSignal::new(0.05_f64);
    let lr_error = RwSignal::new(None::<String>);
    let objective = move || Objective {
        goal: Goal::Attend(vec![Target {
            head: head.get_untracked(),
            query: state.query.get_untracked(),
            key: key.get_untracked(),
        }]),
        train: Param::ALL.to_vec(),
    };
    // The target's weight now.
    let weight_now = move || {
        let (i, j, h) = (state.query.get(), key.get(), head.get());
        state.trace.with(|t| {
            t.heads
                .get(h)
                .and_then(|head| head.weights.get((i, j)).copied())
                .unwrap_or(f64::NAN)
        })
    };
    // The trainer, the model its last step made (another edit since starts afresh), and the
    // numbers before the first step (for Reset).
    let trainer = StoredValue::new(None::<(Trainer, Model)>);
    let before = StoredValue::new(None::<Model>);
    let losses = RwSignal::new(Vec::<f64>::new());
    let running = RwSignal::new(false);
    // A Run towards the dog story stops where the tutorial's weight is.
    let until = StoredValue::new(None::<f64>);
    // A new target or optimiser starts a new curve.
    Effect::new(move |_| {
        key.track();
        state.query.track();
        method.track();
        lr.track();
        trainer.set_value(None);
        losses.set(Vec::new());
    });

    let step = move || {
        // Training changes which key is second: the target stays the one trained towards.
        if picked.get_untracked().is_none() {
            picked.set(Some(key.get_untracked()));
        }
        let mut model = state.model.get_untracked();
        let objective = objective();
        state.objective.set(Some(objective.clone()));
        let mut t = trainer
            .get_value()
            .filter(|(_, last)| *last == model)
            .map(|(t, _)| t)
            .unwrap_or_else(|| {
                // The lab's choices are always valid names and rates.
                let o = Optimizer::named(Some(&method.get_untracked()), lr.get_untracked());
                Trainer::new(o.unwrap_or(Optimizer::Adam { lr: DEFAULT_LR }))
            });
        if before.with_value(Option::is_none) {
            before.set_value(Some(model.clone()));
        }
        let loss = t.step(&mut model, &objective).loss;
        losses.update(|l| l.push(loss));
        trainer.set_value(Some((t, model.clone())));
        state.apply(Edit::Train(Box::new(model))).ok();
        let reached = until.get_value().is_some_and(|goal| weight_now() >= goal);
        loss.is_finite() && !reached
    };
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
    };
    // The dog story backwards: random projections of the dog's sizes, she → dog, then Run.
    let dog_backwards = move |_| {
        stop();
        let model = dog_untrained(state.seed.get_untracked());
        state.apply(Edit::Open(Box::new(model.clone()))).ok();
        before.set_value(Some(model));
        state.selected.set(Some(DOG_SHE));
        picked.set(Some(DOG_DOG));
        run();
        until.set_value(Some(DOG_SHE_WEIGHT_DOG));
    };

    let weight = Signal::derive(weight_now);
    let loss = Signal::derive(move || -weight.get().ln());
    let word = move |k: usize| state.words.with(|w| w.get(k).cloned().unwrap_or_default());
    let keys = move || {
        let (i, causal) = (state.query.get(), state.causal.get());
        (0..state.words.with(Vec::len))
            .filter(|&j| visible(causal, i, j))
            .map(|j| view! { <option value=j.to_string() prop:selected=move || key.get() == j>{format!("{j} “{}”", word(j))}</option> })
            .collect_view()
    };
    let curve = move || {
        losses.with(|l| loss_curve(l, PLOT.0, PLOT.1)).map(|(path, decades)| {
            let (bottom, top) = (decades[0], decades[decades.len() - 1]);
            let y = move |d: i32| PLOT.1 * f64::from(top - d) / f64::from(top - bottom);
            view! {
                <g class="grid">{decades.iter().map(|&d| view! {
                    <line x1="0" x2=PLOT.0 y1=y(d) y2=y(d)/>
                    <text x="-6" y=y(d) text-anchor="end" dominant-baseline="middle">{format!("1e{d}")}</text>
                }).collect_view()}</g>
                <path class="loss-line" data-curve="loss" d=path/>
            }
        })
    };
    let lr_text = RwSignal::new("0.05".to_owned());
    view! {
        <LabSection lab=Lab::Train text=&TEXT>
            <p class="explain">
                "The tutorial's hand-made weights “mimic where the weights might end up after training”. Here they are trained: the loss is −ln of the weight from the followed token to the key you pick, and each step moves every number of the embedding and the projections a little against its gradient (the same numbers PyTorch's autograd gives). Watch the weights table above while it runs."
            </p>
            <div class="lab-controls">
                <p class="field">
                    <span>"Make"</span>
                    <strong data-stat="train_query">{move || format!("“{}”", word(state.query.get()))}</strong>
                </p>
                <label class="field">
                    <span>"attend to"</span>
                    <select data-control="train-key" on:change=move |ev| picked.set(event_target_value(&ev).parse().ok())>{keys}</select>
                </label>
                <label class="field">
                    <span>"Optimiser"</span>
                    <select data-control="train-optimizer" on:change=move |ev| method.set(event_target_value(&ev))>
                        <option value="adam">"Adam"</option>
                        <option value="sgd">"SGD"</option>
                    </select>
                </label>
                <label class="field">
                    <span>"Learning rate"</span>
                    <input type="text" data-control="train-lr" prop:value=move || lr_text.get() aria-invalid=move || lr_error.with(|e| e.is_some().then_some("true")) on:input=move |ev| {
                        let text = event_target_value(&ev);
                        match text.trim().parse::<f64>() {
                            Ok(x) if x.is_finite() && x > 0.0 && x <= 10.0 => { lr_error.set(None); lr.set(x); }
                            _ => lr_error.set(Some(format!("“{text}” is not a learning rate from 0 to 10; still using {}.", lr.get_untracked()))),
                        }
                        lr_text.set(text);
                    }/>
                    {move || lr_error.get().map(|e| view! { <span class="field-error" role="alert">{e}</span> })}
                </label>
                <div class="field buttons">
                    <button type="button" data-action="train-step" disabled=move || running.get() on:click=move |_| { step(); state.apply(Edit::Seal).ok(); }>"Step"</button>
                    <button type="button" data-action="train-run" aria-pressed=move || running.get().to_string() on:click=move |_| if running.get_untracked() { stop() } else { run() }>
                        {move || if running.get() { "Pause" } else { "Run" }}
                    </button>
                    <button type="button" data-action="train-reset" on:click=reset title="The numbers from before training (Undo brings the trained ones back)">"Reset"</button>
                </div>
            </div>
            <p>
                "Loss " <Stat name="loss" value=loss/> " · weight " {move || format!("“{}” → “{}”", word(state.query.get()), word(key.get()))} " " <Stat name="target_weight" value=weight/>
                " · steps " <span data-stat="train_steps">{move || losses.with(Vec::len)}</span>
            </p>
            <figure class="lab-plot loss-plot">
                <svg viewBox=format!("-44 -8 {} {}", PLOT.0 + 52.0, PLOT.1 + 30.0) role="img" aria-label="The loss at each step, on a log scale">
                    {curve}
                    <text class="axis-label" x=PLOT.0 / 2.0 y=PLOT.1 + 20.0 text-anchor="middle">"step"</text>
                </svg>
                <figcaption>"The loss at each step (log scale). It falls fast at first, then slowly: the weight can approach 1 but never reach it."</figcaption>
            </figure>
            <p>
                <button type="button" data-action="train-dog" on:click=dog_backwards>"Train the dog example from random weights"</button>
                " The dog's embedding with projections drawn at random (the seed above), trained until “she” attends to “dog” as much as in the tutorial (0.883): compare the trained W_query and W_key with the hand-made ones, one of many that work."
            </p>
        </LabSection>
    }
}

/// Steps once a frame while `running`, at most `left` more times, then calls `stop` (also when a
/// step's loss is not finite).
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
