//! Which opening page written at build time a visit shows before the page's code arrives.
//! `www/boot.js` decides it in the browser, from this rule's words as the build hands them over
//! (core::formats::boot); `tests/boot_rule.rs` runs boot.js on a table of links and checks it
//! decides as [`snapshot`] does.

use super::linked_lang;
use super::values::{pairs, pairs_of_fragment};
use crate::core::formats::contract::EMBED_PAGE;
use crate::core::i18n::Lang;
use crate::core::model::presets::{preset, PRESETS};
use crate::core::views::pipeline::{Shape, Step};

use super::page::{Controls, Theme};

/// Keys that change nothing the opening page shows (the theme is the stylesheet's; a language
/// has pages of its own).
pub const FREE_KEYS: [&str; 2] = ["theme", "lang"];
/// What a page's link may ask for besides them, and still open on its preset's snapshot.
pub const PAGE_KEYS: [&str; 1] = ["preset"];
/// What an embed's link may ask for (its default controls, a preset, the steps it shows).
pub const EMBED_KEYS: [&str; 5] = ["embed", "view", "steps", "preset", "controls"];

/// The snapshot a visit to `search`#`hash` shows, by the name the build gives it: a preset's
/// page (`dog`), the default page in another language (`dog.fr`), a preset's embed
/// (`embed-dog`); none when the link asks for more, when `saved_work` will open instead, or
/// for a page in another language than the default's. Whether the build made that snapshot is
/// the build's (`data-prerendered`). `lang` is the visit's language ([`Lang::choose`]).
pub fn snapshot(search: &str, hash: &str, lang: Lang, saved_work: bool) -> Option<String> {
    let mut params = pairs(search.strip_prefix('?').unwrap_or(search));
    let fragment = pairs_of_fragment(hash.strip_prefix('#').unwrap_or(hash));
    // A theme the page does not know gets a message there.
    let known = |t: &str| Theme::ALL.iter().any(|k| k.key() == t);
    if params
        .iter()
        .chain(&fragment)
        .any(|(k, v)| k == "theme" && !known(v))
    {
        return None;
    }
    params.extend(fragment);
    params.retain(|(k, _)| !FREE_KEYS.contains(&k.as_str()));
    // The first of a key, as the browser's URLSearchParams gives it; a key given twice is the
    // page's to read (its last wins), not a snapshot's.
    let get = |key: &str| {
        params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    let keys: Vec<&str> = params.iter().map(|(k, _)| k.as_str()).collect();
    if (1..keys.len()).any(|i| keys[..i].contains(&keys[i])) {
        return None;
    }
    let default = PRESETS[0].name;
    let embed = get("embed") == Some("1") || (get("view").is_some() && get("embed").is_none());
    let name = if embed {
        let steps = get("view")
            .or(get("steps"))
            .map(|s| s.split(',').filter(|s| !s.is_empty()).collect::<Vec<_>>());
        let plain = keys.iter().all(|k| EMBED_KEYS.contains(k))
            && !(get("view").is_some() && get("steps").is_some())
            && get("controls").is_none_or(|c| c == Controls::None.key())
            && steps.is_none_or(|s| !s.is_empty() && s.iter().all(|s| Step::from_key(s).is_some()));
        if !plain {
            return None;
        }
        format!("embed-{}", get("preset").unwrap_or(default))
    } else {
        match keys.as_slice() {
            [] => default.to_owned(),
            [key] if PAGE_KEYS.contains(key) => get(key)?.to_owned(),
            _ => return None,
        }
    };
    if saved_work {
        return None;
    }
    match lang {
        Lang::En => Some(name),
        _ if name == default => Some(format!("{name}.{}", lang.tag())),
        _ => None,
    }
}

/// The page an embed's link (its query, `search`) opens on, in the page's folder: an embed that
/// opens on its preset's snapshot, with every step or one, has a page of its own with those
/// steps written in ([`own_embed_page`]), which a frame shows in one download as it would a
/// static page; any other embed the embeds' entry page ([`EMBED_PAGE`]), which fetches its
/// steps or waits for the code.
pub fn embed_page(search: &str) -> String {
    let lang = linked_lang(search, "").unwrap_or_default();
    let own = || {
        let name = snapshot(search, "", lang, false)?;
        let steps = embed_steps(name.strip_prefix("embed-")?)?;
        let params = pairs(search.strip_prefix('?').unwrap_or(search));
        match params.iter().find(|(k, _)| k == "view" || k == "steps") {
            None => Some(own_embed_page(&name, None)),
            Some((_, one)) => Step::from_key(one)
                .filter(|step| steps.contains(step))
                .map(|step| own_embed_page(&name, Some(step))),
        }
    };
    own().unwrap_or_else(|| EMBED_PAGE.to_owned())
}

/// The page of its own of the embed `name` (a snapshot's, `embed-dog`) with every step
/// (`embed-dog.html`) or only `step` (`embed-dog-weights.html`), as the build writes it.
pub fn own_embed_page(name: &str, step: Option<Step>) -> String {
    match step {
        None => format!("{name}.html"),
        Some(step) => format!("{name}-{}.html", step.key()),
    }
}

/// The steps of the preset `name`'s page, in order: an embed of it shows them all or some.
pub fn embed_steps(name: &str) -> Option<Vec<Step>> {
    let shape = Shape::of(&preset(name)?);
    Some(Step::ALL.into_iter().filter(|s| s.on_page(shape)).collect())
}
