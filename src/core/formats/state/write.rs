//! A model written as a saved state: version 1 when it has nothing of version 2, so that its
//! links and files stay what they were; a trained model's layer as what opens it again.

use nalgebra::DMatrix;

use crate::core::formats::trained::trained_value;
use crate::core::model::positions::Positions;
use crate::core::model::Model;

use super::saved::{
    SavedHead, SavedKv, SavedPositions, SavedSource, SavedState, STATE_VERSION, STATE_VERSION_2,
};
/// The model as a saved state (compact JSON, numbers in shortest round-trip form).
pub fn write_state(model: &Model) -> String {
    if model.layered().is_some() {
        return state_value(model).to_string();
    }
    serde_json::to_string(&saved(model)).expect("a state of finite numbers always serialises")
}

/// The model as a saved state, as a JSON value (for formats built on it, such as links).
pub fn state_value(model: &Model) -> serde_json::Value {
    if let Some(mut trained) = trained_value(model) {
        trained["version"] = STATE_VERSION_2.into();
        return trained;
    }
    serde_json::to_value(saved(model)).expect("a state of finite numbers always serialises")
}

fn saved(model: &Model) -> SavedState {
    let rows = |m: &DMatrix<f64>| m.row_iter().map(|r| r.iter().copied().collect()).collect();
    let row = |m: &DMatrix<f64>| m.iter().copied().collect();
    let positions = model.positions();
    let version_2 = model.has_biases()
        || model.output().is_some()
        || *positions != Positions::None
        || model.shares_kv()
        || model.source().is_some();
    let shared = model.shares_kv();
    SavedState {
        version: if version_2 {
            STATE_VERSION_2
        } else {
            STATE_VERSION
        },
        sentence: model.sentence().to_owned(),
        embedding: rows(model.embedding()),
        positions: (*positions != Positions::None).then(|| SavedPositions {
            kind: positions.kind().key(),
            base: positions.base(),
            learned: match positions {
                Positions::Learned(t) => Some(rows(t)),
                _ => None,
            },
        }),
        heads: model
            .heads()
            .iter()
            .map(|h| {
                let b = h.biases.as_ref();
                let own = (!shared).then_some(h);
                let own_b = b.filter(|_| !shared);
                SavedHead {
                    w_query: rows(&h.w_query),
                    w_key: own.map(|h| rows(&h.w_key)).unwrap_or_default(),
                    w_value: own.map(|h| rows(&h.w_value)).unwrap_or_default(),
                    b_query: b.map(|b| row(&b.b_query)),
                    b_key: own_b.map(|b| row(&b.b_key)),
                    b_value: own_b.map(|b| row(&b.b_value)),
                }
            })
            .collect(),
        kv_heads: shared.then(|| model.kv_heads()),
        kv: shared.then(|| {
            (0..model.kv_heads())
                .map(|g| {
                    let h = &model.heads()[model.kv_leader(g)];
                    let b = h.biases.as_ref();
                    SavedKv {
                        w_key: rows(&h.w_key),
                        w_value: rows(&h.w_value),
                        b_key: b.map(|b| row(&b.b_key)),
                        b_value: b.map(|b| row(&b.b_value)),
                    }
                })
                .collect()
        }),
        source: model.source().map(|s| SavedSource {
            sentence: s.sentence().to_owned(),
            embedding: rows(s.embedding()),
        }),
        causal: model.causal,
        scale: model.scale,
        w_output: model.output().map(|o| rows(&o.w_output)),
        b_output: model.output().and_then(|o| o.b_output.as_ref()).map(row),
    }
}
