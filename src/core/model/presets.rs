//! The app's presets, each a complete model built by code.

use std::sync::OnceLock;

use nalgebra::DMatrix;

use crate::core::i18n::keys::edits;
use crate::core::i18n::Key;
use crate::core::model::{Dims, Head, Model, Scale};

/// A preset's name as used in `?preset=` and the picker, and the model it builds.
pub struct Preset {
    /// Its name in `?preset=` and the picker's value.
    pub name: &'static str,
    /// What the picker says.
    pub title: Key,
    /// Its model's sentence, so a model of another sentence is told apart without building it.
    pub sentence: &'static str,
    /// Builds its model.
    pub build: fn() -> Model,
    /// The token its story follows (by place), until the learner picks another; else the last.
    pub follows: Option<usize>,
}

/// All presets, the default (`dog`) first.
pub const PRESETS: [Preset; 3] = [
    Preset {
        name: "dog",
        title: edits::dog_title,
        sentence: DOG_SENTENCE,
        build: dog,
        // "she": the intro and the walk talk about her.
        follows: Some(DOG_SHE),
    },
    Preset {
        name: "raschka",
        title: edits::raschka_title,
        sentence: RASCHKA_SENTENCE,
        build: raschka,
        follows: None,
    },
    Preset {
        name: "raschka-multihead",
        title: edits::raschka_heads_title,
        sentence: RASCHKA_SENTENCE,
        build: raschka_multihead,
        follows: None,
    },
];

/// The preset called `name`.
pub fn preset_named(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// The model of the preset called `name`.
pub fn preset(name: &str) -> Option<Model> {
    preset_named(name).map(|p| (p.build)())
}

/// The presets' names, for messages: "dog, raschka, raschka-multihead".
pub fn preset_names() -> String {
    PRESETS
        .iter()
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The token followed in a sentence of `n` tokens when the learner has picked none: the one
/// its preset's story is about (whatever the numbers are now), else the last.
pub fn followed_by_default(sentence: &str, n: usize) -> usize {
    follows(sentence, n).unwrap_or(n.saturating_sub(1))
}

/// The token an example of this sentence follows, if one does.
pub fn follows(sentence: &str, n: usize) -> Option<usize> {
    PRESETS
        .iter()
        .filter(|p| p.sentence == sentence)
        .find_map(|p| p.follows)
        .filter(|&i| i < n)
}

/// The model of preset `i` of [`PRESETS`], built the first time it is asked for and kept (the
/// Raschka ones draw 150 000 numbers each).
pub fn built(i: usize) -> &'static Model {
    static BUILT: [OnceLock<Model>; PRESETS.len()] = [const { OnceLock::new() }; PRESETS.len()];
    BUILT[i].get_or_init(|| (PRESETS[i].build)())
}

/// The preset `model` equals, number for number, if any: what the picker names. Presets of
/// another sentence are passed over without being built (the page asks after every edit).
pub fn matching(model: &Model) -> Option<&'static str> {
    PRESETS
        .iter()
        .enumerate()
        .filter(|(_, p)| p.sentence == model.sentence())
        .find(|&(i, _)| built(i) == model)
        .map(|(_, p)| p.name)
}

/// The seed of both Raschka presets.
pub const RASCHKA_SEED: u64 = 123;
/// The seed until the learner picks another (the Raschka tutorial's).
pub const DEFAULT_SEED: u64 = RASCHKA_SEED;
/// The Raschka tutorial's sentence.
pub const RASCHKA_SENTENCE: &str = "Life is short, eat dessert first";

/// Raschka's `SelfAttention(d_in=3, d_out_kq=2, d_out_v=4)` after `manual_seed(123)`.
pub fn raschka() -> Model {
    Model::seeded(
        RASCHKA_SENTENCE,
        Dims {
            d_in: 3,
            d_k: 2,
            d_v: 4,
            heads: 1,
        },
        RASCHKA_SEED,
        false,
        Scale::SqrtDk,
    )
    .expect("the preset's shapes agree")
}

/// Raschka's `MultiHeadAttentionWrapper(d_in=3, d_out_kq=2, d_out_v=1, num_heads=4)`.
pub fn raschka_multihead() -> Model {
    Model::seeded(
        RASCHKA_SENTENCE,
        Dims {
            d_in: 3,
            d_k: 2,
            d_v: 1,
            heads: 4,
        },
        RASCHKA_SEED,
        false,
        Scale::SqrtDk,
    )
    .expect("the preset's shapes agree")
}

