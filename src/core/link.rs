//! The page's URL: what a link opens (the model, what is shown, embed options) and how the page
//! writes its state back into the fragment. [`read_link`] is total: any text gives a [`Link`],
//! with a message for each part it refused.
//!
//! The model travels as `m=` in the fragment: the saved state (version 1) as JSON in which every
//! number equal to the same cell of a *base* model is `null`, raw-deflated and base64url-encoded.
//! The base is named in the JSON (`"base": "dog"` for a preset, `"base": 123` for the model
//! `torch.manual_seed(123)` draws for this sentence and these sizes), so an edited preset or a
//! seeded model costs little more than its edits. Old `#state=JSON` links keep opening.

use std::sync::OnceLock;

use miniz_oxide::deflate::compress_to_vec;
use miniz_oxide::inflate::decompress_to_vec_with_limit;
use serde_json::Value;

use super::heatmap::Face;
use super::model::{Dims, Model, Projection, Scale};
use super::presets::PRESETS;
use super::state::{
    check_sentence, read_state, read_state_value, state_value, write_state, MAX_DIM, MAX_HEADS,
    MAX_STATE_BYTES, STATE_VERSION,
};

/// Chrome's limit for a whole URL; a longer link is refused before anything is decoded.
pub const MAX_LINK_CHARS: usize = 2 << 20;
/// Most entries a list parameter (`steps`, `hide`, `faces`) may hold.
const MAX_LIST: usize = 64;
/// The most decimals the page shows.
pub const MAX_DECIMALS: usize = 12;

/// The steps' names in `?steps=`, `hide=` and each section's id, in pipeline order.
pub const STEP_KEYS: [&str; 10] = [
    "sentence",
    "embedding",
    "projections",
    "qkv",
    "scores",
    "scale",
    "mask",
    "weights",
    "context",
    "output",
];

/// Every matrix the page shows (its `data-matrix`), for `faces=`.
pub const MATRIX_NAMES: [&str; 16] = [
    "embedding",
    "embedded",
    "w_query",
    "w_key",
    "w_value",
    "queries",
    "keys",
    "values",
    "scores",
    "scaled_scores",
    "masked_scores",
    "masked_weights_simple",
    "masked_weights_renormalized",
    "weights",
    "context",
    "output",
];

/// What the learner sees besides the model; the page writes it back into the fragment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shown {
    /// The followed token.
    pub focus: Option<usize>,
    /// The head shown when one head is shown at a time.
    pub head: Option<usize>,
    /// Decimals in the tables.
    pub decimals: Option<usize>,
    /// Steps the learner hid (indices into [`STEP_KEYS`]), in pipeline order.
    pub hidden: Vec<usize>,
    /// The face chosen for a matrix (name, head), in the order chosen.
    pub faces: Vec<(&'static str, Option<usize>, Face)>,
}

/// What the learner may change in an embedded page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Controls {
    /// No settings bar (cells stay editable).
    #[default]
    None,
    /// Sizes, mask, scaling and decimals.
    Dims,
    /// Every setting, as on the full page.
    All,
}

/// The colour scheme asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// The system's light or dark mode.
    #[default]
    Auto,
    Light,
    Dark,
}

/// Everything a link asks for, already checked.
#[derive(Clone, Debug)]
pub struct Link {
    /// The model to open: the link's, else the default preset.
    pub model: Model,
    /// The preset the model is, unedited (the default one when the link names no model).
    pub preset: Option<&'static str>,
    /// Whether the link carried a model (`m`, `state` or `preset`).
    pub carries_model: bool,
    pub shown: Shown,
    /// `embed=1` (or the older `view=STEP`): no header or intro, for course pages.
    pub embed: bool,
    /// The steps shown (indices into [`STEP_KEYS`], pipeline order); all when `None`.
    pub steps: Option<Vec<usize>>,
    /// `controls=`, if given (see [`Link::controls`]).
    pub controls: Option<Controls>,
    pub theme: Theme,
    /// `walk=1`: open in the guided walk.
    pub walk: bool,
    /// One sentence per refused part, for the page to show.
    pub messages: Vec<String>,
}

