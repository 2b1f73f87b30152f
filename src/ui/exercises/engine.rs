//! What runs while a page has exercises, in a wasm chunk of its own (most visits have none):
//! the attempts made before brought back, goals followed through every edit, the progress saved,
//! each result posted, and a line at the top saying how many are done.

use leptos::prelude::*;

use crate::core::i18n::keys::exercises as say;
use crate::ui::lang::word;
use crate::ui::on_demand::chunk;
use crate::ui::state::use_app;
use crate::ui::{api, embed, share};

chunk! {
    /// The exercises' runtime and their summary line.
    exercise_engine => Engine().into_any()
}

#[component]
fn Engine() -> impl IntoView {
    let state = use_app();
    let exercises = state.exercises;
    // The attempts made before (a reload), then kept from now on.
    exercises.restore(&share::saved_progress());
    share::keep_progress(state);
    // Marks a goal reached as soon as an edit meets it.
    Effect::new(move |_| {
        let edits = state.doc.session.with_value(|s| s.edits);
        state
            .derived
            .trace
            .with(|t| exercises.follow_goals(t, edits));
    });
    embed::report_results(state);
    api::install_progress(state);
    embed::take_progress_back(state);
    let total = exercises.spec.with_value(|s| s.list.len());
    let done = move || {
        exercises.progress.with(|p| {
            exercises
                .spec
                .with_value(|s| s.list.iter().zip(p).filter(|(e, p)| e.finished(p)).count())
        })
    };
    (total > 0).then(|| {
        view! {
            <p class="exercise-summary" data-stat="exercises_done">
                {move || word(&say::summary(done(), total))}
            </p>
        }
    })
}
