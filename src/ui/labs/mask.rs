//! The masking lab: the tutorial's two causal-masking methods side by side on the learner's
//! scores, multiplied by a power of ten until renormalising breaks while −∞ stays exact.

use leptos::html::Div;
use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::i18n::{keys, Key};
use crate::core::model::Matrix;
use crate::core::teaching::labs;
use crate::core::teaching::labs::{MaskComparison, MAGNITUDE_MAX_EXP};
use crate::core::views::heatmap::{Heat, NUMBERS_MAX_SIDE};
use crate::ui::in_view::{in_view, memo_in_view};
use crate::ui::labs::frame::{LabText, RangeField, Stat};
use crate::ui::lang::{figure, with_figures};
use crate::ui::lang::{t, word};
use crate::ui::matrix::LabMatrix;
use crate::ui::state::use_app;

/// 10⁰ … 10⁴ as written on the control.
fn power_of_ten(exponent: u32) -> String {
    const SUPERSCRIPTS: [&str; 5] = ["⁰", "¹", "²", "³", "⁴"];
    format!("10{}", SUPERSCRIPTS.get(exponent as usize).unwrap_or(&"?"))
}

/// What the page says about this lab.
pub const TEXT: LabText = LabText {
    title: keys::labs::mask_title,
    short_title: keys::labs::mask_short_title,
    hint: keys::labs::mask_hint,
};

/// The lab's factor, as its power of ten: kept by the page (`labs::render` provides it), so
/// that it stays while the lab's body leaves and comes back with its step.
#[derive(Clone, Copy)]
pub struct Exponent(pub RwSignal<u32>);

/// The lab's body (its frame, `LabSection`, is the page's: it shows while this loads).
#[component]
pub fn MaskLab() -> impl IntoView {
    let state = use_app();
    let exponent = use_context::<Exponent>().map_or_else(|| RwSignal::new(0), |e| e.0);
    // The whole lab's body: a lab partly in view is in view.
    let body = NodeRef::<Div>::new();
    let seen = in_view(body);
    // Head 0's scaled scores, masked causally here whether or not the model is causal; out of
    // view, an edit costs nothing here until the lab is scrolled to.
    let comparison = memo_in_view(seen, move || {
        let magnitude = 10f64.powi(exponent.get() as i32);
        state.derived.trace.with(|t| {
            t.heads
                .first()
                .map(|h| MaskComparison::of(&h.scaled_scores, magnitude))
        })
    });
    let max_diff =
        Signal::derive(move || comparison.with(|c| c.as_ref().map_or(0.0, |c| c.max_diff)));
    let ok = move || comparison.with(|c| c.as_ref().is_none_or(MaskComparison::renormalized_ok));
    let failing = move || {
        comparison.with(|c| {
            c.as_ref()
                .map_or(0, |c| c.failing.iter().filter(|&&f| f).count())
        })
    };
    let show_tables = move || state.derived.words.with(|w| w.len() <= NUMBERS_MAX_SIDE);
    // Only method 1's failing cells are flagged: method 2 is the reference.
    let table = move |title: Key,
                      of: labs::LabMatrix,
                      pick: fn(&MaskComparison) -> &DMatrix<f64>,
                      mark: bool| {
        // A memo: the table reads the matrix several times per change, and a derived signal
        // would clone it from the comparison at each read. The flags are read once per change.
        let matrix: Signal<DMatrix<f64>> = Memo::new(move |_| {
            comparison.with(|c| {
                c.as_ref()
                    .map_or_else(|| DMatrix::zeros(0, 0), |c| pick(c).clone())
            })
        })
        .into();
        let flagged = mark.then(|| {
            Signal::derive(move || {
                comparison.with(|c| {
                    c.as_ref()
                        .map_or_else(|| DMatrix::from_element(0, 0, false), |c| c.failing.clone())
                })
            })
        });
        view! {
            <LabMatrix
                of
                title
                values=matrix
                words=state.derived.words.into()
                columns=state.derived.key_words
                heat=Heat::Unit
                grey_future=Signal::stored(true)
                flagged=flagged
                // Head 0's weights when the model is causal (an asked weight is hidden here too).
                same_as=Matrix::Weights
            />
        }
    };

    view! {
        <div node_ref=body>
            <p class="explain">{t(keys::labs::mask_methods)}</p>
            <div class="lab-controls">
                <RangeField
                    label=keys::labs::scores_times_label
                    control="lab_magnitude"
                    max=MAGNITUDE_MAX_EXP.into()
                    step=1.0
                    value=Signal::derive(move || exponent.get().into())
                    valuetext=Signal::derive(move || word(&keys::labs::scores_times(10u32.pow(exponent.get()))))
                    on_input=Callback::new(move |e: f64| exponent.set((e as u32).min(MAGNITUDE_MAX_EXP)))
                />
                <output class="magnitude">{move || power_of_ten(exponent.get())}</output>
            </div>
            <p class="lab-verdict" role="status" class:broken=move || !ok()>
                {with_figures(
                    || keys::labs::mask_verdict(figure(0), figure(1)),
                    move |i| match i {
                        0 => view! { <Stat name="mask_diff" value=max_diff/> }.into_any(),
                        _ => view! {
                            <span class="stat" data-stat="renormalized_ok" data-value=move || ok().to_string()>
                                {move || if ok() { word(&keys::labs::yes.into()) } else { word(&keys::labs::mask_differ(failing())) }}
                            </span>
                        }
                        .into_any(),
                    },
                )}
            </p>
            <Show
                when=show_tables
                fallback=|| view! { <p class="note">{move || word(&keys::labs::tables_up_to(NUMBERS_MAX_SIDE))}</p> }
            >
                <div class="side-by-side">
                    {table(keys::labs::method_1, labs::LabMatrix::Renormalized, |c| &c.renormalized, true)}
                    {table(keys::labs::method_2, labs::LabMatrix::NegInf, |c| &c.neg_inf, false)}
                </div>
            </Show>
            <p class="explain">{t(keys::labs::mask_why)}</p>
        </div>
    }
}
