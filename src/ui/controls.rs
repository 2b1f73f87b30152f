//! The model's settings: preset, sizes, causal, scaling, seed, precision, and saving/sharing.

use leptos::prelude::*;

use crate::core::document::edit::Edit;
use crate::core::document::history::History;
use crate::core::formats::link::{Controls as Level, MAX_DECIMALS};
use crate::core::formats::state::write_state;
use crate::core::model::limits::{MAX_DIM, MAX_HEADS};
use crate::core::model::presets::PRESETS;
use crate::core::model::{Dims, Model, Scale};
use crate::core::teaching::story::Story;
use crate::core::text::{fmt, sentence, token_label};
use crate::ui::author::AuthorButton;
use crate::ui::embed::EmbedButton;
use crate::ui::export::{CopyPytorch, Files};
use crate::ui::fields::{
    accept, apply_or_say, refusal, IntegerField, IntegerFieldProps, PositionsField,
};
use crate::ui::import_torch::ImportTorchButton;
use crate::ui::on_demand::{chunk, Loaded};
use crate::ui::pretrained::PretrainedButton;
use crate::ui::share::{fragment_now, page_url};
use crate::ui::state::use_app;

/// The settings bar, with as much as `level` allows (an embed's `controls=`). On the page (not
/// in an embed, which shows what its author asked for) all of them sit folded under one
/// summary, open when `unfolded`: the opening is the lesson, the settings one click away.
#[component]
pub fn Controls(level: Level, #[prop(optional)] unfolded: bool) -> impl IntoView {
    let state = use_app();
    let dims = Memo::new(move |_| state.model.with(Model::dims));
    let kv_heads = Memo::new(move |_| state.model.with(Model::kv_heads));
    // What a resize did that the tables alone do not say: new places got random numbers.
    let resized = RwSignal::new(None::<(Dims, String)>);
    let followed = move || {
        let (head, query) = (0, state.query.get_untracked());
        state.trace.with_untracked(|t| Story::of(t, head, query))
    };
    let resize = move |change: fn(&mut Dims, usize), n: u64| {
        let mut d = dims.get_untracked();
        let was = followed();
        change(&mut d, n as usize);
        let grew = d.d_in > dims.get_untracked().d_in
            || d.d_k > dims.get_untracked().d_k
            || d.d_v > dims.get_untracked().d_v
            || d.heads > dims.get_untracked().heads;
        state.apply(Edit::Resize(d))?;
        resized.set(grew.then(|| {
            let at = d;
            let moved = match (was, followed()) {
                (Some(a), Some(b)) if (a.top.weight - b.top.weight).abs() > 5e-4 || a.top.key != b.top.key => {
                    let word = |k: usize| state.key_words.with_untracked(|w| w.get(k).cloned().unwrap_or_default());
                    format!(
                        " The followed token's largest weight moved: “{}” {} → “{}” {}.",
                        word(a.top.key),
                        fmt(a.top.weight, 3),
                        word(b.top.key),
                        fmt(b.top.weight, 3)
                    )
                }
                _ => String::new(),
            };
            (at, format!("The new places got random numbers drawn from the seed; the numbers already there are kept.{moved} Undo takes it back."))
        }));
        Ok(())
    };
    // Said while the sizes are the ones it speaks of (an Undo takes it away).
    let resized_note = move || {
        resized
            .get()
            .filter(|(at, _)| *at == dims.get())
            .map(|(_, note)| view! { <p class="note resized" role="status" data-note="resized">{note}</p> })
    };
    let dim_field = move |control: &'static str,
                          label: &'static str,
                          max: usize,
                          get: fn(&Dims) -> usize,
                          set: fn(&mut Dims, usize)| {
        view! {
            <IntegerField
                control
                label
                min=1
                max=max as u64
                value=Signal::derive(move || get(&dims.get()) as u64)
                on_change=Callback::new(move |n| resize(set, n))
            />
        }
    };
    let reinit_refused = RwSignal::new(None::<String>);
    let reinit = move |_| {
        apply_or_say(
            state,
            Edit::Reinitialise,
            "Not re-initialised",
            reinit_refused,
            || {},
        )
    };
    if level == Level::None {
        return view! { <EditBar level/> }.into_any();
    }
    let precision = IntegerField(IntegerFieldProps {
        control: "precision",
        label: "Decimals",
        min: 0,
        max: MAX_DECIMALS as u64,
        value: Signal::derive(move || state.look.precision.get() as u64),
        on_change: accept(move |n| state.look.precision.set(n as usize)),
    });
    let all = level == Level::All;
    let preset_refused = RwSignal::new(None::<String>);

    let panel = view! {
        <div class="controls" class:compact=!all role="group" aria-label="Model settings">
            {all.then(|| view! { <label class="field">
                <span>"Example"</span>
                <select
                    data-control="preset"
                    // Set again after a refusal: the picker names the model there is.
                    prop:value=move || { preset_refused.track(); state.preset().unwrap_or("") }
                    on:change=move |ev| {
                        let refused = state.open_preset(&event_target_value(&ev)).err();
                        preset_refused.set(refused.map(|e| sentence(&format!("Not opened: {e}"))));
                    }
                >
                    <option value="" disabled>"Your own model"</option>
                    {PRESETS.iter().map(|p| view! { <option value=p.name>{p.title}</option> }).collect_view()}
                </select>
                {move || preset_refused.get().map(|e| view! { <span class="field-error" role="alert">{e}</span> })}
            </label> })}
            {dim_field("d_in", "d_in", MAX_DIM, |d| d.d_in, |d, n| d.d_in = n)}
            {dim_field("d_k", "d_k", MAX_DIM, |d| d.d_k, |d, n| d.d_k = n)}
            {dim_field("d_v", "d_v", MAX_DIM, |d| d.d_v, |d, n| d.d_v = n)}
            {dim_field("heads", "Heads", MAX_HEADS, |d| d.heads, |d, n| d.heads = n)}
            <IntegerField
                control="kv_heads"
                label="KV heads"
                min=1
                max=MAX_HEADS as u64
                value=Signal::derive(move || kv_heads.get() as u64)
                on_change=Callback::new(move |n| state.apply(Edit::KvHeads(n as usize)))
            />
            <Layers/>
            {all.then(|| view! { <IntegerField
                control="seed"
                label="Seed"
                min=0
                max=u64::MAX
                value=state.seed.into()
                on_change=Callback::new(move |n| state.apply(Edit::Seed(n)))
            />
            <button type="button" data-action="reinit" on:click=reinit title="Draw every number again as PyTorch would after torch.manual_seed(seed)">
                "Re-initialise with seed"
            </button>
            {refusal("reinit-refused".into(), reinit_refused)} })}
            {precision}
            {resized_note}
            {all.then(|| view! { <SaveAndShare/> <CopyPytorch/> <ImportTorchButton/> <PretrainedButton/> <EmbedButton/> <AuthorButton/> })}
        </div>
    }
    .into_any();
    let panel = if all && !state.embedded {
        view! {
            <details class="settings" open=unfolded>
                <summary data-action="settings">
                    "Settings and tools "
                    <span class="note">"sizes, heads, real layers, a trained model, save and share, Copy as PyTorch, embed, exercises"</span>
                </summary>
                {panel}
            </details>
        }
        .into_any()
    } else {
        panel
    };
    view! {
        {panel}
        <EditBar level/>
    }
    .into_any()
}

