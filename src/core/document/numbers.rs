//! Reading numbers the way a learner types or pastes them: one cell at a time, or a block copied
//! from a spreadsheet or a printed tensor.

use crate::core::i18n::keys::{edits, settings};
use crate::core::i18n::Msg;
use crate::core::model::limits::{MAX_ABS_VALUE, MAX_DIM};

/// The longest paste read: room for the largest matrix (MAX_DIM × MAX_DIM numbers) printed with
/// every digit and padded as PyTorch pads. Anything longer is refused at once, unread.
pub const MAX_PASTE_CHARS: usize = MAX_DIM * MAX_DIM * 40;

/// What a cell's text means while it is being typed.
#[derive(Clone, Debug, PartialEq)]
pub enum CellText {
    /// A number to use now.
    Number(f64),
    /// The start of a number ("-", "1e-", "."): keep typing; nothing is committed yet.
    Incomplete,
    /// Not a number, or out of range; the message says why.
    Invalid(Msg),
}

/// Classifies a cell's text. Accepts what Rust and Python print ("1e-3", "−2" with a Unicode minus,
/// "0.5000"), never NaN or infinity.
pub fn read_cell(text: &str) -> CellText {
    let t = text.trim().replace('−', "-");
    if t.is_empty() || is_number_prefix(&t) && t.parse::<f64>().is_err() {
        return CellText::Incomplete;
    }
    let shown = quoted_msg(text.trim());
    match decimal(&t) {
        Some(x) if x.abs() <= MAX_ABS_VALUE => CellText::Number(x),
        Some(_) => CellText::Invalid(edits::too_large(shown)),
        // Only a name ("inf", "NaN") parses where `decimal` does not.
        None if t.parse::<f64>().is_ok() => CellText::Invalid(edits::not_finite(shown)),
        None if t.matches(',').count() == 1 && t.replace(',', ".").parse::<f64>().is_ok() => {
            CellText::Invalid(edits::decimal_comma(shown, t.replace(',', ".")))
        }
        None => CellText::Invalid(edits::not_number(shown)),
    }
}

/// Reads a size field (d_in, heads, …): a whole number from `min` to `max`, or a message that
/// names the allowed range. "4", " 4 " and "4.0" are 4; "1e2" is 100.
pub fn whole(text: &str, min: u64, max: u64) -> Result<u64, Msg> {
    let t = text.trim().replace('−', "-");
    if t.is_empty() {
        return Err(settings::whole_empty(min, max));
    }
    let shown = quoted_msg(&t);
    let out_of_range = || Err(settings::whole_out_of_range(shown.clone(), min, max));
    let not_whole = || Err(settings::not_whole(shown.clone(), min, max));
    // Digits alone are read exactly (a seed may need all 64 bits); "4.0" and "1e2" go through f64.
    if let Ok(n) = t.parse::<u64>() {
        return if (min..=max).contains(&n) {
            Ok(n)
        } else {
            out_of_range()
        };
    }
    match decimal(&t) {
        // Infinity's fraction is NaN: "1e309" is not a whole number either.
        Some(x) if x.fract() != 0.0 => not_whole(),
        Some(x) if x < min as f64 || x > max as f64 => out_of_range(),
        Some(x) => Ok(x as u64),
        None => not_whole(),
    }
}

/// `t` read as a decimal number ("1.5", "-2e3", "1e309" as infinity), refusing the names Rust's
/// parser also takes ("inf", "infinity", "NaN"): no letter but an exponent's.
fn decimal(t: &str) -> Option<f64> {
    let named = t
        .chars()
        .any(|c| c.is_ascii_alphabetic() && !matches!(c, 'e' | 'E'));
    if named {
        None
    } else {
        t.parse().ok()
    }
}

/// Text quoted for a message, cut short so that a pasted essay does not fill the page.
fn quoted_msg(text: &str) -> Msg {
    const SHOWN: usize = 24;
    let count = text.chars().count();
    if count <= SHOWN {
        settings::quoted(text)
    } else {
        settings::quoted_cut(text.chars().take(SHOWN).collect::<String>(), count)
    }
}

/// True for text that could still grow into a number: sign, digits, one dot, one exponent.
fn is_number_prefix(t: &str) -> bool {
    let t = t.strip_prefix(['-', '+']).unwrap_or(t);
    let (mantissa, exponent) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    let mantissa_ok = mantissa.chars().filter(|&c| c == '.').count() <= 1
        && mantissa.chars().all(|c| c.is_ascii_digit() || c == '.');
    let exponent_ok = exponent.is_none_or(|e| {
        let digits = e.strip_prefix(['-', '+']).unwrap_or(e);
        mantissa.chars().any(|c| c.is_ascii_digit()) && digits.chars().all(|c| c.is_ascii_digit())
    });
    mantissa_ok && exponent_ok
}

/// A pasted block as rows of numbers. Rows are lines (or a printed tensor's `[...]` groups);
/// numbers are separated by tabs, commas, semicolons or spaces. `tensor(`, brackets and
/// `grad_fn=...` are ignored. The block must be rectangular; the error names the first word that
/// is not a number, or the first row of another length.
pub fn read_block(text: &str) -> Result<Vec<Vec<f64>>, Msg> {
    if text.len() > MAX_PASTE_CHARS {
        return Err(edits::paste_too_long(text.len(), MAX_PASTE_CHARS));
    }
    let cleaned = text.replace("tensor(", " ").replace('−', "-");
    // A printed tensor puts each row in brackets; a spreadsheet puts each row on a line.
    let rows: Vec<&str> = if cleaned.contains('[') {
        cleaned
            .split(['[', ']'])
            .filter(|r| r.chars().any(|c| c.is_ascii_digit()))
            .collect()
    } else {
        cleaned.lines().collect()
    };
    let mut out: Vec<Vec<f64>> = Vec::new();
    for row in rows {
        let mut numbers = Vec::new();
        for word in row
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')'))
            .filter(|w| !w.is_empty())
        {
            if word.starts_with("grad_fn")
                || word.starts_with("dtype")
                || word.starts_with("device")
                || word.starts_with("requires_grad")
            {
                break;
            }
            match read_cell(word) {
                CellText::Number(x) => numbers.push(x),
                CellText::Incomplete | CellText::Invalid(_) => {
                    return Err(edits::not_number(quoted_msg(word)))
                }
            }
        }
        if let Some(first) = out.first() {
            if !numbers.is_empty() && numbers.len() != first.len() {
                return Err(edits::not_rectangular(
                    out.len() + 1,
                    numbers.len(),
                    first.len(),
                ));
            }
        }
        if !numbers.is_empty() {
            out.push(numbers);
        }
    }
    if out.is_empty() {
        return Err(edits::paste_no_numbers.into());
    }
    Ok(out)
}
