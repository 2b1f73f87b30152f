//! From the page's layer to the next, read-only: the joined heads, the residual and norm, the
//! feed-forward network and the layer's output, each with its formula: the encoder's (LayerNorm,
//! GELU) and the language model's (RMSNorm, SwiGLU) alike, through [`AfterAttention`].

use std::sync::Arc;

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::decoder::rerun::Written;
use crate::core::i18n::keys::{models, views};
use crate::core::i18n::Msg;
use crate::core::pretrained::{EncoderTrace, LayerPart};
use crate::core::teaching::exercise::Cover;
use crate::core::views::heatmap::Heat;
use crate::ui::lang::{word, Label};
use crate::ui::matrix::heatmap::HeatMap;
use crate::ui::matrix::{shape_of, MatrixSpec, Shows};
use crate::ui::state::{use_app, use_look};

/// A run's steps after each layer's attention.
pub(super) trait AfterAttention: Send + Sync {
    /// Layer `l`'s `part`, if the run has it.
    fn part(&self, l: usize, part: LayerPart) -> Option<&DMatrix<f64>>;
    /// How many layers the model has.
    fn layers(&self) -> usize;
}

impl AfterAttention for EncoderTrace {
    fn part(&self, l: usize, part: LayerPart) -> Option<&DMatrix<f64>> {
        self.layers.get(l).map(|t| part.of(t))
    }
    fn layers(&self) -> usize {
        self.layers.len()
    }
}

impl AfterAttention for Written {
    fn part(&self, l: usize, part: LayerPart) -> Option<&DMatrix<f64>> {
        let layer = self.layers.get(l)?;
        let parts = layer.parts.as_deref();
        match part {
            LayerPart::Attended => parts.map(|p| &p.attended),
            LayerPart::Normed => parts.map(|p| &p.normed),
            LayerPart::Ffn => parts.map(|p| &p.ffn),
            LayerPart::Output => Some(&layer.output),
        }
    }
    fn layers(&self) -> usize {
        self.layers.len()
    }
}

/// How a model's steps read: each part's title and its formula, given the hidden state's width,
/// the feed-forward network's and what the layer's output goes on to.
#[derive(Clone, Copy)]
pub(super) struct Wording {
    pub title: fn(LayerPart) -> Label,
    pub formula: fn(LayerPart, usize, usize, Msg) -> Msg,
}

/// BERT's: LayerNorm after each residual, a GELU network.
pub(super) const ENCODER: Wording = Wording {
    title: |part| match part {
        LayerPart::Attended => Label::Key(models::attended),
        LayerPart::Normed => Label::Text("h"),
        LayerPart::Ffn => Label::Text("GELU(h · W_in + b_in)"), // not words
        LayerPart::Output => Label::Key(views::output),
    },
    formula: |part, d, wide, next| match part {
        LayerPart::Attended => models::encoder_attended.into(),
        LayerPart::Normed => models::encoder_normed.into(),
        LayerPart::Ffn => models::encoder_ffn(d, wide),
        LayerPart::Output => models::encoder_output(next),
    },
};

/// The language model's: RMSNorm before the feed-forward network, SwiGLU, and the residual
/// stream never normed itself.
pub(super) const DECODER: Wording = Wording {
    title: |part| match part {
        LayerPart::Attended => Label::Key(models::attended),
        LayerPart::Normed => Label::Text("h"),
        LayerPart::Ffn => Label::Text("SiLU(h · W_gate) ⊙ (h · W_up)"), // not words
        LayerPart::Output => Label::Key(views::output),
    },
    formula: |part, d, wide, next| match part {
        LayerPart::Attended => models::decoder_attended.into(),
        LayerPart::Normed => models::decoder_normed.into(),
        LayerPart::Ffn => models::decoder_ffn(d, wide),
        LayerPart::Output => models::decoder_output(next),
    },
};

/// The last run's steps (None before the first) of the layer `layer`, with the tokens' `words`,
/// read as `wording` says. Built once: a new run or another layer repaints the maps.
#[component]
pub(super) fn LayerSteps(
    run: Signal<Option<Arc<dyn AfterAttention>>>,
    words: Signal<Vec<String>>,
    layer: Signal<usize>,
    wording: Wording,
) -> impl IntoView {
    let state = use_app();
    let layers = move || run.with(|r| r.as_ref().map_or(0, |t| t.layers()));
    let next = move || {
        let l = layer.get() + 1;
        if l < layers() {
            models::x_of_layer(l)
        } else {
            models::model_output.into()
        }
    };
    // The feed-forward network's widths, from the numbers (384 → 1536 in MiniLM).
    let widths = move || {
        run.with(|r| {
            let r = r.as_ref()?;
            let width = |part| r.part(layer.get(), part).map(DMatrix::ncols);
            Some((width(LayerPart::Normed)?, width(LayerPart::Ffn)?))
        })
        .unwrap_or_default()
    };
    let shown = move || {
        run.with(|r| {
            r.as_ref()
                .is_some_and(|r| r.part(layer.get(), LayerPart::Ffn).is_some())
        })
    };
    view! {
        <section class="layer-steps" data-view="layer-steps" hidden=move || !shown()
            aria-label=move || word(&models::from_layer(layer.get()))>
            <h3>{move || word(&models::from_layer_computed(layer.get()))}</h3>
            {LayerPart::ALL.into_iter().map(|part| {
                let matrix = Memo::new(move |_| {
                    run.with(|r| {
                        r.as_ref()
                            .and_then(|t| t.part(layer.get(), part).cloned())
                            .unwrap_or_else(|| DMatrix::zeros(0, 0))
                    })
                });
                let columns = Signal::derive(move || (0..matrix.with(DMatrix::ncols)).map(|c| c.to_string()).collect::<Vec<_>>());
                let spec = MatrixSpec {
                    look: use_look(),
                    shows: Shows::Layer(part),
                    title: (wording.title)(part),
                    head: None,
                    matrix: matrix.into(),
                    shape: shape_of(Shows::Layer(part), matrix.into()),
                    row_labels: words,
                    col_labels: columns,
                    heat: Heat::Spread,
                    followed_row: Signal::derive(move || Some(state.derived.followed_or_last.get())),
                    grey_future: Signal::stored(false),
                    flagged: None,
                    editor: None,
                    cover: Signal::stored(Cover::default()),
                    on_cell_click: None,
                    on_row_click: Some(Callback::new(move |i| state.view.followed.set(Some(i)))),
                };
                view! {
                    <figure class="layer-step">
                        <figcaption><code>{move || { let (d, wide) = widths(); word(&(wording.formula)(part, d, wide, next())) }}</code></figcaption>
                        <HeatMap spec=spec/>
                    </figure>
                }
            }).collect_view()}
        </section>
    }
}
