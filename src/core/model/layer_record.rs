//! What a trained model's layer is opened with (a link's and the saved work's words for it), and
//! what undo keeps of it: the hidden state X and the cells that differ from the trained numbers,
//! a few kilobytes where the model holds megabytes.

use crate::core::i18n::keys::edits;
use crate::core::i18n::Msg;
use std::sync::Arc;

use nalgebra::DMatrix;

use crate::core::model::limits::within_limits;
use crate::core::model::{Attention, Editable, Layered, Model, WeightChange};

impl Model {
    /// The cells of a layer model's own layer that differ from the trained numbers (bitwise:
    /// −0 typed over 0 is a change), matrix by matrix. Empty for other models.
    pub fn own_changes(&self) -> Vec<WeightChange> {
        let Some(layered) = &self.layered else {
            return Vec::new();
        };
        let trained = &*layered.trained;
        let mut changes = Vec::new();
        for target in trained.targets() {
            if self.is_trained_copy(target) {
                continue;
            }
            let (Some(now), Some(was)) = (self.matrix(target), trained.matrix(target)) else {
                continue;
            };
            let (rows, same_shape) = (now.nrows(), now.shape() == was.shape());
            let mut changed = |i: usize, value: f64| {
                changes.push(WeightChange {
                    layer: layered.layer,
                    target,
                    row: i % rows,
                    col: i / rows,
                    value,
                })
            };
            if same_shape {
                // By the kernels (a language model's layer is 1.3 million numbers).
                for i in kernels::differences(now.as_slice(), was.as_slice()) {
                    changed(i, now.as_slice()[i]);
                }
            } else {
                for (i, value) in now.as_slice().iter().copied().enumerate() {
                    if was.get((i % rows, i / rows)).map(|t| t.to_bits()) != Some(value.to_bits()) {
                        changed(i, value);
                    }
                }
            }
        }
        changes
    }

    /// Whether `target` is in the trained layer's own copy of its numbers, shared and so
    /// unchanged (nothing to compare or check).
    pub(crate) fn is_trained_copy(&self, target: Editable) -> bool {
        let Some(trained) = self.layered.as_ref().map(|l| &l.trained) else {
            return false;
        };
        match target {
            Editable::Weight(..) | Editable::Bias(..) => Arc::ptr_eq(&self.heads, &trained.heads),
            Editable::OutputWeight | Editable::OutputBias => self
                .output
                .as_ref()
                .is_some_and(|o| Arc::ptr_eq(o, &trained.output)),
            Editable::Embedding | Editable::Positions | Editable::SourceEmbedding => false,
        }
    }

    /// A layer model's attention: its heads and output projection, shared, not copied.
    pub fn attention(&self) -> Option<Attention> {
        Some(Attention {
            heads: self.heads.clone(),
            output: self.output.clone()?,
        })
    }
}

/// A layer model without its heads and output projection, which are the trained layer's with
/// the `own` changes: a few kilobytes where the model holds megabytes.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerRecord {
    thin: Model,
    own: Vec<WeightChange>,
}

impl LayerRecord {
    /// A layer model kept small: its numbers as the cells that differ from the trained layer.
    /// Other models are given back.
    pub fn of(mut model: Model) -> Result<LayerRecord, Box<Model>> {
        if model.layered.is_none() {
            return Err(Box::new(model));
        }
        let own = model.own_changes();
        model.heads = Arc::default();
        model.output = None;
        Ok(LayerRecord { thin: model, own })
    }

    /// The model again.
    pub fn into_model(self) -> Model {
        let LayerRecord { mut thin, own } = self;
        if let Some(layered) = &thin.layered {
            let Attention { heads, output } = layered.trained.with_changes(&own);
            thin.heads = heads;
            thin.output = Some(output);
        }
        thin
    }

    /// The trained model it is a layer of.
    pub fn name(&self) -> Option<&str> {
        self.thin.layered.as_ref().map(|l| l.name.as_str())
    }

    /// Roughly what it keeps in memory: the hidden state X and the changes.
    pub fn bytes(&self) -> usize {
        self.thin.embedding.len() * std::mem::size_of::<f64>()
            + self.own.len() * std::mem::size_of::<WeightChange>()
            + self.thin.sentence.len()
    }
}

