//! Moving through a table with the keyboard alone, like a spreadsheet.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, HtmlInputElement, KeyboardEvent};

/// The cell `dr` rows and `dc` columns away from `cell` in the same table.
fn neighbour(cell: &Element, dr: isize, dc: isize) -> Option<Element> {
    let index = |name: &str| cell.get_attribute(name)?.parse::<isize>().ok();
    let (r, c) = (index("data-row")?, index("data-col")?);
    let table = cell.closest("table").ok()??;
    table
        .query_selector(&format!(
            "td[data-row=\"{}\"][data-col=\"{}\"]",
            r + dr,
            c + dc
        ))
        .ok()?
}

/// The (rows, columns) step of an arrow key.
fn arrow(key: &str) -> Option<(isize, isize)> {
    match key {
        "ArrowUp" => Some((-1, 0)),
        "ArrowDown" => Some((1, 0)),
        "ArrowLeft" => Some((0, -1)),
        "ArrowRight" => Some((0, 1)),
        _ => None,
    }
}

/// In an editable cell: arrows, Enter and Shift+Enter move to the neighbouring cell and select
/// its text; Left and Right only once the caret is at the text's edge, so they still move
/// within the text.
pub fn from_input(ev: KeyboardEvent) {
    let Some(input) = ev
        .target()
        .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
    else {
        return;
    };
    let caret = input.selection_start().ok().flatten().unwrap_or(0) as usize;
    let len = input.value().chars().count();
    let key = ev.key();
    let (dr, dc) = match key.as_str() {
        "Enter" if ev.shift_key() => (-1, 0),
        "Enter" => (1, 0),
        "ArrowLeft" if caret > 0 => return,
        "ArrowRight" if caret < len => return,
        _ => match arrow(&key) {
            Some(step) => step,
            None => return,
        },
    };
    let next = input
        .closest("td")
        .ok()
        .flatten()
        .and_then(|cell| neighbour(&cell, dr, dc));
    if let Some(next) = next
        .and_then(|td| td.query_selector("input").ok().flatten())
        .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
    {
        ev.prevent_default();
        next.focus().ok();
        next.select();
    }
}

/// On a read-only cell: arrows move between cells; Enter or Space acts as a click (explains a
/// score, follows a token).
pub fn from_cell(ev: KeyboardEvent) {
    let Some(cell) = ev
        .current_target()
        .and_then(|t| t.dyn_into::<HtmlElement>().ok())
    else {
        return;
    };
    let key = ev.key();
    if key == "Enter" || key == " " {
        ev.prevent_default();
        cell.click();
        return;
    }
    let Some((dr, dc)) = arrow(&key) else { return };
    if let Some(next) = neighbour(&cell, dr, dc).and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
        ev.prevent_default();
        next.focus().ok();
    }
}
