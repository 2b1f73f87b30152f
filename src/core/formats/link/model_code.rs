//! The model in a link, `m=`: the saved state as JSON in which every number equal
//! to the same cell of a *base* model is `null`, raw-deflated and base64url-encoded. The base is
//! named in the JSON (`"base": "dog"` for a preset, `"base": [seed, d_in, d_k, d_v, heads]` for
//! the model `torch.manual_seed(seed)` draws for this sentence and these sizes), so an edited
//! preset or a seeded model costs little more than its edits.

use miniz_oxide::deflate::compress_to_vec;
use miniz_oxide::inflate::decompress_to_vec_with_limit;
use serde_json::Value;

use super::base64url::{base64url, from_base64url};
use super::page::MAX_LINK_CHARS;
use crate::core::formats::state::{read_state_value, state_value, MAX_STATE_BYTES};
use crate::core::i18n::keys::edits;
use crate::core::i18n::Msg;
use crate::core::model::limits::{check_sentence, MAX_DIM, MAX_HEADS};
use crate::core::model::presets::{built, matching, preset_named, PRESETS};
use crate::core::model::{Dims, Model, Projection, Scale};
use crate::core::text::clip;

/// The base a model is written against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// A preset, by name.
    Preset(&'static str),
    /// The model `torch.manual_seed(seed)` draws for the same sentence at these sizes (see
    /// [`Model::seeded`]).
    Seed(u64, Dims),
}

impl Base {
    /// `"dog"`, or `[seed, d_in, d_k, d_v, heads]`.
    fn to_json(self) -> Value {
        match self {
            Base::Preset(name) => Value::from(name),
            Base::Seed(seed, d) => Value::from(vec![
                seed,
                d.d_in as u64,
                d.d_k as u64,
                d.d_v as u64,
                d.heads as u64,
            ]),
        }
    }

    /// Reads [`Base::to_json`], within the limits (a seeded base is drawn only after this).
    fn from_json(value: &Value) -> Result<Base, Msg> {
        if let Some(name) = value.as_str() {
            return preset_named(name)
                .map(|p| Base::Preset(p.name))
                .ok_or_else(|| edits::base_no_preset(clip(name)));
        }
        let numbers: Option<Vec<u64>> = value
            .as_array()
            .filter(|a| a.len() == 5)
            .and_then(|a| a.iter().map(Value::as_u64).collect());
        let [seed, d_in, d_k, d_v, heads] = numbers.as_deref().unwrap_or_default() else {
            return Err(edits::base_expected.into());
        };
        let within = |n: u64, max: usize| (1..=max as u64).contains(&n);
        if ![d_in, d_k, d_v].iter().all(|&&d| within(d, MAX_DIM)) || !within(*heads, MAX_HEADS) {
            return Err(edits::base_sizes(MAX_DIM, MAX_HEADS));
        }
        let size = |n: u64| n as usize;
        Ok(Base::Seed(
            *seed,
            Dims {
                d_in: size(*d_in),
                d_k: size(*d_k),
                d_v: size(*d_v),
                heads: size(*heads),
            },
        ))
    }

    /// The base model, for a model of this sentence.
    fn build(self, sentence: &str) -> Result<Model, Msg> {
        match self {
            Base::Preset(name) => preset_named(name)
                .map(|p| (p.build)())
                .ok_or_else(|| edits::no_preset(clip(name))),
            Base::Seed(seed, dims) => {
                check_sentence(sentence).map_err(edits::in_sentence)?;
                // Words and sizes within the limits (checked above and in from_json) make a model.
                Ok(Model::seeded(sentence, dims, seed, false, Scale::SqrtDk)
                    .expect("a sentence and sizes within the limits make a model"))
            }
        }
    }
}

/// The model's `m=` value, written against the candidate base sharing the most numbers with it
/// (`seeded`, the model `manual_seed(seed)` draws at its sizes, is passed in so that a page can
/// keep it between edits), or against none.
pub fn encode_model(model: &Model, seeded: Option<(u64, &Model)>) -> String {
    let candidates = PRESETS
        .iter()
        .enumerate()
        .map(|(i, p)| (Base::Preset(p.name), built(i)))
        .chain(seeded.map(|(seed, m)| (Base::Seed(seed, m.dims()), m)));
    // A trained model's layer is written as what opens it again: no base shares its numbers.
    let candidates = candidates.filter(|_| model.layered().is_none());
    let best = candidates
        .map(|(b, m)| (shared(model, m), b, m))
        .filter(|(n, ..)| *n > 0)
        // The first of equals: max_by_key would take the last.
        .fold(None, |best: Option<(usize, Base, &Model)>, c| match best {
            Some(b) if b.0 >= c.0 => Some(b),
            _ => Some(c),
        });
    let json = state_value(model);
    let version = json["version"].clone();
    let json = match best {
        Some((_, base, base_model)) => {
            let mut out = match diff(json, &state_value(base_model)) {
                Some(Value::Object(map)) => map,
                _ => serde_json::Map::new(),
            };
            out.insert("version".into(), version);
            out.insert("base".into(), base.to_json());
            if matches!(base, Base::Seed(..)) {
                // The seeded base is drawn for the model's own sentence, and a page's copy of it
                // may differ in mask and scaling: both are written.
                out.insert("sentence".into(), Value::from(model.sentence()));
                out.insert("causal".into(), Value::from(model.causal));
                out.insert("scale".into(), Value::from(model.scale.key()));
            }
            Value::Object(out)
        }
        None => json,
    };
    base64url(&compress_to_vec(json.to_string().as_bytes(), 9))
}

