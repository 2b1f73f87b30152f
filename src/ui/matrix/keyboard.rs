//! Moving through a table with the keyboard alone, like a spreadsheet; which key does what is
//! `core::views::cursor`'s, shared with the heat map.

use wasm_bindgen::JsCast;

use crate::core::views::cursor::{cell_key, CellKey};
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

/// In an editable cell: arrows, Enter and Shift+Enter move to the neighbouring cell and select
/// its text; Left and Right only while the whole number is selected or the caret is at the
/// text's edge, so they still move within the text. F2 edits in place (the caret to the end).
pub fn from_input(ev: KeyboardEvent) {
    let Some(input) = ev
        .target()
        .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
    else {
        return;
    };
    let len = input.value().chars().count();
    let at = |end: Result<Option<u32>, _>| end.ok().flatten().unwrap_or(0) as usize;
    let (start, end) = (at(input.selection_start()), at(input.selection_end()));
    if ev.key() == "F2" {
        ev.prevent_default();
        input.set_selection_range(len as u32, len as u32).ok();
        return;
    }
    let whole = start == 0 && end == len;
    let (dr, dc) = match cell_key(&ev.key(), ev.shift_key(), true) {
        Some(CellKey::Step(0, -1)) if !whole && start > 0 => return,
        Some(CellKey::Step(0, 1)) if !whole && end < len => return,
        Some(CellKey::Step(dr, dc)) => (dr, dc),
        _ => return,
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

/// On a read-only cell: arrows move between cells, Home and End to the row's ends; Enter or
/// Space acts as a click (explains a score, follows a token).
pub fn from_cell(ev: KeyboardEvent) {
    let Some(cell) = ev
        .current_target()
        .and_then(|t| t.dyn_into::<HtmlElement>().ok())
    else {
        return;
    };
    let next = match cell_key(&ev.key(), ev.shift_key(), false) {
        Some(CellKey::Act) => {
            ev.prevent_default();
            cell.click();
            return;
        }
        Some(CellKey::Step(dr, dc)) => neighbour(&cell, dr, dc),
        // The row's first and last cells: after its label, and its last child.
        Some(CellKey::RowStart) => cell
            .parent_element()
            .and_then(|tr| tr.query_selector("td").ok().flatten()),
        Some(CellKey::RowEnd) => cell.parent_element().and_then(|tr| tr.last_element_child()),
        None => None,
    };
    if let Some(next) = next.and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
        ev.prevent_default();
        next.focus().ok();
    }
}
