//! One layer of the encoder in the page's pipeline: the page's model is that layer's attention
//! on the hidden state entering it ([`Encoder::open_layer`]); picking another layer, retyping the
//! sentence or knocking a head out opens the model again with the learner's changed cells kept;
//! and the whole encoder runs with the page's layer in place ([`Encoder::layer_in_page`]).

use std::borrow::Cow;
use std::sync::Arc;

use nalgebra::DMatrix;

use crate::core::i18n::Msg;
use crate::core::model::layer_record::LayerOpening;
use crate::core::model::{knocked_in, Attention, Model, WeightChange};

use super::encoder::{Encoder, LayerTrace};

impl Encoder {
    /// The page's model for `opening.layer` of this encoder called `name`: the hidden state
    /// entering the layer (the layers below run with their changed cells and knocked heads) as
    /// the embedding, the layer's heads and output projection with its changed cells. The error
    /// names what does not fit.
    pub fn open_layer(&self, name: &str, opening: LayerOpening) -> Result<Model, Msg> {
        self.open_layer_with(name, opening, None)
    }

    /// [`Encoder::open_layer`], with the layer's numbers as a model of it holds them (`now`).
    fn open_layer_with(
        &self,
        name: &str,
        opening: LayerOpening,
        now: Option<Attention>,
    ) -> Result<Model, Msg> {
        opening.check(self.config.layers, self.config.heads, |c| {
            self.layers[c.layer]
                .attention
                .matrix(c.target)
                .is_some_and(|m| c.row < m.nrows() && c.col < m.ncols())
        })?;
        let (pieces, ids) = self.tokenize(&opening.sentence)?;
        let x = self.input_of(
            opening.layer,
            &ids,
            &opening.knocked,
            &opening.changes,
            true,
        );
        let trained = Arc::clone(&self.layers[opening.layer].attention);
        opening.model(name, self.config.layers, (pieces, ids), x, trained, now)
    }

    /// `model` (a layer model of this encoder) opened again with `change` made to what opens it.
    pub fn reopen(
        &self,
        model: &Model,
        change: impl FnOnce(&mut LayerOpening),
    ) -> Result<Model, Msg> {
        let (name, opening, now) = LayerOpening::changed_from(model, change)?;
        self.open_layer_with(&name, opening, now)
    }

    /// Every layer on `model`'s sentence, the page's layer as the page has it (its heads and
    /// output projection, edits included), the others with their changed cells, the knocked
    /// heads out. Layer `l` at a time, so that a page can spread the work over frames:
    /// `layer_in_page(model, l, x)` with `x` the output of layer `l - 1` (or `embed` for 0).
    pub fn layer_in_page(&self, model: &Model, l: usize, x: &DMatrix<f64>) -> Option<LayerTrace> {
        let layered = model.layered()?;
        if l >= self.layers.len() {
            return None;
        }
        let knocked = knocked_in(&layered.knocked, l);
        let attention = if l == layered.layer {
            Cow::Owned(model.attention()?)
        } else {
            self.attention(l, &layered.changes)
        };
        Some(self.run_layer_with(l, x, &attention, &knocked))
    }

    /// The hidden state entering `layer` for the pieces `ids`: the layers below with their
    /// `changes` and `knocked` heads, on the embedding with or without the learned `positions`.
    fn input_of(
        &self,
        layer: usize,
        ids: &[u32],
        knocked: &[(usize, usize)],
        changes: &[WeightChange],
        positions: bool,
    ) -> DMatrix<f64> {
        let mut x = self.embed_with(ids, positions);
        for l in 0..layer {
            x = self
                .run_layer_with(l, &x, &self.attention(l, changes), &knocked_in(knocked, l))
                .output;
        }
        x
    }

    /// The hidden state entering `model`'s layer (a layer model of this encoder) for the pieces
    /// `ids` (its own, or in another order), with or without the learned `positions`.
    pub fn layer_input(&self, model: &Model, ids: &[u32], positions: bool) -> Option<DMatrix<f64>> {
        let layered = model.layered()?;
        (layered.layer < self.layers.len()).then(|| {
            self.input_of(
                layered.layer,
                ids,
                &layered.knocked,
                &layered.changes,
                positions,
            )
        })
    }

    /// Layer `l`'s attention with the `changes` made to it (its own when there are none).
    fn attention(&self, l: usize, changes: &[WeightChange]) -> Cow<'_, Attention> {
        let trained = &*self.layers[l].attention;
        let mut ours = changes.iter().filter(|c| c.layer == l).peekable();
        if ours.peek().is_none() {
            return Cow::Borrowed(trained);
        }
        Cow::Owned(trained.with_changes(ours))
    }
}
