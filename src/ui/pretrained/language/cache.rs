//! The KV cache on the real model: what it keeps per token with 3 key/value heads against 9, and
//! what the next token costs with it and without it.

use std::sync::Arc;

use leptos::prelude::*;

use crate::core::decoder::rerun::Written;
use crate::core::decoder::Decoder;
use crate::core::i18n::keys::{models, page};
use crate::core::text::grouped;
use crate::ui::lang::{t, word};

/// What the KV cache keeps and saves on this model, beside the tokens as they are written.
#[component]
pub(super) fn KvCache(decoder: Arc<Decoder>, current: Memo<Option<Arc<Written>>>) -> impl IntoView {
    let per_token = decoder.cache_numbers_per_token();
    let c = &decoder.config;
    let all_heads = per_token / c.kv_heads * c.heads;
    let (kv, heads) = (c.kv_heads, c.heads);
    let figures = move || {
        current.with(|w| {
            w.as_ref().map(|w| {
                let past = w.ids.len();
                (
                    past,
                    w.cached,
                    decoder.multiply_adds(past, true),
                    decoder.multiply_adds(past, false),
                )
            })
        })
    };
    view! {
        <section class="kv-cache" data-view="kv-cache" aria-label=t(models::kv_cache)>
            <h3>{t(models::kv_cache)}</h3>
            <p class="note">{move || word(&models::kv_cache_note(grouped(per_token), per_token * 4 / 1000, kv, heads, grouped(all_heads), all_heads * 4 / 1000))}</p>
            {move || figures().map(|(past, cached, with, without)| view! {
                <p class="note" data-stat="kv-cache">
                    {move || {
                        let cost = models::kv_cost(past, grouped(with as usize), grouped(without as usize), format!("{:.1}", without as f64 / with as f64));
                        word(&match cached {
                            0 => cost,
                            _ => page::sentences(cost, models::kv_reused(cached, past - cached)),
                        })
                    }}
                </p>
            })}
        </section>
    }
}
