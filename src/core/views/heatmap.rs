//! A matrix's two faces as plain numbers: which face it opens with, the colour of every cell (the
//! tables' colour scales, blended as the browser blends them), and where cells and labels go on
//! a heat map. The canvas component only draws what this computes.

use nalgebra::DMatrix;

use crate::core::forward::softmax::is_future;

/// Matrices with at most this many rows and columns open as numbers; larger ones as heat maps,
/// since nobody reads a 64 × 64 grid of numbers and the DOM cells are what makes edits slow.
pub const NUMBERS_MAX_SIDE: usize = 16;

/// How a matrix is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Face {
    /// A table of numbers.
    Numbers,
    /// One coloured rectangle per cell.
    Heatmap,
    /// ∂L/∂cell for the training lab's loss, once it has a target.
    Gradient,
}

impl Face {
    /// The face a matrix of this shape opens with.
    pub fn default_for(rows: usize, cols: usize) -> Face {
        if rows <= NUMBERS_MAX_SIDE && cols <= NUMBERS_MAX_SIDE {
            Face::Numbers
        } else {
            Face::Heatmap
        }
    }

    /// The other of numbers and heat map (from the gradient: numbers).
    pub fn toggled(self) -> Face {
        match self {
            Face::Numbers => Face::Heatmap,
            Face::Heatmap | Face::Gradient => Face::Numbers,
        }
    }
}

/// How a matrix's cells are coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heat {
    /// Diverging around 0, scaled by the matrix's largest finite magnitude.
    Signed,
    /// Diverging around 0, scaled by the 99th percentile of its magnitudes: a trained model's
    /// hidden states have a few outlier dimensions (hundreds against ones) that would leave every
    /// other cell near the panel's colour; past the scale a cell is at full colour.
    Spread,
    /// Sequential from 0 to 1 (attention weights).
    Unit,
}

impl Heat {
    /// The values at the two ends of `m`'s colour scale: ±its largest finite magnitude (signed),
    /// or the smallest and largest weight a query may see (so that the two are always told
    /// apart, even in a near-uniform map; masked cells when `causal` do not count).
    pub fn span(self, m: &DMatrix<f64>, causal: bool) -> (f64, f64) {
        match self {
            Heat::Signed => {
                let top = m
                    .iter()
                    .filter(|x| x.is_finite())
                    .fold(0.0, |a: f64, x| a.max(x.abs()));
                (-top, top)
            }
            Heat::Spread => {
                let mut magnitudes: Vec<f64> = m
                    .iter()
                    .filter(|x| x.is_finite())
                    .map(|x| x.abs())
                    .collect();
                if magnitudes.is_empty() {
                    return (0.0, 0.0);
                }
                let k = (magnitudes.len() - 1) * 99 / 100;
                let top = *magnitudes.select_nth_unstable_by(k, f64::total_cmp).1;
                (-top, top)
            }
            Heat::Unit => {
                let (rows, cols) = m.shape();
                let seen = (0..rows)
                    .flat_map(|i| (0..cols).map(move |j| (i, j)))
                    .filter(|&(i, j)| !(causal && is_future(i, j)))
                    .map(|ij| m[ij])
                    .filter(|x| x.is_finite());
                let (low, high) = seen.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
                    (l.min(x), h.max(x))
                });
                if low <= high {
                    (low, high)
                } else {
                    (0.0, 1.0)
                }
            }
        }
    }

    /// The colour strength of `value` on a scale of `span`: in [−1, 1] for signed matrices,
    /// [0, 1] for weights (every weight of a map that holds one value takes that value).
    pub fn level(self, value: f64, (low, high): (f64, f64)) -> f64 {
        if !value.is_finite() {
            return 0.0;
        }
        match self {
            Heat::Signed | Heat::Spread if high > 0.0 => (value / high).clamp(-1.0, 1.0),
            Heat::Signed | Heat::Spread => 0.0,
            Heat::Unit if high - low > 1e-12 => ((value - low) / (high - low)).clamp(0.0, 1.0),
            Heat::Unit => value.clamp(0.0, 1.0),
        }
    }
}

/// An sRGB colour.
pub type Rgb = [u8; 3];

