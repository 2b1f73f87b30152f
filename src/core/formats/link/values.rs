//! A link parameter's value read and written: indices, flags, step names, faces, sampling
//! settings, and the query's and fragment's pairs.

use super::page::{FaceChoice, Link};
use crate::core::decoder::Sampling;
use crate::core::model::limits::MAX_HEADS;
use crate::core::model::Matrix;
use crate::core::text::clip;
use crate::core::views::heatmap::Face;
use crate::core::views::pipeline::{in_order, Step};

/// Most entries a list parameter (`steps`, `hide`, `faces`) may hold.
const MAX_LIST: usize = 64;

/// A sampling setting read from `text` into the link's, if the setting it makes can be used.
pub(super) fn sampling(
    l: &mut Link,
    text: &str,
    set: fn(&mut Sampling, f64),
) -> Result<(), String> {
    let x = text
        .parse::<f64>()
        .map_err(|_| format!("“{}” is not a number", clip(text)))?;
    let mut s = l.shown.choosing.sampling;
    set(&mut s, x);
    l.shown.choosing.sampling = s.checked().map_err(|e| e.english())?;
    Ok(())
}

pub(super) fn index(text: &str, count: usize, what: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(i) if i < count => Ok(i),
        _ => Err(format!(
            "use a {what} from 0 to {}",
            count.saturating_sub(1)
        )),
    }
}

pub(super) fn flag(text: &str) -> Result<bool, String> {
    match text {
        "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err("use 1 or 0".into()),
    }
}

/// The step called `name`; the error lists the names there are.
pub(super) fn step_named(name: &str) -> Result<Step, String> {
    Step::from_key(name).ok_or_else(|| {
        format!(
            "there is no step “{}” to show (use {})",
            clip(name),
            step_names(&Step::ALL)
        )
    })
}

/// Comma-separated step names, returned in pipeline order without repeats.
pub(super) fn step_list(text: &str) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    for name in text.split(',').filter(|s| !s.is_empty()).take(MAX_LIST) {
        let step = step_named(name)?;
        steps.push(step);
    }
    Ok(in_order(|s| steps.contains(&s)))
}

/// Steps as `steps=` and `hide=` write them.
pub fn step_names(steps: &[Step]) -> String {
    steps.iter().map(|s| s.key()).collect::<Vec<_>>().join(",")
}

/// The name of a face in `faces=`.
pub(super) fn face_key(face: Face) -> &'static str {
    match face {
        Face::Numbers => "numbers",
        Face::Heatmap => "heatmap",
        Face::Gradient => "gradient",
    }
}

/// `faces=weights.0:heatmap,embedding:numbers`: a matrix (and head), then its face.
pub(super) fn faces(text: &str) -> Result<Vec<FaceChoice>, String> {
    text.split(',')
        .filter(|s| !s.is_empty())
        .take(MAX_LIST)
        .map(|entry| {
            let bad = || {
                format!(
                    "“{}” is not MATRIX[.HEAD]:numbers|heatmap|gradient",
                    clip(entry)
                )
            };
            let (matrix, face) = entry.split_once(':').ok_or_else(bad)?;
            let face = [Face::Numbers, Face::Heatmap, Face::Gradient]
                .into_iter()
                .find(|f| face_key(*f) == face)
                .ok_or_else(bad)?;
            let (name, head) = match matrix.split_once('.') {
                Some((name, h)) => (name, Some(index(h, MAX_HEADS, "head")?)),
                None => (matrix, None),
            };
            let matrix = Matrix::named(name)
                .ok_or_else(|| format!("there is no matrix “{}”", clip(name)))?;
            Ok((matrix, head, face))
        })
        .collect()
}

/// `k=v&k=v` as a form decodes it (`+` is a space, `%XX` a byte), in order.
pub fn pairs(text: &str) -> Vec<(String, String)> {
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
pub fn pairs_of_fragment(text: &str) -> Vec<(String, String)> {
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
