//! A heat map's cursor and the mouse over it: which cell is read out, clicked, explained or
//! edited, from the mouse or the keyboard.

use leptos::ev;
use leptos::html::Canvas;
use leptos::prelude::*;

use crate::core::views::cursor::{cell_key, moved, CellKey};
use crate::core::views::heatmap::Layout;
use crate::ui::matrix::spec::MatrixSpec;

/// The cursor (arrow keys), the cell under the mouse and whether the edit box is open.
#[derive(Clone, Copy)]
pub(super) struct Pointer {
    spec: MatrixSpec,
    canvas: NodeRef<Canvas>,
    shape: Memo<(usize, usize)>,
    layout: Memo<Layout>,
    pub cursor: RwSignal<Option<(usize, usize)>>,
    pub hover: RwSignal<Option<(usize, usize)>>,
    pub editing: RwSignal<bool>,
}

impl Pointer {
    /// No cursor yet; a new shape (a sentence, a resize, a loaded state) closes the edit box and
    /// brings the cursor back inside the matrix.
    pub fn new(
        spec: MatrixSpec,
        canvas: NodeRef<Canvas>,
        shape: Memo<(usize, usize)>,
        layout: Memo<Layout>,
    ) -> Self {
        let pointer = Pointer {
            spec,
            canvas,
            shape,
            layout,
            cursor: RwSignal::new(None),
            hover: RwSignal::new(None),
            editing: RwSignal::new(false),
        };
        Effect::new(move |previous: Option<(usize, usize)>| {
            let (rows, cols) = shape.get();
            if previous.is_some_and(|p| p != (rows, cols)) {
                pointer.editing.set(false);
                pointer.cursor.update(|c| {
                    *c = c
                        .filter(|_| rows > 0 && cols > 0)
                        .map(|(i, j)| (i.min(rows - 1), j.min(cols - 1)))
                });
            }
            (rows, cols)
        });
        pointer
    }

    /// The cell read out: under the mouse, else under the cursor.
    pub fn shown(self) -> Signal<Option<(usize, usize)>> {
        Signal::from(Memo::new(move |_| self.hover.get().or(self.cursor.get())))
    }

    /// The point in the layout's pixels: a map narrowed to its column is drawn smaller.
    fn at(self, ev: &ev::MouseEvent) -> (f64, f64) {
        let shown = self
            .canvas
            .get_untracked()
            .map_or(0, |c| c.client_width())
            .max(1);
        let scale = self.layout.with_untracked(|l| l.width) / f64::from(shown);
        (
            f64::from(ev.offset_x()) * scale,
            f64::from(ev.offset_y()) * scale,
        )
    }

    fn cell_under(self, ev: &ev::MouseEvent) -> Option<(usize, usize)> {
        let (x, y) = self.at(ev);
        self.layout.with_untracked(|l| l.cell_at(x, y))
    }

    /// Only a new cell repaints: the mouse moves far more often than it changes cell.
    pub fn hover(self, ev: &ev::MouseEvent) {
        let cell = self.cell_under(ev);
        if self.hover.get_untracked() != cell {
            self.hover.set(cell);
        }
    }

    /// Puts the cursor on `(i, j)`, explains the cell and opens its edit box if it is editable.
    fn act(self, (i, j): (usize, usize)) {
        self.cursor.set(Some((i, j)));
        if let Some(cb) = self.spec.on_cell_click {
            cb.run((i, j));
        }
        if self.spec.editor.is_some() {
            self.editing.set(true);
        }
    }

    /// A click on a cell acts on it; on a row's label, follows that row.
    pub fn click(self, ev: &ev::MouseEvent) {
        if let Some(cell) = self.cell_under(ev) {
            self.act(cell);
        } else if let Some(i) = self.layout.with_untracked(|l| {
            let (x, y) = self.at(ev);
            l.row_label_at(x, y)
        }) {
            if let Some(cb) = self.spec.on_row_click {
                cb.run(i);
            }
        }
    }

    /// Arrow keys move the cursor; Enter or Space acts on its cell.
    pub fn key(self, ev: &ev::KeyboardEvent) {
        let Some(key) = cell_key(&ev.key(), ev.shift_key(), false) else {
            return;
        };
        ev.prevent_default();
        let (rows, cols) = self.shape.get_untracked();
        let at = self.cursor.get_untracked().unwrap_or((0, 0));
        match moved(at, (rows, cols), key) {
            Some(next) => self.cursor.set(Some(next)),
            // The matrix may have shrunk since the cursor last moved.
            None if key == CellKey::Act && rows > 0 && cols > 0 => {
                self.act((at.0.min(rows - 1), at.1.min(cols - 1)))
            }
            None => {}
        }
    }

    /// Focus from the keyboard puts the cursor on the first cell.
    pub fn focus(self) {
        if self.cursor.get_untracked().is_none() {
            self.cursor.set(Some((0, 0)));
        }
    }
}
