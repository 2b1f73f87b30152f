//! The heat-map face of a matrix: one `<canvas>`, one coloured rectangle per cell, labels, a
//! legend, and a cursor to read, explain or edit any cell with the mouse or the keyboard. The
//! colours and positions come from [`crate::core::views::heatmap`]; this file only draws and listens.

use leptos::ev;
use leptos::html::Canvas;
use leptos::prelude::*;
use nalgebra::DMatrix;
use wasm_bindgen::prelude::*;
use wasm_bindgen::Clamped;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlInputElement, ImageData};

use crate::core::text::fmt;
use crate::core::views::cursor::{cell_key, moved, place, CellKey};
use crate::core::views::heatmap::{
    cell_pixels, fit_label, Heat, Layout, Palette, Rgb, LABEL_FONT_PX,
};
use crate::core::views::pipeline::QUERY_BY_KEY;
use crate::ui::in_view::Painting;
use crate::ui::matrix::cell_input::CellInput;
use crate::ui::matrix::spec::{CellView, MatrixSpec};
use crate::ui::state::use_look;

fn css(rgb: Rgb) -> String {
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
fn label_font() -> String {
    format!("{LABEL_FONT_PX}px system-ui, sans-serif")
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

fn context_2d(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
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
type Scratch = StoredValue<Option<HtmlCanvasElement>, LocalStorage>;

/// [`paint`]s with the view's own scratch canvas.
fn paint_with(scratch: Scratch, canvas: &HtmlCanvasElement, picture: &Picture) {
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
fn hatch_future(ctx: &CanvasRenderingContext2d, l: &Layout, palette: &Palette) {
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

fn labels(ctx: &CanvasRenderingContext2d, p: &Picture) {
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

fn outline_marks(ctx: &CanvasRenderingContext2d, l: &Layout, palette: &Palette, marks: Marks) {
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

/// A matrix as a heat map. Hover or the cursor (arrow keys once the map has focus) shows a cell's
/// labels and full value; a click or Enter explains or edits the cell as in the table.
#[component]
pub fn HeatMap(spec: MatrixSpec) -> impl IntoView {
    let (palette, precision) = (spec.look.palette, spec.look.precision);
    let canvas = NodeRef::<Canvas>::new();
    let scratch = StoredValue::new_local(None::<HtmlCanvasElement>);
    let (id, label) = (spec.id(), spec.label());
    let widest = |labels: Signal<Vec<String>>| {
        move || {
            labels.with(|l| {
                l.iter()
                    .map(|s| text_width(&fit_label(s)))
                    .fold(0.0, f64::max)
            })
        }
    };
    let (row_label_px, col_label_px) = (widest(spec.row_labels), widest(spec.col_labels));
    let shape = Memo::new(move |_| spec.matrix.with(|m| m.shape()));
    let layout = Memo::new(move |_| {
        let (rows, cols) = shape.get();
        Layout::labelled(rows, cols, row_label_px(), col_label_px())
    });
    let cursor = RwSignal::new(None::<(usize, usize)>);
    let hover = RwSignal::new(None::<(usize, usize)>);
    let editing = RwSignal::new(false);
    // A new shape (a sentence, a resize, a loaded state) closes the edit box and brings the
    // cursor back inside the matrix.
    Effect::new(move |previous: Option<(usize, usize)>| {
        let (rows, cols) = shape.get();
        if previous.is_some_and(|p| p != (rows, cols)) {
            editing.set(false);
            cursor.update(|c| {
                *c = c
                    .filter(|_| rows > 0 && cols > 0)
                    .map(|(i, j)| (i.min(rows - 1), j.min(cols - 1)))
            });
        }
        (rows, cols)
    });

    // The canvas is outside the reactive system: this effect repaints it whenever anything it
    // shows changes (one paint per edit, however many cells changed).
    let painting = Painting::of(canvas);
    Effect::new(move |_| {
        let Some(el) = canvas.get().filter(|_| painting.wanted()) else {
            return;
        };
        painting.painted();
        let marks = Marks {
            row: spec.highlight_row.get(),
            cursor: cursor.get(),
            hover: hover.get(),
        };
        let (layout, causal, palette) = (layout.get(), spec.grey_future.get(), palette.get());
        spec.row_labels.with(|rl| {
            spec.col_labels.with(|cl| {
                spec.matrix.with(|m| {
                    paint_with(
                        scratch,
                        &el,
                        &Picture {
                            row_labels: rl,
                            col_labels: cl,
                            marks,
                            ..Picture::unlabelled(layout, m, spec.heat, causal, palette)
                        },
                    );
                })
            })
        });
    });

    // The point in the layout's pixels: a map narrowed to its column is drawn smaller.
    let at = move |ev: &ev::MouseEvent| {
        let shown = canvas
            .get_untracked()
            .map_or(0, |c| c.client_width())
            .max(1);
        let scale = layout.with_untracked(|l| l.width) / f64::from(shown);
        (
            f64::from(ev.offset_x()) * scale,
            f64::from(ev.offset_y()) * scale,
        )
    };
    let cell_under = move |ev: &ev::MouseEvent| {
        let (x, y) = at(ev);
        layout.with_untracked(|l| l.cell_at(x, y))
    };
    let act = move |(i, j): (usize, usize)| {
        cursor.set(Some((i, j)));
        if let Some(cb) = spec.on_cell_click {
            cb.run((i, j));
        }
        if spec.editor.is_some() {
            editing.set(true);
        }
    };
    let on_click = move |ev: ev::MouseEvent| {
        if let Some(cell) = cell_under(&ev) {
            act(cell);
        } else if let Some(i) = layout.with_untracked(|l| {
            let (x, y) = at(&ev);
            l.row_label_at(x, y)
        }) {
            if let Some(cb) = spec.on_row_click {
                cb.run(i);
            }
        }
    };
    let on_key = move |ev: ev::KeyboardEvent| {
        let Some(key) = cell_key(&ev.key(), ev.shift_key(), false) else {
            return;
        };
        ev.prevent_default();
        let (rows, cols) = shape.get_untracked();
        let at = cursor.get_untracked().unwrap_or((0, 0));
        match moved(at, (rows, cols), key) {
            Some(next) => cursor.set(Some(next)),
            // The matrix may have shrunk since the cursor last moved.
            None if key == CellKey::Act && rows > 0 && cols > 0 => {
                act((at.0.min(rows - 1), at.1.min(cols - 1)))
            }
            None => {}
        }
    };

    // The cell read out: under the mouse, else under the cursor.
    let shown = Memo::new(move |_| hover.get().or(cursor.get()));
    let readout = move || {
        let (i, j) = shown.get()?;
        let value = spec.matrix.with(|m| m.get((i, j)).copied())?;
        let name_of = |labels: Signal<Vec<String>>, k: usize| {
            labels.with(|l| l.get(k).cloned().unwrap_or_else(|| k.to_string()))
        };
        let (row, col) = (name_of(spec.row_labels, i), name_of(spec.col_labels, j));
        let place = place(i, &row, &col, spec.corner == QUERY_BY_KEY);
        let masked = spec.grey_future.get() && j > i;
        // With the page's decimals, like every table; `data-value` keeps every digit.
        let text = format!(
            "{place}: {}{}",
            fmt(value, precision.get()),
            if masked { " (masked)" } else { "" }
        );
        Some(view! {
            <span data-row=i.to_string() data-col=j.to_string() data-value=value.to_string()>{text}</span>
        })
    };
    let legend = move || {
        let (low, high) = spec
            .matrix
            .with(|m| spec.heat.span(m, spec.grey_future.get()));
        let p = precision.get();
        view! {
            <span class="legend-low" data-value=low.to_string()>{fmt(low, p)}</span>
            <span class=match spec.heat { Heat::Signed => "legend-bar signed", Heat::Unit => "legend-bar unit" } aria-hidden="true"></span>
            <span class="legend-high" data-value=high.to_string()>{fmt(high, p)}</span>
            {spec.grey_future.get().then(|| view! { <span class="legend-masked" aria-hidden="true"></span><span>"masked"</span> })}
        }
    };

    // The edit box: a table cell's input (same typing, checks, paste and undo) over the map.
    let edit_box = move || {
        let editor = spec.editor?;
        if !editing.get() {
            return None;
        }
        let (i, j) = cursor.get()?;
        // A cell that a resize removed has nothing to edit.
        let (rows, cols) = shape.get();
        if i >= rows || j >= cols {
            return None;
        }
        let view = RwSignal::new(CellView::new(0.0, 0, spec.heat, (0.0, 1.0), false));
        Effect::new(move |_| {
            let value = spec.matrix.with(|m| m.get((i, j)).copied().unwrap_or(0.0));
            view.set(CellView::new(
                value,
                precision.get(),
                spec.heat,
                (0.0, 1.0),
                false,
            ));
        });
        let (x, y) = layout.with_untracked(|l| l.box_origin(i, j, EDIT_BOX_PX));
        let close = move || {
            editing.set(false);
            if let Some(c) = canvas.get_untracked() {
                c.focus().ok();
            }
        };
        let row = spec
            .row_labels
            .with_untracked(|l| l.get(i).cloned().unwrap_or_default());
        let input_id = format!("{}-edit", id.clone());
        let frame = NodeRef::<leptos::html::Div>::new();
        // Focus the new input once it is in the page (the box may be gone by then).
        request_animation_frame(move || {
            let input = frame
                .try_get_untracked()
                .flatten()
                .and_then(|f| f.query_selector("input").ok().flatten());
            if let Some(input) = input {
                let input: HtmlInputElement = input.unchecked_into();
                input.focus().ok();
                input.select();
            }
        });
        Some(view! {
            <div
                node_ref=frame
                class="heatmap-editor"
                style:left=format!("{x}px")
                style:top=format!("{y}px")
                on:keydown=move |ev: ev::KeyboardEvent| {
                    if matches!(ev.key().as_str(), "Enter" | "Escape") {
                        ev.prevent_default();
                        close();
                    }
                }
                on:focusout=move |_| editing.set(false)
            >
                <span class="heatmap-editor-label">{format!("{row} · {j}")}</span>
                <CellInput row=i col=j view id=input_id label=format!("{} row {i} column {j}", label.clone()) editor/>
            </div>
        })
    };

    let aria_label = move || {
        let (rows, cols) = shape.get();
        format!(
            "{}: heat map of {rows} rows and {cols} columns. Arrow keys move the cursor, {}.",
            spec.label(),
            if spec.editor.is_some() {
                "Enter edits the number"
            } else {
                "Enter explains the cell"
            }
        )
    };
    let readout_id = format!("{}-readout", spec.id());
    view! {
        <div class="heatmap">
            <div class="scroll heatmap-frame">
                <canvas
                    node_ref=canvas
                    data-matrix=spec.name
                    data-head=spec.head.map(|h| h.to_string())
                    data-view="heatmap"
                    data-rows=move || shape.get().0.to_string()
                    data-cols=move || shape.get().1.to_string()
                    data-cursor=move || cursor.get().map(|(i, j)| format!("{i},{j}"))
                    class:editable=spec.editor.is_some()
                    role="img"
                    tabindex="0"
                    aria-label=aria_label
                    aria-describedby=readout_id.clone()
                    // Only a new cell repaints: the mouse moves far more often than it changes cell.
                    on:mousemove=move |ev| {
                        let cell = cell_under(&ev);
                        if hover.get_untracked() != cell {
                            hover.set(cell);
                        }
                    }
                    on:mouseleave=move |_| hover.set(None)
                    on:click=on_click
                    on:keydown=on_key
                    on:focus=move |_| {
                        if cursor.get_untracked().is_none() {
                            cursor.set(Some((0, 0)));
                        }
                    }
                ></canvas>
                {edit_box}
            </div>
            <p class="heatmap-readout" id=readout_id aria-live="polite">
                {move || readout().map_or_else(|| view! { <span>"Hover a cell, or focus the map and use the arrow keys, to read its value."</span> }.into_any(), IntoAny::into_any)}
            </p>
            <p class="legend">{legend}</p>
        </div>
    }
}

/// A small unlabelled heat map of one head's weights, for comparing heads at a glance.
#[component]
pub fn Thumbnail(
    head: usize,
    /// A trained model's layer (`data-layer`), when it has several.
    #[prop(optional)]
    layer: Option<usize>,
    matrix: Signal<DMatrix<f64>>,
    /// Grey the cells above the diagonal (causal).
    causal: Signal<bool>,
) -> impl IntoView {
    let palette = use_look().palette;
    let canvas = NodeRef::<Canvas>::new();
    let scratch = StoredValue::new_local(None::<HtmlCanvasElement>);
    let painting = Painting::of(canvas);
    Effect::new(move |_| {
        let Some(el) = canvas.get().filter(|_| painting.wanted()) else {
            return;
        };
        painting.painted();
        let (causal, palette) = (causal.get(), palette.get());
        matrix.with(|m| {
            let layout = Layout::thumbnail(m.nrows(), m.ncols(), THUMBNAIL_PX);
            paint_with(
                scratch,
                &el,
                &Picture::unlabelled(layout, m, Heat::Unit, causal, palette),
            );
        });
    });
    view! {
        <canvas node_ref=canvas data-matrix="weights" data-layer=layer.map(|l| l.to_string()) data-head=head.to_string() data-view="thumbnail" aria-hidden="true"></canvas>
    }
}

/// About how wide and tall the edit box is, in CSS pixels.
const EDIT_BOX_PX: (f64, f64) = (150.0, 64.0);

/// The side of a head's thumbnail, in CSS pixels.
const THUMBNAIL_PX: f64 = 104.0;
