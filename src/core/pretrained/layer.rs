//! One layer of the encoder in the page's pipeline: the page's model is that layer's attention
//! on the hidden state entering it ([`Encoder::open_layer`]); picking another layer, retyping the
//! sentence or knocking a head out opens the model again with the learner's changed cells kept;
//! and the whole encoder runs with the page's layer in place ([`Encoder::layer_in_page`]).

use std::borrow::Cow;
use std::sync::Arc;

use nalgebra::DMatrix;

use crate::core::model::limits::within_limits;
use crate::core::model::{Attention, Layered, Model, WeightChange};

use super::encoder::{Encoder, LayerTrace};

/// What a layer model is opened with, besides the encoder: what a link or the saved work names.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerOpening {
    /// The sentence.
    pub sentence: String,
    /// The layer in the page, counted from 0.
    pub layer: usize,
    /// The heads knocked out, (layer, head).
    pub knocked: Vec<(usize, usize)>,
    /// The cells the learner changed, in any layer.
    pub changes: Vec<WeightChange>,
}

impl LayerOpening {
    /// What opens `model` again (a layer model), with `sentence`, `layer` or `knocked` changed by
    /// `change`.
    pub fn of(model: &Model) -> Option<LayerOpening> {
        let layered = model.layered()?;
        Some(LayerOpening {
            sentence: model.sentence().to_owned(),
            layer: layered.layer,
            knocked: layered.knocked.clone(),
            changes: changed_cells(model)?,
        })
    }
}

impl Encoder {
    /// The page's model for `opening.layer` of this encoder called `name`: the hidden state
    /// entering the layer (the layers below run with their changed cells and knocked heads) as
    /// the embedding, the layer's heads and output projection with its changed cells. The error
    /// names what does not fit.
    pub fn open_layer(&self, name: &str, opening: LayerOpening) -> Result<Model, String> {
        let LayerOpening {
            sentence,
            layer,
            knocked,
            changes,
        } = opening;
        self.check_opening(layer, &knocked, &changes)?;
        let (pieces, ids) = self.tokenize(&sentence)?;
        let x = self.input_of(layer, &ids, &knocked, &changes, true);
        let trained = Arc::clone(&self.layers[layer].attention);
        let Attention { heads, output } = self.attention(layer, &changes).into_owned();
        let layered = Layered {
            name: name.to_owned(),
            layer,
            layers: self.config.layers,
            ids,
            knocked,
            changes: changes.into_iter().filter(|c| c.layer != layer).collect(),
            trained,
        };
        Model::of_layer(&sentence, pieces, x, heads, output, layered)
    }

    /// `model` (a layer model of this encoder) opened again with `change` made to what opens it.
    pub fn reopen(
        &self,
        model: &Model,
        change: impl FnOnce(&mut LayerOpening),
    ) -> Result<Model, String> {
        let name = model
            .layered()
            .map(|l| l.name.clone())
            .ok_or("the page does not show a trained model")?;
        let mut opening =
            LayerOpening::of(model).ok_or("the page does not show a trained model")?;
        change(&mut opening);
        self.open_layer(&name, opening)
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
        let knocked = heads_in(&layered.knocked, l);
        let attention = if l == layered.layer {
            Cow::Owned(Attention {
                heads: model.heads().to_vec(),
                output: model.output()?.clone(),
            })
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
                .run_layer_with(l, &x, &self.attention(l, changes), &heads_in(knocked, l))
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

    /// Why a layer, knocked heads or changed cells do not fit this encoder, if they do not.
    fn check_opening(
        &self,
        layer: usize,
        knocked: &[(usize, usize)],
        changes: &[WeightChange],
    ) -> Result<(), String> {
        let (layers, heads) = (self.config.layers, self.config.heads);
        if layer >= layers {
            return Err(format!(
                "there is no layer {layer}: the model's layers count 0 to {}",
                layers - 1
            ));
        }
        if let Some((l, h)) = knocked.iter().find(|&&(l, h)| l >= layers || h >= heads) {
            return Err(format!(
                "there is no head {h} in layer {l} to knock out: layers count 0 to {}, heads 0 to {}",
                layers - 1,
                heads - 1
            ));
        }
        for c in changes {
            let fits = self
                .layers
                .get(c.layer)
                .and_then(|l| l.attention.matrix(c.target))
                .is_some_and(|m| c.row < m.nrows() && c.col < m.ncols());
            if !fits {
                return Err(format!(
                    "a changed cell ({} of layer {}, row {}, column {}) is not in the model",
                    c.target.key(),
                    c.layer,
                    c.row,
                    c.col
                ));
            }
            if !within_limits(c.value) {
                return Err(format!(
                    "a changed cell of {} in layer {} is not a number within ±1e6",
                    c.target.key(),
                    c.layer
                ));
            }
        }
        Ok(())
    }
}

/// The heads of layer `l` among `knocked`.
fn heads_in(knocked: &[(usize, usize)], l: usize) -> Vec<usize> {
    knocked
        .iter()
        .filter(|&&(at, _)| at == l)
        .map(|&(_, h)| h)
        .collect()
}

/// Every cell the learner changed in a trained model: the other layers' and the chosen
/// layer's (told from its trained numbers), layer by layer. None for other models.
pub fn changed_cells(model: &Model) -> Option<Vec<WeightChange>> {
    let layered = model.layered()?;
    let others = |keep: fn(usize, usize) -> bool| {
        layered
            .changes
            .iter()
            .filter(move |c| keep(c.layer, layered.layer))
            .copied()
    };
    Some(
        others(|l, page| l < page)
            .chain(model.own_changes())
            .chain(others(|l, page| l > page))
            .collect(),
    )
}
