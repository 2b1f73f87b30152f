//! The model's settings: preset, sizes, causal, scaling, seed, precision, and saving/sharing.

mod edit_bar;
mod save;

use leptos::prelude::*;

use crate::core::document::edit::Edit;
use crate::core::formats::link::{Controls as Level, MAX_DECIMALS};
use crate::core::model::limits::{MAX_DIM, MAX_HEADS};
use crate::core::model::presets::PRESETS;
use crate::core::model::{Dims, Model};
use crate::core::teaching::story::Story;
use crate::core::text::{fmt, sentence};
use crate::ui::author::AuthorButton;
use crate::ui::embed::EmbedButton;
use crate::ui::export::CopyPytorch;
use crate::ui::fields::{
    accept, apply_or_say, refusal, IntegerField, IntegerFieldProps, PositionsField,
};
use crate::ui::import_torch::ImportTorchButton;
use crate::ui::pretrained::PretrainedButton;
use crate::ui::state::use_app;

use edit_bar::EditBar;
use save::SaveAndShare;

/// The settings bar, with as much as `level` allows (an embed's `controls=`). On the page (not
/// in an embed, which shows what its author asked for) all of them sit folded under one
/// summary, open when `unfolded`: the opening is the lesson, the settings one click away.
#[component]
pub fn Controls(level: Level, #[prop(optional)] unfolded: bool) -> impl IntoView {
    let state = use_app();
    let dims = Memo::new(move |_| state.doc.model.with(Model::dims));
    let kv_heads = Memo::new(move |_| state.doc.model.with(Model::kv_heads));
    // What a resize did that the tables alone do not say: new places got random numbers.
    let resized = RwSignal::new(None::<(Dims, String)>);
    let followed = move || {
        let (head, query) = (0, state.derived.followed_or_last.get_untracked());
        state
            .derived
            .trace
            .with_untracked(|t| Story::of(t, head, query))
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
                    let word = |k: usize| state.derived.key_words.with_untracked(|w| w.get(k).cloned().unwrap_or_default());
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
        value: Signal::derive(move || state.view.look.precision.get() as u64),
        on_change: accept(move |n| state.view.look.precision.set(n as usize)),
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
                value=state.doc.seed.into()
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
    let panel = if all && !state.page.embedded {
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
                    prop:checked=move || state.doc.model.with(on)
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
