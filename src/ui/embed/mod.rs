//! Embed mode, for course pages: the page tells its parent how tall it is, answers the parent's
//! messages (the `postMessage` twin of `window.attentionExplorer`, through the same functions),
//! links to the full explorer, and writes the snippet an author pastes.
//!
//! Messages in: `{type: "attention-explorer:load", state, id?}`,
//! `{type: "attention-explorer:edit", matrix, head, row, col, value, id?}`,
//! `{type: "attention-explorer:get-trace", id}`, `{type: "attention-explorer:get-state", id}`,
//! `{type: "attention-explorer:restore-progress",
//! progress, id?}` (with exercises: the `progress` a result message carried), `{type: "attention-explorer:gradients",
//! objective, id}`, `{type: "attention-explorer:train", objective, steps, optimizer, lr, id}`.
//! Out: `{type: "attention-explorer:ready"}` once exercises can take progress back, `{type:
//! "attention-explorer:resize", height}`, `{type: "attention-explorer:trace", id,
//! trace}`, `{type: "attention-explorer:gradients" | "attention-explorer:trained", id, result}`
//! (`result` as `gradients()` and `train()` return it), `{type: "attention-explorer:state", id?,
//! state}` (asked, or unasked on opening and a moment after each change: a notebook or course
//! page keeps the learner's model) and, after a load or an edit, `{type:
//! "attention-explorer:result", id, error}` (`error` is `null` or the message).

use js_sys::Reflect;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::core::formats::contract::RESIZE;
use crate::core::formats::link::{params, snippet, Controls, Embed, Page, Part, Shown, Theme};
use crate::core::i18n::{keys::exercises as say, Key};
use crate::core::views::pipeline::{in_order, Step};
use crate::ui::lang::{course_lang, t, word};
use crate::ui::on_demand::{chunk, PanelButton};
use crate::ui::share::{embed_page_url, model_code, page_url};
use crate::ui::state::{use_app, AppState};
use crate::ui::steps::text as steps_text_of;

mod messages;
pub mod open_full;

pub use messages::{install, report_results, take_progress_back};

/// What the page shows now, with no hidden steps: the full page shows every step, and an embed
/// names its own.
fn shown_unhidden(state: AppState) -> Shown {
    Shown {
        hidden: Vec::new(),
        ..untrack(|| state.shown())
    }
}

/// The fragment carrying `model` (as [`model_code`] writes it; none: the query names a preset)
/// and `shown`, opening at `at`.
fn fragment(model: &str, shown: &Shown, at: Option<Step>) -> String {
    params::write(
        &Page {
            model,
            preset: None,
            shown,
            embed: None,
            at,
            exercises: None,
            lang: None,
        },
        Part::Fragment,
    )
}

/// The full explorer's address for the page as it is now: the model and what is shown, but no
/// embed options and no hidden steps, opening at `first`.
fn full_url(state: AppState, first: Option<Step>) -> String {
    page_url(
        "",
        &fragment(&model_code(state), &shown_unhidden(state), first),
    )
}

/// What the author chose in the Embed dialog.
struct Choice {
    steps: Vec<Step>,
    controls: Controls,
    theme: Theme,
}

/// The address of an embed of the page as it is now, showing `choice`: the steps as `steps=`
/// (all of them on the page: none), with no `hide=` (the steps say it all).
fn embed_url(state: AppState, choice: &Choice) -> String {
    let all = Step::ALL
        .into_iter()
        .filter(|s| s.on_page(state.derived.shape.get_untracked()))
        .count();
    let embed = Embed {
        steps: (choice.steps.len() < all).then(|| choice.steps.clone()),
        controls: (choice.controls != Controls::None).then_some(choice.controls),
        theme: choice.theme,
    };
    let shown = shown_unhidden(state);
    // An unedited preset is named, not written out: the embed then shows the preset's page
    // written at build time until its code arrives, as a link to the preset does.
    let preset = state.derived.preset.get_untracked();
    // The exercise being made (or the link's).
    let query = state.exercises.draft.with(|draft| {
        params::write(
            &Page {
                model: "",
                preset,
                shown: &shown,
                embed: Some(&embed),
                at: None,
                exercises: Some(draft),
                lang: course_lang(),
            },
            Part::Query,
        )
    });
    let model = match preset {
        Some(_) => String::new(),
        None => model_code(state),
    };
    embed_page_url(&query, &fragment(&model, &shown, None))
}

