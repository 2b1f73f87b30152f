//! "Open a trained model": all-MiniLM-L6-v2 (`core::pretrained`), fetched only when asked, with
//! the bytes so far and a Cancel button, then run on the page's sentence: its WordPiece tokens
//! and ids, and the model view, every layer × head's weights as a thumbnail, the words saying
//! which heads send the followed piece where (`teaching::labs::heads_sending`), and heads knocked
//! out. Its own wasm chunk: the encoder, the tokenizer and their Unicode tables are not in the
//! first download.

use std::sync::Arc;

use leptos::prelude::*;
use nalgebra::DMatrix;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{ProgressEvent, XmlHttpRequest, XmlHttpRequestResponseType};

use crate::core::document::edit::Edit;
use crate::core::formats::trained::read_trained;
use crate::core::model::Model;
use crate::core::pretrained::rerun::{Rerun, Reruns};
use crate::core::pretrained::{read_packed, Encoder, EncoderTrace, LayerOpening, LayerTrace};
use crate::core::teaching::exercise::Cover;
use crate::core::teaching::labs::heads_sending;
use crate::core::teaching::order::{reordered_inputs, trained_moves, ReorderedInputs};
use crate::core::text::fmt;
use crate::core::views::heatmap::Heat;
use crate::ui::matrix::heatmap::{HeatMap, Thumbnail};
use crate::ui::matrix::MatrixSpec;
use crate::ui::on_demand::{chunk, Loaded, PanelButton};
use crate::ui::state::{use_app, use_look, TrainedModel};
use crate::ui::tasks::each_task;

/// The file `www/pack-model.mjs` puts beside the app.
const MODEL_FILE: &str = "models/all-minilm-l6-v2.safetensors";
/// The trained model's name, in the page's model and its links.
const NAME: &str = "all-minilm-l6-v2";
/// A weight from which the words name where a head sends the followed piece.
const CLEAR: f64 = 0.5;

/// The button and, once opened, the panel.
#[component]
pub fn PretrainedButton() -> impl IntoView {
    let state = use_app();
    // A link or the saved work naming the trained model opens it.
    let open = RwSignal::new(false);
    Effect::new(move |_| {
        if state.pretrained.with(Option::is_some) {
            open.set(true);
        }
    });
    view! { <PanelButton action="load-pretrained" label="Open a trained model" load=pretrained_panel what="the trained model's code" open=open/> }
}

/// In an embed without the settings (where the button is): the trained model a link names,
/// fetched and opened all the same; only its progress, or why not, is shown.
#[component]
pub fn PretrainedInEmbed() -> impl IntoView {
    let state = use_app();
    state
        .pretrained
        .with_untracked(Option::is_some)
        .then(|| view! { <Loaded load=pretrained_panel what="the trained model's code"/> })
}

chunk! {
    /// The trained model's panel, in its own wasm chunk.
    pretrained_panel => PretrainedPanel().into_any()
}

/// Where the model is.
#[derive(Clone)]
enum Stage {
    /// Bytes received, of how many (when the server says).
    Fetching(f64, Option<f64>),
    /// Read from its bytes.
    Reading,
    Ready(Arc<Encoder>),
    /// Why not, in words; the page keeps working.
    Failed(String),
}

/// Fetches `path` as bytes, saying the progress; `done` gets them, or why not (None: cancelled).
/// The request is returned so that it can be cancelled.
fn fetch_with_progress(
    path: &str,
    progress: impl Fn(f64, Option<f64>) + 'static,
    done: impl FnOnce(Result<Vec<u8>, Option<String>>) + 'static,
) -> Result<XmlHttpRequest, String> {
    let failed = |_| format!("{path} could not be requested");
    let xhr = XmlHttpRequest::new().map_err(failed)?;
    xhr.open("GET", path).map_err(failed)?;
    xhr.set_response_type(XmlHttpRequestResponseType::Arraybuffer);
    let on_progress = Closure::<dyn Fn(ProgressEvent)>::new(move |e: ProgressEvent| {
        progress(e.loaded(), e.length_computable().then(|| e.total()));
    });
    xhr.set_onprogress(Some(on_progress.as_ref().unchecked_ref()));
    on_progress.forget();
    let request = xhr.clone();
    let file = path.to_owned();
    // One of load, error and abort ends the request: the first to come answers.
    let done = std::rc::Rc::new(std::cell::Cell::new(Some(done)));
    let answer = move |result: Result<Vec<u8>, Option<String>>| {
        if let Some(done) = done.take() {
            done(result);
        }
    };
    let on_end = Closure::<dyn Fn(ProgressEvent)>::new(move |e: ProgressEvent| {
        let result = match e.type_().as_str() {
            "load" if request.status().unwrap_or(0) == 200 => request
                .response()
                .map(|b| js_sys::Uint8Array::new(&b).to_vec())
                .map_err(|_| Some(format!("{file} could not be read"))),
            "load" => Err(Some(format!(
                "the server answered {} for {file}",
                request.status().unwrap_or(0)
            ))),
            "abort" => Err(None),
            _ => Err(Some(format!(
                "{file} could not be fetched (the connection may be down)"
            ))),
        };
        answer(result);
    });
    for event in ["load", "error", "abort"] {
        let _ = xhr.add_event_listener_with_callback(event, on_end.as_ref().unchecked_ref());
    }
    on_end.forget();
    xhr.send().map_err(failed)?;
    Ok(xhr)
}

