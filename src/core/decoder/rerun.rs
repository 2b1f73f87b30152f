//! The decoder run on the page's model as the learner edits it and as it writes, a layer on at
//! most [`CHUNK`] tokens per step so that a page can spread the work over short tasks. The last
//! finished run and its cache are kept: when the next model differs only by tokens added after
//! the prompt (a token written), the cache's keys and values stand for the earlier tokens and
//! only the new ones run, which is what the KV cache is for. A long prompt runs the same way, a
//! chunk of tokens after another through every layer, each chunk's keys and values cached for
//! the next.

use std::sync::Arc;

use nalgebra::{DMatrix, Scalar};

use crate::core::model::{knocked_in, Attention, Model, WeightChange};

use super::model::Decoder;
use super::run::{Cache, LayerParts, LayerRun};
use super::steps::{log_sum_exp, rms_norm, Angles};

/// What the layers compute with, apart from the tokens: while it stays, the kept cache stands.
/// The page's layer is named by its cells that differ from the trained layer, which are few
/// and quick to compare where its matrices are 1.3 million numbers.
#[derive(Clone, Debug, PartialEq, Default)]
struct Setup {
    knocked: Vec<(usize, usize)>,
    changes: Vec<WeightChange>,
    /// The page's layer and its own changed cells.
    page: Option<(usize, Vec<WeightChange>)>,
}

impl Setup {
    fn of(model: &Model) -> Option<Setup> {
        let layered = model.layered()?;
        Some(Setup {
            knocked: layered.knocked.clone(),
            changes: layered.changes.clone(),
            page: Some((layered.layer, model.own_changes())),
        })
    }
}

/// The page's layer and, once the learner changed a cell of it, its attention as the page has
/// it (a copy of 1.3 million numbers: untouched, the layer runs from the file as the others).
fn page_attention(model: &Model, own: &[WeightChange]) -> Option<(usize, Option<Attention>)> {
    let attention = match own.is_empty() {
        true => None,
        false => Some(model.attention()?),
    };
    Some((model.layered()?.layer, attention))
}

/// A finished run: what comes after the page's prompt.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    /// Every token so far.
    pub ids: Vec<u32>,
    /// How many of them the cache stood for (0 when every token ran).
    pub cached: usize,
    /// Each layer on every token: each head's weights (as float32: shown within 6e-8, and half
    /// the 33 MB they take at 124 tokens), and for the page's layer the steps after its
    /// attention and the hidden state after it (the others' output has no rows).
    pub layers: Vec<LayerRun<f32>>,
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

/// The most tokens a step runs through a layer: at 24, a step of SmolLM2 is about 85 M
/// multiply-adds (about 40 ms in the page). A longer run's tokens are shared evenly between as
/// few chunks as this allows, since each chunk de-quantizes every matrix again.
pub const CHUNK: usize = 24;

/// One run under way.
#[derive(Clone, Debug)]
pub struct Rerun {
    setup: Setup,
    page: Option<(usize, Option<Attention>)>,
    ids: Vec<u32>,
    /// How many tokens the kept cache stood for.
    cached: usize,
    cache: Cache,
    /// The embedding of every token that runs.
    embedded: DMatrix<f64>,
    /// The chunk running: the tokens `from..to`, their RoPE angles, and the next layer's input
    /// (a row per token).
    from: usize,
    to: usize,
    angles: Angles,
    x: DMatrix<f64>,
    /// Each layer on the tokens before the chunk, once a chunk ran (until then, the kept run's
    /// stand for the cached tokens: shared, not copied), and on the chunk so far.
    kept: Option<Arc<Written>>,
    layers: Vec<LayerRun<f32>>,
    chunk: Vec<LayerRun>,
    /// Each layer's hidden state at the chunk's last token.
    last: Vec<Vec<f64>>,
    /// The LM head's logits at the last token, once every token ran through every layer: a step
    /// of its own (28 M multiply-adds, 22 ms in the page).
    logits: Option<Vec<f64>>,
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
    pub fn start(&mut self, decoder: &Decoder, model: &Model) -> Option<Start> {
        let setup = Setup::of(model)?;
        let ids = model.layered()?.ids.clone();
        let (cached, cache, kept) = match &mut self.kept {
            Some((was, written, cache)) if *was == setup && ids.starts_with(&written.ids) => {
                if ids.len() == written.ids.len() {
                    return Some(Start::Done(written.clone()));
                }
                if cache.len() == written.ids.len() {
                    // Taken, not copied (11 MB at 124 tokens): the run gives it back finished;
                    // a run dropped unfinished leaves the next to start from the first token.
                    (
                        written.ids.len(),
                        std::mem::take(cache),
                        Some(written.clone()),
                    )
                } else {
                    (0, Cache::default(), None)
                }
            }
            _ => (0, Cache::default(), None),
        };
        let page = page_attention(model, setup.page.as_ref().map_or(&[], |p| &p.1))?;
        Rerun::new(decoder, setup, Some(page), ids, (cached, cache, kept))
            .map(|run| Start::Running(Box::new(run)))
    }

