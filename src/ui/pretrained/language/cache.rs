//! The KV cache on the real model: what it keeps per token with 3 key/value heads against 9, and
//! what the next token costs with it and without it.

use std::sync::Arc;

use leptos::prelude::*;

use crate::core::decoder::rerun::Written;
use crate::core::decoder::Decoder;
use crate::core::text::grouped;

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
        <section class="kv-cache" data-view="kv-cache" aria-label="The KV cache">
            <h3>"The KV cache"</h3>
            <p class="note">{format!("To write a token the model needs the keys and values of every token before it. It keeps them (the KV cache): {} numbers per token ({} KB in float32) with its {kv} key/value heads, where {heads} would keep {} ({} KB).", grouped(per_token), per_token * 4 / 1000, grouped(all_heads), all_heads * 4 / 1000)}</p>
            {move || figures().map(|(past, cached, with, without)| view! {
                <p class="note" data-stat="kv-cache">
                    {format!("The prompt has {past} tokens. The next token costs {} multiply-adds with the cache, {} without it ({:.1}× as many).", grouped(with as usize), grouped(without as usize), without as f64 / with as f64)}
                    {(cached > 0).then(|| format!(" The last run took {cached} tokens' keys and values from the cache and computed only the {} new.", past - cached))}
                </p>
            })}
        </section>
    }
}
