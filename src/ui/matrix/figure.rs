//! Figures for slides and papers: every matrix (as a table or a heat map), the attention lines
//! and the loss curves saved as SVG or as PNG at print resolution, with their labels. The
//! buttons are in the page; the code that draws and saves is a wasm chunk fetched on the first
//! click.

use std::cell::RefCell;

use leptos::prelude::*;
use nalgebra::DMatrix;
use wasm_bindgen::prelude::*;

use crate::core::formats::report::matrix_csv;
use crate::core::i18n::keys::views;
use crate::core::i18n::Arg;
use crate::core::views::figure::{file_stem, matrix_svg, MatrixFigure};
use crate::core::views::heatmap::{Face, Heat};
use crate::ui::export::download;
use crate::ui::lang::{t, word};
use crate::ui::matrix::spec::MatrixSpec;
use crate::ui::on_demand::chunk;

/// PNG pixels per CSS pixel: 300 dpi for a figure printed at its size on screen.
const PRINT_SCALE: f64 = 300.0 / 96.0;
/// A canvas side no browser refuses.
const MAX_SIDE: f64 = 16_000.0;

/// What to save.
pub enum Picture {
    /// A matrix as it is shown: its numbers, its heat map, or its gradient's colours (`gradient`:
    /// the gradient face's numbers).
    Matrix {
        spec: Box<MatrixSpec>,
        face: Face,
        gradient: Option<Signal<Option<DMatrix<f64>>>>,
    },
    /// An SVG already in the page (the lines, a loss plot), with the colours it has there.
    Drawing {
        /// Its file name without extension.
        name: String,
        svg: web_sys::Element,
    },
}

/// As what.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

thread_local! {
    /// The picture the chunk saves when it runs.
    static ASKED: RefCell<Option<(Picture, Format)>> = const { RefCell::new(None) };
}

/// Saves `picture` as `format` (fetching the drawing code the first time).
pub fn save(picture: Picture, format: Format) {
    ASKED.with(|a| *a.borrow_mut() = Some((picture, format)));
    leptos::task::spawn_local(async {
        let _ = figure_saver().await;
    });
}

chunk! {
    /// Draws and saves the picture asked for.
    figure_saver => {
        save_asked();
        ().into_any()
    }
}

fn save_asked() {
    let Some((picture, format)) = ASKED.with(|a| a.borrow_mut().take()) else {
        return;
    };
    let (name, (svg, width, height)) = match picture {
        Picture::Matrix {
            spec,
            face,
            gradient,
        } => {
            let gradient = gradient.filter(|_| face == Face::Gradient);
            let values = match gradient {
                Some(g) => g.get_untracked().unwrap_or_else(|| DMatrix::zeros(0, 0)),
                None => spec.matrix.get_untracked(),
            };
            let title = match gradient {
                Some(_) => format!("∂L/∂{}", spec.label()),
                None => spec.label(),
            };
            let (rows, cols) = (
                spec.row_labels.get_untracked(),
                spec.col_labels.get_untracked(),
            );
            let figure = MatrixFigure {
                title: &title,
                corner: &spec.shows.corner_words(),
                rows: &rows,
                cols: &cols,
                values: &values,
                heat: if gradient.is_some() {
                    Heat::Signed
                } else {
                    spec.heat
                },
                masked: spec.grey_future.get_untracked(),
                decimals: (face == Face::Numbers).then(|| spec.look.precision.get_untracked()),
                palette: &spec.look.palette.get_untracked(),
            };
            (file_stem(spec.shows.name(), spec.head), matrix_svg(&figure))
        }
        Picture::Drawing { name, svg } => {
            let drawn = standalone_svg(&svg);
            let part = |k: u32| drawn.get(k);
            (
                name,
                (
                    part(0).as_string().unwrap_or_default(),
                    part(1).as_f64().unwrap_or(0.0),
                    part(2).as_f64().unwrap_or(0.0),
                ),
            )
        }
    };
    match format {
        Format::Svg => download(&format!("{name}.svg"), "image/svg+xml", &svg),
        Format::Png => {
            let scale = PRINT_SCALE.min(MAX_SIDE / width.max(height).max(1.0));
            draw_png(&svg, width, height, scale, &format!("{name}.png"));
        }
    }
}

