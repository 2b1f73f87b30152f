//! Reading numbers the way a learner types or pastes them: one cell at a time, or a block copied
//! from a spreadsheet or a printed tensor.

use super::state::MAX_ABS_VALUE;

/// What a cell's text means while it is being typed.
#[derive(Clone, Debug, PartialEq)]
pub enum CellText {
    /// A number to use now.
    Number(f64),
    /// The start of a number ("-", "1e-", "."): keep typing; nothing is committed yet.
    Incomplete,
    /// Not a number, or out of range; the message says why.
    Invalid(String),
}

/// Classifies a cell's text. Accepts what Rust and Python print ("1e-3", "−2" with a Unicode minus,
/// "0.5000"), never NaN or infinity.
pub fn read_cell(text: &str) -> CellText {
    let t = text.trim().replace('−', "-");
    if t.is_empty() || is_number_prefix(&t) && t.parse::<f64>().is_err() {
        return CellText::Incomplete;
    }
    match t.parse::<f64>() {
        Ok(x)
            if !t
                .chars()
                .any(|c| c.is_ascii_alphabetic() && c != 'e' && c != 'E') =>
        {
            if x.abs() <= MAX_ABS_VALUE {
                CellText::Number(x)
            } else {
                CellText::Invalid(format!(
                    "{t} is too large: use a number between −1e6 and 1e6"
                ))
            }
        }
        _ => CellText::Invalid(format!("“{}” is not a number", text.trim())),
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
/// `grad_fn=...` are ignored. Returns an error naming the first word that is not a number.
pub fn read_block(text: &str) -> Result<Vec<Vec<f64>>, String> {
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
    let mut out = Vec::new();
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
                    return Err(format!("“{word}” is not a number"))
                }
            }
        }
        if !numbers.is_empty() {
            out.push(numbers);
        }
    }
    if out.is_empty() {
        return Err("the pasted text holds no numbers".into());
    }
    Ok(out)
}
