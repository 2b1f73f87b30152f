//! What undo keeps of a trained model's layer: the hidden state X and the cells that differ from
//! the trained numbers, a few kilobytes where the model holds megabytes.

use crate::core::model::{Attention, Model, WeightChange};

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
            let (Some(now), Some(was)) = (self.matrix(target), trained.matrix(target)) else {
                continue;
            };
            for ((row, col), &value) in now
                .iter()
                .enumerate()
                .map(|(i, v)| ((i % now.nrows(), i / now.nrows()), v))
            {
                if was.get((row, col)).map(|t| t.to_bits()) != Some(value.to_bits()) {
                    changes.push(WeightChange {
                        layer: layered.layer,
                        target,
                        row,
                        col,
                        value,
                    });
                }
            }
        }
        changes
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
        model.heads = Vec::new();
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

    /// Roughly what it keeps in memory: the hidden state X and the changes.
    pub fn bytes(&self) -> usize {
        self.thin.embedding.len() * std::mem::size_of::<f64>()
            + self.own.len() * std::mem::size_of::<WeightChange>()
            + self.thin.sentence.len()
    }
}
