//! Painting a heat map on a `<canvas>`: its cells' colours through a scratch canvas, the
//! future's hatching, the labels and the marks (followed row, cursor, hover).

use leptos::prelude::*;
use nalgebra::DMatrix;
use wasm_bindgen::prelude::*;
use wasm_bindgen::Clamped;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

use crate::core::views::heatmap::{
    cell_pixels, fit_label, Heat, Layout, Palette, Rgb, LABEL_FONT_PX,
};

pub(super) fn css(rgb: Rgb) -> String {
    format!("rgb({},{},{})", rgb[0], rgb[1], rgb[2])
}

/// What is drawn over the cells.
#[derive(Clone, Copy, Default, PartialEq)]
pub struct Marks {
    /// The followed token's row.
    pub row: Option<usize>,
    /// The keyboard cursor.
    pub cursor: Option<(usize, usize)>,
    /// The cell under the mouse.
    pub hover: Option<(usize, usize)>,
}

/// Everything one drawing of a heat map needs.
pub struct Picture<'a> {
    pub layout: Layout,
    pub matrix: &'a DMatrix<f64>,
    pub heat: Heat,
    pub causal: bool,
    pub palette: Palette,
    pub row_labels: &'a [String],
    pub col_labels: &'a [String],
    pub marks: Marks,
}

/// The label font, as the canvas draws it.
pub(super) fn label_font() -> String {
    format!("{LABEL_FONT_PX}px system-ui, sans-serif") // not words: a font
}

thread_local! {
    /// A context for measuring labels before any heat map is drawn.
    static MEASURE: Option<CanvasRenderingContext2d> = document()
        .create_element("canvas")
        .ok()
        .and_then(|c| context_2d(c.unchecked_ref()))
        .inspect(|ctx| ctx.set_font(&label_font()));
}

/// How wide `text` is in the label font, in CSS pixels.
pub fn text_width(text: &str) -> f64 {
    MEASURE.with(|ctx| {
        ctx.as_ref()
            .and_then(|c| c.measure_text(text).ok())
            .map_or(text.chars().count() as f64 * LABEL_FONT_PX, |m| m.width())
    })
}

impl<'a> Picture<'a> {
    /// Just the cells: no labels, no marks.
    pub fn unlabelled(
        layout: Layout,
        matrix: &'a DMatrix<f64>,
        heat: Heat,
        causal: bool,
        palette: Palette,
    ) -> Self {
        Picture {
            layout,
            matrix,
            heat,
            causal,
            palette,
            row_labels: &[],
            col_labels: &[],
            marks: Marks::default(),
        }
    }
}

pub(super) fn context_2d(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok()??.dyn_into().ok()
}

/// Paints `picture` on `canvas`, sharp at the screen's pixel ratio. The cells are one image
/// (a pixel per cell, scaled up without smoothing), so a 64 × 64 map costs one draw call, not
/// 4 096; `scratch` holds that image between drawings.
pub fn paint(canvas: &HtmlCanvasElement, scratch: &HtmlCanvasElement, p: &Picture) {
    let Some(ctx) = context_2d(canvas) else {
        return;
    };
    let l = &p.layout;
    let dpr = window().device_pixel_ratio().max(1.0);
    let (w, h) = (
        (l.width * dpr).round() as u32,
        (l.height * dpr).round() as u32,
    );
    if canvas.width() != w || canvas.height() != h {
        canvas.set_width(w);
        canvas.set_height(h);
        // Its own size, or its column's width if that is narrower (style.css: a phone shows the
        // whole map); the height follows. Maps of cells under 3 pixels scroll instead.
        let style = web_sys::HtmlElement::style(canvas);
        style.set_property("width", &format!("{}px", l.width)).ok();
        let fits = if l.cell_w >= 3.0 { "100%" } else { "none" };
        style.set_property("max-width", fits).ok();
    }
    ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0).ok();
    ctx.set_fill_style_str(&css(p.palette.panel));
    ctx.fill_rect(0.0, 0.0, l.width, l.height);
    let (rows, cols) = p.matrix.shape();
    if rows == 0 || cols == 0 {
        return;
    }

    let pixels = cell_pixels(p.matrix, p.heat, p.causal, &p.palette);
    // Resizing clears a canvas, so only when the shape changed.
    if scratch.width() != cols as u32 || scratch.height() != rows as u32 {
        scratch.set_width(cols as u32);
        scratch.set_height(rows as u32);
    }
    let image =
        ImageData::new_with_u8_clamped_array_and_sh(Clamped(&pixels), cols as u32, rows as u32);
    if let (Ok(image), Some(sctx)) = (image, context_2d(scratch)) {
        sctx.put_image_data(&image, 0.0, 0.0).ok();
        ctx.set_image_smoothing_enabled(false);
        ctx.draw_image_with_html_canvas_element_and_dw_and_dh(
            scratch,
            l.left,
            l.top,
            cols as f64 * l.cell_w,
            rows as f64 * l.cell_h,
        )
        .ok();
    }
    if p.causal {
        hatch_future(&ctx, l, &p.palette);
    }
    if l.has_labels() {
        labels(&ctx, p);
    }
    outline_marks(&ctx, l, &p.palette, p.marks);
}

