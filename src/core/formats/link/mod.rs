//! The page's URL: what a link opens (the model, what is shown, embed options), how the page
//! writes its state back, and what a visitor sees on opening. [`read_link`] is total: any text
//! gives a [`Link`], with a message for each part it refused.
//!
//! The parameters, each with its reader and writer, are one list in [`params`]; the model's
//! compact code (`m=`) is [`model_code`], its alphabet [`base64url`]. Old `#state=JSON` links
//! keep opening.

pub mod base64url;
pub mod model_code;
pub mod page;
pub mod params;
pub mod snapshot;
pub mod values;

use crate::core::formats::contract::{MESSAGE_PREFIX, RESIZE};
use crate::core::formats::state::read_state;
use crate::core::i18n::keys::edits;
use crate::core::i18n::Lang;
use crate::core::model::presets::{matching, preset_named, preset_names, PRESETS};
use crate::core::text::clip;

pub use base64url::{base64url, from_base64url};
pub use model_code::{decode_json, decode_model, encode_model, model_of_json, Base};
pub use page::{
    Controls, Embed, FaceChoice, Link, Page, Shown, Theme, DEFAULT_DECIMALS, LONG_LINK_CHARS,
    MAX_DECIMALS, MAX_LINK_CHARS,
};
pub use params::{Part, PARAMS};
pub use values::step_names;

/// The fragment the page writes: the model (`m`, from [`encode_model`]) and what is shown.
pub fn write_fragment(model: &str, shown: &Shown) -> String {
    params::write(
        &Page {
            model,
            preset: None,
            shown,
            embed: None,
            at: None,
            exercises: None,
            lang: None,
        },
        Part::Fragment,
    )
}

/// The language a link asks for (`lang=`, the fragment's first), read alone: the page's words
/// are fetched before the rest of the link is read. A tag the page does not know is none (the
/// full reading says why).
pub fn linked_lang(search: &str, hash: &str) -> Option<Lang> {
    let mut pairs = values::pairs(search.strip_prefix('?').unwrap_or(search));
    pairs.extend(values::pairs_of_fragment(
        hash.strip_prefix('#').unwrap_or(hash),
    ));
    let (_, tag) = pairs.iter().rev().find(|(k, _)| k == "lang")?;
    Lang::from_tag(tag)
}

/// Reads a page's URL: `search` is `location.search` (with or without its `?`), `hash` is
/// `location.hash` (with or without its `#`). Fragment values win over query values.
pub fn read_link(search: &str, hash: &str) -> Link {
    let mut link = Link::example(&PRESETS[0], false);
    if search.len() + hash.len() > MAX_LINK_CHARS {
        link.messages.push(edits::link_too_long(MAX_LINK_CHARS));
        return link;
    }
    let mut pairs = values::pairs(search.strip_prefix('?').unwrap_or(search));
    pairs.extend(values::pairs_of_fragment(
        hash.strip_prefix('#').unwrap_or(hash),
    ));
    let last = |key: &str| {
        pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };

    // The model first: the other parameters are checked against it.
    let model = if let Some(m) = last("m") {
        match decode_json(m) {
            Ok(json) => match json.get("pretrained") {
                Some(trained) => {
                    link.pretrained = Some(trained.to_string());
                    link.carries_model = true;
                    None
                }
                None => Some(model_of_json(json)),
            },
            Err(e) => Some(Err(e)),
        }
    } else if let Some(json) = last("state") {
        Some(
            read_state(json)
                .map(|m| (m, None))
                .map_err(|e| edits::at_field(e.field, e.message)),
        )
    } else if let Some(name) = last("preset") {
        let found = preset_named(name);
        if found.is_none() {
            link.messages
                .push(edits::no_preset_shown(clip(name), preset_names()));
        }
        found.map(|p| Ok(((p.build)(), Some(p.name))))
    } else {
        None
    };
    match model {
        Some(Ok((model, preset))) => {
            link.preset = preset.or_else(|| matching(&model));
            link.model = model;
            link.carries_model = true;
        }
        Some(Err(e)) => {
            link.messages.push(edits::state_not_read(e.clone()));
            link.model_error = Some(e);
        }
        None => {}
    }

    // A trained model named by the query (a teacher's link), unless the model code names one.
    if let (Some(name), None) = (last("pretrained"), &link.pretrained) {
        let layer = last("layer").map_or(Ok(0), str::parse::<usize>);
        if layer.is_err() {
            link.messages.push(edits::layer_ignored(clip(
                last("layer").unwrap_or_default(),
            )));
        }
        let text = |s: &str| serde_json::Value::from(s).to_string();
        link.pretrained = Some(format!(
            r#"{{"model":{},"sentence":{},"layer":{}}}"#,
            text(name),
            text(link.model.sentence()),
            layer.unwrap_or(0)
        ));
        link.carries_model = true;
    }

    for (key, value) in &pairs {
        let Some(param) = params::param(key) else {
            let known: Vec<_> = PARAMS.iter().map(|p| p.name).collect();
            link.messages
                .push(edits::unknown_param(clip(key), known.join(", ")));
            continue;
        };
        if let Err(e) = param.read(&mut link, value) {
            link.messages
                .push(edits::param_ignored(key, clip(value), e));
        }
    }
    link
}