/// What real layers add: biases on the projections and the output projection, each on or off.
#[component]
fn Layers() -> impl IntoView {
    let state = use_app();
    let toggle = |control: &'static str,
                  label: &'static str,
                  title: &'static str,
                  on: fn(&Model) -> bool,
                  edit: fn(bool) -> Edit| {
        let refused = RwSignal::new(None::<String>);
        view! {
            <label class="field check" title=title>
                <input
                    type="checkbox"
                    data-control=control
                    prop:checked=move || state.model.with(on)
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        let input = event_target::<web_sys::HtmlInputElement>(&ev);
                        apply_or_say(state, edit(on), label, refused, move || input.set_checked(!on));
                    }
                />
                <span>{label}</span>
                {refusal(format!("{control}-refused"), refused)}
            </label>
        }
    };
    view! {
        <PositionsField control="positions"/>
        {toggle("biases", "Biases", "Add b_query, b_key, b_value to every head's projections, as nn.Linear does", Model::has_biases, Edit::Biases)}
        {toggle("output-projection", "Output projection", "Mix the heads' concatenated contexts with W_output and b_output, as nn.MultiheadAttention's out_proj does", |m| m.output().is_some(), Edit::OutputProjection)}
    }
}

/// What an edit needs at hand at every step, so it sticks to the top of the page: undo, redo and
/// reset (in every embed too: a phone has no Ctrl+Z), and, unless `controls=none`, the mask,
/// the scaling, the followed token and the head shown.
#[component]
fn EditBar(level: Level) -> impl IntoView {
    let state = use_app();
    // Why Reset changed nothing (an exercise's lock); gone with the next change of the model.
    let refused = RwSignal::new(None::<String>);
    let causal_refused = RwSignal::new(None::<String>);
    let scale_refused = RwSignal::new(None::<String>);
    view! {
        <div class="edit-bar" role="group" aria-label="Edit and follow">
            <div class="field buttons">
                <button type="button" data-action="undo" title="Undo (Ctrl+Z outside a field)" disabled=move || !state.history.with(History::can_undo) on:click=move |_| { state.apply(Edit::Undo).ok(); }>
                    "Undo"
                </button>
                <button type="button" data-action="redo" title="Redo (Ctrl+Shift+Z outside a field)" disabled=move || !state.history.with(History::can_redo) on:click=move |_| { state.apply(Edit::Redo).ok(); }>
                    "Redo"
                </button>
                <button type="button" data-action="reset" title="Open the example again (Undo brings your model back)" on:click=move |_| refused.set(state.reset().err().map(|e| sentence(&format!("Not reset: {e}"))))>
                    "Reset"
                </button>
                {refusal("reset-refused".into(), refused)}
            </div>
            {(level != Level::None).then(|| view! {
                <label class="field check">
                    <input
                        type="checkbox"
                        data-control="causal"
                        prop:checked=move || state.causal.get()
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            let input = event_target::<web_sys::HtmlInputElement>(&ev);
                            apply_or_say(state, Edit::Causal(on), "Causal mask", causal_refused, move || input.set_checked(!on));
                        }
                    />
                    <span>"Causal mask"</span>
                    {refusal("causal-refused".into(), causal_refused)}
                </label>
                <label class="field">
                    <span>"Scale scores"</span>
                    <select
                        data-control="scale"
                        prop:value=move || state.model.with(|m| m.scale.key())
                        on:change=move |ev| {
                            if let Some(scale) = Scale::from_key(&event_target_value(&ev)) {
                                let select = event_target::<web_sys::HtmlSelectElement>(&ev);
                                let now = state.model.with_untracked(|m| m.scale.key());
                                apply_or_say(state, Edit::Scale(scale), "Scale scores", scale_refused, move || select.set_value(now));
                            }
                        }
                    >
                        <option value="sqrt_dk">{Scale::SqrtDk.label()}</option>
                        <option value="dk">{Scale::Dk.label()}</option>
                        <option value="none">{Scale::None.label()}</option>
                    </select>
                    {refusal("scale-refused".into(), scale_refused)}
                </label>
                <label class="field">
                    <span>"Following"</span>
                    // Each option says whether it is the one: the list is rebuilt as the sentence is typed.
                    <select
                        data-control="follow"
                        on:change=move |ev| {
                            if let Ok(k) = event_target_value(&ev).parse() {
                                state.selected.set(Some(k));
                            }
                        }
                    >
                        // Named as the tables' rows are, by word; a word used twice by which one it is.
                        {move || {
                            let words = state.words.get();
                            (0..words.len()).map(|k| view! {
                                <option value=k.to_string() prop:selected=move || state.query.get() == k>{token_label(&words, k)}</option>
                            }).collect_view()
                        }}
                    </select>
                </label>
                <HeadPicker/>
            })}
        </div>
    }
}

