//! The opening page's sentences that quote its numbers, said again by the live module (`super`)
//! after each edit as the app says them: the story, the context step's blend and each picture of
//! lines' caption (and its label). In English only: a page in another language keeps them dimmed
//! until the app, which fetches that language's words, takes over.

use web_sys::Element;

use crate::core::formats::link::DEFAULT_DECIMALS;
use crate::core::forward::trace::Trace;
use crate::core::model::Model;
use crate::core::teaching::story::{blend, lines_caption, Story};

use super::page::Lines;

/// What the live module says again on an English opening page.
pub struct Said {
    /// The opening's story (`data-stat="story"`).
    story: Option<Element>,
    /// The context step's blend (`data-stat="blend"`).
    blend: Option<Element>,
    /// Each picture of lines' caption: the `<figcaption>` beside it.
    captions: Vec<Option<Element>>,
}

impl Said {
    /// What `page`, an English opening page, says of its numbers, beside its `lines`.
    pub fn of_page(page: &Element, lines: &[Lines]) -> Said {
        let stat = |name: &str| {
            page.query_selector(&format!("[data-stat=\"{name}\"]")) // not words: a selector
                .ok()
                .flatten()
        };
        let captions = lines
            .iter()
            .map(|l| {
                l.svg
                    .closest("figure")
                    .ok()
                    .flatten()
                    .and_then(|f| f.query_selector("figcaption").ok().flatten())
            })
            .collect();
        Said {
            story: stat("story"),
            blend: stat("blend"),
            captions,
        }
    }

    /// Every sentence worded for `model` (`trace`, its forward pass), as `lines` show it
    /// (`rows`: each picture's weights).
    pub fn say(&self, model: &Model, trace: &Trace, lines: &[Lines], rows: &[Option<Vec<f64>>]) {
        let words = &model.tokens().words;
        let keys = &model.key_tokens().words;
        let heads = trace.heads.len();
        for ((lines, text), row) in lines.iter().zip(&self.captions).zip(rows) {
            let word = words.get(lines.query).map_or("", String::as_str);
            let row = row.as_deref().unwrap_or_default();
            let at = (lines.head, heads, lines.opening);
            let said = lines_caption(word, at, row, keys, DEFAULT_DECIMALS).english();
            if let Some(text) = text {
                text.set_text_content(Some(&said));
            }
            lines.svg.set_attribute("aria-label", &said).ok();
        }
        // Told of the first head shown and the followed token: the first picture's (the
        // opening's, else the weights step's).
        let Some(first) = lines.first() else { return };
        let Some(story) = Story::of(trace, first.head, first.query) else {
            return;
        };
        let told = story.telling(model.sentence(), words, keys, DEFAULT_DECIMALS);
        if let Some(blend_) = &self.blend {
            blend_.set_text_content(Some(&blend(told.clone(), first.head, heads).english()));
        }
        if let Some(story) = &self.story {
            story.set_text_content(Some(&told.english()));
        }
    }

    /// The elements it says again: not dimmed, and not busy for a screen reader.
    pub fn elements<'a>(&'a self, lines: &'a [Lines]) -> impl Iterator<Item = &'a Element> {
        let captions = self.captions.iter().flatten();
        let svgs = lines.iter().map(|l| &l.svg);
        self.story
            .iter()
            .chain(&self.blend)
            .chain(captions)
            .chain(svgs)
    }
}
