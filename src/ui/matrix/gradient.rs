//! A matrix's gradient face: ∂L/∂cell for the training lab's loss, drawn by the tables' own
//! painter on a diverging scale (each cell's full value in `data-grad`); a clicked cell says in
//! words what raising it would do to the loss.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::i18n::keys::views;
use crate::core::training::gradient_words;
use crate::core::views::heatmap::Heat;
use crate::ui::lang::word;
use crate::ui::matrix::spec::{shape_of, MatrixSpec, Shows};
use crate::ui::matrix::table::MatrixTable;

/// The gradient of `spec`'s matrix (`None` while there is none).
#[component]
pub fn GradientTable(spec: MatrixSpec, gradient: Signal<Option<DMatrix<f64>>>) -> impl IntoView {
    let picked = RwSignal::new(None::<(usize, usize)>);
    let matrix =
        Memo::new(move |_| gradient.with(|g| g.clone().unwrap_or_else(|| DMatrix::zeros(0, 0))));
    let shows = match spec.shows {
        Shows::Values(m) => Shows::Gradient(m),
        other => other,
    };
    let table = MatrixSpec {
        matrix: matrix.into(),
        shape: shape_of(shows, matrix.into()),
        heat: Heat::Signed,
        shows,
        editor: None,
        cover: Signal::stored(Default::default()),
        on_cell_click: Some(Callback::new(move |cell| picked.set(Some(cell)))),
        ..spec
    };
    let explained = move || {
        let (i, j) = picked.get()?;
        let x = matrix.with(|g| g.get((i, j)).copied())?;
        Some(word(&gradient_words(&spec.label(), (i, j), x)))
    };
    // An attention target is reached before W_output: every ∂L there is 0, and why is said.
    let unused = move || matrix.with(|g| !g.is_empty() && g.iter().all(|&x| x == 0.0));
    let fallback = move || {
        if unused() {
            word(&views::gradient_unused.into())
        } else {
            word(&views::gradient_hint.into())
        }
    };
    view! {
        <MatrixTable spec=table/>
        <p class="note gradient-note" data-breakdown="gradient">
            {move || explained().unwrap_or_else(fallback)}
        </p>
    }
}