/// What a layer model is opened with, besides the trained model: what a link or the saved work
/// names.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct LayerOpening {
    /// The sentence.
    pub sentence: String,
    /// The layer in the page, counted from 0.
    pub layer: usize,
    /// The heads knocked out, (layer, head).
    pub knocked: Vec<(usize, usize)>,
    /// The cells the learner changed, in any layer.
    pub changes: Vec<WeightChange>,
    /// The tokens a language model wrote at the sentence's end, as it wrote them (an encoder
    /// has none).
    pub written: Vec<u32>,
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
            written: layered.written.clone(),
        })
    }

    /// Head `head` (layer, head) knocked out, or back in.
    pub fn knock(&mut self, head: (usize, usize), out: bool) {
        self.knocked.retain(|&k| k != head);
        if out {
            self.knocked.push(head);
        }
    }

    /// The name and opening of `model` (a layer model) with `change` made to the opening: what
    /// a trained model's `reopen` opens; and, when the change leaves the layer and its cells
    /// alone (a token written, the sentence retyped), the layer's numbers as the model has them,
    /// shared rather than made again from the trained ones.
    pub fn changed_from(
        model: &Model,
        change: impl FnOnce(&mut LayerOpening),
    ) -> Result<(String, LayerOpening, Option<Attention>), Msg> {
        let not = edits::not_trained;
        let name = model.layered().ok_or(not)?.name.clone();
        let mut opening = LayerOpening::of(model).ok_or(not)?;
        let (layer, changes) = (opening.layer, opening.changes.clone());
        change(&mut opening);
        let kept = opening.layer == layer && opening.changes == changes;
        Ok((name, opening, kept.then(|| model.attention()).flatten()))
    }
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

impl LayerOpening {
    /// The page's model of this layer of the trained model `name` (of `layers` layers) on the
    /// sentence's `pieces` and `ids`: `x`, the hidden state its attention takes, stands for the
    /// embedding; its heads and output projection are `trained` with this opening's changes to
    /// them (or `now`, the same numbers a model of it already holds); the other layers' changes
    /// are kept for the layers' runs.
    pub fn model(
        self,
        name: &str,
        layers: usize,
        (pieces, ids): (Vec<String>, Vec<u32>),
        x: DMatrix<f64>,
        trained: Arc<Attention>,
        now: Option<Attention>,
    ) -> Result<Model, Msg> {
        let LayerOpening {
            sentence,
            layer,
            knocked,
            changes,
            written,
        } = self;
        let Attention { heads, output } = now
            .unwrap_or_else(|| trained.with_changes(changes.iter().filter(|c| c.layer == layer)));
        let layered = Layered {
            name: name.to_owned(),
            layer,
            layers,
            ids,
            knocked,
            changes: changes.into_iter().filter(|c| c.layer != layer).collect(),
            written,
            trained,
        };
        Model::of_layer(&sentence, pieces, x, heads, output, layered)
    }

    /// Why its layer, knocked heads or changed cells do not fit a model of `layers` layers of
    /// `heads` heads whose matrices have a changed cell's place when `has_cell` says so.
    pub fn check(
        &self,
        layers: usize,
        heads: usize,
        has_cell: impl Fn(&WeightChange) -> bool,
    ) -> Result<(), Msg> {
        if self.layer >= layers {
            return Err(edits::no_layer(self.layer, layers - 1));
        }
        if let Some((l, h)) = self
            .knocked
            .iter()
            .find(|&&(l, h)| l >= layers || h >= heads)
        {
            return Err(edits::no_head_to_knock(h, l, layers - 1, heads - 1));
        }
        for c in &self.changes {
            if c.layer >= layers || !has_cell(c) {
                return Err(edits::changed_cell_missing(
                    c.target.key(),
                    c.layer,
                    c.row,
                    c.col,
                ));
            }
            if !within_limits(c.value) {
                return Err(edits::changed_cell_outside(c.target.key(), c.layer));
            }
        }
        Ok(())
    }
}
