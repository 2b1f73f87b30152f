//! A matrix's gradient face: ∂L/∂cell for the training lab's loss, coloured on a diverging
//! scale, each cell's full value in `data-grad`; a clicked cell says in words what raising it
//! would do to the loss.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::heatmap::Heat;
use crate::core::trace::fmt;
use crate::ui::matrix::spec::MatrixSpec;

/// The gradient of `spec`'s matrix (`None` while there is none).
#[component]
pub fn GradientTable(spec: MatrixSpec, gradient: Signal<Option<DMatrix<f64>>>) -> impl IntoView {
    let precision = spec.look.precision;
    let picked = RwSignal::new(None::<(usize, usize)>);
    let label = move |labels: Signal<Vec<String>>, k: usize| {
        labels.with(|l| l.get(k).cloned().unwrap_or_else(|| k.to_string()))
    };
    let rows = move || {
        gradient.with(|g| {
            let g = g.as_ref()?;
            let span = Heat::Signed.span(g, false);
            let p = precision.get();
            Some(
                (0..g.nrows())
                    .map(|i| {
                        let cells = (0..g.ncols())
                            .map(|j| {
                                let x = g[(i, j)];
                                view! {
                                    <td
                                        data-row=i.to_string()
                                        data-col=j.to_string()
                                        data-grad=x.to_string()
                                        tabindex="0"
                                        style:--heat=format!("{:.3}", Heat::Signed.level(x, span))
                                        on:click=move |_| picked.set(Some((i, j)))
                                    >
                                        {fmt(x, p)}
                                    </td>
                                }
                            })
                            .collect_view();
                        view! { <tr><th scope="row">{label(spec.row_labels, i)}</th>{cells}</tr> }
                    })
                    .collect_view(),
            )
        })
    };
    let header = move || {
        let cols = gradient.with(|g| g.as_ref().map_or(0, DMatrix::ncols));
        (0..cols)
            .map(|j| view! { <th scope="col">{label(spec.col_labels, j)}</th> })
            .collect_view()
    };
    let explained = move || {
        let (i, j) = picked.get()?;
        let x = gradient.with(|g| g.as_ref()?.get((i, j)).copied())?;
        let p = precision.get();
        let way = if x > 0.0 { "raise" } else { "lower" };
        Some(format!(
            "∂L/∂{}[{i}][{j}] = {}: raising this number by 0.01 would {way} the loss by about {}, so a training step moves it the other way.",
            spec.label(),
            fmt(x, p),
            fmt((0.01 * x).abs(), p + 2)
        ))
    };
    view! {
        <div class="scroll">
            <table
                data-matrix=spec.name
                data-head=spec.head.map(|h| h.to_string())
                data-view="gradient"
                class="signed gradient"
            >
                <thead><tr><td class="corner">"∂L/∂"</td>{header}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <p class="note gradient-note" data-breakdown="gradient">
            {move || explained().unwrap_or_else(|| "The loss's gradient: click a cell to read it in words.".to_owned())}
        </p>
    }
}
