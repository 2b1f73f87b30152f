//! What the opening page written at build time holds, as the live module (`super`) reads it:
//! its tables with what each shows, its pictures of attention lines, a cell's place, and what
//! the module dims until the app takes over.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement, NodeList};

use crate::core::formats::link::DEFAULT_DECIMALS;
use crate::core::forward::trace::Trace;
use crate::core::model::{Editable, Matrix, Model};
use crate::core::views::cells::CellView;

/// A table of the opening page and what it shows.
pub struct Table {
    /// Which matrix, of which head (0 outside the heads).
    pub matrix: Matrix,
    pub head: usize,
    /// Its `<td>`s, row by row.
    pub cells: NodeList,
    /// Its cells hold inputs (the learner's matrices): their text is the learner's.
    pub editable: bool,
    /// What each cell shows now.
    pub shown: Vec<CellView>,
}

/// A picture of attention lines: the followed query's weights in a head.
pub struct Lines {
    pub svg: Element,
    /// Its lines (`g.attention-lines`).
    pub group: Element,
    /// The opening's picture (`data-view="opening-lines"`).
    pub opening: bool,
    pub head: usize,
    pub query: usize,
}

/// The tables of `page` with what `model` gives them (`trace`, its forward pass); none unless
/// every cell shows that number to the last digit.
pub fn tables(page: &Element, model: &Model, trace: &Trace) -> Option<Vec<Table>> {
    let found = page.query_selector_all("table[data-matrix]").ok()?;
    let mut tables = Vec::new();
    for k in 0..found.length() {
        let table: Element = found.item(k)?.dyn_into().ok()?;
        let (matrix, head) = shows(&table)?;
        let cells = table.query_selector_all("tbody td").ok()?;
        let shown = views(model, trace, matrix, head)?;
        // The page must be the model's to the last digit, or it is left alone.
        let same = shown.len() == cells.length() as usize
            && shown.iter().enumerate().all(|(i, cell)| {
                cells
                    .item(i as u32)
                    .and_then(|td| td.dyn_into::<Element>().ok())
                    .and_then(|td| td.get_attribute("data-value"))
                    .is_some_and(|v| v == cell.value.to_string())
            });
        if !same {
            return None;
        }
        tables.push(Table {
            matrix,
            head,
            editable: table.class_list().contains("editable"),
            cells,
            shown,
        });
    }
    Some(tables)
}

/// The pictures of attention lines in `page`.
pub fn lines(page: &Element) -> Vec<Lines> {
    let Ok(pictures) = page.query_selector_all("svg[data-query]") else {
        return Vec::new();
    };
    (0..pictures.length())
        .filter_map(|k| {
            let svg: Element = pictures.item(k)?.dyn_into().ok()?;
            Some(Lines {
                group: svg.query_selector("g.attention-lines").ok()??,
                opening: svg.get_attribute("data-view").as_deref() == Some("opening-lines"),
                head: svg.get_attribute("data-head")?.parse().ok()?,
                query: svg.get_attribute("data-query")?.parse().ok()?,
                svg,
            })
        })
        .collect()
}

/// What a table of `matrix` (of `head`) shows for `model`, at the page's decimals.
pub fn views(model: &Model, trace: &Trace, matrix: Matrix, head: usize) -> Option<Vec<CellView>> {
    let m = matrix.shown(model, trace, head)?;
    let grey = model.causal && matrix.greys_future();
    Some(CellView::of_matrix(
        m,
        DEFAULT_DECIMALS,
        matrix.heat(),
        grey,
    ))
}

/// The matrix a table shows, and its head (0 outside the heads), by its `data-matrix` and
/// `data-head`.
fn shows(table: &Element) -> Option<(Matrix, usize)> {
    let head = table
        .get_attribute("data-head")
        .map_or(Some(0), |h| h.parse().ok())?;
    Some((Matrix::named(&table.get_attribute("data-matrix")?)?, head))
}

/// The learner's matrix, row and column of a cell's input in the opening page.
pub fn cell_of(input: &HtmlInputElement) -> Option<(Editable, usize, usize)> {
    let td = input.closest("#prerendered table.editable td").ok()??; // not words: a selector
    let (matrix, head) = shows(&td.closest("table[data-matrix]").ok()??)?;
    let target = matrix.editable(head)?;
    let row = td.get_attribute("data-row")?.parse().ok()?;
    let col = td.get_attribute("data-col")?.parse().ok()?;
    Some((target, row, col))
}

/// What this module cannot redraw: the opening page's sentences that quote its numbers, and
/// its heat maps' pictures; dimmed until the app takes over and shows them again (style.css,
/// `[data-stale]`). They and the lines' pictures, whose labels quote numbers, are told to a
/// screen reader as being updated (`aria-busy`). But those in `said`: the live module says them
/// again.
pub fn dim_stale<'a>(said: impl Iterator<Item = &'a Element>) {
    let said: Vec<&Element> = said.collect();
    // Selectors, not words.
    const DIMMED: &str = "#prerendered :is([data-says-numbers], [data-matrix]:not(table))"; // not words
    const LINES: &str = "#prerendered svg[data-query]"; // not words
    mark(&[(DIMMED, true), (LINES, false)], &said);
}

/// A field other than a number was changed: what the opening page shows now waits for the app.
/// It no longer answers (`data-live` gone, the loading line's words back as www/boot.js kept
/// them), and every number, picture and sentence quoting one is dimmed and busy.
pub fn wait_for_app() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(page) = document.get_element_by_id("prerendered") {
        page.remove_attribute("data-live").ok();
    }
    if let Some(line) = document.get_element_by_id("boot-status") {
        if let Some(loading) = line.get_attribute("data-loading") {
            line.set_text_content(Some(&loading));
        }
    }
    const ALL: &str = "#prerendered :is([data-says-numbers], [data-matrix], svg[data-query])"; // not words
    mark(&[(ALL, true)], &[]);
}

/// Marks what `selectors` find, but not `said`, busy (`aria-busy`) and, where a selector's flag
/// says so, dimmed (`data-stale`).
fn mark(selectors: &[(&str, bool)], said: &[&Element]) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    for &(selector, dim) in selectors {
        let Ok(found) = document.query_selector_all(selector) else {
            continue;
        };
        for k in 0..found.length() {
            if let Some(el) = found.item(k).and_then(|n| n.dyn_into::<Element>().ok()) {
                if said.iter().any(|s| s.is_same_node(Some(&el))) {
                    continue;
                }
                if dim {
                    el.set_attribute("data-stale", "").ok();
                }
                el.set_attribute("aria-busy", "true").ok();
            }
        }
    }
}
