//! What a link holds once read: the model, what is shown ([`Shown`]), the embed's options
//! ([`Embed`]), and what the page writes back ([`Page`]); the types every part of the link
//! module reads and writes.

use crate::core::decoder::Choosing;
use crate::core::i18n::{Lang, Msg};
use crate::core::model::presets::Preset;
use crate::core::model::Matrix;
use crate::core::model::Model;
use crate::core::teaching::exercise::Exercises;
use crate::core::training::lab::Setup;
use crate::core::views::heatmap::Face;
use crate::core::views::pipeline::Step;

/// Chrome's limit for a whole URL; a longer link is refused before anything is decoded.
pub const MAX_LINK_CHARS: usize = 2 << 20;
/// Past this a link works in the address bar, but mail, chats and course pages may cut it: the
/// page says so where it offers the link.
pub const LONG_LINK_CHARS: usize = 32 << 10;
/// The most decimals the page shows.
pub const MAX_DECIMALS: usize = 12;
/// Decimals shown until the learner picks others.
pub const DEFAULT_DECIMALS: usize = 4;

/// A face the learner chose: the matrix's name, its head (if it is a head's), the face.
pub type FaceChoice = (Matrix, Option<usize>, Face);

/// What the learner sees besides the model; the page writes it back into the fragment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shown {
    /// The seed for re-initialising and for new numbers (absent: [`DEFAULT_SEED`](crate::core::model::presets::DEFAULT_SEED)).
    pub seed: Option<u64>,
    /// The followed token.
    pub followed: Option<usize>,
    /// The head shown when one head is shown at a time.
    pub head: Option<usize>,
    /// Decimals in the tables (absent: [`DEFAULT_DECIMALS`]).
    pub decimals: Option<usize>,
    /// Steps the learner hid, in pipeline order.
    pub hidden: Vec<Step>,
    /// The face chosen for a matrix (name, head), in the order chosen.
    pub faces: Vec<FaceChoice>,
    /// The training lab's targets, what trains, the optimiser and its rate (an output target
    /// is not in the link).
    pub training: Setup,
    /// How the language model chooses the next token.
    pub choosing: Choosing,
}

/// What the learner may change in an embedded page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Controls {
    /// No settings bar (cells stay editable).
    #[default]
    None,
    /// Sizes, mask, scaling and decimals.
    Dims,
    /// Every setting, as on the full page.
    All,
}

impl Controls {
    /// Every level, for `controls=`.
    pub const ALL: [Controls; 3] = [Controls::None, Controls::Dims, Controls::All];

    /// Its name in `controls=`.
    pub fn key(self) -> &'static str {
        match self {
            Controls::None => "none",
            Controls::Dims => "dims",
            Controls::All => "all",
        }
    }
}

/// The colour scheme asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// The system's light or dark mode.
    #[default]
    Auto,
    /// Light, whatever the system says.
    Light,
    /// Dark, whatever the system says.
    Dark,
}

impl Theme {
    /// Every scheme, for `theme=`.
    pub const ALL: [Theme; 3] = [Theme::Auto, Theme::Light, Theme::Dark];

    /// Its name in `theme=`.
    pub fn key(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// An embed's options, as a snippet writes them into its query.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Embed {
    /// The steps shown; all when `None`.
    pub steps: Option<Vec<Step>>,
    /// `controls=`, when not the embed's default (none).
    pub controls: Option<Controls>,
    /// `theme=`.
    pub theme: Theme,
}

/// What the page writes into a link: the model's code (`m=`), what is shown, and for an
/// embed snippet its options.
pub struct Page<'a> {
    /// The model as [`encode_model`] writes it (none: the link names no model, or a preset).
    pub model: &'a str,
    /// A snippet's preset, when its model is that preset unedited: named in the query instead
    /// of the model in the fragment, so that the embed shows the preset's page written at build
    /// time before its code arrives (see [`super::snapshot::snapshot`]).
    pub preset: Option<&'static str>,
    /// What is shown.
    pub shown: &'a Shown,
    /// Embed mode's options, for a snippet.
    pub embed: Option<&'a Embed>,
    /// The step to open scrolled to (the full explorer opened from an embed).
    pub at: Option<Step>,
    /// The exercises, for a link or a snippet that carries them.
    pub exercises: Option<&'a Exercises>,
    /// `lang=`: a course's language, for a snippet or an exercise's link.
    pub lang: Option<Lang>,
}

/// Everything a link asks for, already checked.
#[derive(Clone, Debug)]
pub struct Link {
    /// The model to open: the link's, else the default preset.
    pub model: Model,
    /// The preset the model is, unedited (the default one when the link names no model).
    pub preset: Option<&'static str>,
    /// Whether the link carried a model (`m`, `state` or `preset`).
    pub carries_model: bool,
    /// What to show of it.
    pub shown: Shown,
    /// `embed=1` (or the older `view=STEP`): no header or intro, for course pages.
    pub embed: bool,
    /// The steps shown, in pipeline order; all when `None`.
    pub steps: Option<Vec<Step>>,
    /// `controls=`, if given (see [`Link::controls`]).
    pub controls: Option<Controls>,
    /// `theme=`.
    pub theme: Theme,
    /// `lang=`: the page's language, whatever the browser's.
    pub lang: Option<Lang>,
    /// `walk=1`: open in the guided walk.
    pub walk: bool,
    /// `at=STEP`: open scrolled to this step.
    pub at: Option<Step>,
    /// `ask=`, `predict=`, `goal=` and `lock=`.
    pub exercises: Exercises,
    /// One sentence per refused part, for the page to show one after another.
    pub messages: Vec<Msg>,
    /// Why the model it carries could not be read, if it could not.
    pub model_error: Option<Msg>,
    /// A trained model's layer it names (its state's `pretrained`, as JSON text: read by
    /// [`crate::core::formats::trained::read_trained`] once the page has fetched the model);
    /// `model` meanwhile is the default example.
    pub pretrained: Option<String>,
}

impl Link {
    /// A link to `preset` as it is, with nothing else asked for (`named`: by `?preset=`).
    pub fn example(preset: &Preset, named: bool) -> Self {
        Link {
            model: (preset.build)(),
            preset: Some(preset.name),
            carries_model: named,
            shown: Shown::default(),
            embed: false,
            steps: None,
            controls: None,
            theme: Theme::Auto,
            lang: None,
            walk: false,
            at: None,
            exercises: Exercises::default(),
            messages: Vec::new(),
            model_error: None,
            pretrained: None,
        }
    }

    /// The controls to show: `controls=` if given, else all on the full page and none embedded.
    pub fn controls(&self) -> Controls {
        self.controls.unwrap_or(if self.embed {
            Controls::None
        } else {
            Controls::All
        })
    }
}