/// Where "she" is in the dog's sentence.
pub const DOG_SHE: usize = 6;
/// Where "dog" is.
pub const DOG_DOG: usize = 1;

/// The dog with a second hand-made head, for the lesson's "why several heads": head 0 is the
/// dog's (a living thing's query finds living things: "she" → "dog"); head 1's query and keys
/// read only "thing − alive", so "she" asks for a thing and finds "ball", what was fetched.
/// One head's softmax gives one set of weights per token; two heads attend for two reasons.
pub fn dog_two_heads() -> Model {
    let dog = dog();
    let first = dog.heads()[0].clone();
    let second = Head {
        // she = [0.1, 1]: her query is the second row, [2, 0, 0].
        w_query: DMatrix::from_row_slice(2, 3, &[0.0, 0.0, 0.0, 2.0, 0.0, 0.0]),
        // A key is 3·(thing − alive) on its first component: ball 3, dog 0, she −2.7.
        w_key: DMatrix::from_row_slice(2, 3, &[3.0, 0.0, 0.0, -3.0, 0.0, 0.0]),
        w_value: first.w_value.clone(),
        biases: None,
    };
    Model::new(
        DOG_SENTENCE,
        dog.embedding().clone(),
        vec![first, second],
        true,
        Scale::SqrtDk,
    )
    .expect("the preset's shapes agree")
}

/// What the dog's two hand-made embedding columns encode: is it a thing, is it alive.
pub const DOG_COLUMNS: [&str; 2] = ["thing", "alive"];

/// Whether `model` is the dog example's, as a learner may have retyped or edited it: two
/// embedding columns, no trained layer, and a word of the dog's vocabulary still in it.
fn of_the_dog(model: &Model) -> bool {
    let dog = built(0);
    model.dims().d_in == 2
        && model.layered().is_none()
        && model
            .tokens()
            .vocabulary
            .iter()
            .any(|w| dog.tokens().vocabulary.contains(w))
}

/// The names of `model`'s embedding columns, where they have any: the dog's two hand-made ones
/// (even once edited: they still say what the columns were made to mean). A trained or seeded
/// model's columns mean nothing one could name.
pub fn column_names(model: &Model) -> Option<&'static [&'static str]> {
    of_the_dog(model).then_some(&DOG_COLUMNS[..])
}

/// The dog example's hand-made rows, by word: what a new word can be given.
pub fn hand_made_rows() -> Vec<(String, Vec<f64>)> {
    let dog = built(0);
    dog.tokens()
        .vocabulary
        .iter()
        .enumerate()
        .map(|(i, w)| (w.clone(), dog.embedding().row(i).iter().copied().collect()))
        .collect()
}

/// The words of the dog example's model that have no hand-made row: typed by the learner, they
/// got random numbers, so nothing has taught them anything. A word given a hand-made row, or
/// a row of one of the dog's words here, is taught.
pub fn untaught_words(model: &Model) -> Vec<String> {
    if !of_the_dog(model) {
        return Vec::new();
    }
    let vocabulary = &model.tokens().vocabulary;
    let dog = &built(0).tokens().vocabulary;
    let row = |i: usize| {
        model
            .embedding()
            .row(i)
            .iter()
            .copied()
            .collect::<Vec<f64>>()
    };
    let mut taught: Vec<Vec<f64>> = hand_made_rows().into_iter().map(|(_, r)| r).collect();
    taught.extend(
        (0..vocabulary.len())
            .filter(|&i| dog.contains(&vocabulary[i]))
            .map(row),
    );
    (0..vocabulary.len())
        .filter(|&i| !dog.contains(&vocabulary[i]) && !taught.contains(&row(i)))
        .map(|i| vocabulary[i].clone())
        .collect()
}

/// The dog preset's sentence.
pub const DOG_SENTENCE: &str = "The dog fetched the ball and she was happy";
/// What the tutorial shows, to its two decimals: she's query and the keys of dog and ball.
pub const DOG_SHE_QUERY: [f64; 3] = [2.64, 1.46, 0.94];
/// dog's key, to two decimals.
pub const DOG_DOG_KEY: [f64; 3] = [2.88, 3.06, 1.89];
/// ball's key, to two decimals.
pub const DOG_BALL_KEY: [f64; 3] = [2.73, 0.81, 1.52];
/// she's attention on dog, to three decimals.
pub const DOG_SHE_WEIGHT_DOG: f64 = 0.883;
/// she's attention on ball, to three decimals.
pub const DOG_SHE_WEIGHT_BALL: f64 = 0.087;