/// Megabytes, as the progress line says them.
fn megabytes(bytes: f64) -> String {
    format!("{:.1} MB", bytes / 1e6)
}

/// Where a finished fetch leaves the panel: reading the bytes (a frame later, so that "Reading"
/// shows before the work), or saying why not.
fn arrived(stage: RwSignal<Stage>, fetched: Result<Vec<u8>, Option<String>>) {
    let why = match fetched {
        Ok(bytes) => {
            stage.set(Stage::Reading);
            request_animation_frame(move || {
                set_timeout(
                    move || {
                        stage.set(match read_packed(&bytes) {
                            Ok(encoder) => Stage::Ready(Arc::new(encoder)),
                            Err(e) => {
                                Stage::Failed(format!("The trained model could not be read: {e}."))
                            }
                        })
                    },
                    std::time::Duration::ZERO,
                )
            });
            return;
        }
        Err(None) => "Cancelled: nothing was kept.".to_owned(),
        Err(Some(e)) => {
            format!("The trained model could not be fetched: {e}; try again when you are online.")
        }
    };
    stage.set(Stage::Failed(format!("{why} The rest of the page works.")));
}

#[component]
fn PretrainedPanel() -> impl IntoView {
    let state = use_app();
    let stage = RwSignal::new(Stage::Fetching(0.0, None));
    let request = StoredValue::new_local(None::<XmlHttpRequest>);
    let start = move || {
        stage.set(Stage::Fetching(0.0, None));
        let fetched = fetch_with_progress(
            MODEL_FILE,
            move |got, of| stage.set(Stage::Fetching(got, of)),
            move |fetched| arrived(stage, fetched),
        );
        match fetched {
            Ok(xhr) => request.set_value(Some(xhr)),
            Err(e) => stage.set(Stage::Failed(format!("{e}."))),
        }
    };
    start();
    on_cleanup(move || {
        if let Some(xhr) = request.get_value() {
            let _ = xhr.abort();
        }
    });
    let cancel = move |_| {
        if let Some(xhr) = request.get_value() {
            let _ = xhr.abort();
        }
    };
    view! {
        <section class="pretrained" id="pretrained" aria-label="A trained model">
            <h2>"A trained model: all-MiniLM-L6-v2"</h2>
            <p class="note" hidden=state.embedded>"6 layers × 12 heads, trained by sentence-transformers (Apache-2.0), run here on your sentence with every number equal to Hugging Face transformers' (stored as float16: each weight within 0.001)."</p>
            {move || match stage.get() {
                Stage::Fetching(got, of) => view! {
                    <p role="status" data-stat="pretrained-progress">
                        <progress value=got.to_string() max=of.unwrap_or(0.0).to_string()></progress>
                        " "
                        {match of {
                            Some(of) => format!("Fetching the model: {} of {}", megabytes(got), megabytes(of)),
                            None => format!("Fetching the model: {}", megabytes(got)),
                        }}
                        " "
                        <button type="button" data-action="cancel-pretrained" on:click=cancel>"Cancel"</button>
                    </p>
                }.into_any(),
                Stage::Reading => view! { <p role="status" data-stat="pretrained-progress">"Reading the model…"</p> }.into_any(),
                Stage::Failed(why) => view! {
                    <p class="field-error" role="alert" data-stat="pretrained-error">
                        {why}
                        " "
                        <button type="button" data-action="retry-pretrained" on:click=move |_| start()>"Try again"</button>
                    </p>
                }.into_any(),
                Stage::Ready(encoder) => view! { <ModelView encoder=encoder/> }.into_any(),
            }}
        </section>
    }
}

