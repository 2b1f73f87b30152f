//! The one place that owns the state. Views write only to `model` (and the view settings);
//! everything they show is derived from it through `trace`, never the other way round.

use std::collections::HashMap;

use leptos::prelude::*;
use nalgebra::DMatrix;
use wasm_bindgen::JsCast;

use crate::core::heatmap::{Face, Palette};
use crate::core::history::{EditKey, History};
use crate::core::link::{read_link, Link, Shown};
use crate::core::model::{Editable, Model, Projection};
use crate::core::presets::{PRESETS, RASCHKA_SEED};
use crate::core::sqrt_dk;
use crate::core::state::read_state;
use crate::core::trace::{HeadTrace, Trace};
use crate::ui::controls::Controls;
use crate::ui::labs::Lab;
use crate::ui::share;
use crate::ui::steps::{PipelineNav, Step};
use crate::ui::walk::{self, Stop, Walk};
use crate::ui::{api, embed, theme};

/// What a click on a cell asked to have explained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// A score as its dot-product terms.
    Score {
        head: usize,
        query: usize,
        key: usize,
    },
    /// A context row as the weighted sum of the value rows.
    Context { head: usize, query: usize },
}

impl Detail {
    /// `score` or `context`: the `data-breakdown` name of its explanation.
    pub fn key(self) -> &'static str {
        match self {
            Detail::Score { .. } => "score",
            Detail::Context { .. } => "context",
        }
    }

    /// The explanation in words, if the cell still exists.
    pub fn describe(self, trace: &Trace, precision: usize) -> Option<String> {
        match self {
            Detail::Score { head, query, key } => trace
                .score_terms(head, query, key)
                .map(|t| t.describe(precision)),
            Detail::Context { head, query } => trace
                .context_terms(head, query)
                .map(|t| t.describe(precision)),
        }
    }
}

