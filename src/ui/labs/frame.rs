//! What every lab's section shares: its frame, a figure for scripts, a labelled slider.

use leptos::prelude::*;

use crate::core::i18n::keys::frame;
use crate::core::i18n::Key;
use crate::core::views::pipeline::Lab;
use crate::ui::lang::t;
use crate::ui::state::use_app;

/// What the page says about a lab; each lab's file holds its own, beside its view.
pub struct LabText {
    /// Its heading.
    pub title: Key,
    /// Its name in the pipeline's table of contents.
    pub short_title: Key,
    /// What the guided walk suggests trying here.
    pub hint: Key,
}

/// A lab's frame: a section like a step's, marked as a lab.
#[component]
pub fn LabSection(lab: Lab, text: &'static LabText, children: Children) -> impl IntoView {
    let state = use_app();
    let id = lab.id();
    view! {
        <section
            class="step lab-section"
            id=id
            aria-labelledby=format!("{id}-title")
            aria-current=move || state.at_lab(lab).then_some("step")
        >
            <h2 id=format!("{id}-title")>
                <span class="lab-badge">{t(frame::lab)}</span>
                {t(text.title)}
            </h2>
            {children()}
        </section>
    }
}

/// A figure for scripts and tests: `data-stat` names it, `data-value` holds it in full precision
/// (Rust's shortest round-trip form), the text shows it to 4 significant digits.
#[component]
pub fn Stat(
    /// The figure's `data-stat` name.
    #[prop(into)]
    name: String,
    /// The figure; NaN shows as "NaN".
    #[prop(into)]
    value: Signal<f64>,
    /// A count: shown as a whole number.
    #[prop(optional)]
    whole: bool,
) -> impl IntoView {
    let text = move || {
        let x = value.get();
        if whole {
            x.to_string()
        } else {
            crate::core::text::fmt_significant(x, 4)
        }
    };
    view! {
        <span class="stat" data-stat=name data-value=move || value.get().to_string()>
            {text}
        </span>
    }
}

/// A slider from 0 to `max`, labelled.
#[component]
pub fn RangeField(
    /// The visible label.
    label: Key,
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
            <span>{t(label)}</span>
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
