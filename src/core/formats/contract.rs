//! The names the page shares with other programs: a course page or notebook (its messages), the
//! browser's storage (where saved work is kept), `www/boot.js` (which reads that work before the
//! app), a server (the content security policy). Each has its home here; the copies that other
//! languages need are checked equal to it by `tests/one_home.rs`.

/// The start of every message the page posts or answers (`attention-explorer:resize`, …).
pub const MESSAGE_PREFIX: &str = "attention-explorer:";

/// The message an embedded page posts with its height, for its course page to fit the frame.
pub const RESIZE: &str = "attention-explorer:resize";

/// The event an embedded page dispatches on its own window once it answers its course page's
/// messages: `www/boot.js` keeps the messages that come before (the page's tools arrive as a
/// chunk) and hands them over then, in their order.
pub const LISTENING: &str = "attention-explorer:listening";

/// The message `www/boot.js` posts to the service worker with the files fetched before it kept
/// the page (a trained model's, a language's), for it to keep them too.
pub const KEEP: &str = "attention-explorer:keep";

/// Where the page keeps the learner's choice of language (a tag; `www/boot.js` reads it too).
pub const LANG_KEY: &str = "attention-explorer:lang";

/// Where the full page keeps the learner's work.
pub const WORK_KEY: &str = "attention-explorer:work";

/// Where an embed keeps its learner's work: one place per embed, named by its query (`search`,
/// with its `?`), so an embedded exercise does not restore the full page's work.
pub fn embed_work_key(search: &str) -> String {
    format!("{MESSAGE_PREFIX}embed:{search}")
}

/// Where the learner's progress in a link's exercises is kept: one place per exercise link
/// (its query, `search`, names the exercises).
pub fn progress_key(search: &str) -> String {
    format!("{MESSAGE_PREFIX}exercises:{search}")
}

/// The content security policy the page is served with (docs/teachers.md, the notebook's
/// server, the tests' server).
pub const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'";

/// The embeds' entry page, beside the full page: the same page without the default opening page
/// written into it, which an embed's frame would download and never show. The Embed dialog's
/// snippets name it, or an embed's page of its own (`link::snapshot::embed_page`); an embed's
/// link opens the same on the full page.
pub const EMBED_PAGE: &str = "embed.html";

/// The folder of the page at `pathname`, where the embeds' pages are too.
pub fn page_folder(pathname: &str) -> &str {
    &pathname[..pathname.rfind('/').map_or(0, |i| i + 1)]
}

/// The full page's path for a page at `pathname`: for an embeds' page (`embed.html`,
/// `embed-dog-weights.html`), its folder; else the page itself.
pub fn full_page_path(pathname: &str) -> &str {
    let folder = page_folder(pathname);
    let file = &pathname[folder.len()..];
    if file == EMBED_PAGE || (file.starts_with("embed-") && file.ends_with(".html")) {
        folder
    } else {
        pathname
    }
}
