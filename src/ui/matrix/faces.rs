//! Which face a matrix shows (numbers, heat map, or ∂L with a target), the learner's choice
//! kept per matrix and head, and the caption's buttons that choose it.

use std::collections::HashMap;

use leptos::prelude::*;

use crate::core::i18n::keys::views;
use crate::core::i18n::Arg;
use crate::core::model::Matrix;
use crate::core::views::heatmap::Face;
use crate::ui::lang::word;

/// A matrix's face and what decides it.
#[derive(Clone, Copy)]
pub(super) struct Faces {
    /// The learner's choices, page-wide.
    chosen: RwSignal<HashMap<(Matrix, Option<usize>), Face>>,
    of: (Matrix, Option<usize>),
    covered: Memo<bool>,
    has_gradient: Memo<bool>,
    /// The face shown.
    pub face: Memo<Face>,
}

impl Faces {
    /// The face of `of`: numbers while an exercise covers it (its answer fields and hidden rows
    /// are in the numbers face only), else the learner's choice, else by its size.
    pub fn new(
        chosen: RwSignal<HashMap<(Matrix, Option<usize>), Face>>,
        of: (Matrix, Option<usize>),
        covered: Memo<bool>,
        shape: Memo<(usize, usize)>,
        has_gradient: Memo<bool>,
    ) -> Self {
        let face = Memo::new(move |_| {
            if covered.get() {
                return Face::Numbers;
            }
            let default = || Face::default_for(shape.get().0, shape.get().1);
            match chosen.with(|f| f.get(&of).copied()) {
                // Without a target there is no gradient to show: the numbers, until there is.
                Some(Face::Gradient) if !has_gradient.get() => default(),
                Some(face) => face,
                None => default(),
            }
        });
        Faces {
            chosen,
            of,
            covered,
            has_gradient,
            face,
        }
    }

    fn choose(self, next: Face) {
        self.chosen.update(|f| {
            f.insert(self.of, next);
        });
    }

    /// The toggle between numbers and heat map, and the ∂L button while there is a gradient,
    /// for the matrix called `caption`.
    pub fn toggles(self, caption: &Arg) -> impl IntoView {
        let face = self.face;
        let toggle = move |_| self.choose(face.get_untracked().toggled());
        let toggle_gradient = move |_| {
            self.choose(if face.get_untracked() == Face::Gradient {
                Face::Numbers
            } else {
                Face::Gradient
            })
        };
        let (covered, has_gradient) = (self.covered, self.has_gradient);
        let caption = caption.clone();
        let gradient_label = views::show_gradient(caption.clone());
        view! {
            <button
                type="button"
                class="face-toggle"
                data-action="toggle-view"
                hidden=move || covered.get()
                aria-label=move || word(&match face.get() {
                    Face::Numbers => views::show_heatmap(caption.clone()),
                    Face::Heatmap | Face::Gradient => views::show_numbers(caption.clone()),
                })
                on:click=toggle
            >
                {move || word(&match face.get() { Face::Numbers => views::heatmap, Face::Heatmap | Face::Gradient => views::numbers }.into())}
            </button>
            <button
                type="button"
                class="face-toggle"
                data-action="toggle-gradient"
                hidden=move || !has_gradient.get()
                aria-pressed=move || (face.get() == Face::Gradient).to_string()
                // The visible text starts the name (WCAG 2.5.3: a voice user says "∂L").
                aria-label=move || word(&gradient_label)
                on:click=toggle_gradient
            >
                "∂L"
            </button>
        }
    }
}