impl TrainedModel for Encoder {
    fn retype(&self, model: &Model, text: &str) -> Result<Model, String> {
        self.reopen(model, |o| o.sentence = text.to_owned())
    }

    fn reordered_inputs(&self, model: &Model, order: Vec<usize>) -> Option<ReorderedInputs> {
        reordered_inputs(self, model, order)
    }

    fn moves(&self, model: &Model, inputs: &ReorderedInputs) -> Option<[Vec<f64>; 2]> {
        trained_moves(self, model, inputs)
    }
}

/// The whole encoder on the page's sentence, the page's layer as the page has it; None while the
/// page shows another model.
type Run = RwSignal<Option<Arc<EncoderTrace>>>;

/// Runs the encoder on the page's model whenever it changes (`core::pretrained::rerun`), a
/// layer per task so that the page answers clicks and typing between them; a newer change drops
/// an older run.
fn keep_running(encoder: Arc<Encoder>, run: Run) {
    let state = use_app();
    let generation = StoredValue::new(0_u64);
    let reruns = StoredValue::new(Reruns::default());
    Effect::new(move |_| {
        let Some(rerun) = state
            .model
            .with(|m| reruns.with_value(|r| r.start(&*encoder, m)))
        else {
            run.set(None);
            return;
        };
        let g = generation.get_value() + 1;
        generation.set_value(g);
        let encoder = encoder.clone();
        // Runs the next layer unless a newer run began, then the next a task later; the last
        // publishes the whole run.
        let step = move |mut rerun: Rerun, again: &dyn Fn(Rerun)| {
            if generation.try_get_value() != Some(g) {
                return;
            }
            match state.model.with_untracked(|m| rerun.step(&*encoder, m)) {
                Some(true) => again(rerun),
                Some(false) => {
                    if let Some(trace) = reruns.try_update_value(|r| r.finish(rerun)) {
                        run.set(Some(trace));
                    }
                }
                None => {}
            }
        };
        // After the next frame: the page's own steps paint first.
        request_animation_frame(move || each_task(rerun, step));
    });
}

/// The page's model for `layer` of the trained model: the page's trained model opened at another
/// layer, or the model opened on the page's sentence.
fn layer_model(encoder: &Encoder, model: &Model, layer: usize) -> Result<Model, String> {
    if model.layered().is_some() {
        return encoder.reopen(model, |o| o.layer = layer);
    }
    encoder.open_layer(
        NAME,
        LayerOpening {
            sentence: model.sentence().to_owned(),
            layer,
            knocked: Vec::new(),
            changes: Vec::new(),
        },
    )
}

