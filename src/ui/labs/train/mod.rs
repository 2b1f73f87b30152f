//! The training lab: pick where tokens should look (or an output to match), then step or run an
//! optimiser (`core::training`, equal to PyTorch's autograd and `torch.optim`) and watch the
//! loss fall and every table move; race the scalings. A Run is one undo step; Reset goes back
//! to the numbers before training. Its settings are the store's `training` (in the link).

mod plot;
mod race;
mod targets;

use leptos::prelude::*;

use crate::core::document::edit::Edit;
use crate::core::model::presets::{DOG_DOG, DOG_SHE, DOG_SHE_WEIGHT_DOG};
use crate::core::model::Model;
use crate::core::training::lab::curve::how_it_fell;
use crate::core::training::lab::session::{first_weight, Session};
use crate::core::training::lab::{dog_untrained, scrambled, Setup};
use crate::core::training::{Goal, Objective, Optimizer, Target, MAX_STEPS};
use crate::ui::labs::frame::{LabText, Stat};
use crate::ui::state::use_app;
use crate::ui::tasks::each_frame;

use plot::LossPlot;
use race::Race;
use targets::{Targets, Trains};

/// What the page says about this lab.
pub const TEXT: LabText = LabText {
    title: "Lab: train the weights",
    short_title: "Train lab",
    hint: "Where weights come from: a real model's start random and are nudged, step by step, by training on a great deal of text. Press “Train the dog example from random weights”: from random numbers it trains, step by step, until “she” gives “dog” the hand-made 0.883, with other weights that do the same job. Or pick a key for the followed token to look at (it starts at the runner-up, so training pulls “she” away from “dog”), press Run, and watch the loss fall while every table above moves; Undo takes the whole run back. A real trained model is one click away in the settings (“Open a trained model”).",
};

/// The lab's body (its frame, `LabSection`, is the page's: it shows while this loads).
#[component]
pub fn TrainLab() -> impl IntoView {
    let state = use_app();
    let head = Memo::new(move |_| state.visible_heads.with(|v| v[0]));
    let targets = Memo::new(move |_| {
        let (query, head) = (state.followed_or_last.get(), head.get());
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
        objective.with(|o| {
            o.as_ref()
                .map_or(f64::NAN, |o| state.trace.with(|t| first_weight(t, o)))
        })
    });
    let session = RwSignal::new(Session::default());
    let running = RwSignal::new(false);
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
        state.objective.set(Some(objective.clone()));
        let optimizer = state.training.with_untracked(|s| s.optimizer);
        let stepped = state
            .model
            .with_untracked(|m| {
                state
                    .trace
                    .with_untracked(|t| session.try_update(|s| s.step(m, t, &objective, optimizer)))
            })
            .flatten();
        let Some(model) = stepped else {
            return false;
        };
        if let Err(e) = state.apply(Edit::Train(Box::new(model))) {
            session.update(|s| s.refuse(e));
            return false;
        }
        !state
            .trace
            .with_untracked(|t| session.with_untracked(|s| s.reached(t, &objective)))
    };
    // The curve is of the run that made the numbers on the page.
    Effect::new(move |_| {
        if state
            .model
            .with(|m| session.try_update_untracked(|s| s.follow(m)))
            .unwrap_or(false)
        {
            session.notify();
        }
    });
    let stop = move || {
        running.set(false);
        session.update(Session::stop);
        state.apply(Edit::Seal).ok();
    };
    let run = move || {
        running.set(true);
        // A step a frame while running (a Pause, or the lab gone, ends it), at most MAX_STEPS.
        each_frame(MAX_STEPS, move |left| {
            if !running.try_get_untracked().unwrap_or(false) {
                return None;
            }
            if left == 0 || !step() {
                stop();
                return None;
            }
            Some(left - 1)
        });
    };
    let reset = move |_| {
        stop();
        if let Some(model) = session.try_update(Session::reset).flatten() {
            state.apply(Edit::Open(Box::new(model))).ok();
        }
    };
    // A fresh start to train from: the projections drawn at random (the seed above).
    let start_over = move |model: Model| {
        stop();
        state.apply(Edit::Open(Box::new(model.clone()))).ok();
        session.update(|s| s.start_from(model));
    };
    // The dog story backwards: random projections of the dog's sizes, she → dog, then Run.
    let dog_backwards = move |_| {
        start_over(dog_untrained(state.seed.get_untracked()));
        state.followed.set(Some(DOG_SHE));
        state.training.update(|s| {
            s.output = None;
            s.targets = vec![Target {
                head: 0,
                query: DOG_SHE,
                key: DOG_DOG,
            }];
        });
        run();
        session.update(|s| s.stop_at(DOG_SHE_WEIGHT_DOG));
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
    let steps = Memo::new(move |_| session.with(|s| s.losses().len()));
    let curves = Signal::derive(move || {
        session.with(|s| {
            let l = s.losses();
            if l.is_empty() {
                Vec::new()
            } else {
                vec![("loss", l.to_vec())]
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
                {move || if steps.get() == 0 { " · no steps on this page yet (a curve is not kept in links or saved work)" } else { " · steps " }}
                <span data-stat="train_steps" hidden=move || steps.get() == 0>{move || steps.get()}</span>
            </p>
            {move || session.with(|s| s.refused().map(str::to_owned)).map(|e| view! { <p class="field-error train-refused" role="alert" data-stat="train_refused">{e}</p> })}
            <LossPlot curves=curves label="The loss at each step, on a log scale" empty="Step or Run to draw the loss">
                "The loss at each step (log scale)."
                {move || session.with(|s| how_it_fell(s.losses())).map(|fell| format!(" {fell}"))}
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
