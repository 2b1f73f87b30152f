//! How the scores are scaled before the softmax: the one setting the trace, the page and the
//! saved state name alike.

use serde::Serialize;
/// What the scores are divided by before the softmax.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    /// Divide by √dₖ: keeps the scores' variance near 1 whatever dₖ is (the transformer's choice).
    #[default]
    SqrtDk,
    /// Divide by dₖ: shrinks the scores too much as dₖ grows, so the softmax flattens.
    Dk,
    /// No scaling: scores grow with dₖ and the softmax saturates to one-hot.
    None,
}

impl Scale {
    /// Every option, in the order a picker lists them.
    pub const ALL: [Scale; 3] = [Scale::SqrtDk, Scale::Dk, Scale::None];

    /// The divisor for keys of width `d_k`.
    pub fn divisor(self, d_k: usize) -> f64 {
        match self {
            Scale::SqrtDk => (d_k as f64).sqrt(),
            Scale::Dk => d_k as f64,
            Scale::None => 1.0,
        }
    }

    /// The name used in the saved state and the page (`sqrt_dk`, `dk`, `none`).
    pub fn key(self) -> &'static str {
        match self {
            Scale::SqrtDk => "sqrt_dk",
            Scale::Dk => "dk",
            Scale::None => "none",
        }
    }

    /// Parses [`Scale::key`].
    pub fn from_key(key: &str) -> Option<Scale> {
        Scale::ALL.into_iter().find(|s| s.key() == key)
    }

    /// What the page calls it, in the controls and the labs: `÷√dₖ`, `÷dₖ`, `none`.
    pub fn label(self) -> &'static str {
        match self {
            Scale::SqrtDk => "÷√dₖ",
            Scale::Dk => "÷dₖ",
            Scale::None => "none",
        }
    }

    /// How the divisor reads in a formula.
    pub fn symbol(self) -> &'static str {
        match self {
            Scale::SqrtDk => "√dₖ",
            Scale::Dk => "dₖ",
            Scale::None => "1",
        }
    }
}
