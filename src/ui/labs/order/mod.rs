//! The order lab: shuffle, swap or reverse the learner's words and see what attention sees of
//! it, with the page's positions; RoPE's shift property; both RoPE conventions side by side.
//! The numbers come from `core::teaching::order`; its body is a wasm chunk of its own.

mod buttons;
mod trained;

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::i18n::keys;
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
        match kind.get() {
            PositionKind::None => format!(
                "No positions: every word's output row is the same numbers in its new place (largest difference {d}), so attention alone cannot tell the two sentences apart. It is permutation-equivariant: shuffle the input, and the output is shuffled the same way, nothing more."
            ),
            k => format!(
                "With {} the numbers change: a word's output row moves by up to {d}. The model now sees where each word is.",
                match k {
                    PositionKind::Sinusoidal => "sinusoidal positions",
                    PositionKind::Learned => "learned positions",
                    PositionKind::RopeHalf => "RoPE (pairs i, i + d/2)",
                    _ => "RoPE (pairs 2i, 2i + 1)",
                }
            ),
        }
    };
    let table = move || {
        unmasked.get().map(|o| {
            view! {
                <p class="order-sentences">"Before: “" {o.before.clone()} "” · after: “" {o.after.clone()} "”"</p>
                <table class="order-table">
                    <thead><tr><th scope="col">"word"</th><th scope="col">"place"</th><th scope="col">"its output moved by"</th></tr></thead>
                    <tbody>
                        {o.rows.into_iter().map(|(w, before, after, d)| view! {
                            <tr><th scope="row">{w}</th><td>{format!("{before} → {after}")}</td><td data-value=d.to_string()>{fmt_significant(d, 3)}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
            }
        })
    };
    // Head 0's weights under convention `i` (0: half, 1: interleaved).
    let weights = |of: labs::LabMatrix, title: &'static str, i: usize| {
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
        <p>"Shuffle the sentence as a model sees it: each word keeps its embedding row, and positions belong to the places, not to the words. The lab compares every word's output row before and after, without the causal mask (attention itself). Shuffling leaves the page's model as it is; the positions below are the page's own, so choosing them changes every step above (Undo takes it back)."</p>
        <ReorderButtons how/>
        // The page's positions, here where the lab asks to change them (the settings bar's too).
        <div class="lab-positions">
            <PositionsField control="order-positions"/>
        </div>
        <p>"Largest change of any output row: " <Stat name="order_max_diff" value=largest/></p>
        <p class="lab-verdict" role="status">{verdict}</p>
        {table}
        <h3>"The causal mask sees order too"</h3>
        <p>
            "With the mask a word sees only the words before it, so the mask alone tells places apart. Shuffle every word but the first, with the mask on: the first word's output moves by "
            <Stat name="order_first_diff" value=first/>
            ": it sees only itself, wherever the others go."
        </p>
        <h3>"RoPE: only the distance counts"</h3>
        <p>
            {move || match shift.get() {
                Some(_) => format!("Rotate head 0's queries and keys as RoPE does{}, then move both tokens of every pair {SHIFT} places further: the largest change of any score is ", if kind.get().is_rope() { "" } else { " (Hugging Face's convention, base 10 000: the model has no RoPE)" }),
                None => "RoPE rotates pairs of components: give head 0 an even d_k to see its shift property.".into(),
            }}
            {move || shift.get().map(|d| view! { <Stat name="rope_shift_diff" value=Signal::derive(move || d)/> })}
            {move || shift.get().is_some().then_some(". A score depends on how far apart the two words are, not on where they are: the property that made RoPE the choice of most models since Llama.")}
        </p>
        <h3>"Two conventions, two sets of numbers"</h3>
        {move || match conventions.get() {
            Err(e) => view! { <p class="field-error">{format!("Both conventions need an even d_k: {e}.")}</p> }.into_any(),
            Ok((_, diff)) => view! {
                <p>
                    "On this model, rotating pairs (i, i + d/2) as Hugging Face's rotate_half does and pairs (2i, 2i + 1) as Meta's reference does gives head 0 these weights, which differ by up to "
                    <Stat name="rope_convention_diff" value=Signal::derive(move || diff)/>
                    ". A checkpoint must be run with the convention it was trained with: the same weights under the other one attend elsewhere (the bug of many ports)."
                </p>
            }.into_any(),
        }}
        <div class="heads">
            {weights(labs::LabMatrix::WeightsRopeHalf, "head 0 weights, pairs (i, i + d/2)", 0)}
            {weights(labs::LabMatrix::WeightsRopeInterleaved, "head 0 weights, pairs (2i, 2i + 1)", 1)}
        </div>
        </div>
    }
}