/// The pickers' words for `Controls::ALL` and `Theme::ALL`, in their order.
const CONTROLS: [Key; 3] = [say::controls_none, say::controls_dims, say::controls_all];
const THEMES: [Key; 3] = [say::theme_auto, say::theme_light, say::theme_dark];

/// Until the preview says how tall it is.
const FIRST_HEIGHT: u32 = 600;

/// Shows `#host-warning` if this server does not send `Access-Control-Allow-Origin: *` with the
/// app's code, which a sandboxed frame (an opaque origin) needs; silent when it cannot tell.
#[wasm_bindgen(inline_js = "export function copy_snippet(text, copied, refused) {
  const said = (words) => { document.getElementById('embed-copied').textContent = words; };
  navigator.clipboard.writeText(text).then(() => said(copied), () => said(refused));
}
export function check_host() {
  const wasm = document.querySelector('link[rel=preload][href$=\".wasm\"]');
  if (wasm) fetch(wasm.href, { method: 'HEAD', cache: 'no-store' }).then((r) => {
    const warning = document.getElementById('host-warning');
    if (warning && r.headers.get('access-control-allow-origin') !== '*') warning.hidden = false;
  }, () => {});
}")]
extern "C" {
    fn check_host();
    /// Copies `text` and says in `#embed-copied` whether it could: `copied` or `refused`.
    fn copy_snippet(text: &str, copied: &str, refused: &str);
}

/// The "Embed" button and its dialog: the steps (those shown, preselected), the controls and
/// the theme; a live preview, whose measured height goes into the snippet; a Copy button that
/// says whether it worked; and a warning when this server would leave the frame blank.
#[component]
pub fn EmbedButton() -> impl IntoView {
    let open = use_app().page.embedding;
    view! { <PanelButton action="embed" label=say::embed load=embed_dialog what=say::the_embed_dialog open=open/> }
}

chunk! {
    /// The Embed dialog, in its own wasm chunk: teachers use it, learners never.
    embed_dialog => EmbedDialog().into_any()
}