/// The page's colours, read from its CSS custom properties so that the heat maps follow the
/// tables and dark mode.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// Behind every cell (`--panel`).
    pub panel: Rgb,
    /// Positive values (`--pos`).
    pub pos: Rgb,
    /// Negative values (`--neg`).
    pub neg: Rgb,
    /// Weights (`--unit`).
    pub unit: Rgb,
    /// Masked cells (`--masked`).
    pub masked: Rgb,
    /// Labels (`--muted`).
    pub muted: Rgb,
    /// The followed row and the cursor (`--accent`).
    pub accent: Rgb,
    /// Text (`--text`).
    pub text: Rgb,
    /// The strongest tint of a signed cell (`--signed-alpha`): dark mode tints less, so that a
    /// table's light text keeps its contrast.
    pub signed_alpha: f64,
    /// The strongest tint of a weight cell (`--unit-alpha`).
    pub unit_alpha: f64,
}

impl Palette {
    /// `style.css`'s light colours.
    pub const LIGHT: Palette = Palette {
        panel: [0xff, 0xff, 0xff],
        pos: [37, 99, 235],
        neg: [220, 38, 38],
        unit: [22, 163, 74],
        masked: [0xe2, 0xe8, 0xf0],
        muted: [0x47, 0x55, 0x69],
        accent: [0x1d, 0x4e, 0xd8],
        text: [0x0f, 0x17, 0x2a],
        signed_alpha: 0.55,
        unit_alpha: 1.0,
    };

    /// `style.css`'s dark colours.
    pub const DARK: Palette = Palette {
        panel: [0x11, 0x18, 0x27],
        pos: [96, 165, 250],
        neg: [248, 113, 113],
        unit: [74, 222, 128],
        masked: [0x1f, 0x29, 0x37],
        muted: [0x9c, 0xa3, 0xaf],
        accent: [0x93, 0xc5, 0xfd],
        text: [0xe5, 0xe7, 0xeb],
        signed_alpha: 0.35,
        unit_alpha: 0.7,
    };

    /// The palette from CSS property values (`lookup("--pos")` → `"37, 99, 235"`); any colour
    /// missing or unreadable keeps `fallback`'s.
    pub fn from_css(lookup: impl Fn(&str) -> String, fallback: Palette) -> Palette {
        let read = |name: &str, default: Rgb| parse_colour(&lookup(name)).unwrap_or(default);
        let alpha = |name: &str, default: f64| {
            let value = lookup(name).trim().parse::<f64>();
            value
                .ok()
                .filter(|a| (0.0..=1.0).contains(a))
                .unwrap_or(default)
        };
        Palette {
            panel: read("--panel", fallback.panel),
            pos: read("--pos", fallback.pos),
            neg: read("--neg", fallback.neg),
            unit: read("--unit", fallback.unit),
            masked: read("--masked", fallback.masked),
            muted: read("--muted", fallback.muted),
            accent: read("--accent", fallback.accent),
            text: read("--text", fallback.text),
            signed_alpha: alpha("--signed-alpha", fallback.signed_alpha),
            unit_alpha: alpha("--unit-alpha", fallback.unit_alpha),
        }
    }

    /// The colour of a heat map's cell at `level`: a weight's green at full strength and on a
    /// square-root ramp (a map has no text to keep legible, and the weights of a long sentence
    /// are mostly small: on the tables' linear ramp at 0.7, a dark 22 × 22 map was near black;
    /// now a weight a quarter of the way up its scale is 3.4:1 against the dark panel). Signed
    /// cells as in the tables.
    pub fn map_cell(&self, heat: Heat, level: f64) -> Rgb {
        match heat {
            Heat::Unit => blend(self.panel, self.unit, level.max(0.0).sqrt()),
            Heat::Signed | Heat::Spread => self.cell(heat, level),
        }
    }

    /// The colour of a cell at `level` (see [`Heat::level`]): the tint laid over the panel with
    /// the tables' opacity.
    pub fn cell(&self, heat: Heat, level: f64) -> Rgb {
        let (tint, alpha) = match heat {
            Heat::Unit => (self.unit, level * self.unit_alpha),
            Heat::Signed | Heat::Spread if level >= 0.0 => (self.pos, level * self.signed_alpha),
            Heat::Signed | Heat::Spread => (self.neg, -level * self.signed_alpha),
        };
        blend(self.panel, tint, alpha)
    }
}

