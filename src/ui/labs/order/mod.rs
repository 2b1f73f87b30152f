//! The order lab: shuffle, swap or reverse the learner's words and see what attention sees of
//! it, with the page's positions; RoPE's shift property; both RoPE conventions side by side.
//! The numbers come from `core::teaching::order`; its body is a wasm chunk of its own.

mod buttons;
mod trained;

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::i18n::{keys, Key};
use crate::core::model::positions::PositionKind;
use crate::core::teaching::labs;
use crate::core::teaching::order::{
    both_conventions, largest_weight_difference, outcome, rope_shift_diff, Reorder,
};
use crate::core::text::fmt_significant;
use crate::core::views::heatmap::Heat;
use crate::ui::fields::PositionsField;
use crate::ui::in_view::{in_view, while_seen};
use crate::ui::labs::frame::{LabText, Stat};
use crate::ui::lang::{figure, with_figures};
use crate::ui::lang::{t, word};
use crate::ui::matrix::LabMatrix;
use crate::ui::state::use_app;

use buttons::ReorderButtons;
use trained::TrainedOrder;

/// What the page says about this lab.
pub const TEXT: LabText = LabText {
    title: keys::labs::order_title,
    short_title: keys::labs::order_short_title,
    hint: keys::labs::order_hint,
};

/// How far RoPE's shift test moves both tokens.
const SHIFT: usize = 3;

/// The lab on the page's model: a trained model's layer has its own (its positions are in X).
#[component]
pub fn OrderLab() -> impl IntoView {
    let state = use_app();
    let trained = Memo::new(move |_| state.doc.model.with(|m| m.layered().is_some()));
    move || {
        if trained.get() {
            view! { <TrainedOrder/> }.into_any()
        } else {
            view! { <PageOrder/> }.into_any()
        }
    }
}

/// The order lab on the page's own model: its positions (none, sinusoidal, learned, RoPE), the
/// causal mask, RoPE's shift property and its two conventions.
#[component]
fn PageOrder() -> impl IntoView {
    let state = use_app();
    let how = RwSignal::new(Reorder::Shuffle(1));
    let shuffles = RwSignal::new(1u64);
    // Six traces per edit: only while the lab is on screen (or near it).
    let place = NodeRef::<leptos::html::Div>::new();
    let seen = in_view(place);
    // Without the mask: attention itself. The mask carries order of its own (below).
    let unmasked = while_seen(seen, move || {
        state.doc.model.with(|m| outcome(m, how.get(), false))
    });
    let first_kept = while_seen(seen, move || {
        state
            .doc
            .model
            .with(|m| outcome(m, Reorder::ShuffleAfterFirst(shuffles.get()), true))
    });
    let kind = Memo::new(move |_| state.doc.model.with(|m| m.positions().kind()));
    let shift = while_seen(seen, move || {
        state.doc.model.with(|m| {
            state
                .derived
                .trace
                .with(|t| rope_shift_diff(m, t, 0, SHIFT))
        })
    });
    let conventions = while_seen(seen, move || {
        state.doc.model.with(|m| {
            both_conventions(m).map(|[half, inter]| {
                let diff = largest_weight_difference(&half, &inter);
                ([half, inter].map(|t| t.heads[0].weights.clone()), diff)
            })
        })
    });
    let largest =
        Signal::derive(move || unmasked.with(|o| o.as_ref().map_or(f64::NAN, |o| o.largest)));
    let first =
        Signal::derive(move || first_kept.with(|o| o.as_ref().map_or(f64::NAN, |o| o.rows[0].3)));
    let verdict = move || {
        let d = fmt_significant(largest.get(), 3);
        word(&match kind.get() {
            PositionKind::None => keys::labs::order_none(d),
            k => keys::labs::order_with(
                match k {
                    PositionKind::Sinusoidal => keys::labs::sinusoidal,
                    PositionKind::Learned => keys::labs::learned,
                    PositionKind::RopeHalf => keys::labs::rope_half,
                    _ => keys::labs::rope_interleaved,
                },
                d,
            ),
        })
    };
    let table = move || {
        unmasked.get().map(|o| {
            view! {
                <p class="order-sentences">{move || word(&keys::labs::before_after(o.before.clone(), o.after.clone()))}</p>
                <table class="order-table">
                    <thead><tr><th scope="col">{t(keys::labs::word_heading)}</th><th scope="col">{t(keys::labs::place)}</th><th scope="col">{t(keys::labs::moved_by)}</th></tr></thead>
                    <tbody>
                        {o.rows.into_iter().map(|(w, before, after, d)| view! {
                            <tr><th scope="row">{w}</th><td>{format!("{before} → {after}")}</td><td data-value=d.to_string()>{fmt_significant(d, 3)}</td></tr> // not words: two places and an arrow
                        }).collect_view()}
                    </tbody>
                </table>
            }
        })
    };
    // Head 0's weights under convention `i` (0: half, 1: interleaved).
    let weights = |of: labs::LabMatrix, title: Key, i: usize| {
        let matrix: Signal<DMatrix<f64>> = Memo::new(move |_| {
            conventions.with(|c| {
                c.as_ref()
                    .map_or_else(|_| DMatrix::zeros(0, 0), |(w, _)| w[i].clone())
            })
        })
        .into();
        view! {
            <LabMatrix of title values=matrix words=state.derived.words.into() heat=Heat::Unit/>
        }
    };
    view! {
        <div node_ref=place>
        <p>{t(keys::labs::order_what)}</p>
        <ReorderButtons how/>
        // The page's positions, here where the lab asks to change them (the settings bar's too).
        <div class="lab-positions">
            <PositionsField control="order-positions"/>
        </div>
        <p>
            {with_figures(
                || keys::labs::largest_change(figure(0)),
                move |_| view! { <Stat name="order_max_diff" value=largest/> }.into_any(),
            )}
        </p>
        <p class="lab-verdict" role="status">{verdict}</p>
        {table}
        <h3>{t(keys::labs::mask_sees_order)}</h3>
        <p>
            {with_figures(
                || keys::labs::mask_order(figure(0)),
                move |_| view! { <Stat name="order_first_diff" value=first/> }.into_any(),
            )}
        </p>
        <h3>{t(keys::labs::rope_distance)}</h3>
        <p>
            {move || match shift.get() {
                Some(d) => {
                    let said = if kind.get().is_rope() {
                        keys::labs::rope_shift
                    } else {
                        keys::labs::rope_shift_no_rope
                    };
                    with_figures(
                        move || said(SHIFT, figure(0)),
                        move |_| view! { <Stat name="rope_shift_diff" value=Signal::derive(move || d)/> }.into_any(),
                    )
                    .into_any()
                }
                None => t(keys::labs::rope_odd).into_any(),
            }}
        </p>
        <h3>{t(keys::labs::two_conventions)}</h3>
        {move || match conventions.get() {
            Err(e) => view! { <p class="field-error">{move || word(&keys::labs::conventions_need_even(e.clone()))}</p> }.into_any(),
            Ok((_, diff)) => view! {
                <p>
                    {with_figures(
                        || keys::labs::conventions_differ(figure(0)),
                        move |_| view! { <Stat name="rope_convention_diff" value=Signal::derive(move || diff)/> }.into_any(),
                    )}
                </p>
            }.into_any(),
        }}
        <div class="heads">
            {weights(labs::LabMatrix::WeightsRopeHalf, keys::labs::weights_half, 0)}
            {weights(labs::LabMatrix::WeightsRopeInterleaved, keys::labs::weights_interleaved, 1)}
        </div>
        </div>
    }
}
