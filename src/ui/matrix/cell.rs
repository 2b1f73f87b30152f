//! One cell of a matrix's table as first built: an exercise's answer field, a hidden cell, an
//! editable number or a read-only one; later values are painted in by the table.

use leptos::prelude::*;

use crate::core::i18n::keys::views;
use crate::core::i18n::Arg;
use crate::core::teaching::exercise::Cover;
use crate::core::views::cells::{heat_text, CellView};
use crate::ui::exercises::cards::AnswerField;
use crate::ui::lang::t;
use crate::ui::matrix::cell_input::CellInput;
use crate::ui::matrix::keyboard;
use crate::ui::matrix::spec::MatrixSpec;

/// The cell at `(i, j)` of `spec`'s table (`names`: its id base and its label). An editable
/// cell keeps a signal for its `<input>`, which must not be rewritten while the learner types
/// in it.
pub fn table_cell(
    spec: MatrixSpec,
    (id_base, label): (&str, Arg),
    (i, j): (usize, usize),
    view: CellView,
    input: Option<RwSignal<CellView>>,
    cover: &Cover,
) -> AnyView {
    // An open exercise's cell carries no number at all: no text, value, title or colour.
    if let Some(exercise) = cover.answer_at(i, j) {
        return view! {
            <td data-row=i.to_string() data-col=j.to_string() class="asked">
                <AnswerField index=exercise label=views::answer_for(label, i, j)/>
            </td>
        }
        .into_any();
    }
    if cover.covers(i, j) {
        return view! {
            <td data-row=i.to_string() data-col=j.to_string() class="hidden-cell" aria-label=t(views::hidden_until_answer)>"?"</td>
        }
        .into_any();
    }
    let content = match (spec.editor, input) {
        (Some(editor), Some(view)) => view! {
            <CellInput
                row=i
                col=j
                view
                id=format!("{id_base}-{i}-{j}")
                label=views::cell_label(label, i, j)
                editor
            />
        }
        .into_any(),
        _ => view.text().into_any(),
    };
    view! {
        <td
            data-row=i.to_string()
            data-col=j.to_string()
            data-value=(!spec.shows.is_gradient()).then(|| view.value.to_string())
            data-grad=spec.shows.is_gradient().then(|| view.value.to_string())
            data-fails=view.flagged.then_some("true")
            class:masked=view.masked
            class:fails=view.flagged
            style:--heat=heat_text(view.heat)
            // Read-only cells are reachable from the keyboard: the first one is a tab stop,
            // arrows move from there, Enter clicks.
            tabindex=spec.editor.is_none().then_some(if i == 0 && j == 0 { "0" } else { "-1" })
            on:keydown=move |ev| {
                if spec.editor.is_none() {
                    keyboard::from_cell(ev);
                }
            }
            on:click=move |_| {
                if let Some(cb) = spec.on_cell_click {
                    cb.run((i, j));
                }
            }
        >
            {content}
        </td>
    }
    .into_any()
}
