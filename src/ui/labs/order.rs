//! The order lab: shuffle, swap or reverse the learner's words and see what attention sees of
//! it, with the page's positions; RoPE's shift property; both RoPE conventions side by side.
//! The numbers come from `core::order`; its body is a wasm chunk of its own.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::forward::trace::Trace;
use crate::core::model::Model;
use crate::core::teaching::order::{
    both_conventions, largest_weight_difference, new_places, order, order_of_pieces, output_moves,
    reordered, rope_shift_diff, Reorder,
};
use crate::core::text::fmt_significant;
use crate::core::views::heatmap::Heat;
use crate::ui::fields::PositionsField;
use crate::ui::in_view::in_view;
use crate::ui::labs::frame::{LabText, Stat};
use crate::ui::matrix::LabMatrix;
use crate::ui::state::use_app;

/// What the page says about this lab.
pub const TEXT: LabText = LabText {
    title: "Word order: what attention cannot see",
    short_title: "Order lab",
    hint: "Shuffle the words with no positions: every output row is the same numbers in a new place. Then choose sinusoidal positions or RoPE and shuffle again.",
};

/// How far RoPE's shift test moves both tokens.
const SHIFT: usize = 3;

/// What one reordering did: the sentences, each word's largest output change, and the largest.
#[derive(Clone, PartialEq)]
struct Outcome {
    before: String,
    after: String,
    /// (word, place before, place after, largest change of its output row)
    rows: Vec<(String, usize, usize, f64)>,
    largest: f64,
}

/// `how` applied to `model` with the mask as `causal`.
fn outcome(model: &Model, how: Reorder, causal: bool) -> Option<Outcome> {
    let mut model = model.clone();
    model.causal = causal;
    let n = model.tokens().len();
    let order = order(n, how);
    let after = reordered(&model, &order).ok()?;
    let (a, b) = (Trace::of(&model), Trace::of(&after));
    let moves = output_moves(&a, &b, &order);
    let new_place = new_places(&order);
    let words = &model.tokens().words;
    Some(Outcome {
        before: model.sentence().to_owned(),
        after: after.sentence().to_owned(),
        rows: (0..n)
            .map(|t| (words[t].clone(), t, new_place[t], moves[t]))
            .collect(),
        largest: moves.iter().copied().fold(0.0, f64::max),
    })
}

/// The lab on the page's model: a trained model's layer has its own (its positions are in X).
#[component]
pub fn OrderLab() -> impl IntoView {
    let state = use_app();
    let trained = Memo::new(move |_| state.model.with(|m| m.layered().is_some()));
    move || {
        if trained.get() {
            view! { <TrainedOrder/> }.into_any()
        } else {
            view! { <PageOrder/> }.into_any()
        }
    }
}

