//! Word order: self-attention alone cannot see it, so real models put it back. Sinusoidal and
//! learned positions are added to the embedding before the projections; RoPE rotates each head's
//! queries and keys by an angle that grows with the token's place, in one of two conventions
//! that give different numbers on the same weights (pairs (i, i + d/2) as Hugging Face's
//! `rotate_half`, pairs (2i, 2i + 1) as Meta's reference).

use crate::core::i18n::keys::edits;
use crate::core::i18n::Msg;
use nalgebra::DMatrix;

use crate::core::model::limits::MAX_TOKENS;
use crate::core::model::torch_rng::TorchRng;

/// The base of the angles when none is given (the Transformer's and Llama's).
pub const DEFAULT_BASE: f64 = 10_000.0;

/// Which pairs of a query's or key's components RoPE rotates together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rope {
    /// (i, i + d/2): Hugging Face's `rotate_half`.
    Half,
    /// (2i, 2i + 1): Meta's reference, as complex numbers.
    Interleaved,
}

impl Rope {
    /// Both, in the order the page lists them.
    pub const ALL: [Rope; 2] = [Rope::Half, Rope::Interleaved];

    /// Each of `d` components' column label, naming its pair: `0·p0`, `1·p1`, `2·p0`, … .
    pub fn labels(self, d: usize) -> Vec<String> {
        let mut labels: Vec<String> = (0..d).map(|j| j.to_string()).collect();
        for (i, (a, b)) in self.pairs(d).into_iter().enumerate() {
            labels[a] = format!("{a}·p{i}");
            labels[b] = format!("{b}·p{i}");
        }
        labels
    }

    /// The pairs of `d` components that rotate together, pair i by θᵢ·p.
    pub fn pairs(self, d: usize) -> Vec<(usize, usize)> {
        (0..d / 2)
            .map(|i| match self {
                Rope::Half => (i, i + d / 2),
                Rope::Interleaved => (2 * i, 2 * i + 1),
            })
            .collect()
    }
}

/// How word order enters the model.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Positions {
    /// None: attention is blind to order.
    #[default]
    None,
    /// PE[p, 2i] = sin(p / base^(2i/d_in)), PE[p, 2i+1] = cos(…), added to the embedding.
    Sinusoidal {
        /// The base of the wavelengths.
        base: f64,
    },
    /// A table with one row per place (n × d_in), added to the embedding (GPT-2, BERT).
    Learned(DMatrix<f64>),
    /// Queries and keys rotated by θᵢ·p, θᵢ = base^(−2i/dₖ) (Llama and most models since).
    Rope {
        /// The base of the angles.
        base: f64,
        /// Which pairs rotate together.
        pairs: Rope,
    },
}

/// What kind of positions a model has, by the name the saved state and the page use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionKind {
    /// `none`.
    None,
    /// `sinusoidal`.
    Sinusoidal,
    /// `learned`.
    Learned,
    /// `rope_half`: RoPE pairing (i, i + d/2).
    RopeHalf,
    /// `rope_interleaved`: RoPE pairing (2i, 2i + 1).
    RopeInterleaved,
}

impl PositionKind {
    /// Every kind, in the order a picker lists them.
    pub const ALL: [PositionKind; 5] = [
        PositionKind::None,
        PositionKind::Sinusoidal,
        PositionKind::Learned,
        PositionKind::RopeHalf,
        PositionKind::RopeInterleaved,
    ];

    /// Its name in the saved state and the page.
    pub fn key(self) -> &'static str {
        match self {
            PositionKind::None => "none",
            PositionKind::Sinusoidal => "sinusoidal",
            PositionKind::Learned => "learned",
            PositionKind::RopeHalf => "rope_half",
            PositionKind::RopeInterleaved => "rope_interleaved",
        }
    }

    /// The kind [`PositionKind::key`] names; the message lists the names there are.
    pub fn named(key: &str) -> Result<PositionKind, Msg> {
        PositionKind::ALL
            .into_iter()
            .find(|k| k.key() == key)
            .ok_or_else(|| edits::unknown_kind(key, PositionKind::names()))
    }

    /// Every kind's name, for a message.
    pub fn names() -> String {
        PositionKind::ALL.map(PositionKind::key).join(", ")
    }

    /// Whether it rotates queries and keys (RoPE).
    pub fn is_rope(self) -> bool {
        matches!(self, PositionKind::RopeHalf | PositionKind::RopeInterleaved)
    }
}

impl Positions {
    /// Its kind.
    pub fn kind(&self) -> PositionKind {
        match self {
            Positions::None => PositionKind::None,
            Positions::Sinusoidal { .. } => PositionKind::Sinusoidal,
            Positions::Learned(_) => PositionKind::Learned,
            Positions::Rope {
                pairs: Rope::Half, ..
            } => PositionKind::RopeHalf,
            Positions::Rope {
                pairs: Rope::Interleaved,
                ..
            } => PositionKind::RopeInterleaved,
        }
    }

    /// Its base, for the kinds that have one.
    pub fn base(&self) -> Option<f64> {
        match self {
            Positions::Sinusoidal { base } | Positions::Rope { base, .. } => Some(*base),
            _ => None,
        }
    }

