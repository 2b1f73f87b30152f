//! One file per pipeline step: its words ([`frame::StepText`]) and its view. `frame` holds what
//! every step's section shares; this module maps the catalogue's steps to them.

use leptos::prelude::*;

use crate::core::i18n::keys::views;
use crate::core::views::pipeline::Step;
use crate::ui::labs;
use crate::ui::lang::t;
use crate::ui::on_demand::chunk;
use crate::ui::scroll::scroll_to;
use crate::ui::state::use_app;
use frame::StepText;

pub mod context;
pub mod embedding;
pub mod frame;
pub mod mask;
pub mod out_proj;
pub mod output;
pub mod positions;
pub mod projections;
pub mod qkv;
pub mod scale;
pub mod scores;
pub mod sentence;
pub mod softmax;

/// What the page says about `step`.
pub fn text(step: Step) -> &'static StepText {
    match step {
        Step::Sentence => &sentence::TEXT,
        Step::Embedding => &embedding::TEXT,
        Step::Positions => &positions::TEXT,
        Step::Projections => &projections::TEXT,
        Step::Qkv => &qkv::TEXT,
        Step::Scores => &scores::TEXT,
        Step::Scale => &scale::TEXT,
        Step::Mask => &mask::TEXT,
        Step::Softmax => &softmax::TEXT,
        Step::Context => &context::TEXT,
        Step::Output => &output::TEXT,
        Step::OutProj => &out_proj::TEXT,
    }
}

/// The step's component.
pub fn render(step: Step) -> AnyView {
    match step {
        Step::Sentence => sentence::SentenceStep().into_any(),
        Step::Embedding => embedding::EmbeddingStep().into_any(),
        Step::Positions => positions::PositionsStep().into_any(),
        Step::Projections => projections::ProjectionsStep().into_any(),
        Step::Qkv => qkv::QkvStep().into_any(),
        Step::Scores => scores::ScoresStep().into_any(),
        Step::Scale => scale::ScaleStep().into_any(),
        Step::Mask => mask::MaskStep().into_any(),
        Step::Softmax => softmax::SoftmaxStep().into_any(),
        Step::Context => context::ContextStep().into_any(),
        Step::Output => output::OutputStep().into_any(),
        Step::OutProj => out_proj::OutProjStep().into_any(),
    }
}

/// A nav link's click: scrolls to the section `id` without following the link, whose `#id` would
/// replace the fragment that holds the model (and add a history entry). A click that opens a
/// new tab (Ctrl, Cmd, Shift, the middle button) still follows it.
fn jump(id: String) -> impl Fn(leptos::ev::MouseEvent) + Clone + 'static {
    move |ev| {
        if ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.button() != 0 {
            return;
        }
        ev.prevent_default();
        scroll_to(id.clone());
    }
}

chunk! {
    /// The contents, a chunk under their folded summary: fetched once the page is painted, or
    /// when the summary is opened first.
    pipeline_nav => PipelineNav().into_any()
}

/// The pipeline as links to its steps and labs, so a learner can jump along it.
#[component]
fn PipelineNav() -> impl IntoView {
    let state = use_app();
    view! {
        <nav class="pipeline" aria-label=t(views::pipeline_steps)>
            {Step::ALL
                .into_iter()
                .map(|step| {
                    view! {
                        <Show when=move || step.on_page(state.derived.shape.get())>
                            <a href=format!("#{}", step.id()) on:click=jump(step.id())>{t(text(step).short_title)}</a>
                        </Show>
                        {step.labs().iter().map(|&lab| view! { <a class="lab-link" href=format!("#{}", lab.id()) on:click=jump(lab.id().to_owned())>{t(labs::text(lab).short_title)}</a> }).collect_view()}
                    }
                })
                .collect_view()}
        </nav>
    }
}