/// The trained model in the page: a layer picker, its pieces, and every layer × head's weights.
/// Built once; a new run repaints the maps and the opened head's numbers (a knock-out keeps the
/// focus on its checkbox), and a new sentence rebuilds only the pieces.
#[component]
fn ModelView(encoder: Arc<Encoder>) -> impl IntoView {
    let state = use_app();
    state.trained.set_value(Some(encoder.clone()));
    on_cleanup(move || state.trained.set_value(None));
    let error = RwSignal::new(None::<String>);
    let put = {
        let encoder = encoder.clone();
        move |layer: usize| {
            let opened = state
                .model
                .with_untracked(|m| layer_model(&encoder, m, layer))
                .and_then(|m| state.apply(Edit::Open(Box::new(m))));
            error.set(opened.err().map(|e| format!("The trained model: {e}.")));
        }
    };
    // Opened, the model goes into the page: as a link, the saved work or a loaded state names
    // it (then, or whenever one does), else at its first layer (undo brings the page back).
    let (opening, put_first) = (encoder.clone(), put.clone());
    Effect::new(move |first: Option<()>| {
        // Taken only when there: taking notifies, and this effect watches it.
        let named = state
            .pretrained
            .with(Option::is_some)
            .then(|| state.pretrained.try_update(Option::take).flatten())
            .flatten();
        match named {
            Some(named) => {
                let encoder = &opening;
                let opened = read_trained(&named).and_then(|(name, opening)| {
                    if name == NAME {
                        encoder
                            .open_layer(NAME, opening)
                            .and_then(|m| state.apply(Edit::Open(Box::new(m))))
                    } else {
                        Err(format!(
                            "it names “{}”, and this page has {NAME}",
                            crate::core::text::clip(&name)
                        ))
                    }
                });
                error.set(
                    opened
                        .err()
                        .map(|e| format!("The trained model's layer could not be opened: {e}.")),
                );
            }
            None if first.is_none() && state.model.with_untracked(|m| m.layered().is_none()) => {
                put_first(0)
            }
            None => {}
        }
    });
    let error_line = move || {
        error.get().map(
            |e| view! { <p class="field-error" role="alert" data-stat="pretrained-error">{e}</p> },
        )
    };
    // An embed shows the steps its author chose: the layer in them, not the model view.
    if state.embedded {
        return error_line.into_any();
    }
    let run: Run = RwSignal::new(None);
    keep_running(encoder.clone(), run);
    let layered = Memo::new(move |_| {
        state
            .model
            .with(|m| m.layered().map(|l| (l.layer, l.knocked.clone())))
    });
    let knock = {
        let encoder = encoder.clone();
        Callback::new(move |((l, h), out): ((usize, usize), bool)| {
            let knocked = state
                .model
                .with_untracked(|m| {
                    encoder.reopen(m, |o| {
                        o.knocked.retain(|x| *x != (l, h));
                        if out {
                            o.knocked.push((l, h));
                        }
                    })
                })
                .and_then(|m| state.apply(Edit::Open(Box::new(m))));
            error.set(knocked.err().map(|e| format!("The trained model: {e}.")));
        })
    };
    let pieces = Memo::new(move |_| {
        run.with(|r| {
            r.as_ref()
                .map(|t| (t.tokens.clone(), t.ids.clone()))
                .unwrap_or_default()
        })
    });
    let followed = Signal::derive(move || {
        state
            .query
            .get()
            .min(pieces.with(|(t, _)| t.len().saturating_sub(1)))
    });
    let opened = RwSignal::new(None::<(usize, usize)>);
    let weights = move |l: usize, h: usize| {
        Signal::derive(move || {
            run.with(|r| match r {
                Some(t) => t.layers[l].heads[h].weights.clone(),
                None => DMatrix::zeros(0, 0),
            })
        })
    };
    let config = encoder.config.clone();
    let put_again = put.clone();
    view! {
        {error_line}
        <p class="note" hidden=move || layered.with(Option::is_some)>
            "The page shows another model now. "
            <button type="button" data-action="pretrained-in-page" on:click=move |_| put_again(0)>"Put the trained model back in the page"</button>
        </p>
        <div hidden=move || layered.with(Option::is_none)>
            <label class="field">
                <span>"Layer in the page"</span>
                <select data-control="layer" prop:value=move || layered.with(|l| l.as_ref().map_or(0, |l| l.0).to_string())
                    on:change=move |ev| if let Ok(l) = event_target_value(&ev).parse() { put(l) }>
                    {(0..config.layers).map(|l| view! { <option value=l.to_string()>{format!("layer {l}")}</option> }).collect_view()}
                </select>
            </label>
            {move || layered.with(|p| p.as_ref().and_then(|(l, knocked)| {
                let here: Vec<String> = knocked.iter().filter(|k| k.0 == *l).map(|k| k.1.to_string()).collect();
                (!here.is_empty()).then(|| view! {
                    <p class="note" data-note="knocked-in-page">
                        {format!("Knocked out in this layer: head {}. The page's steps still show what such a head computes; the layers above get zeros from it.", here.join(", head "))}
                    </p>
                })
            }))}
            <p class="note">"The steps below are this layer: X is the hidden state entering it, W_query, W_key and W_value are its 12 heads' (with their biases), and W_output joins them again. Change any weight and every layer above is computed again. Layers count from 0, as transformers counts them. Its own tokens (WordPiece: a word it does not know whole is cut into known pieces, “##” marking a piece inside a word); click one to follow it."</p>
            <ol class="pretrained-tokens" data-stat="pretrained-tokens">
                {move || pieces.with(|(tokens, ids)| tokens.iter().zip(ids).enumerate().map(|(i, (t, id))| view! {
                    <li>
                        <button type="button" class="token" data-token=i.to_string() data-id=id.to_string()
                            aria-pressed=move || (followed.get() == i).to_string()
                            on:click=move |_| state.selected.set(Some(i))>
                            {t.clone()}<sub>{id.to_string()}</sub>
                        </button>
                    </li>
                }).collect_view())}
            </ol>
            {move || run.get().map(|trace| view! { <HeadWords trace=trace followed=followed/> })}
            <div class="model-view" data-view="model" role="group" aria-label="Every layer's heads' weights">
                {(0..config.layers).map(|l| view! {
                    <div class="model-layer" class:in-page=move || layered.with(|p| p.as_ref().is_some_and(|p| p.0 == l))>
                        <span class="model-layer-name">{format!("layer {l}")}</span>
                        {(0..config.heads).map(|h| view! {
                            <button type="button" class="model-head" data-layer=l.to_string() data-head=h.to_string()
                                class:knocked=move || layered.with(|p| p.as_ref().is_some_and(|p| p.1.contains(&(l, h))))
                                aria-label=format!("Layer {l}, head {h}") aria-pressed=move || (opened.get() == Some((l, h))).to_string()
                                on:click=move |_| opened.set(Some((l, h)))>
                                <Thumbnail head=h layer=l matrix=weights(l, h) causal=Signal::stored(false)/>
                            </button>
                        }).collect_view()}
                    </div>
                }).collect_view()}
            </div>
            {move || opened.get().map(|(l, h)| view! { <OpenedHead layer=l head=h run=run followed=followed knocked=Signal::derive(move || layered.with(|p| p.as_ref().is_some_and(|p| p.1.contains(&(l, h))))) knock=knock/> })}
            <LayerSteps run=run layer=Signal::derive(move || layered.with(|p| p.as_ref().map_or(0, |p| p.0)))/>
        </div>
    }
    .into_any()
}