/// Which head to show when they do not all fit; absent while every head is shown.
#[component]
fn HeadPicker() -> impl IntoView {
    let state = use_app();
    let needed = move || state.heads.get() > 1 && state.visible_heads.with(|v| v.len() == 1);
    view! {
        <Show when=needed>
            <label class="field">
                <span>"Showing head"</span>
                <select
                    data-control="head"
                    prop:value=move || state.visible_heads.with(|v| v[0].to_string())
                    on:change=move |ev| {
                        if let Ok(h) = event_target_value(&ev).parse() {
                            state.focused_head.set(h);
                        }
                    }
                >
                    {move || (0..state.heads.get()).map(|h| view! { <option value=h.to_string()>{format!("{h} of {}", state.heads.get())}</option> }).collect_view()}
                </select>
            </label>
        </Show>
    }
}

/// Export the state as JSON, load one back, or copy a link that opens this exact model: a
/// summary, and what it opens as code on demand (most visits never open it).
#[component]
fn SaveAndShare() -> impl IntoView {
    let state = use_app();
    let fields = SaveFields {
        text: RwSignal::new(String::new()),
        message: RwSignal::new(None),
        link: RwSignal::new(String::new()),
    };
    provide_context(fields);
    let opened = RwSignal::new(false);
    view! {
        <details class="save">
            <summary on:click=move |_| {
                fields.text.set(state.model.with_untracked(write_state));
                fields.link.set(page_url("", &fragment_now(state)));
                fields.message.set(None);
                opened.set(true);
            }>"Save, load or share"</summary>
            {move || opened.get().then(|| view! { <Loaded load=save_panel what="saving and loading"/> })}
        </details>
    }
}

