//! The exercises on the page: a card per exercise in its step's section (the question, Check and
//! Show me, the prediction's choice, a goal's live value), and the answer field an asked cell
//! shows instead of its number. The cards, and the checking and hints behind them, are a wasm
//! chunk of their own: most visits have no exercise.

mod actions;

use leptos::prelude::*;

use crate::core::i18n::keys::exercises as say;
use crate::core::i18n::{Key, Msg};
use crate::core::teaching::exercise::{Bound, CellRef, Exercise, Kind, PREDICTED};
use crate::core::text::fmt;
use crate::core::views::pipeline::Step;
use crate::ui::lang::{t, word};
use crate::ui::on_demand::{chunk, Loaded};
use crate::ui::state::ExerciseState;
use crate::ui::state::{use_app, AppState};

use actions::{ask_actions, predict_actions};

/// The step whose cards the chunk below shows.
#[derive(Clone, Copy)]
struct CardsOf(Step);

/// The cards of the exercises shown in `step`'s section (none: nothing is fetched).
#[component]
pub fn ExerciseCards(step: Step) -> impl IntoView {
    let state = use_app();
    let shape = state.derived.shape.get_untracked();
    let any = state.exercises.spec.with_value(|s| {
        s.list
            .iter()
            .any(|e| e.step() == step || s.reached_through(e, shape).contains(&step))
    });
    any.then(|| {
        provide_context(CardsOf(step));
        view! { <Loaded load=exercise_cards what=say::the_exercise/> }
    })
}

chunk! {
    /// The cards of the step in context.
    exercise_cards => Cards().into_any()
}

#[component]
fn Cards() -> impl IntoView {
    let state = use_app();
    let CardsOf(step) = expect_context::<CardsOf>();
    let shape = state.derived.shape.get_untracked();
    type Numbered = Vec<(usize, Exercise)>;
    let (here, echoes): (Numbered, Numbered) = state.exercises.spec.with_value(|s| {
        s.list
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, e)| e.step() == step || s.reached_through(e, shape).contains(&step))
            .partition(|(_, e)| e.step() == step)
    });
    view! {
        {echoes.into_iter().map(|(_, e)| view! { <GoalEcho exercise=e/> }).collect_view()}
        {here.into_iter().map(|(index, e)| view! { <Card index exercise=e/> }).collect_view()}
    }
}

/// A goal's live value where the learner edits towards it (its card is in its own step, maybe
/// thousands of pixels away): `data-goal-echo` and `data-goal-met`.
#[component]
fn GoalEcho(exercise: Exercise) -> impl IntoView {
    let state = use_app();
    let Exercise::Goal(cell, bound) = exercise else {
        return ().into_any();
    };
    let (now, met) = goal_now(state, cell, bound);
    let words = move || {
        let question = state.derived.trace.with(|t| exercise.question(t));
        let msg = match now() {
            GoalNow::Hidden => say::echo_hidden(question),
            GoalNow::Value(v) => {
                let value = fmt(v, state.view.look.precision.get());
                if met.get() {
                    say::echo_met(question, value)
                } else {
                    say::echo_not_yet(question, value)
                }
            }
            GoalNow::Gone => say::echo_gone(question),
        };
        word(&msg)
    };
    view! {
        <p class="goal-echo" data-goal-echo=exercise.id() data-goal-met=move || met.get().to_string() role="status">
            <strong>{t(say::goal)}" "</strong>{words}
        </p>
    }
    .into_any()
}

/// Where a goal's cell stands now, for its card and its echoes.
enum GoalNow {
    /// Hidden while a prediction hides its row.
    Hidden,
    Value(f64),
    /// The model no longer has the cell (its sentence or sizes changed).
    Gone,
}

/// The goal's value now, and whether it meets `bound`.
fn goal_now(
    state: AppState,
    cell: CellRef,
    bound: Bound,
) -> (impl Fn() -> GoalNow + Copy + Send + Sync, Memo<bool>) {
    let value = Memo::new(move |_| state.derived.trace.with(|t| cell.value(t)));
    let met = Memo::new(move |_| value.get().is_some_and(|v| bound.met(v)));
    let now = move || match value.get() {
        Some(_)
            if PREDICTED.contains(&cell.matrix)
                && cell
                    .head
                    .is_some_and(|h| state.exercises.hides_row(h, cell.row)) =>
        {
            GoalNow::Hidden
        }
        Some(v) => GoalNow::Value(v),
        None => GoalNow::Gone,
    };
    (now, met)
}

