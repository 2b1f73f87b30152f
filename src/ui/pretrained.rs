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

use crate::core::pretrained::{read_packed, Encoder, EncoderTrace};
use crate::core::teaching::labs::heads_sending;
use crate::core::text::fmt;
use crate::ui::matrix::heatmap::Thumbnail;
use crate::ui::on_demand::{chunk, PanelButton};
use crate::ui::pause::AfterPause;
use crate::ui::state::use_app;

/// The file `www/pack-model.mjs` puts beside the app.
const MODEL_FILE: &str = "models/all-minilm-l6-v2.safetensors";
/// How long the sentence's typing pauses before the model runs on it.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(300);
/// A weight from which the words name where a head sends the followed piece.
const CLEAR: f64 = 0.5;

/// The button and, once opened, the panel.
#[component]
pub fn PretrainedButton() -> impl IntoView {
    view! { <PanelButton action="load-pretrained" label="Open a trained model" load=pretrained_panel what="the trained model's code"/> }
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
            <p class="note">"6 layers × 12 heads, trained by sentence-transformers (Apache-2.0), run here on your sentence with every number equal to Hugging Face transformers' (stored as float16: each weight within 0.001)."</p>
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

/// The model's run on the sentence, or why not.
type Run = Memo<Result<Arc<EncoderTrace>, String>>;

/// The model on the page's sentence: its pieces, and every layer × head's weights. Built once;
/// a new run repaints the maps and the opened head's numbers (a knock-out keeps the focus on
/// its checkbox), and a new sentence rebuilds only the pieces.
#[component]
fn ModelView(encoder: Arc<Encoder>) -> impl IntoView {
    let state = use_app();
    // The model follows the sentence once its typing pauses: six layers between two keystrokes
    // would hold each one up by a tenth of a second.
    let sentence = RwSignal::new(state.model.with_untracked(|m| m.sentence().to_owned()));
    let pause = AfterPause::new(SETTLE);
    Effect::new(move |_| {
        let typed = state.model.with(|m| m.sentence().to_owned());
        if typed != sentence.get_untracked() {
            pause.changed(move || {
                sentence.set(state.model.with_untracked(|m| m.sentence().to_owned()))
            });
        }
    });
    // The heads knocked out (layer, head), as transformers' head_mask.
    let knocked = RwSignal::new(Vec::<(usize, usize)>::new());
    let config = encoder.config.clone();
    let run: Run = Memo::new(move |_| {
        knocked
            .with(|k| sentence.with(|s| encoder.run(s, k)))
            .map(Arc::new)
    });
    let pieces = Memo::new(move |_| {
        run.with(|r| {
            r.as_ref()
                .map(|t| (t.tokens.clone(), t.ids.clone()))
                .unwrap_or_default()
        })
    });
    // The followed piece: the first word's, until the learner picks another.
    let followed = RwSignal::new(1_usize);
    let followed_now = Signal::derive(move || {
        followed
            .get()
            .min(pieces.with(|(t, _)| t.len().saturating_sub(1)))
    });
    let opened = RwSignal::new(None::<(usize, usize)>);
    let weights = move |l: usize, h: usize| {
        Signal::derive(move || {
            run.with(|r| match r {
                Ok(t) => t.layers[l].heads[h].weights.clone(),
                Err(_) => DMatrix::zeros(0, 0),
            })
        })
    };
    view! {
        {move || run.with(|r| r.as_ref().err().map(|e| view! { <p class="field-error" role="alert" data-stat="pretrained-error">{format!("The sentence: {e}.")}</p> }))}
        <div hidden=move || run.with(Result::is_err)>
            <p class="note">"Its own tokens (WordPiece: a word it does not know whole is cut into known pieces, “##” marking a piece inside a word). Click one to follow it."</p>
            <ol class="pretrained-tokens" data-stat="pretrained-tokens">
                {move || pieces.with(|(tokens, ids)| tokens.iter().zip(ids).enumerate().map(|(i, (t, id))| view! {
                    <li>
                        <button type="button" class="token" data-token=i.to_string() data-id=id.to_string()
                            aria-pressed=move || (followed_now.get() == i).to_string()
                            on:click=move |_| followed.set(i)>
                            {t.clone()}<sub>{id.to_string()}</sub>
                        </button>
                    </li>
                }).collect_view())}
            </ol>
            {move || run.get().ok().map(|trace| view! { <HeadWords trace=trace followed=followed_now/> })}
            <div class="model-view" data-view="model" role="group" aria-label="Every layer's heads' weights">
                {(0..config.layers).map(|l| view! {
                    <div class="model-layer">
                        <span class="model-layer-name">{format!("layer {l}")}</span>
                        {(0..config.heads).map(|h| view! {
                            <button type="button" class="model-head" data-layer=l.to_string() data-head=h.to_string()
                                class:knocked=move || knocked.with(|k| k.contains(&(l, h)))
                                aria-label=format!("Layer {l}, head {h}") aria-pressed=move || (opened.get() == Some((l, h))).to_string()
                                on:click=move |_| opened.set(Some((l, h)))>
                                <Thumbnail head=h layer=l matrix=weights(l, h) causal=Signal::stored(false)/>
                            </button>
                        }).collect_view()}
                    </div>
                }).collect_view()}
            </div>
            {move || opened.get().map(|(l, h)| view! { <OpenedHead layer=l head=h run=run followed=followed_now knocked=knocked/> })}
        </div>
    }
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
    knocked: RwSignal<Vec<(usize, usize)>>,
) -> impl IntoView {
    let this = (layer, head);
    let toggle = move |ev| {
        let out = event_target_checked(&ev);
        knocked.update(|k| {
            k.retain(|x| *x != this);
            if out {
                k.push(this);
            }
        });
    };
    // (the followed piece, the pieces, its row of weights)
    let row = Memo::new(move |_| {
        let q = followed.get();
        run.with(|r| match r {
            Ok(t) if q < t.tokens.len() => (
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
                <input type="checkbox" data-control="knockout" prop:checked=move || knocked.with(|k| k.contains(&this)) on:change=toggle/>
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
