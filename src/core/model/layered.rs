//! A model that is one layer of a trained model: which model, which layer, and what the learner
//! changed in its other layers (the chosen layer's own numbers are the model's). The encoder's
//! millions of numbers stay with it; a model keeps only what makes this page differ from them.

use std::sync::Arc;

use nalgebra::DMatrix;

use super::editable::Editable;
use super::head::{Head, OutputProjection, Projection};

/// A trained model the page ships beside the app, as the page names it before its file arrives.
#[derive(Clone, Copy, Debug)]
pub struct Shipped {
    /// Its name in links and saved work.
    pub name: &'static str,
    /// Its file beside the app (the build program's models.rs puts it there).
    pub file: &'static str,
    /// Its file's size (tested): the room its download makes at once, the total its progress
    /// counts to, and half the most it takes.
    pub bytes: usize,
    /// What the page calls it.
    pub title: &'static str,
    /// Its layers (tested equal to its config's).
    pub layers: usize,
    /// Its heads per layer (tested equal to its config's).
    pub heads: usize,
}

/// A layer's attention: its heads (with biases) and the output projection after them.
#[derive(Clone, Debug, PartialEq)]
pub struct Attention {
    /// Its heads, each `hidden / heads` wide (shared with the page's model until changed).
    pub heads: Arc<Vec<Head>>,
    /// The projection after the heads' concatenation (`attention.output.dense`).
    pub output: Arc<OutputProjection>,
}

impl Attention {
    /// The matrix `target` names in it (none for the embedding and positions: the hidden state
    /// X is what the layers below make).
    pub fn matrix(&self, target: Editable) -> Option<&DMatrix<f64>> {
        match target {
            Editable::Weight(h, p) => self.heads.get(h).map(|head| &head[p]),
            Editable::Bias(h, p) => self.heads.get(h)?.biases.as_ref().map(|b| &b[p]),
            Editable::OutputWeight => Some(&self.output.w_output),
            Editable::OutputBias => self.output.b_output.as_ref(),
            Editable::Embedding | Editable::Positions | Editable::SourceEmbedding => None,
        }
    }

    /// [`Attention::matrix`], to change.
    pub fn matrix_mut(&mut self, target: Editable) -> Option<&mut DMatrix<f64>> {
        match target {
            Editable::Weight(h, p) => Arc::make_mut(&mut self.heads)
                .get_mut(h)
                .map(|head| &mut head[p]),
            Editable::Bias(h, p) => Arc::make_mut(&mut self.heads)
                .get_mut(h)?
                .biases
                .as_mut()
                .map(|b| &mut b[p]),
            Editable::OutputWeight => Some(&mut Arc::make_mut(&mut self.output).w_output),
            Editable::OutputBias => Arc::make_mut(&mut self.output).b_output.as_mut(),
            Editable::Embedding | Editable::Positions | Editable::SourceEmbedding => None,
        }
    }

    /// These numbers with `changes` written in (those outside are passed over: they were
    /// checked when they were read).
    pub fn with_changes<'a>(&self, changes: impl IntoIterator<Item = &'a WeightChange>) -> Self {
        let mut changed = self.clone();
        for c in changes {
            if let Some(cell) = changed
                .matrix_mut(c.target)
                .and_then(|m| m.get_mut((c.row, c.col)))
            {
                *cell = c.value;
            }
        }
        changed
    }

    /// Every matrix a layer's attention has.
    pub fn targets(&self) -> impl Iterator<Item = Editable> {
        (0..self.heads.len())
            .flat_map(|h| {
                Projection::ALL
                    .into_iter()
                    .flat_map(move |p| [Editable::Weight(h, p), Editable::Bias(h, p)])
            })
            .chain([Editable::OutputWeight, Editable::OutputBias])
    }
}

/// Where a layer model comes from.
#[derive(Clone, Debug)]
pub struct Layered {
    /// The trained model's name, as its file is called (`all-minilm-l6-v2`).
    pub name: String,
    /// The layer in the page, counted from 0.
    pub layer: usize,
    /// How many layers the model has.
    pub layers: usize,
    /// The pieces' ids in its vocabulary.
    pub ids: Vec<u32>,
    /// The heads knocked out, (layer, head), as transformers' `head_mask`.
    pub knocked: Vec<(usize, usize)>,
    /// The cells the learner changed in the other layers.
    pub changes: Vec<WeightChange>,
    /// The tokens a language model wrote at the end of the sentence, as it wrote them (their
    /// text read again could cut other pieces).
    pub written: Vec<u32>,
    /// The chosen layer's attention as trained, shared with the encoder's reader: what the
    /// learner's changes are told from.
    pub trained: Arc<Attention>,
}

/// Equal when they say the same; the trained numbers compared only when they are not the same
/// copy.
impl PartialEq for Layered {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.layer == other.layer
            && self.layers == other.layers
            && self.ids == other.ids
            && self.knocked == other.knocked
            && self.changes == other.changes
            && self.written == other.written
            && same_numbers(&self.trained, &other.trained)
    }
}

/// Whether two shared values hold the same numbers: at once when they are the same copy (a
/// trained layer's are megabytes).
pub fn same_numbers<T: PartialEq>(a: &Arc<T>, b: &Arc<T>) -> bool {
    Arc::ptr_eq(a, b) || a == b
}

/// One number of a layer's attention as the learner set it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightChange {
    /// The layer, counted from 0.
    pub layer: usize,
    /// The matrix (a head's projection or bias, the output projection or its bias).
    pub target: Editable,
    /// Its row.
    pub row: usize,
    /// Its column.
    pub col: usize,
    /// The number.
    pub value: f64,
}

/// The heads of layer `l` among `knocked` (layer, head) pairs.
pub fn knocked_in(knocked: &[(usize, usize)], l: usize) -> Vec<usize> {
    knocked
        .iter()
        .filter(|&&(at, _)| at == l)
        .map(|&(_, h)| h)
        .collect()
}