/// One exercise's card: its element carries `data-exercise`, `data-kind`, `data-result` and
/// `data-attempts` (a goal also `data-goal-met`).
#[component]
fn Card(index: usize, exercise: Exercise) -> impl IntoView {
    let state = use_app();
    let exercises = state.exercises;
    let progress = Memo::new(move |_| {
        exercises
            .progress
            .with(|p| p.get(index).cloned().unwrap_or_default())
    });
    let question = move || state.derived.trace.with(|t| word(&exercise.question(t)));
    // An asked cell or predicted row the model does not have (a trained layer's sentence cut
    // into fewer pieces, a shorter sentence): no answer, no field to type in, so the card says
    // why (a goal's own line says it for a goal).
    let missing = move || {
        !matches!(exercise, Exercise::Goal(..))
            && state.derived.trace.with(|t| exercise.expected(t).is_none())
    };
    let said = move || {
        exercises
            .said
            .with(|s| s.get(index).cloned().flatten())
            .map(|m| word(&m))
    };
    let body = match exercise {
        Exercise::Ask(_) => ask_actions(state, index, progress).into_any(),
        Exercise::Predict { head, row } => {
            predict_actions(state, index, head, row, progress).into_any()
        }
        Exercise::Goal(cell, bound) => {
            let (now, met) = goal_now(state, cell, bound);
            let locks = exercises.spec.with_value(|s| {
                s.locks
                    .iter()
                    .map(|m| m.key())
                    .collect::<Vec<_>>()
                    .join(", ")
            });
            view! {
                <p class="goal-now" data-goal-met=move || met.get().to_string()>
                    {move || word(&match now() {
                        GoalNow::Hidden => say::goal_hidden.into(),
                        GoalNow::Value(v) => {
                            let value = fmt(v, state.view.look.precision.get());
                            if met.get() { say::goal_met(value) } else { say::goal_not_yet(value) }
                        }
                        GoalNow::Gone => say::goal_gone.into(),
                    })}
                </p>
                {(!locks.is_empty()).then(|| view! { <p class="goal-locks">{move || word(&say::locked(&locks))}</p> })}
            }
            .into_any()
        }
    };
    view! {
        <div
            class="exercise"
            data-exercise=exercise.id()
            data-kind=exercise.kind().key()
            data-result=move || progress.with(|p| p.outcome.key())
            data-attempts=move || progress.with(|p| p.attempts.to_string())
            role="group"
            aria-label=move || word(&say::exercise_label(kind_name(exercise.kind())))
        >
            <p class="exercise-question"><strong>{t(say::exercise)}" "</strong>{question}</p>
            // Its head may be one the page does not show (one head at a time past a size).
            {move || exercise.head().filter(|h| !state.derived.visible_heads.with(|v| v.contains(h))).map(|h| view! {
                <p class="exercise-actions">
                    <button type="button" data-action="show-head" on:click=move |_| state.view.focused_head.set(h)>{move || word(&say::show_head(h))}</button>
                </p>
            })}
            {move || missing().then(|| view! {
                <p class="field-error" data-stat="exercise-missing">{t(say::missing)}</p>
            })}
            <div hidden=missing>{body}</div>
            <p class="exercise-said" role="status" aria-live="polite">{said}</p>
        </div>
    }
}

/// A kind's name for a screen reader (its `data-kind` stays the link's).
fn kind_name(kind: Kind) -> Key {
    match kind {
        Kind::Ask => say::kind_ask,
        Kind::Predict => say::kind_predict,
        Kind::Goal => say::kind_goal,
    }
}

/// The field an asked cell shows instead of its number: Enter checks it (through its card).
#[component]
pub fn AnswerField(index: usize, label: Msg) -> impl IntoView {
    let exercises = expect_context::<ExerciseState>();
    let id = exercises
        .exercise(index)
        .map(|e| e.id())
        .unwrap_or_default();
    let typed = move || {
        exercises
            .typed
            .with(|t| t.get(index).cloned().unwrap_or_default())
    };
    view! {
        <input
            type="text"
            class="answer"
            data-answer=id
            autocomplete="off"
            spellcheck="false"
            enterkeyhint="done"
            placeholder="?"
            aria-label=move || word(&label)
            prop:value=typed
            on:input=move |ev| {
                let text = event_target_value(&ev);
                exercises.typed.update_untracked(|t| {
                    if let Some(slot) = t.get_mut(index) {
                        *slot = text;
                    }
                });
            }
            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                if ev.key() == "Enter" {
                    ev.prevent_default();
                    exercises.submitted.set(Some(index));
                }
            }
        />
    }
}
