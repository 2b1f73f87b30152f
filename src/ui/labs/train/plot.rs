//! Loss curves on one log scale (`core::training::loss_curves`), each a
//! `<path data-curve=KEY>`: the lab's loss, and the race's three scalings.

use leptos::prelude::*;

use crate::core::i18n::keys::labs;
use crate::core::i18n::Key;
use crate::core::training::lab::curve::loss_curves;
use crate::ui::lang::t;
use crate::ui::matrix::figure::{save_drawing, save_menu};

/// The plot's box, in SVG units.
const PLOT: (f64, f64) = (320.0, 140.0);

/// The most labels on the loss axis.
const MAX_LABELS: usize = 6;

/// A curve: its `data-curve` key (also its colour class, `choice-KEY`) and its losses.
pub type Curve = (&'static str, Vec<f64>);

#[component]
pub fn LossPlot(
    /// The curves; none yet draws the axes and `empty`.
    #[prop(into)]
    curves: Signal<Vec<Curve>>,
    /// What the plot shows, for a screen reader.
    label: Key,
    /// Said inside the plot before there is a curve.
    empty: Key,
    children: Children,
) -> impl IntoView {
    let drawn = move || {
        curves.with(|c| {
            let losses: Vec<&[f64]> = c.iter().map(|(_, l)| l.as_slice()).collect();
            let Some((paths, decades)) = loss_curves(&losses, PLOT.0, PLOT.1) else {
                return view! {
                    <text class="empty" x=PLOT.0 / 2.0 y=PLOT.1 / 2.0 text-anchor="middle">{t(empty)}</text>
                }
                .into_any();
            };
            let (bottom, top) = (decades[0], decades[decades.len() - 1]);
            let y = move |d: i32| PLOT.1 * f64::from(top - d) / f64::from(top - bottom);
            // A line per power of ten, a label on at most six of them (the top one always):
            // fifteen decades' labels in 140 units overlapped.
            let every = decades.len().div_ceil(MAX_LABELS) as i32;
            // The step axis's ends: the start, and the longest curve's last step.
            let last = c.iter().map(|(_, l)| l.len()).max().unwrap_or(0).max(2) - 1;
            view! {
                <g class="grid">
                    <text x="0" y=PLOT.1 + 11.0 text-anchor="start">"0"</text>
                    <text x=PLOT.0 y=PLOT.1 + 11.0 text-anchor="end">{last.to_string()}</text>
                </g>
                <g class="grid">{decades.iter().map(|&d| view! {
                    <line x1="0" x2=PLOT.0 y1=y(d) y2=y(d)/>
                    {((top - d) % every == 0).then(|| view! {
                        <text x="-6" y=y(d) text-anchor="end" dominant-baseline="middle">{format!("1e{d}")}</text>
                    })}
                }).collect_view()}</g>
                {c.iter().zip(paths).map(|((key, _), d)| view! {
                    <path class=format!("loss-line choice-{key}") data-curve=*key d=d/>
                }).collect_view()}
            }
            .into_any()
        })
    };
    view! {
        <figure class="lab-plot loss-plot">
            <svg viewBox=format!("-44 -8 {} {}", PLOT.0 + 52.0, PLOT.1 + 30.0) role="img" aria-label=t(label)>
                {drawn}
                <text class="axis-label" x=PLOT.0 / 2.0 y=PLOT.1 + 20.0 text-anchor="middle">{t(labs::step_axis)}</text>
            </svg>
            <figcaption>{children()}</figcaption>
            <div class="figure-actions" on:click=|ev| save_drawing(ev, "loss")>{save_menu("the loss curves", Signal::stored(false), None)}</div>
        </figure>
    }
}
