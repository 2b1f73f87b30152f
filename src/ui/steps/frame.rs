//! What every step's section shares: its frame (number, title, words, formula, Hide), the
//! explanation of a clicked cell, and the same matrix of every head side by side.

use leptos::prelude::*;

use crate::core::formats::link::Controls as Level;
use crate::core::i18n::keys::{frame, page, views};
use crate::core::i18n::Key;
use crate::core::model::Matrix;
use crate::core::views::pipeline::{in_order, Axes, Step, Stop};
use crate::ui::exercises::cards::ExerciseCards;
use crate::ui::lang::{t, word};
use crate::ui::matrix::{index_labels, title_arg, MatrixView};
use crate::ui::state::{use_app, AppState, Detail};

/// What the page says about a step; each step's file holds its own, beside its view.
pub struct StepText {
    /// Its name in the pipeline's table of contents.
    pub short_title: Key,
    /// Its computation, in one line.
    pub formula: Key,
    /// One paragraph in our words: what the step does and why.
    pub explain: Key,
    /// What the guided walk suggests trying here, in one short paragraph.
    pub hint: Key,
    /// What the walk adds on the dog example as it opens (its numbers are said): "" if nothing.
    pub dog: Option<Key>,
    /// A sentence pointing to the lab after this step ("" if none), said only where the lab is
    /// on the page (not in an embed).
    pub lab: Option<Key>,
}

/// A step's frame: number, title, one paragraph in our words, the formula (from its `text`),
/// then its tables. The learner can hide a step; a hidden step's tables are not in the page, so
/// they cost nothing; which are hidden is part of the link. Every step starts shown: large
/// matrices open as heat maps, which cost one canvas each.
#[component]
pub fn StepSection(step: Step, text: &'static StepText, children: ChildrenFn) -> impl IntoView {
    let state = use_app();
    let hidden = state.view.hidden;
    let open = Memo::new(move |_| hidden.with(|h| !h.contains(&step)));
    let toggle = move |_| {
        hidden.update(|h| {
            let shown = !h.contains(&step);
            *h = in_order(|s| if s == step { shown } else { h.contains(&s) });
        })
    };
    let id = step.id();
    view! {
        <section
            class="step"
            id=id.clone()
            aria-labelledby=format!("{id}-title")
            aria-current=move || state.at_stop(Stop::Step(step)).then_some("step")
        >
            <h2 id=format!("{id}-title")>
                // Follows the steps on the page: positions or W_output turned on or off renumber.
                <span class="step-number">{move || state.badge(step)}</span>
                {t(step.title())}
                {(state.page.controls != Level::None).then(|| view! { <button
                    type="button"
                    class="toggle"
                    data-action="toggle-step"
                    aria-expanded=move || open.get().to_string()
                    aria-controls=format!("{id}-body")
                    on:click=toggle
                >
                    {move || word(&if open.get() { frame::hide } else { frame::show }.into())}
                </button> })}
            </h2>
            <div id=format!("{id}-body")>
                <Show
                    when=move || open.get()
                    fallback=|| view! { <p class="note">{t(frame::hidden)}</p> }
                >
                    <p class="explain">
                        {move || word(&match text.lab.filter(|_| !state.page.embedded) {
                            Some(lab) => page::sentences(text.explain, lab),
                            None => text.explain.into(),
                        })}
                    </p>
                    <p class="formula">{t(text.formula)}</p>
                    <ExerciseCards step/>
                    {children()}
                </Show>
            </div>
        </section>
    }
}

/// The clicked cell's explanation, when it is of this `kind` (`score` or `context`).
#[component]
pub fn Breakdown(kind: &'static str) -> impl IntoView {
    let state = use_app();
    move || {
        let detail = state.view.detail.get().filter(|d| d.key() == kind)?;
        // A context row is a sum of the weights: not before they are predicted.
        if let Detail::Context { head, query } = detail {
            if state.exercises.hides_row(head, query) {
                return None;
            }
        }
        let text = state
            .derived
            .trace
            .with(|t| detail.describe(t, state.view.look.precision.get()))?;
        Some(view! { <p class="breakdown" data-breakdown=kind>{text}</p> })
    }
}

/// `view` of head `h`'s `of`, or, when `h` shares it with the first head of its group, a line
/// that says whose it is: a shared key or value is shown once.
pub fn unless_shared(
    state: AppState,
    of: Matrix,
    h: usize,
    view: impl Fn() -> AnyView + Send + Sync + 'static,
) -> AnyView {
    if !of.shared_by_kv_heads() {
        return view();
    }
    let leader = state.kv_leader(h);
    shared_or(of, h, leader, std::sync::Arc::new(view))
}

/// [`unless_shared`]'s swap, once for every view.
fn shared_or(
    of: Matrix,
    h: usize,
    leader: Memo<usize>,
    view: std::sync::Arc<dyn Fn() -> AnyView + Send + Sync>,
) -> AnyView {
    (move || {
        let from = leader.get();
        if from == h {
            // Built untracked: the table's own memos repaint it, this only swaps it.
            return untrack(|| view());
        }
        view! {
            <p class="shared-kv note" data-shared=of.key() data-head=h.to_string() data-from=from.to_string()>
                {word(&views::shared_kv(title_arg(of), h, from))}
            </p>
        }
        .into_any()
    })
    .into_any()
}

/// The same matrix of every head (`of`: its title, axes, colouring and where it is in a head's
/// trace), side by side, rows labelled with the tokens (the queries). Clicking a row follows
/// that token; `on_cell_click` gets (head, row, col).
#[component]
pub fn HeadMatrices(
    of: Matrix,
    #[prop(optional)] on_cell_click: Option<Callback<(usize, usize, usize)>>,
) -> impl IntoView {
    let state = use_app();
    let pick = of.pick()?;
    Some(view! {
        <div class="heads">
            <For each=move || state.derived.visible_heads.get() key=|h| *h let:h>
                {unless_shared(state, of, h, move || {
                    let values = state.head_matrix(h, pick);
                    let col_labels = match of {
                        _ if of.axes() == Axes::QueryByKey => state.derived.key_words.into(),
                        // RoPE's rotated queries and keys: each component says its pair.
                        Matrix::QueriesRotated | Matrix::KeysRotated => Memo::new(move |_| {
                            let d = values.with(|m| m.ncols());
                            state.structure(|m| m.positions().rope()).map_or_else(Vec::new, |(_, r)| r.labels(d))
                        })
                        .into(),
                        _ => index_labels(move || values.with(|m| m.ncols())),
                    };
                    view! {
                        <MatrixView
                            of
                            head=Some(h)
                            values
                            row_labels=if of.rows_are_keys() { state.derived.key_words } else { state.derived.words }.into()
                            col_labels
                            followed_row=Signal::derive(move || Some(state.derived.followed_or_last.get()))
                            on_cell_click=Callback::new(move |(i, j)| {
                                state.view.followed.set(Some(i));
                                if let Some(cb) = on_cell_click {
                                    cb.run((h, i, j));
                                }
                            })
                            on_row_click=Callback::new(move |i| state.view.followed.set(Some(i)))
                        />
                    }
                    .into_any()
                })}
            </For>
        </div>
    })
}