/// The opening of a visit with no saved work whose link asks for nothing but an example
/// (no query or fragment, or `?preset=` of a known one): what [`opening`] gives it, without
/// the link's reader (the page's first module leaves that to a chunk of its own). `None`: any
/// other link, for [`read_link`].
pub fn plain_opening(search: &str, hash: &str) -> Option<Opening> {
    let search = search.strip_prefix('?').unwrap_or(search);
    if !hash.strip_prefix('#').unwrap_or(hash).is_empty() {
        return None;
    }
    let start = match search.strip_prefix("preset=") {
        _ if search.is_empty() => Link::example(&PRESETS[0], false),
        Some(name) => Link::example(preset_named(name)?, true),
        None => return None,
    };
    Some(Opening {
        start,
        restored: false,
        restorable: None,
    })
}

/// The opening of a visit whose link's reader could not be fetched: the default example, saying
/// why (the page then writes nothing over the link or the saved work).
pub fn unread_opening() -> Opening {
    let mut start = Link::example(&PRESETS[0], false);
    start.messages.push(edits::link_not_fetched.into());
    Opening {
        start,
        restored: false,
        restorable: None,
    }
}

/// What a visitor sees on opening the page.
#[derive(Debug)]
pub struct Opening {
    /// What to open: the link's options, with the link's model, else the saved work's, else
    /// the default example.
    pub start: Link,
    /// The saved work was opened (the page says so, with a way back to the example).
    pub restored: bool,
    /// Saved work that differs from the link's model, offered back with one click.
    pub restorable: Option<Link>,
}

/// The rule for opening: a link's model wins; the saved work (`saved`, the fragment the page
/// last wrote in this browser) opens a page whose link names none, and is offered otherwise.
/// Saved work whose model cannot be read is not used, and a message says why, once; of saved
/// work whose model reads, what reads is kept and a message names what was left out.
pub fn opening(link: Link, saved: Option<&str>) -> Opening {
    let mut unreadable = Vec::new();
    let saved = saved
        .map(|fragment| read_link("", fragment))
        .filter(|saved| {
            let reason = match (&saved.model_error, saved.carries_model) {
                (Some(e), _) => e.clone(),
                (None, false) => edits::holds_no_model.into(),
                (None, true) => {
                    // The note, then what was left out: the page shows the messages one after another.
                    if !saved.messages.is_empty() {
                        unreadable.push(edits::saved_part_not_read.into());
                        unreadable.extend(saved.messages.iter().cloned());
                    }
                    return true;
                }
            };
            unreadable.push(edits::saved_not_read(reason));
            false
        });
    let mut opening = match saved {
        // An exercise was made on the link's model: the saved work does not replace it.
        Some(saved) if !link.carries_model && link.exercises.is_empty() => Opening {
            start: Link {
                model: saved.model,
                preset: saved.preset,
                shown: saved.shown,
                pretrained: saved.pretrained,
                ..link
            },
            restored: true,
            restorable: None,
        },
        Some(saved) if saved.model != link.model || saved.pretrained != link.pretrained => {
            Opening {
                start: link,
                restored: false,
                restorable: Some(saved),
            }
        }
        _ => Opening {
            start: link,
            restored: false,
            restorable: None,
        },
    };
    opening.start.messages.extend(unreadable);
    opening
}

/// The HTML an author pastes into a course page to embed the page at `src` (an address from
/// [`write_fragment`] and [`params::write`] of the query): a sandboxed frame, and the script that
/// fits its height and keeps a learner's exercise progress in the course page's storage, handing
/// it back when the frame opens again (a sandboxed frame keeps none). Pasted twice, the script
/// listens once.
pub fn snippet(src: &str, height: u32) -> String {
    // In an HTML attribute, `&` starts a character reference.
    let src = src.replace('&', "&amp;").replace('"', "&quot;");
    let script = snippet_script().replace('\n', "\n  ");
    format!(
        r#"<iframe src="{src}" title="Attention Explorer" width="100%" height="{height}" style="border:0;max-width:100%"
        sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox" data-attention-explorer></iframe>
<script>
  {script}
</script>"#
    )
}

/// The course page's script of [`snippet`] (also the build's `embed-example.js`): it fits each
/// explorer's frame to its content as it changes, and keeps a learner's exercise progress.
pub fn snippet_script() -> String {
    let p = MESSAGE_PREFIX;
    format!(
        r#"// Fits each explorer's frame to its content as it changes, and keeps a learner's progress in
// exercises here, to give back when the frame opens again (a sandboxed frame keeps none).
if (!window.attentionExplorerFrames) {{
  window.attentionExplorerFrames = true;
  addEventListener('message', (e) => {{
    const frame = [...document.querySelectorAll('iframe[data-attention-explorer]')].find((f) => f.contentWindow === e.source);
    if (!frame) return;
    const kept = '{p}progress:' + frame.src;
    if (e.data?.type === '{RESIZE}') frame.style.height = e.data.height + 'px';
    try {{
      if (e.data?.type === '{p}result' && e.data.progress) localStorage[kept] = e.data.progress;
      if (e.data?.type === '{p}ready' && localStorage[kept])
        e.source.postMessage({{ type: '{p}restore-progress', progress: localStorage[kept] }}, '*');
    }} catch {{}} // storage blocked: the progress lasts as long as the frame
  }});
}}"#
    )
}