    /// A finished run, kept for the next.
    pub fn finish(&mut self, decoder: &Decoder, mut run: Rerun) -> Arc<Written> {
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

/// How many tokens run next when `from` of `len` ran: the rest shared evenly between chunks of
/// at most [`CHUNK`].
fn chunk_after(from: usize, len: usize) -> usize {
    let left = len - from;
    left.div_ceil(left.div_ceil(CHUNK))
}

/// Weights kept as float32.
fn narrow(weights: &DMatrix<f64>) -> DMatrix<f32> {
    weights.map(|w| w as f32)
}

/// `chunk`'s rows under `top`'s: the earlier tokens' weights on the chunk's are 0 (the mask).
fn stack(top: &LayerRun<f32>, chunk: &LayerRun) -> LayerRun<f32> {
    LayerRun {
        weights: top
            .weights
            .iter()
            .zip(&chunk.weights)
            .map(|(t, c)| below(t, &narrow(c)))
            .collect(),
        output: below(&top.output, &chunk.output),
        parts: match (&top.parts, &chunk.parts) {
            (Some(t), Some(c)) => Some(Box::new(LayerParts {
                attended: below(&t.attended, &c.attended),
                normed: below(&t.normed, &c.normed),
                ffn: below(&t.ffn, &c.ffn),
            })),
            _ => None,
        },
    }
}

/// `rows` under `top`, whose rows are as wide or narrower (0 fills them out).
fn below<T: Scalar + Default>(top: &DMatrix<T>, rows: &DMatrix<T>) -> DMatrix<T> {
    let size = (top.nrows() + rows.nrows(), rows.ncols());
    let mut out = DMatrix::from_element(size.0, size.1, T::default());
    out.view_mut((0, 0), top.shape()).copy_from(top);
    out.rows_mut(top.nrows(), rows.nrows()).copy_from(rows);
    out
}

impl Rerun {
    /// A run on `ids` after the `cached` tokens that `cache` and `kept` (a run on them) stand
    /// for; None if there is none to run or one is not in the decoder's vocabulary.
    fn new(
        decoder: &Decoder,
        setup: Setup,
        page: Option<(usize, Option<Attention>)>,
        ids: Vec<u32>,
        (cached, cache, kept): (usize, Cache, Option<Arc<Written>>),
    ) -> Option<Rerun> {
        if ids.len() <= cached {
            return None;
        }
        let to = cached + chunk_after(cached, ids.len());
        let embedded = decoder.embed(&ids[cached..]).ok()?;
        Some(Rerun {
            x: embedded.rows(0, to - cached).into_owned(),
            embedded,
            angles: decoder.angles(cached, to),
            from: cached,
            to,
            kept,
            layers: Vec::new(),
            chunk: Vec::with_capacity(decoder.config.layers),
            last: vec![Vec::new(); decoder.config.layers],
            logits: None,
            setup,
            page,
            ids,
            cached,
            cache,
        })
    }

    /// A run of the decoder as trained on `ids` (the head gallery's), or None if one is not
    /// in its vocabulary.
    pub fn plain(decoder: &Decoder, ids: Vec<u32>) -> Option<Rerun> {
        Rerun::new(
            decoder,
            Setup::default(),
            None,
            ids,
            (0, Cache::default(), None),
        )
    }

    /// What the run computed, once every layer ran.
    pub fn written(mut self, decoder: &Decoder) -> Written {
        let logits = self.logits.take().unwrap_or_else(|| self.lm_head(decoder));
        Written {
            ids: self.ids,
            cached: self.cached,
            last: self.last,
            layers: self.layers,
            logits,
        }
    }

    /// The final norm and the LM head at the last token.
    fn lm_head(&self, decoder: &Decoder) -> Vec<f64> {
        let normed = rms_norm(&self.x, &decoder.norm, decoder.config.eps);
        let last: Vec<f64> = normed.row(normed.nrows() - 1).iter().copied().collect();
        decoder.logits(&last)
    }

    /// Runs the next layer on the chunk, or once every layer ran the LM head: whether work is
    /// left.
    pub fn step(&mut self, decoder: &Decoder) -> bool {
        let l = self.chunk.len();
        if self.from >= self.ids.len() {
            if self.logits.is_some() {
                return false;
            }
            self.logits = Some(self.lm_head(decoder));
            return true;
        }
        let changed;
        let attention = match &self.page {
            Some((layer, page)) if *layer == l => page.as_ref(),
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
        let last = run.output.nrows() - 1;
        self.last[l] = run.output.row(last).iter().copied().collect();
        self.x = if matches!(&self.page, Some((layer, _)) if *layer == l) {
            run.output.clone()
        } else {
            // Only the page's layer shows its steps and output: the others' would be most of
            // what a run keeps (every layer's hidden state on every token).
            run.parts = None;
            std::mem::replace(&mut run.output, DMatrix::zeros(0, 0))
        };
        self.chunk.push(run);
        if self.chunk.len() < decoder.config.layers {
            return true;
        }
        // The chunk went through every layer: its rows join the earlier tokens'.
        let chunk = std::mem::take(&mut self.chunk);
        let stacked =
            |top: &[LayerRun<f32>]| top.iter().zip(&chunk).map(|(t, c)| stack(t, c)).collect();
        self.layers = match self.kept.take() {
            Some(kept) => stacked(&kept.layers),
            None if self.layers.is_empty() => chunk
                .into_iter()
                .map(|c| LayerRun {
                    weights: c.weights.iter().map(narrow).collect(),
                    output: c.output,
                    parts: c.parts,
                })
                .collect(),
            None => stacked(&self.layers),
        };
        self.from = self.to;
        if self.from == self.ids.len() {
            // The LM head next.
            return true;
        }
        self.to = self.from + chunk_after(self.from, self.ids.len());
        self.angles = decoder.angles(self.from, self.to);
        self.x = self
            .embedded
            .rows(self.from - self.cached, self.to - self.from)
            .into_owned();
        true
    }

    /// The layers the chunk running has been through (all of them while the LM head runs).
    pub fn done(&self) -> usize {
        if self.from >= self.ids.len() {
            self.layers.len()
        } else {
            self.chunk.len()
        }
    }
}
