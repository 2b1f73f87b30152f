//! The model's settings: preset, sizes, causal, scaling, seed, precision, and saving/sharing.

mod edit_bar;
mod save;
mod sizes;

use leptos::prelude::*;

use crate::core::document::edit::Edit;
use crate::core::formats::link::{Controls as Level, MAX_DECIMALS};
use crate::core::i18n::keys::settings;
use crate::core::i18n::{Arg, Key, Msg};
use crate::core::model::presets::PRESETS;
use crate::core::model::Model;
use crate::ui::author::AuthorButton;
use crate::ui::embed::EmbedButton;
use crate::ui::export::CopyPytorch;
use crate::ui::fields::{
    accept, apply_or_say, clause, refusal, IntegerField, IntegerFieldProps, PositionsField,
};
use crate::ui::import_torch::ImportTorchButton;
use crate::ui::lang::{t, word};
use crate::ui::on_demand::{chunk, Loaded, LoadedNear};
use crate::ui::pretrained::language::LanguageModelButton;
use crate::ui::pretrained::PretrainedButton;
use crate::ui::state::use_app;

use edit_bar::EditBar;
use save::SaveAndShare;
use sizes::sizes;

/// The settings bar, with as much as `level` allows (an embed's `controls=`), and the edit bar.
/// On the page (not in an embed, which shows what its author asked for) the settings sit folded
/// under one summary, open when `unfolded`: the opening is the lesson, the settings one click
/// away. Their code is a chunk: under the summary, fetched once the page is painted (or when the
/// summary is opened first), so nothing on screen waits for it or moves when it comes.
#[component]
pub fn Controls(level: Level, #[prop(optional)] unfolded: bool) -> impl IntoView {
    let state = use_app();
    if level == Level::None {
        return view! { <EditBar level/> }.into_any();
    }
    let panel = if level == Level::All && !state.page.embedded {
        view! {
            <details class="settings" open=unfolded>
                <summary data-action="settings">
                    {t(settings::settings_and_tools)} " "
                    <span class="note">{t(settings::settings_list)}</span>
                </summary>
                <LoadedNear load=settings_panel what=settings::settings_and_tools soon=true/>
            </details>
        }
        .into_any()
    } else {
        view! { <Loaded load=settings_panel what=settings::settings_and_tools/> }.into_any()
    };
    view! {
        {panel}
        <EditBar level/>
    }
    .into_any()
}

chunk! {
    /// The settings themselves, as many as the page's `controls=` allows.
    settings_panel => Panel(PanelProps { level: use_app().page.controls }).into_any()
}

/// The settings: the example, the sizes, the layers, the seed, the decimals and the tools.
#[component]
fn Panel(level: Level) -> impl IntoView {
    let state = use_app();
    let (size_fields, resized_note) = sizes(state);
    let reinit_refused = RwSignal::new(None::<Msg>);
    let reinit = move |_| {
        apply_or_say(
            state,
            Edit::Reinitialise,
            settings::not_reinitialised,
            reinit_refused,
            || {},
        )
    };
    let precision = IntegerField(IntegerFieldProps {
        control: "precision",
        label: settings::decimals.into(),
        min: 0,
        max: MAX_DECIMALS as u64,
        value: Signal::derive(move || state.view.look.precision.get() as u64),
        on_change: accept(move |n| state.view.look.precision.set(n as usize)),
    });
    let all = level == Level::All;
    let preset_refused = RwSignal::new(None::<Msg>);

    view! {
        <div class="controls" class:compact=!all role="group" aria-label=t(settings::model_settings)>
            {all.then(|| view! { <label class="field">
                <span>{t(settings::example)}</span>
                <select
                    data-control="preset"
                    // Set again after a refusal: the picker names the model there is.
                    prop:value=move || { preset_refused.track(); state.preset().unwrap_or("") }
                    on:change=move |ev| {
                        let refused = state.open_preset(&event_target_value(&ev)).err();
                        preset_refused.set(refused.map(|e| settings::not_opened(clause(e))));
                    }
                >
                    <option value="" disabled>{t(settings::your_own_model)}</option>
                    {PRESETS.iter().map(|p| view! { <option value=p.name>{t(p.title)}</option> }).collect_view()}
                </select>
                {move || preset_refused.get().map(|e| view! { <span class="field-error" role="alert">{word(&e)}</span> })}
            </label> })}
            {size_fields}
            <Layers/>
            {all.then(|| view! { <IntegerField
                control="seed"
                label=settings::seed
                min=0
                max=u64::MAX
                value=state.doc.seed.into()
                on_change=Callback::new(move |n| state.apply(Edit::Seed(n)).map_err(Arg::from))
            />
            <button type="button" data-action="reinit" on:click=reinit title=t(settings::reinitialise_title)>
                {t(settings::reinitialise)}
            </button>
            {refusal("reinit-refused".into(), reinit_refused)} })}
            {precision}
            {resized_note}
            {all.then(|| view! { <SaveAndShare/> <CopyPytorch/> <ImportTorchButton/> <PretrainedButton/> <LanguageModelButton/> <EmbedButton/> <AuthorButton/> })}
        </div>
    }
}

/// What real layers add: biases on the projections and the output projection, each on or off.
#[component]
fn Layers() -> impl IntoView {
    let state = use_app();
    let toggle = |control: &'static str,
                  label: Key,
                  title: Key,
                  on: fn(&Model) -> bool,
                  edit: fn(bool) -> Edit| {
        let refused = RwSignal::new(None::<Msg>);
        view! {
            <label class="field check" title=t(title)>
                <input
                    type="checkbox"
                    data-control=control
                    prop:checked=move || state.structure(on)
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        let input = event_target::<web_sys::HtmlInputElement>(&ev);
                        apply_or_say(state, edit(on), label, refused, move || input.set_checked(!on));
                    }
                />
                <span>{t(label)}</span>
                {refusal(format!("{control}-refused"), refused)}
            </label>
        }
    };
    view! {
        <PositionsField control="positions"/>
        {toggle("biases", settings::biases, settings::biases_title, Model::has_biases, Edit::Biases)}
        {toggle("output-projection", settings::output_projection, settings::output_projection_title, |m| m.output().is_some(), Edit::OutputProjection)}
    }
}