/// Which heads send the followed piece where: each head whose largest weight from it is at least
/// [`CLEAR`], by layer, named by the piece it goes to; those that go to `[CLS]` or `[SEP]` counted
/// apart (where a head rests when it has nothing to find).
#[component]
fn HeadWords(trace: Arc<EncoderTrace>, followed: Signal<usize>) -> impl IntoView {
    view! {
        <p class="pretrained-words" data-stat="pretrained-words">
            {move || {
                let q = followed.get();
                let token = |i: usize| format!("“{}”", trace.tokens[i]);
                let (sending, resting) = heads_sending(&trace, q, CLEAR);
                let said: Vec<String> = sending
                    .iter()
                    .map(|&(l, h, k, w)| format!("layer {l} head {h} to {} ({})", token(k), fmt(w, 2)))
                    .collect();
                let rest = match resting {
                    0 => String::new(),
                    1 => " One more sends it to [CLS] or [SEP], where a head rests when it finds nothing to do.".into(),
                    n => format!(" {n} more send it to [CLS] or [SEP], where a head rests when it finds nothing to do."),
                };
                if said.is_empty() {
                    format!("No head sends {} as much as half its attention to another word.{rest}", token(q))
                } else {
                    format!("From {}, at least half the attention: {}.{rest}", token(q), said.join("; "))
                }
            }}
        </p>
    }
}

/// One head opened: the followed piece's weights over every piece, as numbers, and its
/// knock-out.
#[component]
fn OpenedHead(
    layer: usize,
    head: usize,
    run: Run,
    followed: Signal<usize>,
    knocked: Signal<bool>,
    knock: Callback<((usize, usize), bool)>,
) -> impl IntoView {
    let toggle = move |ev| knock.run(((layer, head), event_target_checked(&ev)));
    // (the followed piece, the pieces, its row of weights)
    let row = Memo::new(move |_| {
        let q = followed.get();
        run.with(|r| match r {
            Some(t) if q < t.tokens.len() => (
                q,
                t.tokens.clone(),
                t.layers[layer].heads[head]
                    .weights
                    .row(q)
                    .iter()
                    .copied()
                    .collect::<Vec<f64>>(),
            ),
            _ => (q, Vec::new(), Vec::new()),
        })
    });
    view! {
        <div class="pretrained-head" data-view="pretrained-head" data-layer=layer.to_string() data-head=head.to_string()>
            <h3>{move || row.with(|(q, tokens, _)| format!("Layer {layer}, head {head}: where “{}” looks", tokens.get(*q).map_or("", String::as_str)))}</h3>
            <label class="field check">
                <input type="checkbox" data-control="knockout" prop:checked=move || knocked.get() on:change=toggle/>
                <span>"Knock this head out (its weights × 0, as transformers' head_mask): every later layer is computed without it"</span>
            </label>
            <table class="matrix">
                {move || row.with(|(q, tokens, weights)| view! {
                    <thead><tr>{tokens.iter().map(|t| view! { <th scope="col">{t.clone()}</th> }).collect_view()}</tr></thead>
                    <tbody><tr>
                        {weights.iter().enumerate().map(|(k, &w)| view! {
                            <td data-row=q.to_string() data-col=k.to_string() data-value=w.to_string()>{fmt(w, 4)}</td>
                        }).collect_view()}
                    </tr></tbody>
                })}
            </table>
        </div>
    }
}

