//! From the page's layer to the next, read-only: the joined heads, residuals, LayerNorms and the
//! feed-forward network, each with its formula.

use leptos::prelude::*;
use nalgebra::DMatrix;

use super::run::Run;
use crate::core::pretrained::LayerTrace;
use crate::core::teaching::exercise::Cover;
use crate::core::views::heatmap::Heat;
use crate::ui::matrix::heatmap::HeatMap;
use crate::ui::matrix::MatrixSpec;
use crate::ui::state::{use_app, use_look};

/// A part of a layer's run.
pub(super) type Part = fn(&LayerTrace) -> &DMatrix<f64>;

/// From the page's layer to the next: the heads' joined output, the residual and LayerNorm, the
/// feed-forward network and its residual and LayerNorm, read-only, each with its formula. Built
/// once: a new run or another layer repaints the maps.
#[component]
pub(super) fn LayerSteps(run: Run, layer: Signal<usize>) -> impl IntoView {
    let state = use_app();
    let words = Signal::derive(move || {
        run.with(|r| r.as_ref().map(|t| t.tokens.clone()).unwrap_or_default())
    });
    let layers = move || run.with(|r| r.as_ref().map_or(0, |t| t.layers.len()));
    let next = move || {
        let l = layer.get() + 1;
        if l < layers() {
            format!("X of layer {l}")
        } else {
            "the model's output".to_owned()
        }
    };
    let steps: [(&'static str, &'static str, &'static str, Part); 4] = [
        (
            "layer_attended",
            "attended",
            "attended = concat(heads) · W_output + b_output: what the layer's attention adds to each piece",
            |t| &t.attended,
        ),
        (
            "layer_normed",
            "h",
            "h = LayerNorm(X + attended): the residual keeps X, and LayerNorm brings each row to mean 0 and variance 1 (then its trained scale and shift)",
            |t| &t.attention_normed,
        ),
        (
            "layer_ffn",
            "GELU(h · W_in + b_in)",
            "The feed-forward network, each piece on its own: 384 → 1536 numbers, GELU (x · Φ(x)) keeping mostly the positive ones",
            |t| &t.intermediate,
        ),
        (
            "layer_output",
            "output",
            "output = LayerNorm(h + GELU(h · W_in + b_in) · W_out + b_out): ",
            |t| &t.output,
        ),
    ];
    view! {
        <section class="layer-steps" data-view="layer-steps" hidden=move || run.with(Option::is_none)
            aria-label=move || format!("From layer {} to the next", layer.get())>
            <h3>{move || format!("From layer {} to the next (computed, not edited)", layer.get())}</h3>
            {steps.into_iter().map(|(name, title, formula, pick)| {
                let matrix = Memo::new(move |_| {
                    run.with(|r| {
                        r.as_ref()
                            .and_then(|t| t.layers.get(layer.get()))
                            .map_or_else(|| DMatrix::zeros(0, 0), |t| pick(t).clone())
                    })
                });
                let columns = Signal::derive(move || (0..matrix.with(DMatrix::ncols)).map(|c| c.to_string()).collect::<Vec<_>>());
                let spec = MatrixSpec {
                    look: use_look(),
                    name,
                    title,
                    head: None,
                    corner: "piece ╲ number",
                    matrix: matrix.into(),
                    row_labels: words,
                    col_labels: columns,
                    heat: Heat::Signed,
                    followed_row: Signal::derive(move || Some(state.followed_or_last.get())),
                    grey_future: Signal::stored(false),
                    flagged: None,
                    lab: true,
                    grad: false,
                    editor: None,
                    cover: Signal::stored(Cover::default()),
                    on_cell_click: None,
                    on_row_click: Some(Callback::new(move |i| state.followed.set(Some(i)))),
                };
                let leads_on = name == "layer_output";
                view! {
                    <figure class="layer-step">
                        <figcaption><code>{formula}{move || leads_on.then(next)}</code></figcaption>
                        <HeatMap spec=spec/>
                    </figure>
                }
            }).collect_view()}
        </section>
    }
}