/// "The dog fetched the ball and she was happy", causal, scaled by √3.
///
/// The 2-d embedding reads as [is a thing, is alive]: ball = [1, 0], dog = [1, 1], she = [0.1, 1].
/// So `w_key`'s rows are ball's key and (dog's key − ball's key), and she's query is mostly
/// `w_query`'s second row: a living thing's query looks for living things.
///
/// The tutorial's numbers are rounded, and with q and k exactly at them she's weights come out
/// 0.883 / 0.086. So two numbers are solved here rather than typed: dog's key moves by −t on each
/// component (|t| < 0.005, so it still shows as 2.88, 3.06, 1.89) until dog : ball is exactly
/// 0.883 : 0.087, and the "alive" coordinate of "and" is chosen so that dog gets exactly 0.883.
/// `tests/presets.rs` checks every number the story shows.
pub fn dog() -> Model {
    let c = 3f64.sqrt();
    let q = DOG_SHE_QUERY;
    let dot = |a: &[f64; 3], b: &[f64; 3]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let score_ball = dot(&q, &DOG_BALL_KEY);
    let t =
        (dot(&q, &DOG_DOG_KEY) - score_ball - c * (DOG_SHE_WEIGHT_DOG / DOG_SHE_WEIGHT_BALL).ln())
            / q.iter().sum::<f64>();
    let dog_key = DOG_DOG_KEY.map(|k| k - t);
    let score_dog = dot(&q, &dog_key);
    // she's score for an embedding x is x·[score_ball, score_dog − score_ball], by w_key's rows.
    let score = |x: [f64; 2]| x[0] * score_ball + x[1] * (score_dog - score_ball);

    // [is a thing, is alive]; "and" gets its "alive" coordinate solved below.
    let the_upper = [0.45, 0.20];
    let fetched = [0.35, 0.45];
    let the_lower = [0.44, 0.20];
    let she = [0.10, 1.00];
    let and_thing = 0.40;
    // softmax over she's visible tokens: dog gets 0.883 when the others sum to this (in exp(score/c) units).
    let others_needed =
        (score_dog / c).exp() * (1.0 / DOG_SHE_WEIGHT_DOG - 1.0) - (score_ball / c).exp();
    let others_known: f64 = [the_upper, fetched, the_lower, she]
        .iter()
        .map(|&x| (score(x) / c).exp())
        .sum();
    let and_alive = (c * (others_needed - others_known).ln() - and_thing * score_ball)
        / (score_dog - score_ball);

    // Vocabulary order: The, and, ball, dog, fetched, happy, she, the, was.
    #[rustfmt::skip]
    let embedding = DMatrix::from_row_slice(
        9,
        2,
        &[
            the_upper[0], the_upper[1],
            and_thing, and_alive,
            1.00, 0.00, // ball
            1.00, 1.00, // dog
            fetched[0], fetched[1],
            0.20, 0.60, // happy
            she[0], she[1],
            the_lower[0], the_lower[1],
            0.30, 0.30, // was
        ],
    );
    // she = 0.1·row0 + 1·row1 = DOG_SHE_QUERY; typed as literals, so that the state and the
    // PyTorch script say 2.59, not 2.5900000000000003.
    let w_query = DMatrix::from_row_slice(2, 3, &[0.50, 0.30, 0.80, 2.59, 1.43, 0.86]);
    let w_key_row1: Vec<f64> = (0..3).map(|j| dog_key[j] - DOG_BALL_KEY[j]).collect();
    let w_key = DMatrix::from_row_slice(2, 3, &[DOG_BALL_KEY.as_slice(), &w_key_row1].concat());
    // Values: [thing-like, alive-like, neutral]; she's context becomes mostly dog's value.
    let w_value = DMatrix::from_row_slice(2, 3, &[1.00, 0.10, 0.30, 0.20, 1.20, 0.40]);
    Model::new(
        DOG_SENTENCE,
        embedding,
        vec![Head {
            w_query,
            w_key,
            w_value,
            biases: None,
        }],
        true,
        Scale::SqrtDk,
    )
    .expect("the preset's shapes agree")
}
