//! How numbers and values read in messages: a fixed number of decimals without "-0", a number
//! of significant digits, a value clipped for a message.

/// A number with `precision` decimals, −∞ as "−∞", never "-0.00".
pub fn fmt(x: f64, precision: usize) -> String {
    if x == f64::NEG_INFINITY {
        return "−∞".into();
    }
    let s = fixed(x, precision).unwrap_or_else(|| format!("{x:.precision$}"));
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_owned()
    } else {
        s
    }
}

/// `x` with `precision` decimals as `{x:.precision$}` writes it, by rounding `x` scaled to an
/// integer, or `None` where that could differ: a number too large, or scaled too near half-way
/// between two integers. The standard library's exact algorithm took a tenth of an edit's time.
fn fixed(x: f64, precision: usize) -> Option<String> {
    use std::fmt::Write;
    let places = u32::try_from(precision).ok().filter(|&p| p <= 9)?;
    let scaled = x.abs() * 10f64.powi(places as i32);
    // Below 1e9 the product's rounding error is under 1e-7, far inside the tie's margin.
    if scaled.is_nan() || scaled >= 1e9 || (scaled.fract() - 0.5).abs() < 1e-6 {
        return None;
    }
    let rounded = scaled.round() as u64;
    let unit = 10u64.pow(places);
    let mut s = String::with_capacity(24);
    if x.is_sign_negative() {
        s.push('-');
    }
    write!(s, "{}", rounded / unit).ok()?;
    if places > 0 {
        write!(s, ".{:0width$}", rounded % unit, width = precision).ok()?;
    }
    Some(s)
}

/// A gradient: three significant digits in powers of ten (`1.63e-5`, `-2.50e-1`), whatever
/// its size (a table's decimals would write 1.6e-5 as 0.0000); zero as "0", never "-0".
pub fn fmt_scientific(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else {
        format!("{x:.2e}")
    }
}

/// `x` to `digits` significant digits, in scientific notation outside 0.001 … 100 000
/// (`0.9907`, `63.40`, `1.110e-16`); NaN as "NaN".
pub fn fmt_significant(x: f64, digits: usize) -> String {
    let digits = digits.max(1);
    if x == 0.0 {
        // Never "-0".
        return "0".into();
    }
    if !x.is_finite() {
        return format!("{x}");
    }
    let magnitude = x.abs().log10().floor();
    if (-3.0..5.0).contains(&magnitude) {
        let decimals = (digits as f64 - 1.0 - magnitude).max(0.0) as usize;
        format!("{x:.decimals$}")
    } else {
        format!("{x:.*e}", digits - 1)
    }
}

/// At most 40 characters of a value, for a message.
pub fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// `text` as a sentence: with one full stop at its end, whether it had one or not.
pub fn sentence(text: &str) -> String {
    if text.ends_with('.') {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}

/// "1st", "2nd", "3rd", "4th", … for a word's place among its repeats.
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// A whole number with its thousands apart, as the page writes them: 30 522.
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}