/// The app's signals, provided by context to every step. `Copy`, so closures capture it freely.
#[derive(Clone, Copy)]
pub struct AppState {
    /// The single source of truth: everything on the page is derived from it.
    pub model: RwSignal<Model>,
    /// Every intermediate; after an edit only the heads it touched are recomputed.
    pub trace: Memo<Trace>,
    /// Seed for re-initialising and for filling new numbers when a shape grows.
    pub seed: RwSignal<u64>,
    /// Decimals shown in every table (values keep full precision).
    pub precision: RwSignal<usize>,
    /// The token followed as the query, highlighted in every step.
    pub selected: RwSignal<Option<usize>>,
    /// The followed token, or the last one until the learner picks one (it sees every token,
    /// even when causal): the query that attention lines and the heads picture show.
    pub query: Memo<usize>,
    pub detail: RwSignal<Option<Detail>>,
    /// Sentence words, for row and column labels; changes only when the sentence does.
    pub words: Memo<Vec<String>>,
    pub heads: Memo<usize>,
    /// The head shown in full when not every head fits (see [`ALL_HEADS_CELL_BUDGET`]).
    pub focused_head: RwSignal<usize>,
    /// The heads whose tables are in the page, in order.
    pub visible_heads: Memo<Vec<usize>>,
    /// The preset last opened (none when the model came from a saved state).
    pub preset: RwSignal<Option<&'static str>>,
    pub history: RwSignal<History>,
    /// The guided walk's place in [`walk::stops`], while it runs, as last set.
    pub walk: RwSignal<Option<usize>>,
    /// That place kept within the stops there are now (fewer heads drop the heads' stop).
    pub walk_at: Memo<Option<usize>>,
    /// The section the walk is at.
    pub walk_stop: Memo<Option<Stop>>,
    /// The √dₖ lab's dₖ and seed, and the masking lab's magnitude (a power of ten).
    pub lab_dk: RwSignal<usize>,
    pub lab_seed: RwSignal<u32>,
    pub lab_magnitude: RwSignal<u32>,
    /// The face the learner chose for a matrix (by name and head); it outlives the view, so the
    /// choice sticks when a step is hidden and shown or the heads change.
    pub faces: RwSignal<HashMap<(&'static str, Option<usize>), Face>>,
    /// The colours the heat maps paint with, following light and dark mode.
    pub palette: RwSignal<Palette>,
    /// The steps the learner hid (indices into [`Step::ALL`]), in pipeline order.
    pub hidden: RwSignal<Vec<usize>>,
    /// The preset "Reset to the example" opens: the link's, else the default.
    pub example: &'static str,
}

/// What an editable matrix view reports; the view itself knows nothing of the model.
#[derive(Clone, Copy)]
pub struct CellEditor {
    /// A valid number typed into cell (row, col).
    pub commit: Callback<(usize, usize, f64)>,
    /// A block of numbers pasted with its top-left at (row, col); a block that does not fit is
    /// refused whole, with the message to show.
    pub paste: Callback<(usize, usize, Vec<Vec<f64>>), Result<(), String>>,
    /// The learner left the cell: the next number typed there is a new undo step.
    pub done: Callback<()>,
}

/// Decimals shown until the learner picks others.
pub const DEFAULT_DECIMALS: usize = 4;

/// Every head's n × n tables are shown side by side while heads × n² stays within this; beyond
/// it, one head at a time (with a picker), so that an edit repaints a few thousand cells, not
/// tens of thousands (measured: 16 tokens × 4 heads took 108 ms per edit with all heads shown).
pub const ALL_HEADS_CELL_BUDGET: usize = 600;

impl AppState {
    fn new(
        model: Model,
        preset: Option<&'static str>,
        example: &'static str,
        walking: bool,
    ) -> Self {
        let model = RwSignal::new(model);
        // Owning the previous trace lets an edit reuse the heads it did not touch, and report
        // "unchanged" when a number was rewritten with itself, so nothing re-renders.
        let trace = Memo::new_owning(move |previous| model.with(|m| Trace::refresh(previous, m)));
        let heads = Memo::new(move |_| model.with(|m| m.heads().len()));
        let focused_head = RwSignal::new(0);
        let visible_heads = Memo::new(move |_| {
            let (n, h) = model.with(|m| (m.tokens().len(), m.heads().len()));
            if h * n * n <= ALL_HEADS_CELL_BUDGET {
                (0..h).collect()
            } else {
                vec![focused_head.get().min(h - 1)]
            }
        });
        let walk = RwSignal::new(walking.then_some(0));
        let walk_at = Memo::new(move |_| {
            let last = walk::stops(heads.get()).len() - 1;
            walk.get().map(|i| i.min(last))
        });
        let walk_stop = Memo::new(move |_| {
            walk_at
                .get()
                .and_then(|i| walk::stops(heads.get()).get(i).copied())
        });
        let selected = RwSignal::new(None::<usize>);
        let words = Memo::new(move |_| model.with(|m| m.tokens().words.clone()));
        let query = Memo::new(move |_| {
            let n = words.with(Vec::len);
            selected
                .get()
                .filter(|&i| i < n)
                .unwrap_or(n.saturating_sub(1))
        });
        AppState {
            model,
            trace,
            seed: RwSignal::new(RASCHKA_SEED),
            precision: RwSignal::new(DEFAULT_DECIMALS),
            selected,
            query,
            detail: RwSignal::new(None),
            words,
            heads,
            focused_head,
            visible_heads,
            preset: RwSignal::new(preset),
            history: RwSignal::new(History::default()),
            walk,
            walk_at,
            walk_stop,
            lab_dk: RwSignal::new(sqrt_dk::DK_DEFAULT),
            lab_seed: RwSignal::new(sqrt_dk::SEED_DEFAULT),
            lab_magnitude: RwSignal::new(0),
            faces: RwSignal::new(HashMap::new()),
            palette: RwSignal::new(theme::current_palette()),
            hidden: RwSignal::new(Vec::new()),
            example,
        }
    }

    /// Shows what a link or the saved work asks to see.
    fn show_as(self, shown: &Shown) {
        self.selected.set(shown.focus);
        self.focused_head.set(shown.head.unwrap_or(0));
        self.precision
            .set(shown.decimals.unwrap_or(DEFAULT_DECIMALS));
        self.hidden.set(shown.hidden.clone());
        self.faces.set(
            shown
                .faces
                .iter()
                .map(|&(name, head, face)| ((name, head), face))
                .collect(),
        );
    }

    /// Opens the preset called `name` (if there is one), undoably.
    pub fn open_preset(self, name: &str) {
        if let Some(p) = PRESETS.iter().find(|p| p.name == name) {
            self.preset.set(Some(p.name));
            self.replace(EditKey::Other, (p.build)());
        }
    }

    /// Opens the example again, undoably.
    pub fn reset(self) {
        self.open_preset(self.example);
    }

