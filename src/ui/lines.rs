//! Attention lines (as BertViz draws them): for the followed query token, a line to every key
//! token it may see, as thick and as opaque as its weight. Clicking a token on the left follows it.

use leptos::prelude::*;

use crate::core::i18n::keys::views;
use crate::core::teaching::story::lines_caption;
use crate::core::views::lines::{
    font_px, height, paint_parts, stroke_opacity, stroke_width, token_y, visible, KEY_X, QUERY_X,
    WIDTH,
};
use crate::ui::lang::{t, word};
use crate::ui::matrix::figure::{save_drawing, save_menu};
use crate::ui::matrix::paint::paint_lines;
use crate::ui::state::use_app;

/// One head's weights from the followed token (the last one until the learner picks another).
/// In the page's opening (`opening`), without its save menu and note, as `data-view="opening-lines"`.
#[component]
pub fn AttentionLines(head: usize, #[prop(optional)] opening: bool) -> impl IntoView {
    let state = use_app();
    let n = Memo::new(move |_| state.derived.words.with(Vec::len));
    // The keys: the source sentence's tokens with cross-attention.
    let m = Memo::new(move |_| state.derived.key_words.with(Vec::len));
    let places = Memo::new(move |_| n.get().max(m.get()));
    let query = state.derived.followed_or_last;
    // The followed row of the weights: only its change redraws the lines.
    let row = Memo::new(move |_| {
        let i = query.get();
        // A row hidden until predicted draws no lines.
        if state.exercises.hides_row(head, i) {
            return Vec::new();
        }
        state
            .derived
            .trace
            .with(|t| t.weights_row(head, i).unwrap_or_default())
    });
    let causal = state.derived.causal;
    let y = move |k: usize| token_y(k, places.get());
    let font = move || font_px(places.get());

    // The keys the query sees (under the causal mask, not the future's): their <line>s are
    // built when these change and drawn with the weights of that moment.
    let seen = Memo::new(move |_| {
        let (q, causal) = (query.get(), causal.get());
        let hidden = row.with(Vec::is_empty);
        (0..m.get())
            .filter(|&j| !hidden && visible(causal, q, j))
            .collect::<Vec<_>>()
    });
    let lines = move || {
        let (q, keys, weights) = (query.get(), seen.get(), row.get_untracked());
        keys.into_iter()
            .map(|j| {
                let w = weights.get(j).copied().unwrap_or(0.0);
                view! {
                    <line
                        data-key=j.to_string()
                        data-weight=w.to_string()
                        x1=QUERY_X + 4.0
                        y1=y(q)
                        x2=KEY_X - 4.0
                        y2=y(j)
                        stroke-width=stroke_width(w)
                        stroke-opacity=stroke_opacity(w)
                    />
                }
            })
            .collect_view()
    };
    // An edit's new weights repaint the lines in one call, as a table's cells are painted: an
    // effect per line attribute cost more than the lines themselves.
    let group = NodeRef::<leptos::svg::G>::new();
    Effect::new(move |_| {
        let parts = row.with(|r| paint_parts(r));
        if let Some(g) = group.get_untracked() {
            paint_lines(&g, &parts);
        }
    });
    let keys = move || {
        state.derived.key_words.get().into_iter().enumerate().map(|(k, word)| view! {
            <text class="key-token" x=KEY_X y=y(k) dominant-baseline="middle" font-size=font>{word}</text>
        }).collect_view()
    };
    let tokens = move || {
        state
            .derived
            .words
            .get()
            .into_iter()
            .enumerate()
            .map(|(k, word)| {
                let followed = move || query.get() == k;
                view! {
                    <text
                        class="query-token"
                        class:followed=followed
                        x=QUERY_X
                        y=y(k)
                        text-anchor="end"
                        dominant-baseline="middle"
                        font-size=font
                        on:click=move |_| state.view.followed.set(Some(k))
                    >
                        {word}
                    </text>
                }
            })
            .collect_view()
    };
    let height = move || height(places.get());
    // Read twice (the caption and the picture's label), worded once.
    let description = Memo::new(move |_| {
        let i = query.get();
        let word_ = state
            .derived
            .words
            .with(|w| w.get(i).cloned().unwrap_or_default());
        let heads = state.derived.heads.get();
        let precision = state.view.look.precision.get();
        word(&row.with(|r| {
            state
                .derived
                .key_words
                .with(|keys| lines_caption(&word_, (head, heads, opening), r, keys, precision))
        }))
    });
    view! {
        <figure class="lines">
            <figcaption data-stat=opening.then_some("opening-look") data-says-numbers="">{description}</figcaption>
            {(!opening).then(|| view! { <div class="figure-actions" on:click=|ev| save_drawing(ev, "attention-lines")>{save_menu(views::attention_lines, Signal::stored(false), None)}</div> })}
            <svg
                data-view=if opening { "opening-lines" } else { "lines" }
                data-head=head.to_string()
                data-query=move || query.get().to_string()
                role="img"
                aria-label=description
                width=WIDTH
                height=height
                viewBox=move || format!("0 0 {WIDTH} {}", height())
            >
                <g class="attention-lines" node_ref=group>{lines}</g>
                {tokens}
                {keys}
            </svg>
            {(!opening).then(|| view! { <p class="note">{t(views::click_to_follow)}</p> })}
        </figure>
    }
}
