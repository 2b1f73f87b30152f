//! From the page's layer to the next, read-only: the joined heads, residuals, LayerNorms and the
//! feed-forward network, each with its formula.

use leptos::prelude::*;
use nalgebra::DMatrix;

use super::run::Run;
use crate::core::pretrained::LayerPart;
use crate::core::teaching::exercise::Cover;
use crate::core::views::heatmap::Heat;
use crate::ui::matrix::heatmap::HeatMap;
use crate::ui::matrix::{MatrixSpec, Shows};
use crate::ui::state::{use_app, use_look};

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
    // The feed-forward network's widths, from the numbers (384 → 1536 in MiniLM).
    let widths = move || {
        run.with(|r| {
            let l = r.as_ref()?.layers.get(layer.get())?;
            Some((l.attention_normed.ncols(), l.intermediate.ncols()))
        })
    };
    let formula = move |part: LayerPart| {
        match part {
        LayerPart::Attended => "attended = concat(heads) · W_output + b_output: what the layer's attention adds to each piece".to_owned(),
        LayerPart::Normed => "h = LayerNorm(X + attended): the residual keeps X, and LayerNorm brings each row to mean 0 and variance 1 (then its trained scale and shift)".to_owned(),
        LayerPart::Ffn => {
            let (d, wide) = widths().unwrap_or_default();
            format!("The feed-forward network, each piece on its own: {d} → {wide} numbers, GELU (x · Φ(x)) keeping mostly the positive ones")
        }
        LayerPart::Output => "output = LayerNorm(h + GELU(h · W_in + b_in) · W_out + b_out): ".to_owned(),
    }
    };
    let title = |part: LayerPart| match part {
        LayerPart::Attended => "attended",
        LayerPart::Normed => "h",
        LayerPart::Ffn => "GELU(h · W_in + b_in)",
        LayerPart::Output => "output",
    };
    view! {
        <section class="layer-steps" data-view="layer-steps" hidden=move || run.with(Option::is_none)
            aria-label=move || format!("From layer {} to the next", layer.get())>
            <h3>{move || format!("From layer {} to the next (computed, not edited)", layer.get())}</h3>
            {LayerPart::ALL.into_iter().map(|part| {
                let matrix = Memo::new(move |_| {
                    run.with(|r| {
                        r.as_ref()
                            .and_then(|t| t.layers.get(layer.get()))
                            .map_or_else(|| DMatrix::zeros(0, 0), |t| part.of(t).clone())
                    })
                });
                let columns = Signal::derive(move || (0..matrix.with(DMatrix::ncols)).map(|c| c.to_string()).collect::<Vec<_>>());
                let spec = MatrixSpec {
                    look: use_look(),
                    shows: Shows::Layer(part),
                    title: title(part),
                    head: None,
                    matrix: matrix.into(),
                    row_labels: words,
                    col_labels: columns,
                    heat: Heat::Signed,
                    followed_row: Signal::derive(move || Some(state.derived.followed_or_last.get())),
                    grey_future: Signal::stored(false),
                    flagged: None,
                    editor: None,
                    cover: Signal::stored(Cover::default()),
                    on_cell_click: None,
                    on_row_click: Some(Callback::new(move |i| state.view.followed.set(Some(i)))),
                };
                let leads_on = part == LayerPart::Output;
                view! {
                    <figure class="layer-step">
                        <figcaption><code>{move || formula(part)}{move || leads_on.then(next)}</code></figcaption>
                        <HeatMap spec=spec/>
                    </figure>
                }
            }).collect_view()}
        </section>
    }
}
