//! The order lab on a trained model's layer: its pieces reordered and run again through the
//! layers below, with the model's learned positions and without.

use leptos::prelude::*;

use super::buttons::ReorderButtons;
use crate::core::i18n::keys::labs;
use crate::core::teaching::order::{new_places, order_of_pieces, Reorder};
use crate::core::text::fmt_significant;
use crate::ui::in_view::in_view;
use crate::ui::in_view::while_seen;
use crate::ui::labs::frame::Stat;
use crate::ui::lang::{figure, with_figures};
use crate::ui::lang::{t, word};
use crate::ui::state::use_app;

/// What shuffling a trained layer's pieces did: the pieces after, and each piece's largest change
/// with the model's learned positions and without them.
#[derive(Clone, PartialEq)]
pub(super) struct PiecesMoved {
    after: Vec<String>,
    /// (piece, place before, place after, moved with positions, moved without)
    rows: Vec<(String, usize, usize, f64, f64)>,
}

/// The order lab on a trained model's layer: the pieces between [CLS] and [SEP] reordered, the
/// layers below run again on them, with the model's learned positions and without.
#[component]
pub(super) fn TrainedOrder() -> impl IntoView {
    let state = use_app();
    let how = RwSignal::new(Reorder::Shuffle(1));
    let place = NodeRef::<leptos::html::Div>::new();
    let seen = in_view(place);
    // The layers below run again only when what they run on changes, not on an edit of the
    // page's layer.
    let below = Memo::new(move |_| {
        state.doc.model.with(|m| {
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
        let trained = state.trained_in_page()?;
        state
            .doc
            .model
            .with_untracked(|m| trained.reordered_inputs(m, order))
    });
    let moved = while_seen(seen, move || {
        let trained = state.trained_in_page()?;
        inputs.with(|inputs| {
            state.doc.model.with(|m| {
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
    let layer = move || state.doc.model.with(|m| m.layered().map_or(0, |l| l.layer));
    let verdict = move || {
        let (d, d0) = (
            fmt_significant(with.get(), 3),
            fmt_significant(without.get(), 3),
        );
        word(&if with.get().is_nan() {
            labs::trained_reopen.into()
        } else if without.get() <= 1e-9 {
            labs::trained_blind(d, d0)
        } else {
            labs::trained_moves(d, d0)
        })
    };
    view! {
        <div node_ref=place>
        <p>{move || word(&labs::trained_what(layer()))}</p>
        <ReorderButtons how/>
        <p>
            {with_figures(
                || labs::trained_figures(figure(0), figure(1)),
                move |i| match i {
                    0 => view! { <Stat name="order_max_diff" value=with/> }.into_any(),
                    _ => view! { <Stat name="order_no_positions_diff" value=without/> }.into_any(),
                },
            )}
        </p>
        <p class="lab-verdict" role="status">{verdict}</p>
        {move || moved.get().map(|m| view! {
            <p class="order-sentences">{move || word(&labs::after(m.after.join(" ")))}</p>
            <table class="order-table">
                <thead><tr><th scope="col">{t(labs::piece)}</th><th scope="col">{t(labs::place)}</th><th scope="col">{t(labs::row_moved_by)}</th><th scope="col">{t(labs::without_positions)}</th></tr></thead>
                <tbody>
                    {m.rows.into_iter().map(|(w, before, after, d, d0)| view! {
                        <tr><th scope="row">{w}</th><td>{format!("{before} → {after}")}</td> // not words: two places and an arrow
                            <td data-value=d.to_string()>{fmt_significant(d, 3)}</td>
                            <td data-value=d0.to_string()>{fmt_significant(d0, 3)}</td></tr>
                    }).collect_view()}
                </tbody>
            </table>
        })}
        </div>
    }
}
