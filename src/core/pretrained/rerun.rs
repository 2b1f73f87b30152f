//! A trained model re-run on the page's model as the learner edits it, a layer at a time so that
//! a page can spread the work over tasks: the last finished run is kept, and while the layers
//! below the page's layer ran on the same things (sentence, layer, knocked heads, changed
//! cells), an edit of layer k re-runs only layers k and above.

use std::sync::Arc;

use nalgebra::DMatrix;

use crate::core::model::{Model, WeightChange};
use crate::core::pretrained::{Encoder, EncoderTrace, LayerTrace};

/// A trained stack of layers the page re-runs (the encoder; a decoder plugs in beside it).
pub trait Stack {
    /// How many layers it has.
    fn depth(&self) -> usize;
    /// The first layer's input for the pieces `ids`.
    fn embed(&self, ids: &[u32]) -> DMatrix<f64>;
    /// Layer `l` on `x` (the layer below's output), the page's layer as `model` has it.
    fn layer_in_page(&self, model: &Model, l: usize, x: &DMatrix<f64>) -> Option<LayerTrace>;
}

impl Stack for Encoder {
    fn depth(&self) -> usize {
        self.layers.len()
    }
    fn embed(&self, ids: &[u32]) -> DMatrix<f64> {
        Encoder::embed(self, ids)
    }
    fn layer_in_page(&self, model: &Model, l: usize, x: &DMatrix<f64>) -> Option<LayerTrace> {
        Encoder::layer_in_page(self, model, l, x)
    }
}

/// What the layers below the page's layer ran on: while it is the same, they stand.
#[derive(Clone, Debug, PartialEq)]
struct Below {
    sentence: String,
    layer: usize,
    knocked: Vec<(usize, usize)>,
    changes: Vec<WeightChange>,
}

impl Below {
    fn of(model: &Model) -> Option<Below> {
        let layered = model.layered()?;
        Some(Below {
            sentence: model.sentence().to_owned(),
            layer: layered.layer,
            knocked: layered.knocked.clone(),
            changes: layered.changes.clone(),
        })
    }
}

/// The runs of a trained stack on the page's models, keeping the last finished one.
#[derive(Clone, Debug, Default)]
pub struct Reruns {
    kept: Option<(Below, Arc<EncoderTrace>)>,
}

/// One run under way.
#[derive(Clone, Debug)]
pub struct Rerun {
    below: Below,
    /// The first layer it computes (those below it stand).
    first: usize,
    /// The next layer to run, and its input.
    next: usize,
    x: DMatrix<f64>,
    trace: EncoderTrace,
}

impl Reruns {
    /// A run on `model`, from the first layer the kept run does not stand for; `None` when the
    /// page's model is not a trained model's layer.
    pub fn start(&self, stack: &impl Stack, model: &Model) -> Option<Rerun> {
        let below = Below::of(model)?;
        let ids = model.layered()?.ids.clone();
        let layers = match &self.kept {
            Some((was, trace)) if *was == below => trace.layers[..below.layer].to_vec(),
            _ => Vec::new(),
        };
        let embedded = stack.embed(&ids);
        let x = layers
            .last()
            .map_or_else(|| embedded.clone(), |l| l.output.clone());
        Some(Rerun {
            first: layers.len(),
            next: layers.len(),
            below,
            x,
            trace: EncoderTrace {
                tokens: model.tokens().words.clone(),
                ids,
                embedded,
                layers,
            },
        })
    }

    /// A finished run, kept for the next: its trace.
    pub fn finish(&mut self, run: Rerun) -> Arc<EncoderTrace> {
        let trace = Arc::new(run.trace);
        self.kept = Some((run.below, trace.clone()));
        trace
    }

    /// A whole run on `model` at once (as the page's tasks make it).
    pub fn run(&mut self, stack: &impl Stack, model: &Model) -> Option<Arc<EncoderTrace>> {
        let mut run = self.start(stack, model)?;
        while run.step(stack, model)? {}
        Some(self.finish(run))
    }
}

impl Rerun {
    /// The first layer this run computes (those below it stand).
    pub fn first(&self) -> usize {
        self.first
    }

    /// Runs the next layer on `model`: whether layers are left; `None` when `model` has no
    /// trained layer any more.
    pub fn step(&mut self, stack: &impl Stack, model: &Model) -> Option<bool> {
        if self.next >= stack.depth() {
            return Some(false);
        }
        let layer = stack.layer_in_page(model, self.next, &self.x)?;
        self.x = layer.output.clone();
        self.trace.layers.push(Arc::new(layer));
        self.next += 1;
        Some(self.next < stack.depth())
    }
}
