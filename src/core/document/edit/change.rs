//! What each edit does to the model, the history and the seed once no lock refuses it, and what
//! a trained model's layer refuses.

use crate::core::document::history::{EditKey, History};
use crate::core::document::script::check_value;
use crate::core::i18n::keys::edits;
use crate::core::i18n::{Key, Msg};
use crate::core::model::check_dims;
use crate::core::model::limits::check_sentence;
use crate::core::model::{Editable, Model, Source};

use super::edits::Edit;
/// What an edit changed, so that a page notifies only the parts that changed, and the token
/// followed after it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// The token followed after the edit (the rule is `followed::followed_after`'s).
    pub followed: Option<usize>,
    /// The model.
    pub model: bool,
    /// The undo history.
    pub history: bool,
    /// The seed.
    pub seed: bool,
}

/// The change `edit` makes to the document's parts, once no lock refuses it.
pub(super) fn change(
    model: &mut Model,
    history: &mut History,
    seed: &mut u64,
    edit: Edit,
) -> Result<Changed, Msg> {
    let both = Changed {
        model: true,
        history: true,
        ..Changed::default()
    };
    // A set number is an undo step of its own: sealed on both sides.
    let alone = matches!(edit, Edit::Set { .. });
    match edit {
        Edit::Cell {
            target,
            row,
            col,
            value,
        }
        | Edit::Set {
            target,
            row,
            col,
            value,
        } => {
            let value = check_value(value)?;
            // Bitwise, as undo keeps it: typing -0 over 0 is an edit, the same number is not.
            let same = model
                .matrix(target)
                .and_then(|m| m.get((row, col)))
                .is_some_and(|x| x.to_bits() == value.to_bits());
            if same {
                return Ok(Changed::default());
            }
            if alone {
                history.seal();
            }
            if !history.set_cell(model, target, row, col, value) {
                return Err(outside(model, target, row, col));
            }
            if alone {
                history.seal();
            }
        }
        Edit::Paste {
            target,
            row,
            col,
            block,
        } => {
            for &x in block.iter().flatten() {
                check_value(x)?;
            }
            model.check_paste(target, row, col, &block)?;
            let m = model.matrix(target).expect("check_paste found the matrix");
            let same = block.iter().enumerate().all(|(i, r)| {
                r.iter()
                    .enumerate()
                    .all(|(j, x)| m[(row + i, col + j)].to_bits() == x.to_bits())
            });
            if same {
                return Ok(Changed::default());
            }
            history.paste(model, target, row, col, &block)?;
        }
        Edit::Seal => {
            history.seal();
            return Ok(Changed {
                history: true,
                ..Changed::default()
            });
        }
        Edit::Sentence(text) => {
            check_sentence(&text)?;
            // A sentence's keystrokes are one step, each made from the model as it was before
            // the typing began: the words typed on the way ("c" and "ca" before "cat") leave no
            // trace, and a sentence typed key by key gets the numbers it gets pasted. The rows
            // as they were then, edits included, are remembered; the new words' rows, when the
            // sentence is next typed.
            let from = if history.starts_step(EditKey::Sentence) {
                history.words.remember(model);
                None
            } else {
                history.typing_began_from()
            };
            let next = from
                .unwrap_or(model)
                .with_sentence(&text, *seed, &history.words)?;
            return Ok(replace(model, history, EditKey::Sentence, next));
        }
        Edit::Resize(dims) => {
            check_dims(dims)?;
            let next = model.resized(dims, *seed)?;
            return Ok(replace(model, history, EditKey::Other, next));
        }
        Edit::Reinitialise => {
            let next = model.redrawn(*seed)?;
            return Ok(replace(model, history, EditKey::Other, next));
        }
        Edit::Positions { kind, base } => {
            let next = model.with_positions_of(kind, base, *seed)?;
            return Ok(replace(model, history, EditKey::Other, next));
        }
        Edit::Biases(on) => {
            let next = model.with_biases_on(on, *seed)?;
            return Ok(replace(model, history, EditKey::Other, next));
        }
        Edit::OutputProjection(on) => {
            let next = model.with_output_on(on, *seed)?;
            return Ok(replace(model, history, EditKey::Other, next));
        }
        Edit::Seed(s) => {
            *seed = s;
            return Ok(Changed {
                seed: true,
                ..Changed::default()
            });
        }
        Edit::KvHeads(g) => {
            let next = model.clone().with_kv_heads(g)?;
            return Ok(replace(model, history, EditKey::Other, next));
        }
        Edit::Source(text) => {
            let source = text
                .map(|t| {
                    Source::retyped(&t, model.source(), model.tokens(), model.embedding(), *seed)
                })
                .transpose()?;
            let next = model.clone().with_source(source)?;
            return Ok(replace(model, history, EditKey::Source, next));
        }
        Edit::Causal(on) => {
            if on && model.source().is_some() {
                return Err(edits::causal_remove_source.into());
            }
            let mut next = model.clone();
            next.causal = on;
            return Ok(replace(model, history, EditKey::Other, next));
        }
        Edit::Scale(scale) => {
            let mut next = model.clone();
            next.scale = scale;
            return Ok(replace(model, history, EditKey::Other, next));
        }
        // A whole model is taken only within the limits a saved state keeps, so the link and
        // the saved work always read back.
        Edit::Open(next) => {
            next.check_limits()?;
            return Ok(replace(model, history, EditKey::Other, *next));
        }
        Edit::Train(next) => {
            next.check_limits()?;
            return Ok(replace(model, history, EditKey::Training, *next));
        }
        Edit::Retyped(next) => {
            next.check_limits()?;
            return Ok(replace(model, history, EditKey::Sentence, *next));
        }
        // Nothing to take back (or repeat) changes nothing.
        Edit::Undo => {
            if !history.undo(model) {
                return Ok(Changed::default());
            }
        }
        Edit::Redo => {
            if !history.redo(model) {
                return Ok(Changed::default());
            }
        }
    }
    Ok(both)
}