    /// Loads a saved state (JSON text), undoably; when it is refused nothing changes and the
    /// message says why. Every way a state comes in (the load box, a file, the scripting API
    /// and its postMessage twin) goes through here.
    pub fn load_state(self, json: &str) -> Result<(), String> {
        let model = read_state(json).map_err(|e| e.to_string())?;
        self.preset.set(None);
        self.replace(EditKey::Other, model);
        Ok(())
    }

    /// Opens a model and what to show of it (from a link or the saved work), undoably.
    pub fn open(self, link: &Link) {
        self.preset.set(link.preset);
        self.replace(EditKey::Other, link.model.clone());
        self.show_as(&link.shown);
    }

    /// One head's matrix from the trace. A memo, so a table re-renders only when its own numbers
    /// change (editing w_value leaves the scores' cells alone).
    pub fn head_matrix(
        self,
        head: usize,
        pick: fn(&HeadTrace) -> &DMatrix<f64>,
    ) -> Signal<DMatrix<f64>> {
        let trace = self.trace;
        Memo::new(move |_| {
            trace.with(|t| {
                t.heads
                    .get(head)
                    .map_or_else(|| DMatrix::zeros(0, 0), |h| pick(h).clone())
            })
        })
        .into()
    }

    /// One head's weight matrix from the model.
    pub fn weight_matrix(self, head: usize, p: Projection) -> Signal<DMatrix<f64>> {
        let model = self.model;
        Memo::new(move |_| {
            model.with(|m| {
                m.heads()
                    .get(head)
                    .map_or_else(|| DMatrix::zeros(0, 0), |h| h[p].clone())
            })
        })
        .into()
    }

    /// Sets one number, as typed: the keystrokes of one number are one undo step.
    pub fn set_cell(self, target: Editable, row: usize, col: usize, value: f64) {
        self.with_history(|h, m| {
            h.set_cell(m, target, row, col, value);
        });
    }

    /// Changes the model through its undo history.
    /// None once the app is gone (a callback that outlived it).
    fn with_history<R>(self, change: impl FnOnce(&mut History, &mut Model) -> R) -> Option<R> {
        let model = self.model;
        self.history
            .try_update(|h| model.try_update(|m| change(h, m)))
            .flatten()
    }

    /// The callbacks that make a view of `target` editable.
    pub fn editor(self, target: Editable) -> CellEditor {
        CellEditor {
            commit: Callback::new(move |(i, j, x)| self.set_cell(target, i, j, x)),
            paste: Callback::new(move |(i, j, block): (usize, usize, Vec<Vec<f64>>)| {
                // Checked before touching the signals: a refused paste re-renders nothing.
                self.model
                    .with_untracked(|m| m.check_paste(target, i, j, &block))?;
                self.with_history(|h, m| h.paste(m, target, i, j, &block))
                    .unwrap_or(Ok(()))
            }),
            done: Callback::new(move |()| self.history.update(History::seal)),
        }
    }

    /// Changes the model in place, remembering the whole model for undo.
    pub fn edit(self, change: impl FnOnce(&mut Model)) {
        let before = self.model.get_untracked();
        self.model.update(change);
        self.history
            .update(|h| h.record_model(before, EditKey::Other));
    }

    /// Replaces the model, remembering the old one for undo. The followed token stays while it
    /// still exists; an explanation of a cell that is gone simply shows nothing.
    pub fn replace(self, key: EditKey, model: Model) {
        // Another keystroke of the sentence extends its step: no copy of the model needed.
        let before = self
            .history
            .with_untracked(|h| h.starts_step(key))
            .then(|| self.model.get_untracked());
        self.show(model);
        if let Some(before) = before {
            self.history.update(|h| h.record_model(before, key));
        }
    }

    fn show(self, model: Model) {
        self.forget_gone_token(model.tokens().len());
        self.model.set(model);
    }

    fn forget_gone_token(self, n: usize) {
        if self.selected.get_untracked().is_some_and(|i| i >= n) {
            self.selected.set(None);
        }
    }

    pub fn undo(self) {
        self.travel(History::undo);
    }

    pub fn redo(self) {
        self.travel(History::redo);
    }

