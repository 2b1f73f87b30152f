//! Every URL parameter in one list, each with its reader and its writer side by side (as
//! TensorFlow Playground's `State.PROPS`): a new setting in the link is one entry here.

use super::page::{Controls, Link, Page, Theme, MAX_DECIMALS};
use super::values::{face_key, faces, flag, index, sampling, step_list, step_named, step_names};
use nalgebra::DMatrix;

use crate::core::i18n::keys::edits;
use crate::core::i18n::{Arg, Lang};
use crate::core::model::limits::{MAX_DIM, MAX_HEADS, MAX_PROMPT_TOKENS};
use crate::core::model::{Head, Model, Scale};
use crate::core::teaching::exercise::{Exercises, Kind};
use crate::core::training::lab::Setup;
use crate::core::training::{Optimizer, DEFAULT_LR};
use crate::core::views::pipeline::Step;

/// What the link's exercises and training targets are read against: its model; while a trained
/// model's layer is still to open (`pretrained=`), a stand-in of the largest shapes such a layer
/// may have (the cells are checked against the layer itself once it is open).
fn checked_against(l: &Link) -> Result<std::borrow::Cow<'_, Model>, crate::core::i18n::Msg> {
    Ok(match l.pretrained {
        Some(_) => std::borrow::Cow::Owned(largest_layer()?),
        None => std::borrow::Cow::Borrowed(&l.model),
    })
}

/// `read` of the link's exercises against [`checked_against`].
fn with_exercises<E: Into<Arg>>(
    l: &mut Link,
    read: impl FnOnce(&mut Exercises, &Model) -> Result<(), E>,
) -> Result<(), Arg> {
    let mut exercises = std::mem::take(&mut l.exercises);
    let read = checked_against(l)
        .map_err(Arg::from)
        .and_then(|model| read(&mut exercises, &model).map_err(Into::into));
    l.exercises = exercises;
    read
}

/// A model of [`MAX_PROMPT_TOKENS`] words (a language model's longest prompt, the most any
/// trained layer has) and [`MAX_HEADS`] heads of [`MAX_DIM`] wide queries, keys
/// and values: only its shapes count. Its input is NaN, so that every number it computes is, and
/// no goal reads as met already.
fn largest_layer() -> Result<Model, crate::core::i18n::Msg> {
    let words: Vec<String> = (0..MAX_PROMPT_TOKENS).map(|i| format!("w{i}")).collect();
    let zeros = || DMatrix::zeros(1, MAX_DIM);
    let heads = (0..MAX_HEADS)
        .map(|_| Head::new(zeros(), zeros(), zeros()))
        .collect::<Vec<_>>();
    Model::new(
        &words.join(" "),
        DMatrix::from_element(MAX_PROMPT_TOKENS, 1, f64::NAN),
        heads,
        false,
        Scale::SqrtDk,
    )
}

/// Where a parameter is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The fragment the page keeps up to date: the model and what is shown.
    Fragment,
    /// The query an embed snippet's author sets: embed mode and its options.
    Query,
    /// Read for older or hand-written links, never written.
    ReadOnly,
}

/// A URL parameter: its name, how it is read into a [`Link`] and how a [`Page`] writes it
/// (`None`: left out, as when it has its default).
pub struct Param {
    /// Its name in the URL.
    pub name: &'static str,
    /// Where the page writes it.
    pub part: Part,
    /// Its reader; the error says why the value was ignored (another area's reason may be
    /// English text still, hence an argument).
    read: fn(&mut Link, &str) -> Result<(), Arg>,
    write: fn(&Page) -> Option<String>,
}

/// A reader for the parameters that [`super::read_link`] reads first (the model).
fn read_first(_: &mut Link, _: &str) -> Result<(), Arg> {
    Ok(())
}

fn never(_: &Page) -> Option<String> {
    None
}

