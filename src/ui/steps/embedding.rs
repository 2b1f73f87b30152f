//! Step 2: each token's row of the embedding table.

use leptos::prelude::*;
use nalgebra::DMatrix;

use crate::core::i18n::keys::{steps, views};
use crate::core::model::presets::column_names;
use crate::core::model::Editable;
use crate::core::model::Matrix;
use crate::core::views::pipeline::Step;
use crate::ui::lang::t;
use crate::ui::matrix::{index_labels, MatrixView};
use crate::ui::state::use_app;
use crate::ui::steps::frame::{StepSection, StepText};

/// What the page says about this step.
pub const TEXT: StepText = StepText {
    short_title: steps::embedding_short_title,
    formula: steps::embedding_formula,
    explain: steps::embedding_explain,
    hint: steps::embedding_hint,
    dog: Some(steps::embedding_dog),
    lab: None,
};

#[component]
pub fn EmbeddingStep() -> impl IntoView {
    let state = use_app();
    let embedding: Signal<DMatrix<f64>> =
        Memo::new(move |_| state.doc.model.with(|m| m.embedding().clone())).into();
    let vocabulary: Signal<Vec<String>> =
        Memo::new(move |_| state.structure(|m| m.tokens().vocabulary.clone())).into();
    let embedded: Signal<DMatrix<f64>> =
        Memo::new(move |_| state.derived.trace.with(|t| t.embedded.clone())).into();
    // The dog's hand-made columns say what they encode; other models' are numbered.
    let numbered = index_labels(move || embedding.with(|m| m.ncols()));
    let d_in_labels: Signal<Vec<String>> = Memo::new(move |_| {
        state.structure(column_names).map_or_else(
            || numbered.get(),
            |names| names.iter().map(|&n| n.to_owned()).collect(),
        )
    })
    .into();
    // The followed token's vocabulary row.
    let selected_word: Signal<Option<usize>> = Memo::new(move |_| {
        state
            .view
            .followed
            .get()
            .and_then(|i| state.structure(|m| m.tokens().ids.get(i).copied()))
    })
    .into();

    let source_vocabulary: Signal<Vec<String>> = Memo::new(move |_| {
        state.structure(|m| {
            m.source()
                .map(|s| s.tokens().vocabulary.clone())
                .unwrap_or_default()
        })
    })
    .into();
    let source_embedded: Signal<DMatrix<f64>> = Memo::new(move |_| {
        state.derived.trace.with(|t| {
            t.source
                .as_ref()
                .map_or_else(|| DMatrix::zeros(0, 0), |s| s.1.clone())
        })
    })
    .into();
    let has_source = Memo::new(move |_| state.structure(|m| m.source().is_some()));
    // A trained model's layer: X is the hidden state entering it, computed by the layers below.
    let layer = Memo::new(move |_| state.structure(|m| m.layered().map(|l| l.layer)));

    view! {
        <StepSection step=Step::Embedding text=&TEXT>
            {move || layer.get().map(|l| view! {
                <p class="note" data-note="hidden-state">
                    {state.trained_in_page().map(|t| t.hidden_state_note(l))}
                    {t(views::computed_not_typed)}
                </p>
            })}
            <div class="heads">
                <div class="contents" hidden=move || layer.with(Option::is_some)>
                <MatrixView
                    of=Matrix::Embedding
                    values=embedding
                    row_labels=vocabulary
                    col_labels=d_in_labels
                    followed_row=selected_word
                    editor=state.editor(Editable::Embedding)
                />
                </div>
                <MatrixView
                    of=Matrix::Embedded
                    values=embedded
                    row_labels=state.derived.words.into()
                    col_labels=d_in_labels
                    followed_row=state.view.followed
                    on_row_click=Callback::new(move |i| state.view.followed.set(Some(i)))
                />
            </div>
            <Show when=move || has_source.get()>
                <p class="note" data-note="source">{t(views::source_table)}</p>
                <div class="heads">
                    <MatrixView
                        of=Matrix::SourceEmbedding
                        values=state.model_matrix(Editable::SourceEmbedding)
                        row_labels=source_vocabulary
                        col_labels=d_in_labels
                        editor=state.editor(Editable::SourceEmbedding)
                    />
                    <MatrixView
                        of=Matrix::SourceEmbedded
                        values=source_embedded
                        row_labels=state.derived.key_words.into()
                        col_labels=d_in_labels
                    />
                </div>
            </Show>
        </StepSection>
    }
}