/// Why a trained model's layer refuses `edit`, if it does: it keeps the shape and settings it was
/// trained with, and its input X is what the layers below make of the sentence.
pub(super) fn kept_by_a_trained_layer(edit: &Edit) -> Option<Key> {
    Some(match edit {
        Edit::Cell { target, .. } | Edit::Set { target, .. } | Edit::Paste { target, .. }
            if *target == Editable::Embedding =>
        {
            edits::layer_x
        }
        Edit::Sentence(_) => edits::layer_sentence,
        Edit::Resize(_) => edits::layer_sizes,
        Edit::Reinitialise => edits::layer_not_seeded,
        Edit::Seed(_) => edits::layer_no_seed,
        Edit::Positions { .. } => edits::layer_positions,
        Edit::Biases(_) | Edit::OutputProjection(_) => edits::layer_biases,
        Edit::Causal(_) => edits::encoder_no_mask,
        Edit::KvHeads(_) => edits::layer_kv_as_trained,
        Edit::Source(_) => edits::layer_own_sentence,
        Edit::Scale(_) => edits::layer_scale,
        _ => return None,
    })
}

/// Replaces the model, remembering the one before for undo unless this continues the open
/// step (another keystroke of the sentence); a model equal to the one there is no change.
fn replace(model: &mut Model, history: &mut History, key: EditKey, next: Model) -> Changed {
    if next == *model {
        return Changed::default();
    }
    let before = std::mem::replace(model, next);
    history.record_model(before, key);
    Changed {
        model: true,
        history: true,
        ..Changed::default()
    }
}

fn outside(model: &Model, target: Editable, row: usize, col: usize) -> Msg {
    let (rows, cols) = model.matrix(target).map_or((0, 0), |m| m.shape());
    edits::cell_outside(row, col, rows, cols)
}
