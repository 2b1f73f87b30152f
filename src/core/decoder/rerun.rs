//! The decoder run on the page's model as the learner edits it and as it writes, a layer per
//! step so that a page can spread the work over tasks. The last finished run and its cache are
//! kept: when the next model differs only by tokens added after the prompt (a token written), the
//! cache's keys and values stand for the earlier tokens and only the new ones run, which is what
//! the KV cache is for.

use std::sync::Arc;

use nalgebra::DMatrix;

use crate::core::model::{knocked_in, Attention, Model, WeightChange};

use super::model::Decoder;
use super::run::{Cache, LayerRun};
use super::steps::{log_sum_exp, rms_norm, Angles};

/// What the layers compute with, apart from the tokens: while it stays, the kept cache stands.
#[derive(Clone, Debug, PartialEq, Default)]
struct Setup {
    knocked: Vec<(usize, usize)>,
    changes: Vec<WeightChange>,
    /// The page's layer and its attention as the page has it.
    page: Option<(usize, Attention)>,
}

impl Setup {
    fn of(model: &Model) -> Option<Setup> {
        let layered = model.layered()?;
        Some(Setup {
            knocked: layered.knocked.clone(),
            changes: layered.changes.clone(),
            page: Some((
                layered.layer,
                Attention {
                    heads: model.heads().to_vec(),
                    output: model.output()?.clone(),
                },
            )),
        })
    }
}

/// A finished run: what comes after the page's prompt.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    /// Every token so far.
    pub ids: Vec<u32>,
    /// How many of them the cache stood for (0 when every token ran).
    pub cached: usize,
    /// Each layer on every token: each head's weights and the hidden state after it.
    pub layers: Vec<LayerRun>,
    /// Each layer's hidden state at the last token, bottom first (the logit lens reads them).
    pub last: Vec<Vec<f64>>,
    /// The LM head's logits after the last token.
    pub logits: Vec<f64>,
}

impl Written {
    /// The probability of every next token.
    pub fn probabilities(&self) -> Vec<f64> {
        let total = log_sum_exp(&self.logits);
        self.logits.iter().map(|l| libm::exp(l - total)).collect()
    }
}

/// The runs of the decoder on the page's models, keeping the last finished one and its cache.
#[derive(Clone, Debug, Default)]
pub struct Reruns {
    kept: Option<(Setup, Arc<Written>, Cache)>,
}

/// One run under way.
#[derive(Clone, Debug)]
pub struct Rerun {
    setup: Setup,
    ids: Vec<u32>,
    cached: usize,
    cache: Cache,
    angles: Angles,
    /// The next layer's input, a row per token that runs.
    x: DMatrix<f64>,
    layers: Vec<LayerRun>,
}

/// Where a run on the page's model is.
#[derive(Clone, Debug)]
pub enum Start {
    /// The kept run is this model's.
    Done(Arc<Written>),
    /// Layers to run.
    Running(Box<Rerun>),
}

impl Reruns {
    /// A run on `model` (a layer model of `decoder`), from the cache when only tokens were added
    /// since the kept run; `None` when the page's model is not this decoder's layer, or its
    /// tokens are not the decoder's.
    pub fn start(&self, decoder: &Decoder, model: &Model) -> Option<Start> {
        let setup = Setup::of(model)?;
        let ids = model.layered()?.ids.clone();
        let (cached, cache) = match &self.kept {
            Some((was, written, cache)) if *was == setup && ids.starts_with(&written.ids) => {
                if ids.len() == written.ids.len() {
                    return Some(Start::Done(written.clone()));
                }
                (written.ids.len(), cache.clone())
            }
            _ => (0, Cache::default()),
        };
        Rerun::new(decoder, setup, ids, cached, cache).map(|run| Start::Running(Box::new(run)))
    }

