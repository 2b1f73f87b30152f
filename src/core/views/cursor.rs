//! The keyboard model of a matrix's cells, the same for both faces (a table's cells and a heat
//! map's cursor): which key moves where, and which one acts on the cell (explains a score,
//! follows a token, opens the edit box). The views only read the key and draw the result.

use crate::core::i18n::keys::views;
use crate::core::i18n::Msg;

/// What a key asks of the cell cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKey {
    /// Move by (rows, columns).
    Step(isize, isize),
    /// To the row's first cell.
    RowStart,
    /// To the row's last cell.
    RowEnd,
    /// Act on the cell, as a click does.
    Act,
}

/// The cursor's meaning of `key` (as `KeyboardEvent.key` names it), if any. In an editable
/// cell Enter moves down (Shift+Enter up) as in a spreadsheet, and Home, End and Space belong
/// to the text; on a read-only cell or a heat map Enter and Space act.
pub fn cell_key(key: &str, shift: bool, editing: bool) -> Option<CellKey> {
    Some(match key {
        "ArrowUp" => CellKey::Step(-1, 0),
        "ArrowDown" => CellKey::Step(1, 0),
        "ArrowLeft" => CellKey::Step(0, -1),
        "ArrowRight" => CellKey::Step(0, 1),
        "Enter" if editing => CellKey::Step(if shift { -1 } else { 1 }, 0),
        "Home" if !editing => CellKey::RowStart,
        "End" if !editing => CellKey::RowEnd,
        "Enter" | " " if !editing => CellKey::Act,
        _ => return None,
    })
}

/// Where `key` takes the cursor from (`row`, `col`) in a matrix of `shape`: kept inside it (a
/// matrix that shrank brings the cursor back in); `None` when there is no cell at all or the
/// key acts rather than moves.
pub fn moved(
    (row, col): (usize, usize),
    (rows, cols): (usize, usize),
    key: CellKey,
) -> Option<(usize, usize)> {
    if rows == 0 || cols == 0 {
        return None;
    }
    let (i, j) = (row.min(rows - 1), col.min(cols - 1));
    let clamp = |x: usize, d: isize, n: usize| x.saturating_add_signed(d).min(n - 1);
    match key {
        CellKey::Step(dr, dc) => Some((clamp(i, dr, rows), clamp(j, dc, cols))),
        CellKey::RowStart => Some((i, 0)),
        CellKey::RowEnd => Some((i, cols - 1)),
        CellKey::Act => None,
    }
}

/// Where a heat map's readout says a cell is: `query “she” → key “dog”` for queries × keys,
/// `row 2 “dog”, column 1` otherwise (the row's name only when it is not its number).
pub fn place(i: usize, row: &str, col: &str, query_by_key: bool) -> Msg {
    if query_by_key {
        views::place_query_key(row, col)
    } else if row == i.to_string() {
        views::place_row(i, col)
    } else {
        views::place_named_row(i, row, col)
    }
}