/// A view's scratch canvas, made on its first paint and kept for the next.
pub(super) type Scratch = StoredValue<Option<HtmlCanvasElement>, LocalStorage>;

/// [`paint`]s with the view's own scratch canvas.
pub(super) fn paint_with(scratch: Scratch, canvas: &HtmlCanvasElement, picture: &Picture) {
    scratch.update_value(|s| {
        if s.is_none() {
            *s = document()
                .create_element("canvas")
                .ok()
                .and_then(|e| e.dyn_into().ok());
        }
        if let Some(scratch) = s {
            paint(canvas, scratch, picture);
        }
    });
}

/// Diagonal stripes over the cells above the diagonal, like the tables' masked cells.
pub(super) fn hatch_future(ctx: &CanvasRenderingContext2d, l: &Layout, palette: &Palette) {
    let k = l.rows.min(l.cols.saturating_sub(1));
    if k == 0 {
        return;
    }
    let right = l.left + l.cols as f64 * l.cell_w;
    ctx.save();
    ctx.begin_path();
    ctx.move_to(right, l.top);
    for i in 0..k {
        let x = l.left + (i + 1) as f64 * l.cell_w;
        ctx.line_to(x, l.top + i as f64 * l.cell_h);
        ctx.line_to(x, l.top + (i + 1) as f64 * l.cell_h);
    }
    ctx.line_to(right, l.top + k as f64 * l.cell_h);
    ctx.close_path();
    ctx.clip();
    ctx.begin_path();
    let span = right - l.left + k as f64 * l.cell_h;
    let mut d = 0.0;
    while d < span {
        ctx.move_to(l.left + d, l.top);
        ctx.line_to(l.left + d - span, l.top + span);
        d += 6.0;
    }
    ctx.set_stroke_style_str(&css(palette.muted));
    ctx.set_global_alpha(0.35);
    ctx.set_line_width(1.0);
    ctx.stroke();
    ctx.restore();
}

pub(super) fn labels(ctx: &CanvasRenderingContext2d, p: &Picture) {
    let l = &p.layout;
    ctx.set_font(&label_font());
    ctx.set_text_baseline("middle");
    let label = |labels: &[String], k: usize| fit_label(labels.get(k).map_or("", String::as_str));
    ctx.set_text_align("right");
    for i in l.labelled_rows() {
        let followed = p.marks.row == Some(i);
        ctx.set_fill_style_str(&css(if followed {
            p.palette.text
        } else {
            p.palette.muted
        }));
        let text = if followed {
            format!("▸ {}", label(p.row_labels, i))
        } else {
            label(p.row_labels, i)
        };
        ctx.fill_text(&text, l.left - 4.0, l.top + (i as f64 + 0.5) * l.cell_h)
            .ok();
    }
    ctx.set_fill_style_str(&css(p.palette.muted));
    for j in l.labelled_cols() {
        let x = l.left + (j as f64 + 0.5) * l.cell_w;
        if l.vertical_cols {
            ctx.save();
            ctx.translate(x, l.top - 4.0).ok();
            ctx.rotate(-std::f64::consts::FRAC_PI_2).ok();
            ctx.set_text_align("left");
            ctx.fill_text(&label(p.col_labels, j), 0.0, 0.0).ok();
            ctx.restore();
        } else {
            ctx.set_text_align("center");
            ctx.fill_text(&label(p.col_labels, j), x, l.top / 2.0).ok();
        }
    }
}

pub(super) fn outline_marks(
    ctx: &CanvasRenderingContext2d,
    l: &Layout,
    palette: &Palette,
    marks: Marks,
) {
    let width = l.cols as f64 * l.cell_w;
    if let Some(i) = marks.row.filter(|&i| i < l.rows) {
        ctx.set_stroke_style_str(&css(palette.accent));
        ctx.set_line_width(1.5);
        ctx.stroke_rect(l.left, l.top + i as f64 * l.cell_h, width, l.cell_h);
    }
    let outline = |cell: Option<(usize, usize)>, colour: Rgb, line: f64| {
        if let Some((i, j)) = cell.filter(|&(i, j)| i < l.rows && j < l.cols) {
            let (x, y) = l.cell_origin(i, j);
            // Tiny cells get a box a little larger than themselves, so the cursor stays visible.
            let grow = (4.0 - l.cell_w.min(l.cell_h)).max(0.0);
            ctx.set_stroke_style_str(&css(colour));
            ctx.set_line_width(line);
            ctx.stroke_rect(
                x - grow,
                y - grow,
                l.cell_w + 2.0 * grow,
                l.cell_h + 2.0 * grow,
            );
        }
    };
    outline(marks.hover, palette.muted, 1.0);
    outline(marks.cursor, palette.text, 2.0);
}