    /// A finished run, kept for the next: the tokens the cache stood for keep their rows of the
    /// kept run, the others' weights on later tokens are 0 (the mask).
    pub fn finish(&mut self, decoder: &Decoder, mut run: Rerun) -> Arc<Written> {
        if let Some((_, kept, _)) = self.kept.as_ref().filter(|_| run.cached > 0) {
            for (new, old) in run.layers.iter_mut().zip(&kept.layers) {
                for (w, was) in new.weights.iter_mut().zip(&old.weights) {
                    *w = below(was, w);
                }
                new.output = below(&old.output, &new.output);
                if let (Some(new), Some(old)) = (new.parts.as_mut(), old.parts.as_ref()) {
                    new.attended = below(&old.attended, &new.attended);
                    new.normed = below(&old.normed, &new.normed);
                    new.ffn = below(&old.ffn, &new.ffn);
                }
            }
        }
        let setup = std::mem::take(&mut run.setup);
        let cache = std::mem::take(&mut run.cache);
        let written = Arc::new(run.written(decoder));
        self.kept = Some((setup, written.clone(), cache));
        written
    }

    /// A whole run on `model` at once.
    pub fn run(&mut self, decoder: &Decoder, model: &Model) -> Option<Arc<Written>> {
        match self.start(decoder, model)? {
            Start::Done(written) => Some(written),
            Start::Running(mut run) => {
                while run.step(decoder) {}
                Some(self.finish(decoder, *run))
            }
        }
    }
}

/// `rows` under `top`, whose rows are as wide or narrower (0 fills them out).
fn below(top: &DMatrix<f64>, rows: &DMatrix<f64>) -> DMatrix<f64> {
    let mut out = DMatrix::zeros(top.nrows() + rows.nrows(), rows.ncols());
    out.view_mut((0, 0), top.shape()).copy_from(top);
    out.rows_mut(top.nrows(), rows.nrows()).copy_from(rows);
    out
}

impl Rerun {
    fn new(
        decoder: &Decoder,
        setup: Setup,
        ids: Vec<u32>,
        cached: usize,
        cache: Cache,
    ) -> Option<Rerun> {
        Some(Rerun {
            x: decoder.embed(&ids[cached..]).ok()?,
            angles: decoder.angles(cached, ids.len()),
            layers: Vec::with_capacity(decoder.config.layers),
            setup,
            ids,
            cached,
            cache,
        })
    }

    /// A run of the decoder as trained on `ids` (the head gallery's), or None if one is not
    /// in its vocabulary.
    pub fn plain(decoder: &Decoder, ids: Vec<u32>) -> Option<Rerun> {
        Rerun::new(decoder, Setup::default(), ids, 0, Cache::default())
    }

    /// What the run computed, once every layer ran.
    pub fn written(self, decoder: &Decoder) -> Written {
        let normed = rms_norm(&self.x, &decoder.norm, decoder.config.eps);
        let last: Vec<f64> = normed.row(normed.nrows() - 1).iter().copied().collect();
        Written {
            ids: self.ids,
            cached: self.cached,
            last: self
                .layers
                .iter()
                .map(|l| l.output.row(l.output.nrows() - 1).iter().copied().collect())
                .collect(),
            layers: self.layers,
            logits: decoder.logits(&last),
        }
    }

    /// Runs the next layer: whether layers are left.
    pub fn step(&mut self, decoder: &Decoder) -> bool {
        let l = self.layers.len();
        if l >= decoder.config.layers {
            return false;
        }
        let changed;
        let attention = match &self.setup.page {
            Some((layer, page)) if *layer == l => Some(page),
            _ => {
                changed = decoder.changed(l, &self.setup.changes);
                changed.as_ref()
            }
        };
        let mut run = decoder.layer(
            l,
            &self.x,
            self.cache.layer(l, decoder.config.layers),
            &knocked_in(&self.setup.knocked, l),
            attention,
            &self.angles,
        );
        if !matches!(&self.setup.page, Some((layer, _)) if *layer == l) {
            run.parts = None;
        }
        self.x = run.output.clone();
        self.layers.push(run);
        self.layers.len() < decoder.config.layers
    }

    /// The layers run so far.
    pub fn done(&self) -> usize {
        self.layers.len()
    }
}
