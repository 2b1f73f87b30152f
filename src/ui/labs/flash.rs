//! The FlashAttention lab: the learner's head computed a tile of keys at a time with the online
//! softmax (running maximum m, sum l and output O), until O / l is the context. The numbers come
//! from `core::teaching::flash`; its body is a wasm chunk of its own.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::i18n::keys;
use crate::core::teaching::flash::{max_diff, numbers_held, read_block, walk, FlashTile};
use crate::core::teaching::labs;
use crate::core::text::fmt_significant;
use crate::core::views::heatmap::Heat;
use crate::ui::fields::NumberField;
use crate::ui::labs::frame::{LabText, Stat};
use crate::ui::lang::{figure, with_figures};
use crate::ui::lang::{t, word};
use crate::ui::matrix::{index_labels, LabMatrix};
use crate::ui::state::use_app;

/// What the page says about this lab.
pub const TEXT: LabText = LabText {
    title: keys::labs::flash_title,
    short_title: keys::labs::flash_short_title,
    hint: keys::labs::flash_hint,
};

#[component]
pub fn FlashLab() -> impl IntoView {
    let state = use_app();
    let block = RwSignal::new(2usize);
    let at = RwSignal::new(0usize);
    let head = Memo::new(move |_| {
        state
            .derived
            .visible_heads
            .with(|v| v.first().copied().unwrap_or(0))
    });
    let keys = Memo::new(move |_| state.derived.key_words.with(Vec::len));
    // The tile size as used: the one typed, within the keys there are now.
    let size = Memo::new(move |_| block.get().min(keys.get().max(1)));
    let tiles = Memo::new(move |_| {
        let b = size.get();
        state.doc.model.with(|m| {
            state.derived.trace.with(|t| {
                t.heads.get(head.get()).map_or_else(Vec::new, |h| {
                    let divisor = m.scale.divisor(m.heads()[head.get()].d_k());
                    walk(h, divisor, m.causal, b)
                })
            })
        })
    });
    let max_diff = Signal::derive(move || {
        tiles.with(|tiles| {
            state.derived.trace.with(|t| {
                t.heads
                    .get(head.get())
                    .map_or(f64::NAN, |h| max_diff(tiles, h))
            })
        })
    });
    let tile =
        Memo::new(move |_| tiles.with(|t| t.get(at.get().min(t.len().saturating_sub(1))).cloned()));
    let count = move |skipped: bool| {
        Signal::derive(move || {
            tiles.with(|t| t.iter().filter(|x| x.skipped == skipped).count() as f64)
        })
    };
    let held = Signal::derive(move || {
        let d_v = state
            .derived
            .trace
            .with(|t| t.heads.get(head.get()).map_or(0, |h| h.values.ncols()));
        numbers_held(
            block.get(),
            d_v,
            state.derived.words.with(Vec::len),
            keys.get(),
        )
    });
    let pick = move |f: fn(&FlashTile) -> DMatrix<f64>| -> Signal<DMatrix<f64>> {
        Memo::new(move |_| tile.with(|t| t.as_ref().map_or_else(|| DMatrix::zeros(0, 0), f))).into()
    };
    let rows: Signal<Vec<String>> = Memo::new(move |_| {
        let (r0, r1) = tile.with(|t| t.as_ref().map_or((0, 0), |t| t.rows));
        state
            .derived
            .words
            .with(|w| w.get(r0..r1).map(<[String]>::to_vec).unwrap_or_default())
    })
    .into();
    let tile_keys: Signal<Vec<String>> = Memo::new(move |_| {
        let (c0, c1) = tile.with(|t| t.as_ref().map_or((0, 0), |t| t.keys));
        state
            .derived
            .key_words
            .with(|w| w.get(c0..c1).map(<[String]>::to_vec).unwrap_or_default())
    })
    .into();
    let last_of_block = move || tile.with(|t| t.as_ref().is_some_and(|t| t.keys.1 >= keys.get()));
    let columns = index_labels(move || tile.with(|t| t.as_ref().map_or(0, |t| t.o.ncols())));
    let list = |xs: &[f64]| {
        xs.iter()
            .map(|&x| fmt_significant(x, 4))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let running = move || {
        tile.with(|t| {
            t.as_ref().map(|t| {
                let place = if t.skipped {
                    keys::labs::flash_place_skipped
                } else {
                    keys::labs::flash_place
                };
                let place = place(t.rows.0, t.rows.1 - 1, t.keys.0, t.keys.1 - 1);
                let said = match t.most_rescaled() {
                    _ if t.skipped => keys::labs::flash_never.into(),
                    _ if t.keys.0 == 0 => keys::labs::flash_first.into(),
                    Some(i) => {
                        let token = state
                            .derived
                            .words
                            .with(|w| w.get(t.rows.0 + i).cloned().unwrap_or_default());
                        keys::labs::flash_rises(
                            token,
                            fmt_significant(t.m[i], 4),
                            fmt_significant(t.rescale[i], 4),
                        )
                    }
                    None => keys::labs::flash_no_growth.into(),
                };
                view! {
                    <p data-view="flash-state">
                        {move || word(&place)} <br/>
                        {move || word(&said)} <br/>
                        // A block's first tile has nothing before it to rescale (m_old = −∞).
                        {(!t.skipped && t.keys.0 > 0).then(|| {
                            let rescale = keys::labs::flash_rescale(list(&t.rescale));
                            view! { {move || word(&rescale)} <br/> }
                        })}
                        "m: [" {list(&t.m)} "] · l: [" {list(&t.l)} "]"
                    </p>
                }
            })
        })
    };
    view! {
        <p>{t(keys::labs::flash_what)}</p>
        <div class="lab-controls">
            <NumberField
                control="flash_block"
                label=keys::labs::tile_size
                numeric="numeric"
                read=Callback::new(move |t: String| read_block(&t, keys.get_untracked()))
                value=size.into()
                on_change=Callback::new(move |b: usize| {
                    block.set(b);
                    at.set(0);
                    Ok(())
                })
            />
            <button type="button" data-action="flash-step" disabled=move || { at.get() + 1 >= tiles.with(Vec::len) } on:click=move |_| at.update(|a| *a += 1)>{t(keys::labs::next_tile)}</button>
            <button type="button" data-action="flash-reset" on:click=move |_| at.set(0)>{t(keys::labs::start_again)}</button>
            <span>{move || word(&keys::labs::flash_tile(at.get().min(tiles.with(Vec::len).saturating_sub(1)) + 1, tiles.with(Vec::len), head.get()))}</span>
        </div>
        {running}
        <div class="side-by-side">
            // A skipped tile has no scores to show.
            {move || (!tile.with(|t| t.as_ref().is_some_and(|t| t.skipped))).then(|| view! {
                <LabMatrix of=labs::LabMatrix::FlashScores title=keys::labs::flash_scores values=pick(|t| t.scores.clone()) words=rows columns=tile_keys heat=Heat::Signed/>
            })}
            <LabMatrix of=labs::LabMatrix::FlashOutput title=keys::labs::flash_running values=pick(|t| t.o.clone()) words=rows columns heat=Heat::Signed/>
            // After the block's last tile: its rows of the context.
            {move || last_of_block().then(|| view! {
                <LabMatrix of=labs::LabMatrix::FlashContext title=keys::labs::flash_context values=pick(FlashTile::context) words=rows columns heat=Heat::Signed/>
            })}
        </div>
        <p>
            {with_figures(
                || keys::labs::flash_figures(figure(0), figure(1), figure(2), figure(3), figure(4)),
                move |i| match i {
                    0 => view! { <Stat name="flash_tiles" whole=true value=count(false)/> }.into_any(),
                    1 => view! { <Stat name="flash_skipped" whole=true value=count(true)/> }.into_any(),
                    2 => view! { <Stat name="flash_max_diff" value=max_diff/> }.into_any(),
                    3 => view! { <Stat name="flash_numbers_held" whole=true value=Signal::derive(move || held.get().0 as f64)/> }.into_any(),
                    _ => view! { <Stat name="flash_numbers_full" whole=true value=Signal::derive(move || held.get().1 as f64)/> }.into_any(),
                },
            )}
        </p>
    }
}
