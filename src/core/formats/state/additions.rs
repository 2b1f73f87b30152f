//! What version 2 adds to a state, each part validated against the heads already read:
//! biases, the output projection, positions and a source sentence.

use nalgebra::DMatrix;

use crate::core::i18n::keys::formats;
use crate::core::model::limits::check_sentence;
use crate::core::model::positions::{PositionKind, Positions, DEFAULT_BASE};
use crate::core::model::{Biases, Head, OutputProjection, Source};

use super::error::{error, StateError};
use super::json::{fields_of, rows_of};
use super::matrices::{bias, matrix};
use super::saved::{SavedHead, SavedSource, SavedState};
/// `source`: its sentence within the limits, a row of d_in numbers per word of its vocabulary.
pub(super) fn read_source(
    source: Option<&SavedSource>,
    d_in: usize,
) -> Result<Option<Source>, StateError> {
    let Some(saved) = source else {
        return Ok(None);
    };
    let tokens = check_sentence(&saved.sentence).map_err(|m| error("source.sentence", m))?;
    let vocab = tokens.vocabulary.len();
    if saved.embedding.len() != vocab {
        return Err(error(
            "source.embedding",
            formats::source_embedding_rows(saved.embedding.len(), vocab),
        ));
    }
    let embedding = matrix("source.embedding", &saved.embedding, None)?;
    if embedding.ncols() != d_in {
        return Err(error(
            "source.embedding",
            formats::source_width(embedding.ncols(), d_in),
        ));
    }
    Source::new(&saved.sentence, embedding)
        .map(Some)
        .map_err(|m| error("source", m))
}

/// `positions` as the state writes it; absent means none.
pub(super) fn read_positions(
    value: Option<&serde_json::Value>,
    n: usize,
    d_in: usize,
) -> Result<Positions, StateError> {
    let Some(value) = value else {
        return Ok(Positions::None);
    };
    let at = |f: &str| format!("positions.{f}");
    let object = fields_of(value, "positions.", &["kind", "base", "learned"])?;
    let kind = object
        .get("kind")
        .and_then(|k| k.as_str())
        .ok_or_else(|| error(at("kind"), formats::kind_missing(PositionKind::names())))?;
    let kind = PositionKind::named(kind).map_err(|e| error(at("kind"), e))?;
    let base = match object.get("base") {
        None => DEFAULT_BASE,
        Some(b) => b
            .as_f64()
            .ok_or_else(|| error(at("base"), formats::must_be_number))?,
    };
    if kind == PositionKind::Learned {
        let rows = object
            .get("learned")
            .ok_or_else(|| error(at("learned"), formats::learned_missing))
            .and_then(|l| rows_of(l, &at("learned")))?;
        if rows.len() != n {
            return Err(error(at("learned"), formats::learned_rows(rows.len(), n)));
        }
        let table = matrix(&at("learned"), &rows, None)?;
        if table.ncols() != d_in {
            return Err(error(
                at("learned"),
                formats::learned_width(table.ncols(), d_in),
            ));
        }
        return Ok(Positions::Learned(table));
    }
    Positions::of_kind(kind, base, 0, n, d_in).map_err(|e| error(at("base"), e))
}

/// A head's biases: all three or none, each as wide as its projection.
pub(super) fn read_biases(
    field: &dyn Fn(&str) -> String,
    saved: &SavedHead,
    w_query: &DMatrix<f64>,
    w_value: &DMatrix<f64>,
) -> Result<Option<Biases>, StateError> {
    let given = [&saved.b_query, &saved.b_key, &saved.b_value];
    if given.iter().all(|b| b.is_none()) {
        return Ok(None);
    }
    let (d_k, d_v) = (w_query.ncols(), w_value.ncols());
    let mut rows = Vec::with_capacity(3);
    for (b, (name, width, size)) in given.into_iter().zip([
        ("b_query", d_k, "d_k"),
        ("b_key", d_k, "d_k"),
        ("b_value", d_v, "d_v"),
    ]) {
        let field = field(name);
        let b = b
            .as_ref()
            .ok_or_else(|| error(&field, formats::biases_missing))?;
        rows.push(bias(&field, b, width, size)?);
    }
    let [b_query, b_key, b_value] = <[DMatrix<f64>; 3]>::try_from(rows).expect("three biases");
    Ok(Some(Biases {
        b_query,
        b_key,
        b_value,
    }))
}

/// `w_output` (one row per concatenated column) and its optional `b_output`.
pub(super) fn read_output(
    state: &SavedState,
    heads: &[Head],
) -> Result<Option<OutputProjection>, StateError> {
    let Some(w) = &state.w_output else {
        return match state.b_output {
            Some(_) => Err(error("b_output", formats::b_output_alone)),
            None => Ok(None),
        };
    };
    let width: usize = heads.iter().map(Head::d_v).sum();
    if w.len() != width {
        return Err(error("w_output", formats::w_output_rows(w.len(), width)));
    }
    let w_output = matrix("w_output", w, None)?;
    let b_output = state
        .b_output
        .as_ref()
        .map(|b| bias("b_output", b, w_output.ncols(), formats::w_output_width))
        .transpose()?;
    Ok(Some(OutputProjection { w_output, b_output }))
}