/// How many numbers of `model` equal (bit for bit) the same cell of `base`.
fn shared(model: &Model, base: &Model) -> usize {
    let same = |a: &nalgebra::DMatrix<f64>, b: &nalgebra::DMatrix<f64>| {
        a.row_iter()
            .enumerate()
            .map(|(i, row)| {
                row.iter()
                    .enumerate()
                    .filter(|&(j, x)| b.get((i, j)).is_some_and(|y| y.to_bits() == x.to_bits()))
                    .count()
            })
            .sum::<usize>()
    };
    same(model.embedding(), base.embedding())
        + model
            .heads()
            .iter()
            .zip(base.heads())
            .map(|(h, b)| {
                Projection::ALL
                    .iter()
                    .map(|&p| same(&h[p], &b[p]))
                    .sum::<usize>()
            })
            .sum::<usize>()
}

/// `value` without what equals `base`: an equal field is left out, an equal array item is
/// `null`, and `None` means all of it is equal. Numbers compare bit for bit (−0.0 ≠ 0.0).
fn diff(value: Value, base: &Value) -> Option<Value> {
    match (value, base) {
        (Value::Array(items), Value::Array(base_items)) => {
            let same_length = items.len() == base_items.len();
            let items: Vec<Value> = items
                .into_iter()
                .enumerate()
                .map(|(i, v)| match base_items.get(i) {
                    Some(b) => diff(v, b).unwrap_or(Value::Null),
                    None => v,
                })
                .collect();
            (!same_length || items.iter().any(|v| !v.is_null())).then_some(Value::Array(items))
        }
        (Value::Object(map), Value::Object(base_map)) => {
            let map: serde_json::Map<String, Value> = map
                .into_iter()
                .filter_map(|(k, v)| match base_map.get(&k) {
                    Some(b) => diff(v, b).map(|v| (k, v)),
                    None => Some((k, v)),
                })
                .collect();
            (!map.is_empty()).then_some(Value::Object(map))
        }
        (Value::Number(x), Value::Number(y)) if bits(&x) == bits(y) => None,
        (v, b) if !v.is_number() && v == *b => None,
        (v, _) => Some(v),
    }
}

fn bits(n: &serde_json::Number) -> Option<u64> {
    n.as_f64().map(f64::to_bits)
}

/// Undoes [`diff`]: a missing field or a `null` takes the base's value.
fn merge(value: &mut Value, base: &Value) {
    match (value, base) {
        (v @ Value::Null, b) => *v = b.clone(),
        (Value::Array(items), Value::Array(base_items)) => {
            for (v, b) in items.iter_mut().zip(base_items) {
                merge(v, b);
            }
        }
        (Value::Object(map), Value::Object(base_map)) => {
            for (k, b) in base_map {
                match map.get_mut(k) {
                    Some(v) => merge(v, b),
                    None => {
                        map.insert(k.clone(), b.clone());
                    }
                }
            }
        }
        _ => {}
    }
}

/// Reads an `m=` value; the error says what is wrong. Bounded at every step: the text's length,
/// the inflated size (a deflate bomb stops at the longest state there can be), and a seeded base's sizes before it is drawn; the result is validated as a
/// saved state.
pub fn decode_model(text: &str) -> Result<(Model, Option<&'static str>), Msg> {
    model_of_json(decode_json(text)?)
}

/// The state an `m=` code holds, as JSON (a base not yet merged in).
pub fn decode_json(text: &str) -> Result<Value, Msg> {
    if text.len() > MAX_LINK_CHARS {
        return Err(edits::longer_than(MAX_LINK_CHARS));
    }
    let bytes = from_base64url(text)?;
    let body =
        decompress_to_vec_with_limit(&bytes, MAX_STATE_BYTES).map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
                edits::inflates_past(MAX_STATE_BYTES)
            }
            _ => edits::not_deflated.into(),
        })?;
    serde_json::from_slice(&body).map_err(edits::not_json)
}

/// The model of a state [`decode_json`] read, its base merged in, and the preset it is.
pub fn model_of_json(mut json: Value) -> Result<(Model, Option<&'static str>), Msg> {
    let Some(object) = json.as_object_mut() else {
        return Err(edits::not_an_object.into());
    };
    let base = object
        .remove("base")
        .map(|b| Base::from_json(&b))
        .transpose()?;
    if let Some(base) = base {
        let sentence = object
            .get("sentence")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let base = state_value(&base.build(sentence)?);
        let grouped = json.get("kv_heads").is_some();
        merge(&mut json, &base);
        // Grouped heads hold only their queries: the base's keys and values are not theirs.
        if let (true, Some(Value::Array(heads))) = (grouped, json.get_mut("heads")) {
            for head in heads.iter_mut().filter_map(Value::as_object_mut) {
                for key in ["w_key", "w_value", "b_key", "b_value"] {
                    head.remove(key);
                }
            }
        }
    }
    let model = read_state_value(&json).map_err(|e| edits::at_field(e.field, e.message))?;
    // The preset's name only while nothing differs from it.
    let preset = matching(&model);
    Ok((model, preset))
}