    fn travel(self, way: fn(&mut History, &mut Model) -> bool) {
        self.with_history(|h, m| {
            way(h, m);
        });
        self.forget_gone_token(self.model.with_untracked(|m| m.tokens().len()));
    }
}

/// The app's state, for components below [`App`].
pub fn use_app() -> AppState {
    expect_context::<AppState>()
}

/// The whole page: controls, then the pipeline top to bottom; embedded (`embed=1`), only the
/// steps asked for, with the controls asked for.
#[component]
pub fn App() -> impl IntoView {
    let link = share::read();
    let colours = link.theme;
    theme::apply(colours);
    let example = link.preset.unwrap_or(PRESETS[0].name);
    let work_key = share::work_key(link.embed);
    let mut unreadable = None;
    let saved = share::saved_work(&work_key)
        .map(|fragment| read_link("", &fragment))
        .filter(|saved| {
            let ok = saved.carries_model && saved.messages.is_empty();
            if !ok {
                unreadable = Some(format!(
                    "Your saved work could not be read ({}) and is not used.",
                    saved.messages.join(" ")
                ));
            }
            ok
        });
    // A link's model wins; the saved work opens a page that names none, and is offered otherwise.
    let (mut start, restored, restorable) = match saved {
        Some(saved) if !link.carries_model => {
            let start = Link {
                model: saved.model,
                preset: saved.preset,
                shown: saved.shown,
                ..link
            };
            (start, true, None)
        }
        Some(saved) if saved.model != link.model => (link, false, Some(saved)),
        _ => (link, false, None),
    };
    start.messages.extend(unreadable);
    let embed = start.embed;
    let state = AppState::new(
        start.model.clone(),
        start.preset,
        example,
        start.walk && !embed,
    );
    state.show_as(&start.shown);
    provide_context(state);
    api::install(state);
    theme::follow_colour_scheme(state.palette, colours);
    share::keep_in_url(state, work_key);
    if embed {
        embed::install(state);
    }

    // Ctrl+Z / Ctrl+Shift+Z (or Cmd) undo and redo model edits, except inside a text field,
    // where the browser's own undo of the text applies.
    let _ = window_event_listener(leptos::ev::keydown, move |ev| {
        let in_field = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
        if in_field || !(ev.ctrl_key() || ev.meta_key()) {
            return;
        }
        match (ev.key().as_str(), ev.shift_key()) {
            ("z" | "Z", false) => state.undo(),
            ("z" | "Z", true) | ("y", false) => state.redo(),
            _ => return,
        }
        ev.prevent_default();
    });

    let steps = start.steps.clone();
    let show = move |step: Step| steps.as_ref().is_none_or(|s| s.contains(&(step as usize)));
    let message = (!start.messages.is_empty()).then(|| start.messages.join(" "));
    view! {
        <main class:embedded=embed>
            {(!embed).then(|| view! {
                <header class="intro">
                    <h1>"Attention Explorer"</h1>
                    <p>
                        "Scaled dot-product self-attention, one step at a time. Every number is live: edit a weight, an "
                        "embedding or the sentence and watch every later step change. Click a token to follow it as the query. "
                        "New here? The walk leads you through the steps and the two labs, saying what to try at each."
                    </p>
                    <Walk/>
                </header>
            })}
            {embed.then(|| view! { <h1 class="visually-hidden">"Attention Explorer"</h1> })}
            {message.map(|m| view! { <p class="load-message" role="alert">{m}</p> })}
            <SavedWork restored restorable=RwSignal::new(restorable)/>
            {(!embed).then(PipelineNav)}
            <Controls level=start.controls()/>
            // The page is laid out from Step::ALL; each lab follows its step, except in an embed.
            {Step::ALL
                .into_iter()
                .filter(|&step| show(step))
                .map(|step| view! {
                    {step.render()}
                    {(!embed).then(|| step.lab().map(Lab::render))}
                })
                .collect_view()}
            {embed.then(|| view! { <embed::OpenFull/> })}
        </main>
    }
}

/// Says when the learner's saved work was restored, or offers it back when a link opened
/// another model (one click, undoable like any other change).
#[component]
fn SavedWork(restored: bool, restorable: RwSignal<Option<Link>>) -> impl IntoView {
    let state = use_app();
    let restore = move |_| {
        if let Some(saved) = restorable.get_untracked() {
            state.open(&saved);
            restorable.set(None);
        }
    };
    view! {
        {restored.then(|| view! {
            <p class="work-note" role="status">
                "Your last work in this browser is back. "
                <button type="button" data-action="reset" on:click=move |_| state.reset()>"Reset to the example"</button>
            </p>
        })}
        <Show when=move || restorable.with(Option::is_some)>
            <p class="work-note" role="status">
                "This link opened its own model; your last work is still saved in this browser. "
                <button type="button" data-action="restore" on:click=restore>"Restore your last work"</button>
            </p>
        </Show>
    }
}
