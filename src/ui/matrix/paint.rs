//! The page's DOM writers for what changes on every edit, hand-written as a plain-JS page would
//! be: a table's changed cells and the attention lines' weights, each in one call. One snippet
//! for both: each snippet is a file the first screen fetches.

// Every string crossing from wasm to JS pays for a TextDecoder call, which cost more than the DOM
// writes themselves when each cell sent three (measured on `dog`: 0.86 of 3.8 ms per edit), so
// each call takes one string of parts, each followed by U+0001.
#[wasm_bindgen::prelude::wasm_bindgen(inline_js = "
export function paint_cells(cells, at, texts, flags) {
  const parts = texts.split('\\u0001');
  for (let n = 0; n < at.length; n++) {
    const td = cells[at[n]], value = parts[3 * n], text = parts[3 * n + 1], heat = parts[3 * n + 2];
    if (!td) continue;
    if (value) td.setAttribute(flags[n] & 8 ? 'data-grad' : 'data-value', value);
    if (text) td.firstChild.nodeValue = text;
    if (heat) td.style.setProperty('--heat', heat);
    if (flags[n] & 16) td.classList.toggle('masked', (flags[n] & 1) === 1);
    if (flags[n] & 4) {
      const fails = (flags[n] & 2) === 2;
      td.classList.toggle('fails', fails);
      if (fails) td.setAttribute('data-fails', 'true'); else td.removeAttribute('data-fails');
    }
  }
}
export function paint_lines(group, texts) {
  const parts = texts.split('\\u0001');
  for (const line of group.children) {
    const k = 3 * line.dataset.key;
    line.setAttribute('data-weight', parts[k]);
    line.setAttribute('stroke-width', parts[k + 1]);
    line.setAttribute('stroke-opacity', parts[k + 2]);
  }
}")]
extern "C" {
    /// Writes cells `at` of `cells` (a table's `<td>`s): each one's `data-value` (a gradient's
    /// `data-grad`), text and `--heat` from `texts`, an empty part where it did not change, and
    /// its `flags`: bit 1 masked, 2 flagged, 4 the flag changed, 8 a gradient, 16 the mask
    /// changed.
    pub fn paint_cells(cells: &web_sys::NodeList, at: &[u32], texts: &str, flags: &[u8]);
    /// Writes each `<line>` of `group` its key's weight, stroke width and opacity: the three
    /// parts of `texts` at its `data-key`.
    pub fn paint_lines(group: &web_sys::Element, texts: &str);
}