#[wasm_bindgen(inline_js = "
const STYLED = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-dasharray', 'opacity', 'font-size', 'font-family', 'font-weight', 'text-anchor', 'dominant-baseline', 'display'];
export function standalone_svg(svg) {
  const copy = svg.cloneNode(true);
  const from = [svg, ...svg.querySelectorAll('*')];
  const to = [copy, ...copy.querySelectorAll('*')];
  // As presentation attributes: a style attribute is inline style, which the page's CSP refuses.
  from.forEach((el, i) => {
    const style = getComputedStyle(el);
    for (const p of STYLED) to[i].setAttribute(p, style.getPropertyValue(p));
  });
  const box = svg.getBoundingClientRect();
  const view = svg.viewBox.baseVal;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', box.width);
  copy.setAttribute('height', box.height);
  const back = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  for (const [k, v] of [['x', view ? view.x : 0], ['y', view ? view.y : 0], ['width', view && view.width ? view.width : box.width], ['height', view && view.height ? view.height : box.height]]) back.setAttribute(k, v);
  back.setAttribute('fill', getComputedStyle(document.documentElement).getPropertyValue('--panel').trim() || '#fff');
  copy.insertBefore(back, copy.firstChild);
  return [new XMLSerializer().serializeToString(copy), box.width, box.height];
}
export function draw_png(text, width, height, scale, name) {
  const img = new Image();
  img.onload = () => {
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const context = canvas.getContext('2d');
    context.scale(scale, scale);
    context.drawImage(img, 0, 0, width, height);
    canvas.toBlob((blob) => {
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    }, 'image/png');
  };
  img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(text);
}
")]
extern "C" {
    /// `[svg text, width, height]` of an SVG in the page, its computed colours and fonts
    /// written on each element and the page's panel colour behind it.
    fn standalone_svg(svg: &web_sys::Element) -> js_sys::Array;
    /// Draws `text` (an SVG of `width` × `height`) at `scale` into a PNG and offers it as `name`.
    fn draw_png(text: &str, width: f64, height: f64, scale: f64, name: &str);
}

/// "save", a menu of `csv` (a matrix's CSV button) and "PNG" and "SVG"
/// (`data-action="download-png"`, `download-svg`) for `what`: one small button in a caption,
/// which the menu does not widen; hidden while `hidden` (an exercise covers numbers). PNG and
/// SVG do nothing themselves: the element they sit in saves on their click ([`clicked`]), one
/// handler per figure instead of two (the first download carries every figure's).
pub fn save_menu(
    what: impl Into<Arg>,
    hidden: Signal<bool>,
    csv: Option<AnyView>,
) -> impl IntoView {
    let what = what.into();
    let (save, png, svg) = (
        views::save(what.clone()),
        views::save_png(what.clone()),
        views::save_svg(what),
    );
    view! {
        <details class="figure-save" hidden=move || hidden.get()>
            <summary class="face-toggle" aria-label=move || word(&save)>{t(views::save_menu)}</summary>
            <span class="figure-save-menu">
                {csv}
                <button type="button" class="face-toggle" data-action="download-png" aria-label=move || word(&png)>"PNG"</button>
                <button type="button" class="face-toggle" data-action="download-svg" aria-label=move || word(&svg)>"SVG"</button>
            </span>
        </details>
    }
}

/// The format asked for when a click in a caption is on [`save_menu`]'s PNG or SVG.
pub fn clicked(ev: &leptos::ev::MouseEvent) -> Option<Format> {
    use wasm_bindgen::JsCast;
    let button = ev
        .target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest("[data-action]")
        .ok()??;
    match button.get_attribute("data-action")?.as_str() {
        "download-png" => Some(Format::Png),
        "download-svg" => Some(Format::Svg),
        _ => None,
    }
}

/// A click in a figure holding an SVG drawing (the lines, a loss plot): saves it as `name` if
/// the click was on [`save_menu`]'s.
pub fn save_drawing(ev: leptos::ev::MouseEvent, name: &'static str) {
    use wasm_bindgen::JsCast;
    let Some(format) = clicked(&ev) else {
        return;
    };
    let svg = ev
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|inside| inside.closest("figure").ok().flatten())
        .and_then(|figure| figure.query_selector("svg").ok().flatten());
    if let Some(svg) = svg {
        save(
            Picture::Drawing {
                name: name.to_owned(),
                svg,
            },
            format,
        );
    }
}

/// The button that downloads a matrix as CSV (in the save menu, hidden while an exercise
/// covers some of it).
// Inlined: a call from the page's module to a function shared with a chunk cost 0.8 KB there.
#[inline(always)]
pub fn csv_button(spec: &MatrixSpec) -> impl IntoView {
    let MatrixSpec {
        shows,
        head,
        matrix,
        row_labels,
        col_labels,
        ..
    } = *spec;
    let label = views::download_csv(spec.name());
    view! {
        <button
            type="button"
            class="face-toggle"
            data-action="download-csv"
            aria-label=move || word(&label)
            on:click=move |_| {
                let csv = matrix.with_untracked(|m| {
                    row_labels.with_untracked(|r| col_labels.with_untracked(|c| matrix_csv(m, r, c)))
                });
                let file = format!("{}.csv", file_stem(shows.name(), head));
                download(&file, "text/csv", &csv);
            }
        >
            "CSV"
        </button>
    }
}
