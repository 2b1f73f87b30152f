//! The contract: what the page's scripts in other languages need of the core's words, as one
//! JSON value the build writes (`contract.json` beside the page, inline in `index.html` for
//! `www/boot.js`, in `sw.js`) and the notebook widget reads. Each fact has its home in the core;
//! this only gathers them.

use serde_json::{json, Value};

use super::contract::{
    embed_work_key, CSP, EMBED_PAGE, KEEP, LANG_KEY, LISTENING, MESSAGE_PREFIX, RESIZE, WORK_KEY,
};
use super::link::page::{Controls, Theme};
use super::link::params::param;
use super::link::snapshot::{EMBED_KEYS, FREE_KEYS, PAGE_KEYS};
use crate::core::i18n::keys::page;
use crate::core::i18n::Lang;
use crate::core::model::presets::PRESETS;
use crate::core::teaching::exercise::Kind;
use crate::core::views::pipeline::Step;

/// The contract, as the build writes it.
pub fn contract() -> Value {
    let near: serde_json::Map<String, Value> = Lang::NEAR
        .iter()
        .map(|(base, lang)| ((*base).to_owned(), Value::from(lang.tag())))
        .collect();
    let simplified = Lang::NEAR
        .iter()
        .find(|(_, lang)| *lang == Lang::ZhCn)
        .map_or("zh", |(base, _)| base);
    let mut exercises: Vec<&str> = Kind::ALL.iter().map(|k| k.key()).collect();
    exercises.extend(param("lock").map(|p| p.name));
    json!({
        "presets": PRESETS.iter().map(|p| p.name).collect::<Vec<_>>(),
        "steps": Step::ALL.map(Step::key),
        "themes": Theme::ALL.map(Theme::key),
        "controls": Controls::ALL.map(Controls::key),
        "exercises": exercises,
        "languages": {
            "default": Lang::default().tag(),
            "offered": Lang::OFFERED.map(Lang::tag),
            "pseudo": Lang::Pseudo.tag(),
            "near": near,
            // The parts of a tag that rule its near match out (traditional Chinese).
            "excluded": { simplified: Lang::TRADITIONAL },
            "rtl": Lang::OFFERED.into_iter().filter(|l| l.rtl()).map(Lang::tag).collect::<Vec<_>>(),
        },
        // The loading line's English once the opening page's numbers answer (the languages'
        // own are in `data-languages`).
        "words": { "live": page::loading_live.0.en },
        "storage": { "work": WORK_KEY, "embedWork": embed_work_key(""), "lang": LANG_KEY },
        "messages": { "prefix": MESSAGE_PREFIX, "resize": RESIZE, "keep": KEEP, "listening": LISTENING },
        "opening": {
            "free": FREE_KEYS,
            "page": PAGE_KEYS,
            "embed": EMBED_KEYS,
            "embedControls": Controls::None.key(),
            "embedPage": EMBED_PAGE,
        },
    })
}

/// `contract.json` beside the page, for the tools that serve or drive it (the notebook widget's
/// server, the tests' server): the contract, and the content security policy the page is served
/// with (the page itself never needs it, so `index.html` carries the contract without it).
pub fn contract_file() -> Value {
    let mut file = contract();
    file["csp"] = CSP.into();
    file
}