/// `over` laid on `base` with opacity `alpha`, rounded as browsers do.
fn blend(base: Rgb, over: Rgb, alpha: f64) -> Rgb {
    let mix = |b: u8, o: u8| (f64::from(b) + (f64::from(o) - f64::from(b)) * alpha).round() as u8;
    [
        mix(base[0], over[0]),
        mix(base[1], over[1]),
        mix(base[2], over[2]),
    ]
}

/// A CSS colour as written in `style.css`: `#rgb`, `#rrggbb`, or `r, g, b` (for `rgba(var(--pos), a)`).
pub fn parse_colour(text: &str) -> Option<Rgb> {
    let t = text.trim();
    if let Some(hex) = t.strip_prefix('#') {
        let digits: Vec<u8> = hex
            .chars()
            .map(|c| c.to_digit(16).map(|d| d as u8))
            .collect::<Option<_>>()?;
        return match digits[..] {
            [r, g, b] => Some([r * 17, g * 17, b * 17]),
            [r1, r0, g1, g0, b1, b0] => Some([r1 * 16 + r0, g1 * 16 + g0, b1 * 16 + b0]),
            _ => None,
        };
    }
    let parts: Vec<u8> = t
        .split(',')
        .map(|p| p.trim().parse().ok())
        .collect::<Option<_>>()?;
    parts.try_into().ok()
}

/// One RGBA pixel per cell, row by row: the image a heat map scales up. Masked cells (above the
/// diagonal when `causal`) take the masked colour; the canvas hatches them on top.
pub fn cell_pixels(m: &DMatrix<f64>, heat: Heat, causal: bool, palette: &Palette) -> Vec<u8> {
    let span = heat.span(m, causal);
    let (rows, cols) = m.shape();
    let mut out = Vec::with_capacity(rows * cols * 4);
    for i in 0..rows {
        for j in 0..cols {
            let rgb = if causal && is_future(i, j) {
                palette.masked
            } else {
                palette.map_cell(heat, heat.level(m[(i, j)], span))
            };
            out.extend_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
        }
    }
    out
}

/// Labels longer than this are cut with "…".
pub const LABEL_MAX_CHARS: usize = 12;
/// Label font size in CSS pixels.
pub const LABEL_FONT_PX: f64 = 11.0;
/// The matrix part of a heat map aims at about this size in CSS pixels.
const MAP_TARGET_PX: f64 = 360.0;
/// Heat maps aim to stay within this width: wider matrices get narrower cells, down to one pixel
/// (the widest output, 16 heads × 128, is then 2 048 pixels and scrolls sideways).
const MAP_MAX_WIDTH_PX: f64 = 1100.0;
const CELL_MIN_PX: f64 = 3.0;
const CELL_MAX_PX: f64 = 22.0;
/// The tallest row of a map squeezed to the page's width.
const WIDE_ROW_MAX_PX: f64 = 12.0;
/// Room between labels and cells.
const GAP_PX: f64 = 4.0;

/// `label` cut to [`LABEL_MAX_CHARS`] characters.
pub fn fit_label(label: &str) -> String {
    if label.chars().count() <= LABEL_MAX_CHARS {
        label.to_owned()
    } else {
        let mut cut: String = label.chars().take(LABEL_MAX_CHARS - 1).collect();
        cut.push('…');
        cut
    }
}

/// Where a heat map's parts go, in CSS pixels from its top-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// Rows of cells.
    pub rows: usize,
    /// Columns of cells.
    pub cols: usize,
    /// A cell's width.
    pub cell_w: f64,
    /// A cell's height.
    pub cell_h: f64,
    /// Width of the row labels' column (0 without labels).
    pub left: f64,
    /// Height of the column labels' row (0 without labels).
    pub top: f64,
    /// Column labels are drawn turned a quarter (reading upwards).
    pub vertical_cols: bool,
    /// Every how many rows a label is drawn (1: all), so labels never overlap.
    pub row_label_every: usize,
    /// Every how many columns a label is drawn.
    pub col_label_every: usize,
    /// The whole picture's width.
    pub width: f64,
    /// The whole picture's height.
    pub height: f64,
}