/// Every parameter a link may carry, in the query or the fragment, in the order written.
pub const PARAMS: [Param; 32] = [
    // The model: read before the others (see read_link), which are checked against it.
    Param {
        name: "m",
        part: Part::Fragment,
        read: read_first,
        write: |p| (!p.model.is_empty()).then(|| p.model.to_owned()),
    },
    Param {
        name: "state",
        part: Part::ReadOnly,
        read: read_first,
        write: never,
    },
    Param {
        name: "preset",
        part: Part::Query,
        read: read_first,
        write: |p| p.preset.map(str::to_owned),
    },
    // A trained model's layer (`?pretrained=all-minilm-l6-v2&layer=3`), on the link's sentence:
    // read with the model, opened once the page has fetched it.
    Param {
        name: "pretrained",
        part: Part::ReadOnly,
        read: read_first,
        write: never,
    },
    Param {
        name: "layer",
        part: Part::ReadOnly,
        read: read_first,
        write: never,
    },
    Param {
        name: "seed",
        part: Part::Fragment,
        read: |l, v| {
            l.shown.seed = Some(v.parse().map_err(|_| edits::use_whole)?);
            Ok(())
        },
        write: |p| p.shown.seed.map(|s| s.to_string()),
    },
    Param {
        name: "focus",
        part: Part::Fragment,
        read: |l, v| {
            // A trained model's layer is not open yet: its pieces are checked when it is.
            let tokens = match l.pretrained {
                Some(_) => MAX_PROMPT_TOKENS,
                None => l.model.tokens().len(),
            };
            l.shown.followed = Some(index(v, tokens, edits::use_token)?);
            Ok(())
        },
        write: |p| p.shown.followed.map(|i| i.to_string()),
    },
    Param {
        name: "head",
        part: Part::Fragment,
        read: |l, v| {
            let heads = match l.pretrained {
                Some(_) => MAX_HEADS,
                None => l.model.heads().len(),
            };
            l.shown.head = Some(index(v, heads, edits::use_head)?);
            Ok(())
        },
        write: |p| p.shown.head.map(|h| h.to_string()),
    },
    Param {
        name: "decimals",
        part: Part::Fragment,
        read: |l, v| {
            l.shown.decimals = Some(index(v, MAX_DECIMALS + 1, edits::use_decimals)?);
            Ok(())
        },
        write: |p| p.shown.decimals.map(|d| d.to_string()),
    },
    Param {
        name: "hide",
        part: Part::Fragment,
        read: |l, v| {
            l.shown.hidden = step_list(v)?;
            Ok(())
        },
        write: |p| (!p.shown.hidden.is_empty()).then(|| step_names(&p.shown.hidden)),
    },
    Param {
        name: "faces",
        part: Part::Fragment,
        read: |l, v| {
            l.shown.faces = faces(v)?;
            Ok(())
        },
        write: |p| {
            let faces: Vec<String> = p
                .shown
                .faces
                .iter()
                .map(|(matrix, head, face)| match head {
                    Some(h) => format!("{}.{h}:{}", matrix.key(), face_key(*face)),
                    None => format!("{}:{}", matrix.key(), face_key(*face)),
                })
                .collect();
            (!faces.is_empty()).then(|| faces.join(","))
        },
    },
    // The training lab: `target=0:6,1;0:2,0&train=w_query,w_key&optimizer=sgd&lr=0.1`.
    Param {
        name: "target",
        part: Part::Fragment,
        read: |l, v| {
            // A trained model's layer is not open yet: the largest one may be stands in (the
            // training lab trains towards a target only while it fits the model).
            let targets = Setup::read_targets(v, &*checked_against(l)?)?;
            l.shown.training.targets = targets;
            Ok(())
        },
        write: |p| p.shown.training.write_targets(),
    },
    Param {
        name: "train",
        part: Part::Fragment,
        read: |l, v| {
            l.shown.training.train = Setup::read_train(v)?;
            Ok(())
        },
        write: |p| p.shown.training.write_train(),
    },
    Param {
        name: "optimizer",
        part: Part::Fragment,
        read: |l, v| {
            let lr = l.shown.training.optimizer.lr();
            l.shown.training.optimizer = Optimizer::named(Some(v), lr)?;
            Ok(())
        },
        write: |p| {
            let name = p.shown.training.optimizer.name();
            (name != Setup::default().optimizer.name()).then(|| name.to_owned())
        },
    },
    Param {
        name: "lr",
        part: Part::Fragment,
        read: |l, v| {
            let name = l.shown.training.optimizer.name();
            l.shown.training.optimizer =
                Setup::read_lr(v).and_then(|lr| Optimizer::named(Some(name), lr))?;
            Ok(())
        },
        write: |p| {
            let lr = p.shown.training.optimizer.lr();
            (lr != DEFAULT_LR).then(|| lr.to_string())
        },
    },
    // How the language model chooses the next token: `draw=1&temperature=0.8&top_k=40&top_p=0.9&draw_seed=7`.
    Param {
        name: "draw",
        part: Part::Fragment,
        read: |l, v| {
            l.shown.choosing.draw = flag(v)?;
            Ok(())
        },
        write: |p| p.shown.choosing.draw.then(|| "1".to_owned()),
    },
    Param {
        name: "temperature",
        part: Part::Fragment,
        read: |l, v| sampling(l, v, |s, x| s.temperature = x),
        write: |p| {
            let t = p.shown.choosing.sampling.temperature;
            (t != 1.0).then(|| t.to_string())
        },
    },
    Param {
        name: "top_k",
        part: Part::Fragment,
        read: |l, v| {
            l.shown.choosing.sampling.top_k = v.parse().map_err(|_| edits::use_whole)?;
            Ok(())
        },
        write: |p| {
            let k = p.shown.choosing.sampling.top_k;
            (k != 0).then(|| k.to_string())
        },
    },
    Param {
        name: "top_p",
        part: Part::Fragment,
        read: |l, v| sampling(l, v, |s, x| s.top_p = x),
        write: |p| {
            let top_p = p.shown.choosing.sampling.top_p;
            (top_p != 1.0).then(|| top_p.to_string())
        },
    },
    Param {
        name: "draw_seed",
        part: Part::Fragment,
        read: |l, v| {
            l.shown.choosing.seed = v.parse().map_err(|_| edits::use_whole)?;
            Ok(())
        },
        write: |p| {
            let seed = p.shown.choosing.seed;
            (seed != 0).then(|| seed.to_string())
        },
    },
    Param {
        name: "at",
        part: Part::Fragment,
        read: |l, v| {
            l.at = Some(step_named(v)?);
            Ok(())
        },
        write: |p| p.at.map(|s| s.key().to_owned()),
    },
    Param {
        name: "embed",
        part: Part::Query,
        read: |l, v| {
            l.embed = flag(v)?;
            Ok(())
        },
        write: |p| p.embed.map(|_| "1".to_owned()),
    },
    Param {
        name: "steps",
        part: Part::Query,
        read: |l, v| {
            let steps = step_list(v)?;
            if steps.is_empty() {
                return Err(edits::names_no_step(Step::ALL.map(Step::key).join(", ")).into());
            }
            l.steps = Some(steps);
            Ok(())
        },
        write: |p| p.embed?.steps.as_deref().map(step_names),
    },
    // The older single-step embed: `view=STEP` is `embed=1&steps=STEP`.
    Param {
        name: "view",
        part: Part::ReadOnly,
        read: |l, v| {
            l.steps = Some(step_list(v)?);
            l.embed = true;
            Ok(())
        },
        write: never,
    },
    Param {
        name: "controls",
        part: Part::Query,
        read: |l, v| {
            l.controls = Some(
                Controls::ALL
                    .into_iter()
                    .find(|c| c.key() == v)
                    .ok_or(edits::use_controls)?,
            );
            Ok(())
        },
        write: |p| p.embed?.controls.map(|c| c.key().to_owned()),
    },
    Param {
        name: "theme",
        part: Part::Query,
        read: |l, v| {
            l.theme = Theme::ALL
                .into_iter()
                .find(|t| t.key() == v)
                .ok_or(edits::use_theme)?;
            Ok(())
        },
        write: |p| {
            let theme = p.embed?.theme;
            (theme != Theme::Auto).then(|| theme.key().to_owned())
        },
    },
    Param {
        name: "lang",
        part: Part::Query,
        read: |l, v| {
            l.lang = Some(Lang::from_tag(v).ok_or(edits::use_lang)?);
            Ok(())
        },
        write: |p| p.lang.map(|l| l.tag().to_owned()),
    },
    // Exercises (`ask=scores.0:6,1&predict=weights.0:6&goal=weights.0:6,4>=0.5&lock=embedding`):
    // a teacher's, so in the query with the embed's options.
    Param {
        name: "ask",
        part: Part::Query,
        read: |l, v| with_exercises(l, |e, m| e.read(Kind::Ask, v, m)),
        write: |p| p.exercises?.write(Kind::Ask),
    },
    Param {
        name: "predict",
        part: Part::Query,
        read: |l, v| with_exercises(l, |e, m| e.read(Kind::Predict, v, m)),
        write: |p| p.exercises?.write(Kind::Predict),
    },
    Param {
        name: "goal",
        part: Part::Query,
        read: |l, v| with_exercises(l, |e, m| e.read(Kind::Goal, v, m)),
        write: |p| p.exercises?.write(Kind::Goal),
    },
    Param {
        name: "lock",
        part: Part::Query,
        read: |l, v| with_exercises(l, |e, m| e.read_locks(v, m)),
        write: |p| p.exercises?.write_locks(),
    },
    Param {
        name: "walk",
        part: Part::Query,
        read: |l, v| {
            l.walk = flag(v)?;
            Ok(())
        },
        write: never,
    },
];

impl Param {
    /// Reads `value` into `link`; the error says what is allowed.
    pub fn read(&self, link: &mut Link, value: &str) -> Result<(), Arg> {
        (self.read)(link, value)
    }
}

/// The parameter called `name`.
pub fn param(name: &str) -> Option<&'static Param> {
    PARAMS.iter().find(|p| p.name == name)
}

/// `k=v&k=v` of the parameters of `part` that `page` gives a value, in [`PARAMS`]' order.
/// Every value written is URL-safe as it is (base64url, numbers, names, `,` `.` `:` `;`).
pub fn write(page: &Page, part: Part) -> String {
    PARAMS
        .iter()
        .filter(|p| p.part == part)
        .filter_map(|p| Some(format!("{}={}", p.name, (p.write)(page)?)))
        .collect::<Vec<_>>()
        .join("&")
}
