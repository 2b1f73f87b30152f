//! Under a heat map: the cell read out (labels and value, with the page's decimals) and the
//! legend of its colours.

use leptos::prelude::*;

use crate::core::i18n::keys::views;
use crate::core::text::fmt;
use crate::core::views::cursor::place;
use crate::core::views::heatmap::Heat;
use crate::ui::lang::{t, word};
use crate::ui::matrix::spec::MatrixSpec;

/// The cell `cell` (under the mouse, else under the cursor) read out; `data-value` keeps every
/// digit.
pub(super) fn readout(
    spec: MatrixSpec,
    id: String,
    cell: Signal<Option<(usize, usize)>>,
) -> impl IntoView {
    let precision = spec.look.precision;
    let readout = move || {
        let (i, j) = cell.get()?;
        let value = spec.matrix.with(|m| m.get((i, j)).copied())?;
        let name_of = |labels: Signal<Vec<String>>, k: usize| {
            labels.with(|l| l.get(k).cloned().unwrap_or_else(|| k.to_string()))
        };
        let (row, col) = (name_of(spec.row_labels, i), name_of(spec.col_labels, j));
        let place = place(
            i,
            &row,
            &col,
            spec.shows.corner() == Some(views::query_by_key),
        );
        let masked = spec.grey_future.get() && j > i;
        let value_text = fmt(value, precision.get());
        let text = word(&if masked {
            views::readout_masked(place, value_text)
        } else {
            views::readout(place, value_text)
        });
        Some(view! {
            <span data-row=i.to_string() data-col=j.to_string() data-value=value.to_string()>{text}</span>
        })
    };
    view! {
        <p class="heatmap-readout" id=id aria-live="polite">
            {move || readout().map_or_else(|| view! { <span>{t(views::readout_hint)}</span> }.into_any(), IntoAny::into_any)}
        </p>
    }
}

/// The colours' legend: the lowest and highest numbers shown, and the masked cells' hatching.
pub(super) fn legend(spec: MatrixSpec) -> impl IntoView {
    let precision = spec.look.precision;
    let legend = move || {
        let (low, high) = spec
            .matrix
            .with(|m| spec.heat.span(m, spec.grey_future.get()));
        let p = precision.get();
        // A spread scale's ends are not the extremes: the cells past them are at full colour.
        let (below, above) = match spec.heat {
            Heat::Spread => ("≤ ", "≥ "),
            Heat::Signed | Heat::Unit => ("", ""),
        };
        view! {
            <span class="legend-low" data-value=low.to_string()>{format!("{below}{}", fmt(low, p))}</span>
            <span class=match spec.heat { Heat::Signed | Heat::Spread => "legend-bar signed", Heat::Unit => "legend-bar unit" } aria-hidden="true"></span>
            <span class="legend-high" data-value=high.to_string()>{format!("{above}{}", fmt(high, p))}</span>
            {spec.grey_future.get().then(|| view! { <span class="legend-masked" aria-hidden="true"></span><span>{t(views::masked)}</span> })}
        }
    };
    view! { <p class="legend">{legend}</p> }
}