impl Layout {
    /// A labelled heat map for a `rows` × `cols` matrix whose widest row and column labels
    /// (after [`fit_label`]) are this many pixels wide in the label font.
    pub fn labelled(rows: usize, cols: usize, row_label_px: f64, col_label_px: f64) -> Layout {
        let side = rows.max(cols).max(1) as f64;
        let cell = (MAP_TARGET_PX / side)
            .floor()
            .clamp(CELL_MIN_PX, CELL_MAX_PX);
        let squeezed = cols as f64 * cell > MAP_MAX_WIDTH_PX;
        let cell_w = if squeezed {
            (MAP_MAX_WIDTH_PX / cols as f64).floor().max(1.0)
        } else {
            cell
        };
        // A map squeezed to the page's width (a trained model's 384 or 1536 numbers a piece)
        // keeps rows tall enough to tell apart.
        let cell = if squeezed {
            (MAP_TARGET_PX / 3.0 / rows.max(1) as f64)
                .floor()
                .clamp(cell, WIDE_ROW_MAX_PX)
        } else {
            cell
        };
        let vertical_cols = col_label_px + 2.0 > cell_w;
        let top = if vertical_cols {
            col_label_px.ceil()
        } else {
            LABEL_FONT_PX
        } + 2.0 * GAP_PX;
        let left = row_label_px.ceil() + 2.0 * GAP_PX;
        let every = |size: f64| (LABEL_FONT_PX / size).ceil().max(1.0) as usize;
        Layout {
            rows,
            cols,
            cell_w,
            cell_h: cell,
            left,
            top,
            vertical_cols,
            row_label_every: every(cell),
            col_label_every: if vertical_cols { every(cell_w) } else { 1 },
            width: left + cols as f64 * cell_w,
            height: top + rows as f64 * cell,
        }
    }

    /// A small unlabelled heat map about `size` pixels across, for comparing heads at a glance.
    pub fn thumbnail(rows: usize, cols: usize, size: f64) -> Layout {
        let side = rows.max(cols).max(1) as f64;
        // Not rounded: a thumbnail is a picture of the pattern, not something to read cell by cell.
        let cell = (size / side).max(1.0);
        Layout {
            rows,
            cols,
            cell_w: cell,
            cell_h: cell,
            left: 0.0,
            top: 0.0,
            vertical_cols: false,
            row_label_every: 0,
            col_label_every: 0,
            width: cols as f64 * cell,
            height: rows as f64 * cell,
        }
    }

    /// Whether the labels are drawn at all.
    pub fn has_labels(&self) -> bool {
        self.row_label_every > 0
    }

    /// The cell under point (`x`, `y`).
    pub fn cell_at(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let (i, j) = (
            ((y - self.top) / self.cell_h).floor(),
            ((x - self.left) / self.cell_w).floor(),
        );
        (i >= 0.0 && j >= 0.0 && (i as usize) < self.rows && (j as usize) < self.cols)
            .then_some((i as usize, j as usize))
    }

    /// The row whose label is under point (`x`, `y`).
    pub fn row_label_at(&self, x: f64, y: f64) -> Option<usize> {
        let i = ((y - self.top) / self.cell_h).floor();
        (x >= 0.0 && x < self.left && i >= 0.0 && (i as usize) < self.rows).then_some(i as usize)
    }

    /// The top-left corner of cell (`i`, `j`).
    pub fn cell_origin(&self, i: usize, j: usize) -> (f64, f64) {
        (
            self.left + j as f64 * self.cell_w,
            self.top + i as f64 * self.cell_h,
        )
    }

    /// Where a box of `size` (width, height) about cell (`i`, `j`) goes: below the cell, or above
    /// it near the bottom, and never past the right edge, so a scrolling frame never clips it.
    pub fn box_origin(&self, i: usize, j: usize, size: (f64, f64)) -> (f64, f64) {
        let (x, y) = self.cell_origin(i, j);
        let below = y + self.cell_h;
        let y = if below + size.1 > self.height {
            (y - size.1).max(0.0)
        } else {
            below
        };
        (x.min((self.width - size.0).max(0.0)), y)
    }

    /// The rows that get a label: every `row_label_every`-th from the first.
    pub fn labelled_rows(&self) -> Vec<usize> {
        strided(self.rows, self.row_label_every)
    }

    /// The columns that get a label.
    pub fn labelled_cols(&self) -> Vec<usize> {
        strided(self.cols, self.col_label_every)
    }
}

fn strided(n: usize, every: usize) -> Vec<usize> {
    if every == 0 {
        return Vec::new();
    }
    (0..n).step_by(every).collect()
}
