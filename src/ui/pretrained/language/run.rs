//! The language model lent to the page, and run on the page's model as it changes, a layer per
//! task so that the page answers clicks and typing between them.

use std::sync::Arc;

use leptos::prelude::*;

use crate::core::decoder::rerun::{Rerun, Reruns, Start, Written};
use crate::core::decoder::{Decoder, LANGUAGE_MODEL};
use crate::core::i18n::keys::models;
use crate::core::i18n::Msg;
use crate::core::model::Model;
use crate::core::teaching::order::ReorderedInputs;
use crate::core::text::grouped;
use crate::ui::lang::word;
use crate::ui::state::{use_app, TrainedModel};
use crate::ui::tasks::each_task;

impl TrainedModel for Decoder {
    fn name(&self) -> &'static str {
        LANGUAGE_MODEL.name
    }

    fn retype(&self, model: &Model, text: &str) -> Result<Model, Msg> {
        self.reopen(model, |o| o.sentence = text.to_owned())
    }

    // The order lab moves an encoder's learned positions; this model has none (RoPE).
    fn reordered_inputs(&self, _: &Model, _: Vec<usize>) -> Option<ReorderedInputs> {
        None
    }

    fn moves(&self, _: &Model, _: &ReorderedInputs) -> Option<[Vec<f64>; 2]> {
        None
    }

    fn hidden_state_note(&self, l: usize) -> String {
        // Worded where the page asks (tracked), followed by the page's next sentence.
        let note = if l == 0 {
            models::decoder_x_first(l)
        } else {
            models::decoder_x(l, l - 1)
        };
        format!("{} ", word(&note))
    }

    fn tokens_note(&self) -> (&'static str, String) {
        let vocabulary = grouped(self.tokenizer.len());
        ("bpe", word(&models::decoder_tokens(vocabulary)))
    }
}

/// Whether the page shows a layer of the language model.
pub(super) fn ours(model: &Model) -> bool {
    model
        .layered()
        .is_some_and(|l| l.name == LANGUAGE_MODEL.name)
}

/// The last finished run on the page's model; None while the page shows another model.
pub(super) type Latest = RwSignal<Option<Arc<Written>>>;

/// Runs the decoder on the page's model whenever it changes (`core::decoder::rerun`, from the
/// kept cache when only tokens were added), a layer per task after the next frame, so that the
/// page's own steps paint first; a newer change drops an older run. `running` says how many
/// layers are done while one is under way.
pub(super) fn keep_running(
    decoder: Arc<Decoder>,
    latest: Latest,
    running: RwSignal<Option<usize>>,
) {
    let state = use_app();
    let generation = StoredValue::new(0_u64);
    let reruns = StoredValue::new(Reruns::default());
    Effect::new(move |_| {
        let start = state
            .doc
            .model
            .with(|m| ours(m).then(|| reruns.try_update_value(|r| r.start(&decoder, m))))
            .flatten()
            .flatten();
        let g = generation.get_value() + 1;
        generation.set_value(g);
        let run = match start {
            None => {
                latest.set(None);
                running.set(None);
                return;
            }
            Some(Start::Done(written)) => {
                latest.set(Some(written));
                running.set(None);
                return;
            }
            Some(Start::Running(run)) => run,
        };
        running.set(Some(0));
        let decoder = decoder.clone();
        // The layer under way is said a few times a second, not at every step: each change of
        // the page between two steps costs a frame of the whole page.
        let said = std::rc::Rc::new(std::cell::Cell::new(js_sys::Date::now()));
        request_animation_frame(move || {
            each_task(run, move |mut run: Box<Rerun>| {
                if generation.try_get_value() != Some(g) {
                    return None;
                }
                if run.step(&decoder) {
                    if js_sys::Date::now() - said.get() >= 250.0 {
                        said.set(js_sys::Date::now());
                        running.set(Some(run.done()));
                    }
                    return Some(run);
                }
                let written = reruns.try_update_value(|r| r.finish(&decoder, *run));
                latest.set(written);
                running.set(None);
                None
            })
        });
    });
}