#[component]
fn EmbedDialog() -> impl IntoView {
    let state = use_app();
    let shape = state.derived.shape.get_untracked();
    // A trained encoder's layer never masks: its embed has no mask step to offer.
    let unmaskable = state
        .doc
        .model
        .with_untracked(crate::core::model::Model::is_encoder_layer);
    let offered = move |s: Step| s.on_page(shape) && !(unmaskable && s == Step::Mask);
    let hidden = state.view.hidden.get_untracked();
    // An exercise's embed shows the steps it needs (not every step: a frame thousands of pixels
    // tall, the goal's value far from what the learner edits).
    let exercises = state.exercises.draft.get_untracked();
    let choice = RwSignal::new(Choice {
        steps: if exercises.list.is_empty() {
            in_order(|s| offered(s) && !hidden.contains(&s))
        } else {
            exercises.steps(shape)
        },
        controls: Controls::None,
        theme: Theme::Auto,
    });
    let url = Memo::new(move |_| choice.with(|c| embed_url(state, c)));
    let height = RwSignal::new(FIRST_HEIGHT);
    // The preview is the only frame of the full page: its height is the embed's.
    let listener = window_event_listener(leptos::ev::message, move |ev: web_sys::MessageEvent| {
        let field = |k: &str| Reflect::get(&ev.data(), &JsValue::from_str(k)).ok();
        let resize = field("type").and_then(|t| t.as_string()).as_deref() == Some(RESIZE);
        if let Some(h) = field("height").and_then(|h| h.as_f64()).filter(|_| resize) {
            height.set(h.ceil().clamp(1.0, 100_000.0) as u32);
        }
    });
    on_cleanup(move || listener.remove());
    let text = Memo::new(move |_| snippet(&url.get(), height.get()));
    let copy = move |_| {
        let [copied, refused] = [say::copied, say::not_copied].map(|k| untrack(|| word(&k.into())));
        copy_snippet(&text.get_untracked(), &copied, &refused)
    };
    check_host();

    let step_box = move |step: Step| {
        let toggle = move |ev| {
            let on = event_target_checked(&ev);
            choice.update(|c| {
                let was = c.steps.clone();
                c.steps = in_order(|s| if s == step { on } else { was.contains(&s) });
            });
        };
        view! {
            <label class="field check">
                <input type="checkbox" data-control="embed-step" value=step.key() prop:checked=move || choice.with(|c| c.steps.contains(&step)) on:change=toggle/>
                <span>{move || word(&say::step_box(step.number(shape), steps_text_of(step).short_title))}</span>
            </label>
        }
    };
    let picker = |control: &'static str,
                  label: Key,
                  options: Vec<Key>,
                  set: fn(&mut Choice, usize)| {
        view! {
            <label class="field">
                <span>{t(label)}</span>
                <select data-control=control on:change=move |ev| {
                    let i = event_target_value(&ev).parse().unwrap_or(0);
                    choice.update(|c| set(c, i));
                }>
                    {options.into_iter().enumerate().map(|(i, o)| view! { <option value=i.to_string()>{t(o)}</option> }).collect_view()}
                </select>
            </label>
        }
    };
    view! {
        <div class="embed-dialog" id="embed-dialog" role="group" aria-label=t(say::embed_label)>
            <fieldset class="embed-steps">
                <legend>{t(say::steps_to_show)}</legend>
                {Step::ALL.into_iter().filter(|&s| offered(s)).map(step_box).collect_view()}
            </fieldset>
            {picker("embed-controls", say::controls, CONTROLS.to_vec(), |c, i| c.controls = Controls::ALL[i])}
            {picker("embed-theme", say::colours, THEMES.to_vec(), |c, i| c.theme = Theme::ALL[i])}
            {move || choice.with(|c| c.steps.is_empty()).then(|| view! {
                <p class="field-error" role="alert">{t(say::no_step)}</p>
            })}
            {move || state.exercises.draft.with(|d| choice.with(|c| d.leaked_by(&c.steps))).into_iter().map(|(asked, step, how)| view! {
                <p class="field-error" role="alert" data-stat="embed-leak">
                    {move || word(&say::embed_leak(step.number(shape), steps_text_of(step).short_title, asked.id(), how))}
                </p>
            }).collect_view()}
            <label class="field wide embed-snippet">
                <span>{t(say::paste)}</span>
                <textarea readonly rows="6" data-export="embed" prop:value=move || text.get() on:focus=select_all></textarea>
            </label>
            <p>
                <button type="button" data-action="copy-embed" on:click=copy disabled=move || choice.with(|c| c.steps.is_empty())>{t(say::copy)}</button>
                " "
                <span role="status" id="embed-copied" data-stat="copied"></span>
            </p>
            <p class="field-error" role="alert" id="host-warning" data-stat="host-warning" hidden>{t(say::host_warning)}</p>
            <p class="note">{t(say::preview)}</p>
            <iframe
                class="embed-preview"
                data-view="embed-preview"
                title=t(say::preview_title)
                src=move || url.get()
                height=move || height.get().to_string()
                sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox" // not words: permissions
            ></iframe>
        </div>
    }
}

/// Selects a text field's whole text, ready to copy.
fn select_all(ev: leptos::ev::FocusEvent) {
    use wasm_bindgen::JsCast;
    if let Some(area) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
    {
        area.select();
    }
}