/// Reads a page's URL: `search` is `location.search` (with or without its `?`), `hash` is
/// `location.hash` (with or without its `#`). Fragment values win over query values.
pub fn read_link(search: &str, hash: &str) -> Link {
    let default = &PRESETS[0];
    let mut link = Link {
        model: (default.build)(),
        preset: Some(default.name),
        carries_model: false,
        shown: Shown::default(),
        embed: false,
        steps: None,
        controls: None,
        theme: Theme::Auto,
        walk: false,
        messages: Vec::new(),
    };
    if search.len() + hash.len() > MAX_LINK_CHARS {
        link.messages.push(format!(
            "The link is longer than {MAX_LINK_CHARS} characters and was not read; showing the default example."
        ));
        return link;
    }
    let mut pairs = pairs(search.strip_prefix('?').unwrap_or(search));
    pairs.extend(pairs_of_fragment(hash.strip_prefix('#').unwrap_or(hash)));
    let last = |key: &str| {
        pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };

    // The model first: the other parameters are checked against it.
    let model = if let Some(m) = last("m") {
        Some(decode_model(m))
    } else if let Some(json) = last("state") {
        Some(
            read_state(json)
                .map(|m| (m, None))
                .map_err(|e| e.to_string()),
        )
    } else if let Some(name) = last("preset") {
        let found = preset_named(name);
        if found.is_none() {
            link.messages.push(format!(
                "There is no preset “{}” (try {}); showing the default example.",
                clip(name),
                preset_names()
            ));
        }
        found.map(|p| Ok(((p.build)(), Some(p.name))))
    } else {
        None
    };
    match model {
        Some(Ok((model, preset))) => {
            link.model = model;
            link.preset = preset;
            link.carries_model = true;
        }
        Some(Err(e)) => link.messages.push(format!(
            "The link's state could not be read ({e}); showing the default example."
        )),
        None => {}
    }

    for (key, value) in &pairs {
        let Some(param) = PARAMS.iter().find(|p| p.name == key) else {
            let known: Vec<_> = PARAMS.iter().map(|p| p.name).collect();
            link.messages.push(format!(
                "The link's parameter “{}” is unknown (known: {}); ignored.",
                clip(key),
                known.join(", ")
            ));
            continue;
        };
        if let Err(e) = (param.read)(&mut link, value) {
            link.messages.push(format!(
                "The link's {key}=“{}” was ignored: {e}.",
                clip(value)
            ));
        }
    }
    link
}

/// A URL parameter: its name and how it is read into a [`Link`].
struct Param {
    name: &'static str,
    read: fn(&mut Link, &str) -> Result<(), String>,
}

/// Every parameter a link may carry, in the query or the fragment.
const PARAMS: [Param; 14] = [
    // The model: read before the others (see read_link).
    Param {
        name: "m",
        read: |_, _| Ok(()),
    },
    Param {
        name: "state",
        read: |_, _| Ok(()),
    },
    Param {
        name: "preset",
        read: |_, _| Ok(()),
    },
    Param {
        name: "focus",
        read: |l, v| {
            l.shown.focus = Some(index(v, l.model.tokens().len(), "token")?);
            Ok(())
        },
    },
    Param {
        name: "head",
        read: |l, v| {
            l.shown.head = Some(index(v, l.model.heads().len(), "head")?);
            Ok(())
        },
    },
    Param {
        name: "decimals",
        read: |l, v| {
            l.shown.decimals = Some(index(v, MAX_DECIMALS + 1, "number of decimals")?);
            Ok(())
        },
    },
    Param {
        name: "hide",
        read: |l, v| {
            l.shown.hidden = step_list(v)?;
            Ok(())
        },
    },
    Param {
        name: "faces",
        read: |l, v| {
            l.shown.faces = faces(v)?;
            Ok(())
        },
    },
    Param {
        name: "embed",
        read: |l, v| {
            l.embed = flag(v)?;
            Ok(())
        },
    },
    Param {
        name: "steps",
        read: |l, v| {
            l.steps = Some(step_list(v)?).filter(|s| !s.is_empty());
            Ok(())
        },
    },
    // The older single-step embed: `view=STEP` is `embed=1&steps=STEP`.
    Param {
        name: "view",
        read: |l, v| {
            l.steps = Some(step_list(v)?);
            l.embed = true;
            Ok(())
        },
    },
    Param {
        name: "controls",
        read: |l, v| {
            l.controls = Some(match v {
                "none" => Controls::None,
                "dims" => Controls::Dims,
                "all" => Controls::All,
                _ => return Err("use none, dims or all".into()),
            });
            Ok(())
        },
    },
    Param {
        name: "theme",
        read: |l, v| {
            l.theme = match v {
                "auto" => Theme::Auto,
                "light" => Theme::Light,
                "dark" => Theme::Dark,
                _ => return Err("use light, dark or auto".into()),
            };
            Ok(())
        },
    },
    Param {
        name: "walk",
        read: |l, v| {
            l.walk = flag(v)?;
            Ok(())
        },
    },
];

impl Link {
    /// The controls to show: `controls=` if given, else all on the full page and none embedded.
    pub fn controls(&self) -> Controls {
        self.controls.unwrap_or(if self.embed {
            Controls::None
        } else {
            Controls::All
        })
    }
}

