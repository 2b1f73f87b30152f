//! What a model adds beside its heads' weights, each turned on, off or replaced on a copy:
//! positions, biases and the output projection.

use crate::core::i18n::keys::edits;
use crate::core::i18n::Msg;
use std::sync::Arc;

use nalgebra::DMatrix;

use crate::core::model::positions::{PositionKind, Positions};
use crate::core::model::{
    check_bias, seeded_biases, seeded_output, Biases, Head, Model, OutputProjection,
};

impl Model {
    /// The same model with these positions, if they fit (a learned table of n × d_in, an even
    /// d_k for RoPE); the message says why not.
    pub fn with_positions(mut self, positions: Positions) -> Result<Model, Msg> {
        if self.source.is_some() && positions != Positions::None {
            return Err(edits::positions_with_source.into());
        }
        let d_ks: Vec<usize> = self.heads.iter().map(Head::d_k).collect();
        positions.check(self.tokens.len(), self.embedding.ncols(), &d_ks)?;
        self.positions = positions;
        Ok(self)
    }

    /// How word order enters.
    pub fn positions(&self) -> &Positions {
        &self.positions
    }

    /// The embedded sentence with the positions added (sinusoidal or learned), which the
    /// projections take; the embedded sentence itself otherwise.
    pub fn positioned(&self) -> DMatrix<f64> {
        let embedded = self.embedded();
        self.added_positions(&embedded).unwrap_or(embedded)
    }

    /// `embedded` plus the positions' table, if the positions are added to the embedding.
    pub fn added_positions(&self, embedded: &DMatrix<f64>) -> Option<DMatrix<f64>> {
        self.positions
            .table(embedded.nrows(), embedded.ncols())
            .map(|t| embedded + t)
    }

    /// What `from` adds beside its heads (the output projection, the positions), on this model.
    fn with_parts_of(self, from: &Model) -> Result<Model, Msg> {
        self.with_output(from.output.clone())?
            .with_positions(from.positions.clone())?
            // The same d_in: the source keeps its rows and nothing is drawn.
            .with_variants_of(from, 0)
    }

    /// The same model with this output projection (or none); its rows must match the
    /// concatenation's width.
    pub fn with_output(
        mut self,
        output: Option<impl Into<Arc<OutputProjection>>>,
    ) -> Result<Model, Msg> {
        let output = output.map(Into::into);
        if let Some(o) = &output {
            let width: usize = self.heads.iter().map(Head::d_v).sum();
            if o.w_output.nrows() != width {
                return Err(edits::w_output_rows(o.w_output.nrows(), width));
            }
            if o.w_output.ncols() == 0 {
                return Err(edits::w_output_no_columns.into());
            }
            if let Some(b) = &o.b_output {
                check_bias(b, o.w_output.ncols()).map_err(|e| edits::at_field("b_output", e))?;
            }
        }
        self.output = output;
        Ok(self)
    }

    /// The output projection, if any.
    pub fn output(&self) -> Option<&OutputProjection> {
        self.output.as_deref()
    }

    /// Whether any head has biases.
    pub fn has_biases(&self) -> bool {
        self.heads.iter().any(|h| h.biases.is_some())
    }

    /// Positions of `kind` (`base` for the kinds with one; a learned table kept if the model has
    /// one, else drawn from `seed`).
    pub fn with_positions_of(
        &self,
        kind: PositionKind,
        base: f64,
        seed: u64,
    ) -> Result<Model, Msg> {
        let positions = match (&self.positions, kind) {
            (Positions::Learned(t), PositionKind::Learned) => Positions::Learned(t.clone()),
            _ => Positions::of_kind(kind, base, seed, self.tokens.len(), self.embedding.ncols())?,
        };
        self.clone().with_positions(positions)
    }

    /// Biases on (each head keeps its own, a head without gets them drawn from `seed`, see
    /// [`seeded_biases`]) or off.
    pub fn with_biases_on(&self, on: bool, seed: u64) -> Result<Model, Msg> {
        let biases = on.then(|| {
            seeded_biases(seed, self.embedding.ncols(), &self.heads)
                .into_iter()
                .zip(self.heads.iter())
                .map(|(fresh, h)| h.biases.clone().unwrap_or(fresh))
                .collect()
        });
        self.with_biases(biases)
    }

    /// The output projection on (kept if there is one, else `nn.Linear(Σ d_v, d_in)` drawn from
    /// `seed`, as `nn.MultiheadAttention`'s `out_proj` maps back to the embedding's width) or off.
    pub fn with_output_on(&self, on: bool, seed: u64) -> Result<Model, Msg> {
        let width = self.heads.iter().map(Head::d_v).sum();
        let output = on.then(|| {
            self.output.clone().unwrap_or_else(|| {
                Arc::new(seeded_output(seed, width, self.embedding.ncols(), true))
            })
        });
        self.clone().with_output(output)
    }

    /// The output projection of `like` (if it has one) drawn again from `seed` for this model's
    /// heads, keeping its width d_out and whether it has a bias.
    pub fn with_output_drawn_like(self, like: &Model, seed: u64) -> Result<Model, Msg> {
        let width = self.heads.iter().map(Head::d_v).sum();
        let output = like
            .output
            .as_ref()
            .map(|o| seeded_output(seed, width, o.w_output.ncols(), o.b_output.is_some()));
        self.with_output(output)
    }

    /// The same model with `biases` (one per head) or none.
    pub fn with_biases(&self, biases: Option<Vec<Biases>>) -> Result<Model, Msg> {
        let mut heads = (*self.heads).clone();
        for (h, head) in heads.iter_mut().enumerate() {
            head.biases = biases.as_ref().and_then(|b| b.get(h).cloned());
        }
        Model::new(
            &self.sentence,
            self.embedding.clone(),
            heads,
            self.causal,
            self.scale,
        )?
        .with_parts_of(self)
    }
}