    /// The kind `kind` with `base`, a learned table drawn from `seed` for `n` places of `d_in`.
    pub fn of_kind(
        kind: PositionKind,
        base: f64,
        seed: u64,
        n: usize,
        d_in: usize,
    ) -> Result<Positions, Msg> {
        check_base(base)?;
        Ok(match kind {
            PositionKind::None => Positions::None,
            PositionKind::Sinusoidal => Positions::Sinusoidal { base },
            PositionKind::Learned => Positions::Learned(seeded_table(seed, n, d_in)),
            PositionKind::RopeHalf => Positions::Rope {
                base,
                pairs: Rope::Half,
            },
            PositionKind::RopeInterleaved => Positions::Rope {
                base,
                pairs: Rope::Interleaved,
            },
        })
    }

    /// What is added to the embedded sentence of `n` tokens, if anything.
    pub fn table(&self, n: usize, d_in: usize) -> Option<DMatrix<f64>> {
        match self {
            Positions::Sinusoidal { base } => Some(sinusoidal(n, d_in, *base)),
            Positions::Learned(table) => Some(table.clone()),
            _ => None,
        }
    }

    /// The rotation of queries and keys, if any.
    pub fn rope(&self) -> Option<(f64, Rope)> {
        match self {
            Positions::Rope { base, pairs } => Some((*base, *pairs)),
            _ => None,
        }
    }

    /// Whether it fits a model of `n` tokens, `d_in` and these heads' d_k; the message says why
    /// not.
    pub fn check(&self, n: usize, d_in: usize, d_ks: &[usize]) -> Result<(), Msg> {
        if let Some(base) = self.base() {
            check_base(base)?;
        }
        match self {
            Positions::Learned(t) if t.shape() != (n, d_in) => {
                Err(edits::learned_shape(t.nrows(), t.ncols(), n, d_in))
            }
            Positions::Rope { .. } => match d_ks.iter().position(|d| d % 2 == 1) {
                Some(h) => Err(edits::rope_odd(h, d_ks[h])),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }
}

/// A base must be a finite number above 1 (the angles shrink with it).
fn check_base(base: f64) -> Result<(), Msg> {
    if base.is_finite() && base > 1.0 && base <= 1e12 {
        Ok(())
    } else {
        Err(edits::base_range(base))
    }
}

/// base^x as exp(x · ln base): `powf` would bring libm's pow into the page (2 KB), and the two
/// differ by an ulp or so, far below what the tests allow.
fn power(base: f64, x: f64) -> f64 {
    (x * base.ln()).exp()
}

/// RoPE's angle per place of pair `i` of `d` components: θᵢ = base^(−2i/d).
pub fn theta(base: f64, i: usize, d: usize) -> f64 {
    power(base, -2.0 * i as f64 / d as f64)
}

/// PE[p, c] = sin(p / base^(2i/d)) for c = 2i, cos(…) for c = 2i + 1, places from 0.
pub fn sinusoidal(n: usize, d: usize, base: f64) -> DMatrix<f64> {
    DMatrix::from_fn(n, d, |p, c| {
        let angle = p as f64 / power(base, (c - c % 2) as f64 / d as f64);
        if c % 2 == 0 {
            angle.sin()
        } else {
            angle.cos()
        }
    })
}

/// A learned table as `nn.Embedding(64, d_in)` draws it after `manual_seed(seed)`: rows 0 … n−1,
/// so a longer sentence extends the same table.
pub fn seeded_table(seed: u64, n: usize, d_in: usize) -> DMatrix<f64> {
    let rows: Vec<usize> = (0..n).collect();
    TorchRng::manual_seed(seed).embedding_rows(MAX_TOKENS, d_in, &rows)
}

/// `x` (a row per place, d even) with each pair rotated by `sign`·θᵢ·p: `sign` 1 is RoPE, −1
/// undoes it (the backward pass: a rotation's transpose is the rotation back).
pub fn rotate(x: &DMatrix<f64>, base: f64, pairs: Rope, sign: f64) -> DMatrix<f64> {
    turn(x, base, pairs, sign, 0)
}

/// The backward of [`rotate`] by RoPE (`sign` 1): the rotation back, a rotation's transpose.
pub fn rotate_backward(d: &DMatrix<f64>, base: f64, pairs: Rope) -> DMatrix<f64> {
    rotate(d, base, pairs, -1.0)
}

/// `x` rotated as if its rows stood at places `first`, `first` + 1, …
pub fn rotate_from(x: &DMatrix<f64>, base: f64, pairs: Rope, first: usize) -> DMatrix<f64> {
    turn(x, base, pairs, 1.0, first)
}

fn turn(x: &DMatrix<f64>, base: f64, pairs: Rope, sign: f64, first: usize) -> DMatrix<f64> {
    let mut out = x.clone();
    for p in 0..x.nrows() {
        let row: Vec<f64> = x.row(p).iter().copied().collect();
        for (j, v) in rotate_at(&row, first + p, base, pairs, sign)
            .into_iter()
            .enumerate()
        {
            out[(p, j)] = v;
        }
    }
    out
}

/// One row rotated as RoPE rotates place `p`.
fn rotate_at(row: &[f64], p: usize, base: f64, pairs: Rope, sign: f64) -> Vec<f64> {
    let d = row.len();
    let mut out = row.to_vec();
    for (i, (a, b)) in pairs.pairs(d).into_iter().enumerate() {
        let (sin, cos) = (sign * theta(base, i, d) * p as f64).sin_cos();
        out[a] = row[a] * cos - row[b] * sin;
        out[b] = row[b] * cos + row[a] * sin;
    }
    out
}
