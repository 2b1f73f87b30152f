//! The trained model run on the page's model as it changes, a layer per task, and the page's
//! model for another of its layers.

use std::sync::Arc;

use leptos::prelude::*;

use crate::core::i18n::keys::models;
use crate::core::i18n::Msg;
use crate::core::model::layer_record::LayerOpening;
use crate::core::model::Model;
use crate::core::pretrained::rerun::{Rerun, Reruns};
use crate::core::pretrained::SHIPPED;
use crate::core::pretrained::{Encoder, EncoderTrace};
use crate::core::teaching::order::{reordered_inputs, trained_moves, ReorderedInputs};
use crate::core::text::grouped;
use crate::ui::lang::word;
use crate::ui::state::{use_app, TrainedModel};
use crate::ui::tasks::each_task;

impl TrainedModel for Encoder {
    fn name(&self) -> &'static str {
        SHIPPED.name
    }

    fn retype(&self, model: &Model, text: &str) -> Result<Model, Msg> {
        self.reopen(model, |o| o.sentence = text.to_owned())
    }

    fn reordered_inputs(&self, model: &Model, order: Vec<usize>) -> Option<ReorderedInputs> {
        reordered_inputs(self, model, order)
    }

    fn moves(&self, model: &Model, inputs: &ReorderedInputs) -> Option<[Vec<f64>; 2]> {
        trained_moves(self, model, inputs)
    }

    fn hidden_state_note(&self, l: usize) -> String {
        // Worded where the page asks (tracked), followed by the page's next sentence.
        let note = if l == 0 {
            models::encoder_x_first.into()
        } else {
            models::encoder_x(l, l - 1, models::from_layer(l - 1))
        };
        format!("{} ", word(&note))
    }

    fn tokens_note(&self) -> (&'static str, String) {
        let vocabulary = grouped(self.config.vocabulary);
        ("wordpiece", word(&models::encoder_tokens(vocabulary)))
    }
}

/// The whole encoder on the page's sentence, the page's layer as the page has it; None while the
/// page shows another model.
pub(super) type Run = RwSignal<Option<Arc<EncoderTrace>>>;

/// Runs the encoder on the page's model whenever it changes (`core::pretrained::rerun`), a
/// layer per task so that the page answers clicks and typing between them; a newer change drops
/// an older run.
pub(super) fn keep_running(encoder: Arc<Encoder>, run: Run) {
    let state = use_app();
    let generation = StoredValue::new(0_u64);
    let reruns = StoredValue::new(Reruns::default());
    Effect::new(move |_| {
        let Some(rerun) = state
            .doc
            .model
            .with(|m| ours(m).then(|| reruns.with_value(|r| r.start(&*encoder, m))))
            .flatten()
        else {
            run.set(None);
            return;
        };
        let g = generation.get_value() + 1;
        generation.set_value(g);
        let encoder = encoder.clone();
        // Runs the next layer unless a newer run began, then the next a task later; the last
        // publishes the whole run. After the next frame: the page's own steps paint first.
        request_animation_frame(move || {
            each_task(rerun, move |mut rerun: Rerun| {
                if generation.try_get_value() != Some(g) {
                    return None;
                }
                match state
                    .doc
                    .model
                    .with_untracked(|m| rerun.step(&*encoder, m))?
                {
                    true => Some(rerun),
                    false => {
                        if let Some(trace) = reruns.try_update_value(|r| r.finish(rerun)) {
                            run.set(Some(trace));
                        }
                        None
                    }
                }
            })
        });
    });
}

/// Whether the page shows a layer of this model (not another trained model's).
pub(super) fn ours(model: &Model) -> bool {
    model.layered().is_some_and(|l| l.name == SHIPPED.name)
}

/// The page's model for `layer` of the trained model: the page's trained model opened at another
/// layer, or the model opened on the page's sentence.
pub(super) fn layer_model(encoder: &Encoder, model: &Model, layer: usize) -> Result<Model, Msg> {
    if ours(model) {
        return encoder.reopen(model, |o| o.layer = layer);
    }
    encoder.open_layer(
        SHIPPED.name,
        LayerOpening {
            sentence: model.sentence().to_owned(),
            layer,
            knocked: Vec::new(),
            changes: Vec::new(),
            ..Default::default()
        },
    )
}
