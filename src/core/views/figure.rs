//! A matrix as a figure for slides and papers: a standalone SVG with its title, its row and
//! column labels and every cell coloured as the page colours it, with its number (a table) or
//! without (a heat map). The page saves it as SVG, or draws it into a PNG at print resolution.

use nalgebra::DMatrix;

use crate::core::forward::softmax::is_future;
use crate::core::text::fmt;
use crate::core::views::heatmap::{Heat, Palette};

/// What a matrix figure shows.
pub struct MatrixFigure<'a> {
    /// The title above it ("scores Q·Kᵀ, head 0").
    pub title: &'a str,
    /// The corner's words (`query ╲ key`), if any.
    pub corner: &'a str,
    /// A label per row.
    pub rows: &'a [String],
    /// A label per column.
    pub cols: &'a [String],
    /// The numbers.
    pub values: &'a DMatrix<f64>,
    /// How they are coloured.
    pub heat: Heat,
    /// The cells above the diagonal are masked (greyed, as the page greys them).
    pub masked: bool,
    /// The numbers' decimals; `None`: a heat map (colours only).
    pub decimals: Option<usize>,
    /// The page's colours (light or dark).
    pub palette: &'a Palette,
}

/// Pixels of one character of the 12 px labels and numbers (a generous average, so that no
/// label overflows its box).
const CHAR: f64 = 7.2;
const LINE: f64 = 22.0;
const PAD: f64 = 8.0;

fn colour([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// `text` safe inside SVG text and attributes.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn width_of(text: &str) -> f64 {
    text.chars().count() as f64 * CHAR
}

/// The figure as SVG, and its width and height in CSS pixels.
pub fn matrix_svg(f: &MatrixFigure) -> (String, f64, f64) {
    let (n, m) = f.values.shape();
    let texts: Vec<String> = f
        .values
        .iter()
        .map(|&x| f.decimals.map_or_else(String::new, |d| fmt(x, d)))
        .collect();
    let widest = texts.iter().map(|t| width_of(t)).fold(0.0, f64::max);
    let label = f.cols.iter().map(|c| width_of(c)).fold(0.0, f64::max);
    let cell_w = match f.decimals {
        Some(_) => (widest.max(label) + 2.0 * PAD).max(36.0),
        None => (label + PAD).max(LINE),
    };
    let left = f
        .rows
        .iter()
        .map(|r| width_of(r))
        .fold(width_of(f.corner), f64::max)
        + 2.0 * PAD;
    let top = 2.0 * LINE + PAD;
    let width = (left + cell_w * m as f64 + PAD).max(width_of(f.title) * 1.2 + 2.0 * PAD);
    let height = top + LINE * n as f64 + PAD;
    let span = f.heat.span(f.values, f.masked);
    let text = colour(f.palette.text);
    let muted = colour(f.palette.muted);
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="12">
<rect width="100%" height="100%" fill="{}"/>
<text x="{PAD}" y="{}" font-size="15" font-weight="600" fill="{text}">{}</text>
"#,
        colour(f.palette.panel),
        LINE - 4.0,
        escape(f.title),
    );
    let header_y = 2.0 * LINE - 6.0;
    if !f.corner.is_empty() {
        svg += &format!(
            r#"<text x="{PAD}" y="{header_y}" fill="{muted}">{}</text>
"#,
            escape(f.corner)
        );
    }
    for (j, c) in f.cols.iter().enumerate() {
        svg += &format!(
            r#"<text x="{}" y="{header_y}" text-anchor="middle" font-weight="600" fill="{text}">{}</text>
"#,
            left + cell_w * (j as f64 + 0.5),
            escape(c)
        );
    }
    for i in 0..n {
        let y = top + LINE * i as f64;
        svg += &format!(
            r#"<text x="{PAD}" y="{}" font-weight="600" fill="{text}">{}</text>
"#,
            y + LINE - 7.0,
            escape(f.rows.get(i).map_or("", String::as_str))
        );
        for j in 0..m {
            let x = left + cell_w * j as f64;
            let value = f.values[(i, j)];
            let grey = f.masked && is_future(i, j);
            let fill = if grey {
                f.palette.masked
            } else {
                let level = f.heat.level(value, span);
                // As the page shows it: a table's ramp, or a heat map's.
                match f.decimals {
                    Some(_) => f.palette.cell(f.heat, level),
                    None => f.palette.map_cell(f.heat, level),
                }
            };
            svg += &format!(
                r#"<rect x="{x}" y="{y}" width="{cell_w}" height="{LINE}" fill="{}" stroke="{}" stroke-width="0.5"/>
"#,
                colour(fill),
                colour(f.palette.masked),
            );
            let shown = &texts[j * n + i];
            if !shown.is_empty() {
                svg += &format!(
                    r#"<text x="{}" y="{}" text-anchor="end" fill="{}">{}</text>
"#,
                    x + cell_w - PAD,
                    y + LINE - 7.0,
                    if grey { &muted } else { &text },
                    escape(shown)
                );
            }
        }
    }
    svg += "</svg>\n";
    (svg, width, height)
}

/// The name of matrix `name`'s files (of `head`), before their extension: `scores-head0`.
pub fn file_stem(name: &str, head: Option<usize>) -> String {
    match head {
        Some(h) => format!("{name}-head{h}"),
        None => name.to_owned(),
    }
}