/// What the summary fills in each time it is opened, and the panel shows.
#[derive(Clone, Copy)]
struct SaveFields {
    /// The state as JSON, as typed or pasted.
    text: RwSignal<String>,
    /// What the last load said (and whether it worked).
    message: RwSignal<Option<(bool, String)>>,
    /// A link to this exact model.
    link: RwSignal<String>,
}

chunk! {
    /// The save, load and share panel.
    save_panel => SavePanel().into_any()
}

#[component]
fn SavePanel() -> impl IntoView {
    let state = use_app();
    let SaveFields {
        text,
        message,
        link,
    } = expect_context::<SaveFields>();
    let load = move |_| match state.load_state(&text.get_untracked()) {
        Ok(()) => message.set(Some((true, "Loaded.".into()))),
        Err(e) => message.set(Some((
            false,
            format!("Not loaded: {e}. The current model is unchanged."),
        ))),
    };
    view! {
        <label class="field wide">
            <span>"Link to this exact model"</span>
            <input type="text" readonly data-control="link" prop:value=move || link.get() on:focus=|ev| {
                use wasm_bindgen::JsCast;
                if let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                    input.select();
                }
            }/>
        </label>
        <label class="field wide">
            <span>"State (JSON): copy it to save, or paste one and load it"</span>
            <textarea
                data-control="state"
                rows="4"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
                aria-describedby="state-message"
            ></textarea>
        </label>
        <button type="button" data-action="load-state" on:click=load>"Load this state"</button>
        {move || message.get().map(|(ok, m)| view! { <p id="state-message" class=if ok { "field-ok" } else { "field-error" } role="status">{m}</p> })}
        <Files/>
    }
}