/// The reorderings the lab offers: a new shuffle each press, a swap of the first two, reverse.
#[component]
fn ReorderButtons(how: RwSignal<Reorder>) -> impl IntoView {
    let shuffles = StoredValue::new(1u64);
    let shuffle = move |_| {
        shuffles.update_value(|s| *s += 1);
        how.set(Reorder::Shuffle(shuffles.get_value()));
    };
    view! {
        <div class="field buttons">
            <button type="button" data-action="order-shuffle" on:click=shuffle>"Shuffle the words"</button>
            <button type="button" data-action="order-swap" on:click=move |_| how.set(Reorder::Swap(0, 1))>"Swap the first two"</button>
            <button type="button" data-action="order-reverse" on:click=move |_| how.set(Reorder::Reverse)>"Reverse"</button>
        </div>
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
        state.model.with(|m| outcome(m, how.get(), false))
    });
    let first_kept = while_seen(seen, move || {
        state
            .model
            .with(|m| outcome(m, Reorder::ShuffleAfterFirst(shuffles.get()), true))
    });
    let kind = Memo::new(move |_| state.model.with(|m| m.positions().kind()));
    let shift = while_seen(seen, move || {
        state
            .model
            .with(|m| state.trace.with(|t| rope_shift_diff(m, t, 0, SHIFT)))
    });
    let conventions = while_seen(seen, move || {
        state.model.with(|m| {
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
            "none" => format!(
                "No positions: every word's output row is the same numbers in its new place (largest difference {d}), so attention alone cannot tell the two sentences apart. It is permutation-equivariant: shuffle the input, and the output is shuffled the same way, nothing more."
            ),
            k => format!(
                "With {} the numbers change: a word's output row moves by up to {d}. The model now sees where each word is.",
                match k {
                    "sinusoidal" => "sinusoidal positions",
                    "learned" => "learned positions",
                    "rope_half" => "RoPE (pairs i, i + d/2)",
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
    let weights = |name: &'static str, title: &'static str, i: usize| {
        let matrix: Signal<DMatrix<f64>> = Memo::new(move |_| {
            conventions.with(|c| {
                c.as_ref()
                    .map_or_else(|_| DMatrix::zeros(0, 0), |(w, _)| w[i].clone())
            })
        })
        .into();
        view! {
            <LabMatrix name title values=matrix words=state.words.into() heat=Heat::Unit/>
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
                Some(_) => format!("Rotate head 0's queries and keys as RoPE does{}, then move both tokens of every pair {SHIFT} places further: the largest change of any score is ", if kind.get().starts_with("rope") { "" } else { " (Hugging Face's convention, base 10 000: the model has no RoPE)" }),
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
            {weights("weights_rope_half", "head 0 weights, pairs (i, i + d/2)", 0)}
            {weights("weights_rope_interleaved", "head 0 weights, pairs (2i, 2i + 1)", 1)}
        </div>
        </div>
    }
}

/// What shuffling a trained layer's pieces did: the pieces after, and each piece's largest change
/// with the model's learned positions and without them.
#[derive(Clone, PartialEq)]
struct PiecesMoved {
    after: Vec<String>,
    /// (piece, place before, place after, moved with positions, moved without)
    rows: Vec<(String, usize, usize, f64, f64)>,
}

/// The order lab on a trained model's layer: the pieces between [CLS] and [SEP] reordered, the
/// layers below run again on them, with the model's learned positions and without.
#[component]
fn TrainedOrder() -> impl IntoView {
    let state = use_app();
    let how = RwSignal::new(Reorder::Shuffle(1));
    let place = NodeRef::<leptos::html::Div>::new();
    let seen = in_view(place);
    // The layers below run again only when what they run on changes, not on an edit of the
    // page's layer.
    let below = Memo::new(move |_| {
        state.model.with(|m| {
            m.layered()
                .map(|l| (l.ids.clone(), l.layer, l.knocked.clone(), l.changes.clone()))
        })
    });
    let inputs = while_seen(seen, move || {
        below.track();
        let order = order_of_pieces(
            below.with(|b| b.as_ref().map_or(0, |b| b.0.len())),
            how.get(),
        );
        let trained = state.trained.get_value()?;
        state
            .model
            .with_untracked(|m| trained.reordered_inputs(m, order))
    });
    let moved = while_seen(seen, move || {
        let trained = state.trained.get_value()?;
        inputs.with(|inputs| {
            state.model.with(|m| {
                let inputs = inputs.as_ref()?;
                let (pieces, order) = (&m.tokens().words, inputs.order());
                // Inputs of another sentence (out of sight while it was typed) wait for the next.
                if order.len() != pieces.len() {
                    return None;
                }
                let [with, without] = trained.moves(m, inputs)?;
                let new_place = new_places(order);
                Some(PiecesMoved {
                    after: order.iter().map(|&i| pieces[i].clone()).collect(),
                    rows: (0..order.len())
                        .map(|t| (pieces[t].clone(), t, new_place[t], with[t], without[t]))
                        .collect(),
                })
            })
        })
    });
    let largest = move |column: fn(&(String, usize, usize, f64, f64)) -> f64| {
        Signal::derive(move || {
            moved.with(|m| {
                m.as_ref()
                    .map_or(f64::NAN, |m| m.rows.iter().map(column).fold(0.0, f64::max))
            })
        })
    };
    let (with, without) = (largest(|r| r.3), largest(|r| r.4));
    let layer = move || state.model.with(|m| m.layered().map_or(0, |l| l.layer));
    let verdict = move || {
        let (d, d0) = (
            fmt_significant(with.get(), 3),
            fmt_significant(without.get(), 3),
        );
        if with.get().is_nan() {
            "Open the trained model again (Open a trained model) to reorder its pieces.".to_owned()
        } else if without.get() <= 1e-9 {
            format!("With its learned positions a piece's row moves by up to {d}: the model sees where each piece is. Without them every row is the same numbers in its new place (largest difference {d0}): nothing else in the encoder sees order (attention without a mask mixes rows whatever their order; LayerNorm and the feed-forward network work on each row alone). The learned positions are how this model knows it.")
        } else {
            format!("With its learned positions a piece's row moves by up to {d}, and without them by up to {d0}.")
        }
    };
    view! {
        <div node_ref=place>
        <p>{move || format!("This model learned a vector for each place (0, 1, 2, …) and adds it to each piece before its first layer: X₀ = LayerNorm(word + position + type). Reorder the pieces between [CLS] and [SEP] (they stay at the ends, where the model always has them), run the layers below again, and compare each piece's row of layer {}'s attention output (attended = concat(heads) · W_output + b_output) before and after, with the learned positions and with them left out. The page's model is not changed.", layer())}</p>
        <ReorderButtons how/>
        <p>
            "Largest change of any row, with the learned positions: " <Stat name="order_max_diff" value=with/>
            "; without them: " <Stat name="order_no_positions_diff" value=without/>
        </p>
        <p class="lab-verdict" role="status">{verdict}</p>
        {move || moved.get().map(|m| view! {
            <p class="order-sentences">"After: " {m.after.join(" ")}</p>
            <table class="order-table">
                <thead><tr><th scope="col">"piece"</th><th scope="col">"place"</th><th scope="col">"its row moved by (learned positions)"</th><th scope="col">"without positions"</th></tr></thead>
                <tbody>
                    {m.rows.into_iter().map(|(w, before, after, d, d0)| view! {
                        <tr><th scope="row">{w}</th><td>{format!("{before} → {after}")}</td>
                            <td data-value=d.to_string()>{fmt_significant(d, 3)}</td>
                            <td data-value=d0.to_string()>{fmt_significant(d0, 3)}</td></tr>
                    }).collect_view()}
                </tbody>
            </table>
        })}
        </div>
    }
}

/// `compute`'s value, recomputed only while `seen`: out of sight the last one stays (the first
/// is always computed).
fn while_seen<T>(seen: ReadSignal<bool>, compute: impl Fn() -> T + Send + Sync + 'static) -> Memo<T>
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    Memo::new(move |last: Option<&T>| match last {
        Some(last) if !seen.get() => last.clone(),
        _ => compute(),
    })
}
