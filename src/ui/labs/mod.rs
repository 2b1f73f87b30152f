//! Experiments beside the steps they explain: why √dₖ (after the scaling), why −∞ (after the
//! mask), and what several heads add (inside the output step). The numbers come from
//! `core::sqrt_dk` and `core::labs`; these components only draw them.

use leptos::prelude::*;

use crate::ui::walk::{is_current, Stop};

pub mod heads;
pub mod mask;
pub mod sqrt_dk;

/// The labs that have a section of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lab {
    /// Why divide the scores by √dₖ: after the scaling step.
    SqrtDk,
    /// Why mask with −∞ before the softmax: after the mask step.
    Mask,
}

impl Lab {
    /// The id of its `<section>`.
    pub fn id(self) -> &'static str {
        match self {
            Lab::SqrtDk => "lab-sqrt-dk",
            Lab::Mask => "lab-mask",
        }
    }

    /// Its heading.
    pub fn title(self) -> &'static str {
        match self {
            Lab::SqrtDk => "Lab: why divide by √dₖ?",
            Lab::Mask => "Lab: why mask with −∞?",
        }
    }

    /// Its name in the pipeline's table of contents.
    pub fn short_title(self) -> &'static str {
        match self {
            Lab::SqrtDk => "√dₖ lab",
            Lab::Mask => "−∞ lab",
        }
    }

    /// What the guided walk suggests trying here.
    pub fn hint(self) -> &'static str {
        match self {
            Lab::SqrtDk => "Drag dₖ up to 1024: unscaled, the variance grows like dₖ and the largest weight heads for 1 while the gradient dies; ÷dₖ flattens every row; ÷√dₖ stays put.",
            Lab::Mask => "Raise the magnitude step by step until renormalising breaks (cells marked in red), while −∞ stays exact.",
        }
    }

    /// The lab's component.
    pub fn render(self) -> AnyView {
        match self {
            Lab::SqrtDk => sqrt_dk::SqrtDkLab().into_any(),
            Lab::Mask => mask::MaskLab().into_any(),
        }
    }
}

/// A lab's frame: a section like a step's, marked as a lab.
#[component]
fn LabSection(lab: Lab, children: Children) -> impl IntoView {
    let id = lab.id();
    view! {
        <section
            class="step lab-section"
            id=id
            aria-labelledby=format!("{id}-title")
            aria-current=move || is_current(Stop::Lab(lab)).then_some("step")
        >
            <h2 id=format!("{id}-title")>
                <span class="lab-badge">"Lab"</span>
                {lab.title()}
            </h2>
            {children()}
        </section>
    }
}

/// A figure for scripts and tests: `data-stat` names it, `data-value` holds it in full precision
/// (Rust's shortest round-trip form), the text shows it to 4 significant digits.
#[component]
fn Stat(
    /// The figure's `data-stat` name.
    #[prop(into)]
    name: String,
    /// The figure; NaN shows as "NaN".
    #[prop(into)]
    value: Signal<f64>,
) -> impl IntoView {
    view! {
        <span class="stat" data-stat=name data-value=move || value.get().to_string()>
            {move || crate::core::labs::fmt_significant(value.get(), 4)}
        </span>
    }
}

/// A slider from 0 to `max`, labelled.
#[component]
fn RangeField(
    /// The visible label.
    label: &'static str,
    /// Its `data-control` name.
    control: &'static str,
    max: f64,
    step: f64,
    /// The slider's position.
    #[prop(into)]
    value: Signal<f64>,
    /// What a screen reader says for the position ("dₖ = 64").
    #[prop(into)]
    valuetext: Signal<String>,
    /// Gets each new position (NaN if the browser sent something unreadable).
    on_input: Callback<f64>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span>{label}</span>
            <input
                type="range"
                min="0"
                max=max
                step=step
                data-control=control
                aria-valuetext=valuetext
                prop:value=move || value.get().to_string()
                on:input=move |ev| on_input.run(event_target_value(&ev).parse().unwrap_or(f64::NAN))
            />
        </label>
    }
}
