//! The √dₖ lab's log–log plot: the variance of the scores against dₖ under each scaling, with
//! the theory.

use leptos::prelude::*;

use crate::core::i18n::keys::{labs, settings};
use crate::core::model::Scale;
use crate::core::teaching::sqrt_dk::{
    log_fraction, plot_dks, theory_variance, Sample, DK_MAX, DK_MIN, SCALINGS,
};
use crate::ui::lang::{t, word};

/// Plot geometry in the SVG's own units.
const WIDTH: f64 = 440.0;
const HEIGHT: f64 = 300.0;
const LEFT: f64 = 50.0;
const RIGHT: f64 = 350.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 246.0;
/// The variance axis: just beyond 1/1024 … 1024.
const Y_LO: f64 = 5e-4;
const Y_HI: f64 = 2e3;

fn x_of(dk: f64) -> f64 {
    LEFT + log_fraction(dk, DK_MIN as f64, DK_MAX as f64) * (RIGHT - LEFT)
}

fn y_of(variance: f64) -> f64 {
    BOTTOM - log_fraction(variance, Y_LO, Y_HI) * (BOTTOM - TOP)
}

/// The measured variance against dₖ for the three choices (solid), the theory (dashed), and the
/// current dₖ, on log–log axes.
#[component]
pub(super) fn VariancePlot(sample: RwSignal<Option<Sample>>, dk: RwSignal<usize>) -> impl IntoView {
    let curves = Memo::new(move |_| {
        sample.with(|s| {
            s.as_ref().map(|s| {
                SCALINGS.map(|(scale, _)| {
                    plot_dks()
                        .into_iter()
                        .map(|d| format!("{:.1},{:.1}", x_of(d as f64), y_of(s.variance(d, scale))))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
            })
        })
    });
    let marks = move || {
        let d = dk.get();
        sample.with(|s| {
            s.as_ref().map(|s| {
                SCALINGS
                    .map(|(scale, _)| {
                        view! {
                            <circle
                                class=format!("mark choice-{}", scale.key())
                                cx=x_of(d as f64)
                                cy=y_of(s.variance(d, scale))
                                r="4.5"
                            />
                        }
                    })
                    .collect_view()
            })
        })
    };
    // The label sits right of the line, or left of it near the right edge.
    let right_edge = move || dk.get() > 256;
    let x_ticks = [1, 4, 16, 64, 256, 1024];
    let y_ticks = [
        (-3, "10⁻³"),
        (-2, "10⁻²"),
        (-1, "0.1"),
        (0, "1"),
        (1, "10"),
        (2, "100"),
        (3, "1000"),
    ];
    view! {
        <figure class="lab-plot">
            <svg
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                role="img"
                aria-labelledby="lab-plot-title"
            >
                <title id="lab-plot-title">
                    {t(labs::plot_title)}
                </title>
                <g class="grid">
                    {x_ticks.map(|t| view! { <line x1=x_of(t as f64) x2=x_of(t as f64) y1=TOP y2=BOTTOM/> }).collect_view()}
                    {y_ticks.map(|(e, _)| { let y = y_of(10f64.powi(e)); view! { <line x1=LEFT x2=RIGHT y1=y y2=y/> } }).collect_view()}
                </g>
                <g class="axis">
                    <line x1=LEFT x2=RIGHT y1=BOTTOM y2=BOTTOM/>
                    <line x1=LEFT x2=LEFT y1=TOP y2=BOTTOM/>
                    {x_ticks.map(|t| view! { <text x=x_of(t as f64) y=BOTTOM + 18.0 text-anchor="middle">{t}</text> }).collect_view()}
                    {y_ticks.map(|(e, label)| view! { <text x=LEFT - 6.0 y=y_of(10f64.powi(e)) + 4.0 text-anchor="end">{label}</text> }).collect_view()}
                    <text x=(LEFT + RIGHT) / 2.0 y=HEIGHT - 14.0 text-anchor="middle">{t(labs::dk_log_scale)}</text>
                    <text x="14" y=(TOP + BOTTOM) / 2.0 text-anchor="middle" transform=format!("rotate(-90 14 {})", (TOP + BOTTOM) / 2.0)>
                        {t(labs::variance)}
                    </text>
                </g>
                {SCALINGS.map(|(scale, theory)| {
                    // "none" is a word; ÷√dₖ and ÷dₖ are symbols.
                    let label = move || match scale {
                        Scale::None => word(&settings::no_scaling.into()),
                        _ => scale.label().to_owned(),
                    };
                    let end = y_of(theory_variance(DK_MAX, scale));
                    view! {
                        <line
                            class=format!("theory choice-{}", scale.key())
                            x1=x_of(1.0) y1=y_of(theory_variance(1, scale))
                            x2=x_of(DK_MAX as f64) y2=end
                        />
                        <text class=format!("curve-label choice-{}", scale.key()) x=RIGHT + 6.0 y=end + 4.0>
                            {move || format!("{}: {theory}", label())}
                        </text>
                    }
                }).collect_view()}
                {move || curves.get().map(|c| c.iter().zip(SCALINGS).map(|(points, (scale, _))| view! {
                    <polyline class=format!("measured choice-{}", scale.key()) points=points.clone()/>
                }).collect_view())}
                <line class="current" x1=move || x_of(dk.get() as f64) x2=move || x_of(dk.get() as f64) y1=TOP y2=BOTTOM/>
                <text
                    class="current-label"
                    x=move || x_of(dk.get() as f64) + if right_edge() { -5.0 } else { 5.0 }
                    y=TOP + 10.0
                    text-anchor=move || if right_edge() { "end" } else { "start" }
                >
                    {move || format!("dₖ = {}", dk.get())}
                </text>
                {marks}
            </svg>
            <figcaption>{t(labs::plot_caption)}</figcaption>
        </figure>
    }
}
