//! The opening page made live before the app arrives: its own small module
//! (`src/bin/attention-live.rs`), fetched first by `www/boot.js` when the visit shows an opening
//! page written at build time. A number typed into one of its tables is applied to its preset's
//! model, run through the core's forward pass and painted into every later table and the
//! attention lines by the app's own painters, so the page answers its first edit long before the
//! app's code has arrived on a slow phone (docs/developers/benchmarks.md). On an English page
//! the sentences that quote numbers are said again as the app says them (`words.rs`); the rest
//! (those of another language, the √dₖ comparison, a heat map's picture) is dimmed
//! (`data-stale`) until the app takes over. It then applies what was typed again
//! (`prerendered.rs`), as the learner did, and shows the same numbers. What the opening page
//! holds, as this reads it, is `page.rs`.
//!
//! No Leptos here: the first module of the page is the one this is not.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlInputElement};

use crate::core::document::numbers::{read_cell, CellText};
use crate::core::forward::trace::Trace;
use crate::core::model::presets::preset;
use crate::core::model::Model;
use crate::core::views::cells::Changes;
use crate::core::views::lines::paint_parts;
use crate::ui::matrix::paint::{paint_cells, paint_lines};
use crate::ui::prerendered::changed;

mod page;
mod words;

use page::{cell_of, dim_stale, lines, tables, views, wait_for_app, Lines, Table};
use words::Said;

/// The opening page's model and what it shows of it.
struct Live {
    model: Model,
    tables: Vec<Table>,
    lines: Vec<Lines>,
    /// What it says again of the numbers: on an English page only.
    said: Option<Said>,
    /// The preset as the page was written: a cell whose text is not a number the app would
    /// take holds its number from here, as the app's hand-over leaves it.
    written: Model,
    changes: Changes,
    /// Whether what this module cannot redraw is dimmed yet.
    stale: bool,
    /// A field other than a number was changed (the sentence, a setting): what it changes is
    /// the app's to show, so from then on this module paints nothing.
    done: bool,
}

/// Makes the opening page on screen live, if it is one this module can: a preset's, whose
/// tables all show what the preset's model gives. Else it leaves the page as it is.
pub fn start() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(mut live) = Live::of_page(&document) else {
        return;
    };
    live.typed_before(&document);
    if live.done {
        return;
    }
    // Said to www/boot.js (its loading line then says numbers typed work) and to scripts; gone
    // with the opening page when the app takes over, or once the page waits for it.
    if let Some(page) = document.get_element_by_id("prerendered") {
        page.set_attribute("data-live", "").ok();
    }
    let live = Rc::new(RefCell::new(live));
    let on_input = Closure::<dyn Fn(web_sys::Event)>::new(move |event: web_sys::Event| {
        if let Ok(mut live) = live.try_borrow_mut() {
            live.input(&event);
        }
    });
    document
        .add_event_listener_with_callback("input", on_input.as_ref().unchecked_ref())
        .ok();
    // For as long as the page lives: once the app has taken over, `#prerendered` is gone and it
    // does nothing.
    on_input.forget();
}

impl Live {
    /// The opening page's preset model, tables and lines; none when the page is not a preset's
    /// opening page or its numbers are not the model's.
    fn of_page(document: &Document) -> Option<Live> {
        let snapshot = document
            .document_element()?
            .get_attribute("data-snapshot")?;
        // `dog`, `dog.es` (in Spanish), `embed-dog` (an embed's).
        let mut name = snapshot.trim_start_matches("embed-").split('.');
        let model = preset(name.next()?)?;
        let english = name.next().is_none();
        let page = document.get_element_by_id("prerendered")?;
        let tables = tables(&page, &model, &Trace::of(&model))?;
        let lines = lines(&page);
        Some(Live {
            written: model.clone(),
            model,
            tables,
            said: english.then(|| Said::of_page(&page, &lines)),
            lines,
            changes: Changes::default(),
            stale: false,
            done: false,
        })
    }

    /// What the learner typed before this module came (on a slow phone, a second or two of
    /// the opening page on screen): numbers applied as if typed now, unless another field was
    /// changed too.
    fn typed_before(&mut self, document: &Document) {
        let Ok(fields) = document.query_selector_all("#prerendered :is(input, textarea, select)")
        else {
            return;
        };
        let mut cells = Vec::new();
        for k in 0..fields.length() {
            let Some(field) = fields.item(k).and_then(|n| n.dyn_into::<Element>().ok()) else {
                continue;
            };
            if changed(&field).is_none() {
                continue;
            }
            match field.dyn_into::<HtmlInputElement>() {
                Ok(cell) if cell_of(&cell).is_some() => cells.push(cell),
                _ => self.done = true,
            }
        }
        if self.done {
            wait_for_app();
            return;
        }
        for cell in &cells {
            self.typed(cell);
        }
    }

    /// The learner typed into a field: a cell of one of the learner's matrices is applied as the
    /// app applies it, and the page repainted.
    fn input(&mut self, event: &web_sys::Event) {
        let Some(field) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return;
        };
        match field
            .dyn_ref::<HtmlInputElement>()
            .filter(|i| cell_of(i).is_some())
        {
            Some(cell) if !self.done => self.typed(cell),
            None if !self.done && field.closest("#prerendered").ok().flatten().is_some() => {
                self.done = true;
                wait_for_app();
            }
            _ => {}
        }
    }

    /// `input`'s text applied to its cell, and the page repainted. Its number is what the app
    /// will make of the text when it takes over (`prerendered.rs` types it again into the page as
    /// written): a number typed, else the number written there.
    fn typed(&mut self, input: &HtmlInputElement) {
        let Some((target, row, col)) = cell_of(input) else {
            return;
        };
        let text = input.value();
        let value = match read_cell(&text) {
            CellText::Number(x) if text != input.default_value() => Some(x),
            _ => self
                .written
                .matrix(target)
                .and_then(|m| m.get((row, col)).copied()),
        };
        if let Some(value) = value {
            self.model.set(target, row, col, value);
            self.paint();
        }
    }

    /// Every table and picture of lines as the model now gives them.
    fn paint(&mut self) {
        let trace = Trace::of(&self.model);
        for table in &mut self.tables {
            let Some(new) = views(&self.model, &trace, table.matrix, table.head) else {
                continue;
            };
            self.changes.clear();
            for (k, (old, new)) in table.shown.iter_mut().zip(new).enumerate() {
                if *old != new {
                    self.changes.push(k, old, &new, !table.editable);
                    *old = new;
                }
            }
            if !self.changes.at.is_empty() {
                paint_cells(
                    &table.cells,
                    &self.changes.at,
                    &self.changes.texts,
                    &self.changes.flags,
                );
            }
        }
        // Each picture's weights, for its lines and its caption.
        let rows: Vec<_> = self
            .lines
            .iter()
            .map(|l| trace.weights_row(l.head, l.query))
            .collect();
        for (lines, row) in self.lines.iter().zip(&rows) {
            if let Some(row) = row {
                paint_lines(&lines.group, &paint_parts(row));
            }
        }
        if let Some(said) = &self.said {
            said.say(&self.model, &trace, &self.lines, &rows);
        }
        if !self.stale {
            self.stale = true;
            let said = self.said.iter().flat_map(|s| s.elements(&self.lines));
            dim_stale(said);
        }
    }
}