/// A part of a layer's run.
type Part = fn(&LayerTrace) -> &DMatrix<f64>;

/// From the page's layer to the next: the heads' joined output, the residual and LayerNorm, the
/// feed-forward network and its residual and LayerNorm, read-only, each with its formula. Built
/// once: a new run or another layer repaints the maps.
#[component]
fn LayerSteps(run: Run, layer: Signal<usize>) -> impl IntoView {
    let state = use_app();
    let words = Signal::derive(move || {
        run.with(|r| r.as_ref().map(|t| t.tokens.clone()).unwrap_or_default())
    });
    let layers = move || run.with(|r| r.as_ref().map_or(0, |t| t.layers.len()));
    let next = move || {
        let l = layer.get() + 1;
        if l < layers() {
            format!("X of layer {l}")
        } else {
            "the model's output".to_owned()
        }
    };
    let steps: [(&'static str, &'static str, &'static str, Part); 4] = [
        (
            "layer_attended",
            "attended",
            "attended = concat(heads) · W_output + b_output: what the layer's attention adds to each piece",
            |t| &t.attended,
        ),
        (
            "layer_normed",
            "h",
            "h = LayerNorm(X + attended): the residual keeps X, and LayerNorm brings each row to mean 0 and variance 1 (then its trained scale and shift)",
            |t| &t.attention_normed,
        ),
        (
            "layer_ffn",
            "GELU(h · W_in + b_in)",
            "The feed-forward network, each piece on its own: 384 → 1536 numbers, GELU (x · Φ(x)) keeping mostly the positive ones",
            |t| &t.intermediate,
        ),
        (
            "layer_output",
            "output",
            "output = LayerNorm(h + GELU(h · W_in + b_in) · W_out + b_out): ",
            |t| &t.output,
        ),
    ];
    view! {
        <section class="layer-steps" data-view="layer-steps" hidden=move || run.with(Option::is_none)
            aria-label=move || format!("From layer {} to the next", layer.get())>
            <h3>{move || format!("From layer {} to the next (computed, not edited)", layer.get())}</h3>
            {steps.into_iter().map(|(name, title, formula, pick)| {
                let matrix = Memo::new(move |_| {
                    run.with(|r| {
                        r.as_ref()
                            .and_then(|t| t.layers.get(layer.get()))
                            .map_or_else(|| DMatrix::zeros(0, 0), |t| pick(t).clone())
                    })
                });
                let columns = Signal::derive(move || (0..matrix.with(DMatrix::ncols)).map(|c| c.to_string()).collect::<Vec<_>>());
                let spec = MatrixSpec {
                    look: use_look(),
                    name,
                    title,
                    head: None,
                    corner: "piece ╲ number",
                    matrix: matrix.into(),
                    row_labels: words,
                    col_labels: columns,
                    heat: Heat::Signed,
                    highlight_row: Signal::derive(move || Some(state.query.get())),
                    grey_future: Signal::stored(false),
                    flagged: None,
                    lab: true,
                    grad: false,
                    editor: None,
                    cover: Signal::stored(Cover::default()),
                    on_cell_click: None,
                    on_row_click: Some(Callback::new(move |i| state.selected.set(Some(i)))),
                };
                let leads_on = name == "layer_output";
                view! {
                    <figure class="layer-step">
                        <figcaption><code>{formula}{move || leads_on.then(next)}</code></figcaption>
                        <HeatMap spec=spec/>
                    </figure>
                }
            }).collect_view()}
        </section>
    }
}