fn preset_named(name: &str) -> Option<&'static super::presets::Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

fn preset_names() -> String {
    PRESETS
        .iter()
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// At most 40 characters of a value, for a message.
fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

fn index(text: &str, count: usize, what: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(i) if i < count => Ok(i),
        _ => Err(format!(
            "use a {what} from 0 to {}",
            count.saturating_sub(1)
        )),
    }
}

fn flag(text: &str) -> Result<bool, String> {
    match text {
        "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err("use 1 or 0".into()),
    }
}

/// Comma-separated step names, returned in pipeline order without repeats.
fn step_list(text: &str) -> Result<Vec<usize>, String> {
    let mut steps = Vec::new();
    for name in text.split(',').filter(|s| !s.is_empty()).take(MAX_LIST) {
        let i = STEP_KEYS.iter().position(|k| *k == name).ok_or_else(|| {
            format!(
                "there is no step “{}” to show (use {})",
                clip(name),
                STEP_KEYS.join(", ")
            )
        })?;
        steps.push(i);
    }
    steps.sort_unstable();
    steps.dedup();
    Ok(steps)
}

/// The name of a face in `faces=`.
fn face_key(face: Face) -> &'static str {
    match face {
        Face::Numbers => "numbers",
        Face::Heatmap => "heatmap",
    }
}

/// `faces=weights.0:heatmap,embedding:numbers`: a matrix (and head), then its face.
fn faces(text: &str) -> Result<Vec<(&'static str, Option<usize>, Face)>, String> {
    text.split(',')
        .filter(|s| !s.is_empty())
        .take(MAX_LIST)
        .map(|entry| {
            let bad = || format!("“{}” is not MATRIX[.HEAD]:numbers|heatmap", clip(entry));
            let (matrix, face) = entry.split_once(':').ok_or_else(bad)?;
            let face = [Face::Numbers, Face::Heatmap]
                .into_iter()
                .find(|f| face_key(*f) == face)
                .ok_or_else(bad)?;
            let (name, head) = match matrix.split_once('.') {
                Some((name, h)) => (name, Some(index(h, MAX_HEADS, "head")?)),
                None => (matrix, None),
            };
            let name = MATRIX_NAMES
                .iter()
                .find(|n| **n == name)
                .ok_or_else(|| format!("there is no matrix “{}”", clip(name)))?;
            Ok((*name, head, face))
        })
        .collect()
}

/// The fragment the page writes: the model (`m`, from [`encode_model`]) and what is shown.
pub fn write_fragment(model: &str, shown: &Shown) -> String {
    let mut parts = vec![format!("m={model}")];
    if let Some(i) = shown.focus {
        parts.push(format!("focus={i}"));
    }
    if let Some(h) = shown.head {
        parts.push(format!("head={h}"));
    }
    if let Some(d) = shown.decimals {
        parts.push(format!("decimals={d}"));
    }
    if !shown.hidden.is_empty() {
        parts.push(format!("hide={}", step_names(&shown.hidden)));
    }
    if !shown.faces.is_empty() {
        let faces: Vec<String> = shown
            .faces
            .iter()
            .map(|(name, head, face)| match head {
                Some(h) => format!("{name}.{h}:{}", face_key(*face)),
                None => format!("{name}:{}", face_key(*face)),
            })
            .collect();
        parts.push(format!("faces={}", faces.join(",")));
    }
    parts.join("&")
}

/// Step indices as `steps=` writes them.
pub fn step_names(steps: &[usize]) -> String {
    steps
        .iter()
        .filter_map(|&i| STEP_KEYS.get(i).copied())
        .collect::<Vec<_>>()
        .join(",")
}

/// `k=v&k=v` as a form decodes it (`+` is a space, `%XX` a byte), in order.
fn pairs(text: &str) -> Vec<(String, String)> {
    text.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (form_decode(k), form_decode(v))
        })
        .collect()
}

/// The fragment's pairs; a fragment that is not `k=v` pairs (a step's anchor, `#step-scores`)
/// carries no parameters.
fn pairs_of_fragment(text: &str) -> Vec<(String, String)> {
    if text.contains('=') {
        pairs(text)
    } else {
        Vec::new()
    }
}

