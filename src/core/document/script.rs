//! The rules of the scripting API (`window.attentionExplorer` in the page): what an `edit` call
//! may change, checked here so that a script gets the same answers as a learner typing.

use crate::core::document::numbers::{read_cell, CellText};
use crate::core::i18n::keys::edits;
use crate::core::i18n::Msg;
use crate::core::model::{Editable, Model};

/// The matrix a scripted `edit(matrix, head, row, col, value)` call names, and the position in
/// it, or the message the script gets back. Indices arrive as JavaScript numbers, so fractions,
/// negatives and NaN are refused here too; `head` is ignored for the embedding.
pub fn locate_edit(
    model: &Model,
    matrix: &str,
    head: f64,
    row: f64,
    col: f64,
    value: f64,
) -> Result<(Editable, usize, usize), String> {
    let named = Editable::EVERY
        .into_iter()
        .find(|e| e.key() == matrix)
        .ok_or_else(|| {
            let names: Vec<&str> = Editable::EVERY.iter().map(|e| e.key()).collect();
            format!(
                "there is no editable matrix “{matrix}”: use {}",
                names.join(", ")
            )
        })?;
    let target = match named.head() {
        Some(_) => named.in_head(index(head, "head", model.heads().len())?),
        None => named,
    };
    let (rows, cols) = model.matrix(target).map(|m| m.shape()).ok_or_else(|| {
        format!("this model has no {matrix}: turn on its biases or output projection first")
    })?;
    let row = index(row, "row", rows)?;
    let col = index(col, "column", cols)?;
    check_value(value).map_err(|e| e.english())?;
    Ok((target, row, col))
}

/// A whole number in `0..len`.
fn index(x: f64, what: &str, len: usize) -> Result<usize, String> {
    if x.fract() == 0.0 && x >= 0.0 && x < len as f64 {
        Ok(x as usize)
    } else {
        Err(format!(
            "{what} {x} is out of range: use a whole number from 0 to {}",
            len.saturating_sub(1)
        ))
    }
}

/// A number a cell accepts: finite and within the saved state's limits, as when typed.
pub fn check_value(value: f64) -> Result<f64, Msg> {
    if !value.is_finite() {
        // Named as JavaScript prints them: the caller is a script.
        let name = match value {
            v if v.is_nan() => "NaN",
            v if v > 0.0 => "Infinity",
            _ => "-Infinity",
        };
        return Err(edits::not_finite(name));
    }
    match read_cell(&value.to_string()) {
        CellText::Number(x) => Ok(x),
        CellText::Invalid(message) => Err(message),
        CellText::Incomplete => Err(edits::not_number(value)),
    }
}