fn form_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

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
    fn from_json(value: &Value) -> Result<Base, String> {
        if let Some(name) = value.as_str() {
            return preset_named(name)
                .map(|p| Base::Preset(p.name))
                .ok_or_else(|| format!("base: there is no preset “{}”", clip(name)));
        }
        let numbers: Option<Vec<u64>> = value
            .as_array()
            .filter(|a| a.len() == 5)
            .and_then(|a| a.iter().map(Value::as_u64).collect());
        let [seed, d_in, d_k, d_v, heads] = numbers.as_deref().unwrap_or_default() else {
            return Err("base: expected a preset's name or [seed, d_in, d_k, d_v, heads]".into());
        };
        let within = |n: u64, max: usize| (1..=max as u64).contains(&n);
        if ![d_in, d_k, d_v].iter().all(|&&d| within(d, MAX_DIM)) || !within(*heads, MAX_HEADS) {
            return Err(format!(
                "base: sizes must be 1 to {MAX_DIM} and heads 1 to {MAX_HEADS}"
            ));
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
    fn build(self, sentence: &str) -> Result<Model, String> {
        match self {
            Base::Preset(name) => preset_named(name)
                .map(|p| (p.build)())
                .ok_or_else(|| format!("there is no preset “{}”", clip(name))),
            Base::Seed(seed, dims) => {
                check_sentence(sentence).map_err(|e| format!("sentence: {e}"))?;
                Model::seeded(sentence, dims, seed, false, Scale::SqrtDk)
            }
        }
    }
}

/// The model's `m=` value, written against the candidate base sharing the most numbers with it
/// (`seeded`, the model `manual_seed(seed)` draws at its sizes, is passed in so that a page can
/// keep it between edits), or against none.
pub fn encode_model(model: &Model, seeded: Option<(u64, &Model)>) -> String {
    // Built once: the Raschka presets draw 150 000 numbers each, and a page writes its link
    // after every pause in editing.
    static PRESET_MODELS: OnceLock<Vec<(Base, Model)>> = OnceLock::new();
    let presets = PRESET_MODELS.get_or_init(|| {
        PRESETS
            .iter()
            .map(|p| (Base::Preset(p.name), (p.build)()))
            .collect()
    });
    let candidates = presets
        .iter()
        .map(|(b, m)| (*b, m))
        .chain(seeded.map(|(seed, m)| (Base::Seed(seed, m.dims()), m)));
    let best = candidates
        .map(|(b, m)| (shared(model, m), b, m))
        .filter(|(n, ..)| *n > 0)
        // The first of equals: max_by_key would take the last.
        .fold(None, |best: Option<(usize, Base, &Model)>, c| match best {
            Some(b) if b.0 >= c.0 => Some(b),
            _ => Some(c),
        });
    let json = state_value(model);
    let json = match best {
        Some((_, base, base_model)) => {
            let mut out = match diff(json, &state_value(base_model)) {
                Some(Value::Object(map)) => map,
                _ => serde_json::Map::new(),
            };
            out.insert("version".into(), Value::from(STATE_VERSION));
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
pub fn decode_model(text: &str) -> Result<(Model, Option<&'static str>), String> {
    if text.len() > MAX_LINK_CHARS {
        return Err(format!("longer than {MAX_LINK_CHARS} characters"));
    }
    let bytes = from_base64url(text)?;
    let body =
        decompress_to_vec_with_limit(&bytes, MAX_STATE_BYTES).map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
                format!("it inflates to more than {MAX_STATE_BYTES} bytes")
            }
            _ => "it is not deflated data: the link may be cut short".into(),
        })?;
    let mut json: Value =
        serde_json::from_slice(&body).map_err(|e| format!("its state is not valid JSON ({e})"))?;
    let Some(object) = json.as_object_mut() else {
        return Err("its state is not a JSON object".into());
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
        merge(&mut json, &base);
    }
    let model = read_state_value(&json).map_err(|e| e.to_string())?;
    // The preset's name only while nothing differs from it.
    let preset = match base {
        Some(Base::Preset(name)) => preset_named(name)
            .filter(|p| write_state(&(p.build)()) == write_state(&model))
            .map(|p| p.name),
        _ => None,
    };
    Ok((model, preset))
}

const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Base64url without padding (RFC 4648 §5): safe in a URL's fragment as it is.
pub fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(BASE64URL[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// Reads [`base64url`] (padding tolerated); the error names the first bad character.
pub fn from_base64url(text: &str) -> Result<Vec<u8>, String> {
    let text = text.trim_end_matches('=');
    if text.len() % 4 == 1 {
        return Err("its data is cut short (not base64url)".into());
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    for chunk in text.as_bytes().chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            let v = match c {
                b'A'..=b'Z' => c - b'A',
                b'a'..=b'z' => c - b'a' + 26,
                b'0'..=b'9' => c - b'0' + 52,
                b'-' => 62,
                b'_' => 63,
                _ => {
                    return Err(format!(
                        "“{}” is not a base64url character",
                        char::from(c).escape_default()
                    ))
                }
            };
            n |= (v as u32) << (18 - 6 * i);
        }
        out.extend((0..chunk.len() - 1).map(|i| (n >> (16 - 8 * i)) as u8));
    }
    Ok(out)
}
