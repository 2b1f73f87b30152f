//! The URL: the compact model encoding round-trips bit for bit, every malformed link is refused
//! with a message, and the view settings survive a round trip.
#![cfg(not(target_arch = "wasm32"))] // proptest is a native-only dev-dependency

use attention_explorer::core::formats::link::{
    base64url, decode_model, encode_model, from_base64url, opening, params, plain_opening,
    read_link, snippet, write_fragment, Controls, Embed, Page, Part, Shown, Theme, MAX_LINK_CHARS,
    PARAMS,
};
use attention_explorer::core::formats::state::{write_state, MAX_STATE_BYTES};
use attention_explorer::core::i18n::{Lang, Msg};
use attention_explorer::core::model::presets::{preset, PRESETS, RASCHKA_SEED};
use attention_explorer::core::model::Matrix;
use attention_explorer::core::model::{Dims, Editable, Model, Projection, Scale};
use attention_explorer::core::training::lab::Setup;
use attention_explorer::core::training::{Optimizer, Param, Target};
use attention_explorer::core::views::heatmap::Face;
use attention_explorer::core::views::pipeline::Step;
use miniz_oxide::deflate::compress_to_vec;
use nalgebra::DMatrix;
use proptest::prelude::*;

/// The saved state's text: equal texts are equal models bit for bit (shortest round-trip
/// numbers keep −0.0 apart from 0.0).
fn same(a: &Model, b: &Model) {
    assert_eq!(write_state(a), write_state(b));
}

fn round_trip(model: &Model, seeded: Option<(u64, &Model)>) -> String {
    let text = encode_model(model, seeded);
    let (back, _) = decode_model(&text).unwrap_or_else(|e| panic!("{}: {text}", e.english()));
    same(&back, model);
    text
}

/// `m=` for a JSON body as the page would deflate it.
fn body(json: &str) -> String {
    base64url(&compress_to_vec(json.as_bytes(), 6))
}

fn refused(text: &str) -> String {
    decode_model(text)
        .map(|_| ())
        .expect_err("refused")
        .english()
}

#[test]
fn every_preset_round_trips_and_names_itself() {
    for p in &PRESETS {
        let model = (p.build)();
        let text = round_trip(&model, None);
        assert_eq!(decode_model(&text).unwrap().1, Some(p.name));
        assert!(text.len() < 120, "{}: {} characters", p.name, text.len());
    }
}

#[test]
fn an_edited_dog_stays_short() {
    let mut model = preset("dog").unwrap();
    model.set(Editable::Weight(0, Projection::Query), 0, 0, 2.0);
    model.set(Editable::Embedding, 3, 1, -0.125);
    model.set(Editable::Weight(0, Projection::Value), 1, 2, 0.1);
    let text = round_trip(&model, None);
    assert_eq!(
        decode_model(&text).unwrap().1,
        None,
        "edited: no longer the preset"
    );
    println!("edited dog: {} characters", text.len());
    assert!(text.len() < 200, "{} characters", text.len());
}

#[test]
fn a_64_token_model_fits_well_under_the_url_limit() {
    let sentence: Vec<String> = (0..64).map(|i| format!("w{i}")).collect();
    let dims = Dims {
        d_in: 64,
        d_k: 16,
        d_v: 16,
        heads: 8,
    };
    let seeded =
        Model::seeded(&sentence.join(" "), dims, RASCHKA_SEED, true, Scale::SqrtDk).unwrap();
    let mut edited = seeded.clone();
    edited.set(Editable::Weight(3, Projection::Key), 5, 7, 0.5);
    let text = round_trip(&edited, Some((RASCHKA_SEED, &seeded)));
    println!("64 tokens, seeded and edited: {} characters", text.len());
    assert!(text.len() < 1000, "{} characters", text.len());
    // Written without its seed (every number explicit), it still fits.
    let text = round_trip(&edited, None);
    println!(
        "64 tokens, every number explicit: {} characters (its state's JSON: {})",
        text.len(),
        write_state(&edited).len()
    );
    assert!(text.len() < MAX_LINK_CHARS / 4, "{} characters", text.len());
}

#[test]
fn base64url_round_trips_and_refuses_bad_text() {
    for n in 0..40u8 {
        let bytes: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37).wrapping_add(n)).collect();
        assert_eq!(from_base64url(&base64url(&bytes)).unwrap(), bytes);
    }
    assert_eq!(base64url(b"\xfb\xff"), "-_8");
    assert!(from_base64url("ab$d")
        .unwrap_err()
        .english()
        .contains("not a base64url character"));
    assert!(from_base64url("abcde")
        .unwrap_err()
        .english()
        .contains("cut short"));
    assert!(from_base64url("é").is_err());
}

#[test]
fn malformed_models_are_refused_with_a_message() {
    let dog = encode_model(&preset("raschka").unwrap(), None);
    assert!(
        refused(&dog[..dog.len() / 2]).contains("cut short"),
        "truncated"
    );
    assert!(refused("%%%").contains("base64url"));
    assert!(refused(&base64url(b"not deflate at all, just bytes")).contains("not deflated"));
    assert!(refused(&body("{\"version\": 1")).contains("not valid JSON"));
    assert!(refused(&body("[1, 2]")).contains("not a JSON object"));
    let state = write_state(&preset("raschka").unwrap());
    let v3 = state.replace("\"version\":1", "\"version\":3");
    assert!(refused(&body(&v3)).contains("unsupported version 3"));
    let wrong_shape = state.replacen("[[", "[[1.0,", 2);
    assert!(refused(&body(&wrong_shape)).contains("embedding"));
    let too_big = state.replacen("0.", "10000000.", 1);
    assert!(refused(&body(&too_big)).contains("outside"));
    // Nulls need a base; bases must exist and fit within the limits before anything is drawn.
    let null = state.replacen("0.", "null,0.", 1);
    assert!(refused(&body(&null)).contains("null"));
    let unknown = state.replacen('{', "{\"base\":\"cat\",", 1);
    assert!(refused(&body(&unknown)).contains("no preset “cat”"));
    let negative = state.replacen('{', "{\"base\":-3,", 1);
    assert!(refused(&body(&negative)).contains("[seed, d_in, d_k, d_v, heads]"));
    let seeded = |base: &str, sentence: &str| {
        format!("{{\"base\":{base},\"version\":1,\"sentence\":\"{sentence}\"}}")
    };
    assert!(refused(&body(&seeded("[1,200,1,1,1]", "a"))).contains("1 to 128"));
    assert!(refused(&body(&seeded("[1,1,1,1,17]", "a"))).contains("heads 1 to 16"));
    assert!(refused(&body(&seeded("[1,1,1,1,1]", &"w ".repeat(65)))).contains("sentence"));
    assert!(
        decode_model(&body(&seeded("[1,2,3,4,2]", "a b a"))).is_ok(),
        "a seeded model"
    );
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert!(refused(&body(&deep)).contains("not valid JSON"));
}

#[test]
fn deflate_bombs_and_huge_links_are_refused_before_decoding() {
    let bomb = base64url(&compress_to_vec(&vec![b' '; MAX_STATE_BYTES + 1], 9));
    assert!(bomb.len() < 100_000, "a small link");
    assert!(refused(&bomb).contains("inflates to more than"));
    let huge = "A".repeat(MAX_LINK_CHARS + 1);
    assert!(refused(&huge).contains("longer than"));
    let link = read_link("", &format!("#m={huge}"));
    assert!(link.messages[0].english().contains("longer than"));
    same(&link.model, &preset("dog").unwrap());
}

#[test]
fn old_state_links_and_presets_keep_opening() {
    let raschka = preset("raschka").unwrap();
    let uri: String = write_state(&raschka)
        .bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    let link = read_link("", &format!("#state={uri}"));
    assert!(link.messages.is_empty(), "{:?}", link.messages);
    assert!(link.carries_model);
    same(&link.model, &raschka);
    let link = read_link("?preset=raschka-multihead&walk=1", "");
    assert_eq!(link.preset, Some("raschka-multihead"));
    assert!(link.walk);
    let link = read_link("?preset=cat", "#step-scores");
    assert!(
        link.messages[0].english().contains("no preset “cat”"),
        "{:?}",
        link.messages
    );
    assert!(!link.carries_model);
    assert_eq!(link.preset, Some("dog"));
}

#[test]
fn embed_options_are_read_and_bad_ones_named() {
    let link = read_link(
        "?embed=1&steps=weights,scores&focus=6&head=0&theme=dark&controls=dims",
        "",
    );
    assert!(link.embed);
    assert_eq!(
        link.steps,
        Some(vec![Step::Scores, Step::Softmax]),
        "pipeline order"
    );
    assert_eq!(link.shown.followed, Some(6));
    assert_eq!(link.theme, Theme::Dark);
    assert_eq!(link.controls(), Controls::Dims);
    assert!(link.messages.is_empty(), "{:?}", link.messages);
    assert_eq!(read_link("?embed=1", "").controls(), Controls::None);
    assert_eq!(read_link("", "").controls(), Controls::All);
    let old = read_link("?view=weights", "");
    assert!(old.embed);
    assert_eq!(old.steps, Some(vec![Step::Softmax]));

    let bad = read_link(
        "?embed=yes&steps=scores,nope&focus=99&head=4&theme=pink&controls=some&decimals=40&faces=x:y&colour=red",
        "",
    );
    for (part, message) in [
        ("embed", "use 1 or 0"),
        ("steps", "no step “nope” to show"),
        ("focus", "token from 0 to 8"),
        ("head", "head from 0 to 0"),
        ("theme", "light, dark or auto"),
        ("controls", "none, dims or all"),
        ("decimals", "0 to 12"),
        ("faces", "MATRIX"),
        ("colour", "unknown"),
    ] {
        assert!(
            bad.messages
                .iter()
                .any(|m| m.english().contains(part) && m.english().contains(message)),
            "{part}: {:?}",
            bad.messages
        );
    }
    assert!(!bad.embed && bad.steps.is_none() && bad.shown.followed.is_none());
}

#[test]
fn the_fragment_carries_what_is_shown() {
    let model = preset("raschka-multihead").unwrap();
    let shown = Shown {
        seed: Some(7),
        followed: Some(2),
        head: Some(3),
        decimals: Some(6),
        hidden: vec![Step::Embedding, Step::Scale],
        faces: vec![
            (Matrix::Weights, Some(1), Face::Heatmap),
            (Matrix::Embedding, None, Face::Numbers),
        ],
        training: Setup::default(),
        choosing: Default::default(),
    };
    let fragment = write_fragment(&encode_model(&model, None), &shown);
    let link = read_link("?embed=1", &format!("#{fragment}"));
    assert!(link.messages.is_empty(), "{:?}", link.messages);
    assert_eq!(link.shown, shown);
    assert!(link.embed, "the query's options stay");
    same(&link.model, &model);
    assert!(fragment.contains("hide=embedding,scale"), "{fragment}");
    assert!(fragment.contains("seed=7"), "{fragment}");
}

fn random_model() -> impl Strategy<Value = Model> {
    let number = prop_oneof![
        -1e6..1e6f64,
        -1.0..1.0f64,
        Just(-0.0),
        Just(0.0),
        Just(f64::MIN_POSITIVE / 8.0),
        Just(1e-7),
        Just(1e6),
    ];
    (
        1usize..8,
        1usize..5,
        1usize..4,
        1usize..4,
        1usize..4,
        any::<bool>(),
    )
        .prop_flat_map(move |(words, d_in, d_k, d_v, heads, causal)| {
            let sentence: Vec<String> = (0..words).map(|i| format!("t{}", i % 5)).collect();
            let vocab = words.min(5);
            let n = vocab * d_in + heads * d_in * (2 * d_k + d_v);
            (
                Just((sentence.join(" "), vocab, d_in, d_k, d_v, heads, causal)),
                prop::collection::vec(number.clone(), n),
            )
        })
        .prop_map(
            |((sentence, vocab, d_in, d_k, d_v, heads, causal), values)| {
                let mut it = values.into_iter();
                let mut take =
                    |r: usize, c: usize| DMatrix::from_iterator(r, c, it.by_ref().take(r * c));
                let embedding = take(vocab, d_in);
                let heads = (0..heads)
                    .map(|_| attention_explorer::core::model::Head {
                        w_query: take(d_in, d_k),
                        w_key: take(d_in, d_k),
                        w_value: take(d_in, d_v),
                        biases: None,
                    })
                    .collect();
                Model::new(&sentence, embedding, heads, causal, Scale::Dk).unwrap()
            },
        )
}

proptest! {
    #[test]
    fn random_models_round_trip_bit_for_bit(model in random_model(), seed in 0u64..1000) {
        round_trip(&model, None);
        // Against a seeded base sharing part of its numbers.
        let seeded = Model::seeded(model.sentence(), model.dims(), seed, false, Scale::SqrtDk).unwrap();
        let mut mixed = seeded.clone();
        mixed.set(Editable::Embedding, 0, 0, model.embedding()[(0, 0)]);
        round_trip(&mixed, Some((seed, &seeded)));
        round_trip(&model, Some((seed, &seeded)));
    }

    #[test]
    fn no_link_panics(search in ".{0,200}", hash in ".{0,200}") {
        read_link(&search, &hash);
    }

    #[test]
    fn no_model_text_panics(text in "[A-Za-z0-9_=%-]{0,300}") {
        let _ = decode_model(&text);
    }

    #[test]
    fn no_damaged_model_panics(cut in 0usize..200, flip in 0usize..200, bit in 0u8..8) {
        let text = encode_model(&preset("raschka-multihead").unwrap(), None);
        let mut bytes = from_base64url(&text).unwrap();
        let i = flip % bytes.len();
        bytes[i] ^= 1 << bit;
        bytes.truncate(bytes.len() - cut.min(bytes.len()));
        let _ = decode_model(&base64url(&bytes));
    }
}

#[test]
fn opening_takes_the_link_s_model_else_the_saved_work_else_the_example() {
    let raschka = preset("raschka").unwrap();
    let saved = write_fragment(
        &encode_model(&raschka, None),
        &Shown {
            followed: Some(2),
            seed: Some(9),
            ..Shown::default()
        },
    );
    // Nothing saved: the link as it is.
    let plain = opening(read_link("?decimals=2", ""), None);
    assert!(!plain.restored && plain.restorable.is_none());
    assert_eq!(plain.start.preset, Some("dog"));
    assert_eq!(plain.start.shown.decimals, Some(2));

    // A link without a model opens the saved work, with what was shown.
    let back = opening(read_link("", ""), Some(&saved));
    assert!(back.restored);
    same(&back.start.model, &raschka);
    assert_eq!(back.start.shown.followed, Some(2));
    assert_eq!(back.start.shown.seed, Some(9), "the seed comes back");

    // A link with its own model keeps it and offers the saved work.
    let offered = opening(read_link("?preset=dog&embed=1", ""), Some(&saved));
    assert!(!offered.restored);
    assert!(offered.start.embed);
    same(&offered.start.model, &preset("dog").unwrap());
    same(&offered.restorable.unwrap().model, &raschka);

    // The same model saved: nothing to offer.
    let same_model = opening(read_link("?preset=raschka", ""), Some(&saved));
    assert!(same_model.restorable.is_none());

    // Unreadable saved work is not used, and the page says why, once.
    let broken = opening(read_link("", ""), Some("m=AAAA"));
    assert!(!broken.restored);
    let said = broken
        .start
        .messages
        .iter()
        .map(Msg::english)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        said.starts_with("Your saved work could not be read ("),
        "{said}"
    );
    assert_eq!(said.matches("could not be read").count(), 1, "{said}");
    // Saved work whose model reads is kept; what did not read is named.
    let fragment = format!("m={}&decimals=99", encode_model(&raschka, None));
    let partly = opening(read_link("", ""), Some(&fragment));
    assert!(partly.restored);
    same(&partly.start.model, &raschka);
    let said = partly
        .start
        .messages
        .iter()
        .map(Msg::english)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        said.starts_with("Part of your saved work could not be read and was left out: "),
        "{said}"
    );
}

#[test]
fn every_parameter_written_is_read_back_from_the_one_list() {
    let model = preset("raschka-multihead").unwrap();
    let code = encode_model(&model, None);
    let shown = Shown {
        seed: Some(u64::MAX),
        followed: Some(1),
        head: Some(2),
        decimals: Some(0),
        hidden: vec![Step::Sentence, Step::Output],
        faces: vec![(Matrix::Scores, Some(3), Face::Heatmap)],
        training: Setup {
            targets: vec![Target {
                head: 1,
                query: 5,
                key: 2,
            }],
            output: None,
            train: vec![Param::Embedding],
            optimizer: Optimizer::Sgd { lr: 0.25 },
        },
        choosing: Default::default(),
    };
    let embed = Embed {
        steps: Some(vec![Step::Qkv, Step::Context]),
        controls: Some(Controls::Dims),
        theme: Theme::Dark,
    };
    let page = Page {
        model: &code,
        preset: None,
        shown: &shown,
        embed: Some(&embed),
        at: Some(Step::Scale),
        exercises: None,
        lang: Some(Lang::Ar),
    };
    let query = params::write(&page, Part::Query);
    let fragment = params::write(&page, Part::Fragment);
    assert_eq!(
        query,
        "embed=1&steps=qkv,context&controls=dims&theme=dark&lang=ar"
    );
    let link = read_link(&query, &fragment);
    assert!(link.messages.is_empty(), "{:?}", link.messages);
    assert_eq!(link.shown, shown);
    assert_eq!(link.steps, embed.steps);
    assert_eq!(link.controls, embed.controls);
    assert_eq!(link.theme, embed.theme);
    assert_eq!(link.lang, Some(Lang::Ar));
    assert_eq!(link.at, Some(Step::Scale));
    assert!(link.embed);
    // Every parameter is in the list once, and the defaults write nothing.
    let names: Vec<&str> = PARAMS.iter().map(|p| p.name).collect();
    for name in &names {
        assert_eq!(names.iter().filter(|n| *n == name).count(), 1, "{name}");
    }
    let bare = write_fragment(&code, &Shown::default());
    assert_eq!(bare, format!("m={code}"));
    assert!(read_link("?seed=-1", "").messages[0]
        .english()
        .contains("seed"));
}

#[test]
fn the_snippet_escapes_the_address_for_html() {
    let html = snippet(
        "https://example.org/x/?embed=1&steps=scores#m=abc&focus=2",
        812,
    );
    assert!(
        html.contains(r#"src="https://example.org/x/?embed=1&amp;steps=scores#m=abc&amp;focus=2""#),
        "{html}"
    );
    assert!(html.contains("sandbox=\"allow-scripts"));
    assert!(
        html.contains(r#"height="812" style="border:0;max-width:100%""#),
        "{html}"
    );
}

#[test]
fn an_empty_steps_list_is_refused_with_a_message() {
    let link = read_link("?embed=1&steps=", "");
    assert_eq!(link.steps, None);
    assert!(
        link.messages[0]
            .english()
            .starts_with("The link's steps=“” was ignored: it names no step"),
        "{:?}",
        link.messages
    );
}

#[test]
fn the_language_models_choosing_goes_through_the_link() {
    let link = read_link("", "draw=1&temperature=0.8&top_k=40&top_p=0.9&draw_seed=7");
    assert!(link.messages.is_empty(), "{:?}", link.messages);
    let c = link.shown.choosing;
    assert!(c.draw);
    assert_eq!(
        (
            c.sampling.temperature,
            c.sampling.top_k,
            c.sampling.top_p,
            c.seed
        ),
        (0.8, 40, 0.9, 7)
    );
    let written = write_fragment("", &link.shown);
    assert_eq!(read_link("", &written).shown, link.shown);
    for (bad, why) in [
        ("temperature=0", "the temperature must be above 0"),
        ("top_p=2", "top-p must be above 0 and at most 1"),
        ("temperature=x", "is not a number"),
    ] {
        let link = read_link("", bad);
        assert!(
            link.messages[0].english().contains(why),
            "{bad}: {:?}",
            link.messages
        );
        assert_eq!(link.shown.choosing, Default::default());
    }
}

#[test]
fn a_trained_layers_training_target_waits_for_the_layer_not_the_example_shown_meanwhile() {
    // Head 1 is beyond the dog's one head, not beyond the layer's twelve.
    let link = read_link("?pretrained=all-minilm-l6-v2&layer=3", "target=1:9,2");
    assert!(link.messages.is_empty(), "{:?}", link.messages);
    assert_eq!(
        link.shown.training.targets,
        [Target {
            head: 1,
            query: 9,
            key: 2
        }]
    );
    // Without a trained model, the link's own model checks it.
    assert!(read_link("?preset=dog", "target=1:9,2").messages[0]
        .english()
        .contains("head"));
    // A language model's layer may have 128 tokens: a piece past 63 is followed, not refused.
    let link = read_link(
        "?pretrained=all-minilm-l6-v2&layer=3",
        "focus=100&target=1:100,2",
    );
    assert!(link.messages.is_empty(), "{:?}", link.messages);
    assert_eq!(link.shown.followed, Some(100));
}

/// The first module's fast path opens what the link's reader would, and takes no other link.
#[test]
fn a_plain_link_opens_as_read() {
    for (search, hash) in [
        ("", ""),
        ("?", "#"),
        ("?preset=dog", ""),
        ("preset=raschka", ""),
        ("?preset=raschka-multihead", "#"),
    ] {
        let plain = plain_opening(search, hash).unwrap_or_else(|| panic!("{search}{hash}"));
        let read = opening(read_link(search, hash), None);
        assert_eq!(format!("{plain:?}"), format!("{read:?}"), "{search}{hash}");
    }
    for (search, hash) in [
        ("?preset=nope", ""),
        ("?preset=dog&theme=dark", ""),
        ("?embed=1", ""),
        ("", "#m=x"),
        ("?lang=fr", ""),
        ("?preset=", ""),
    ] {
        assert!(plain_opening(search, hash).is_none(), "{search}{hash}");
    }
}

/// An embed of an unedited preset names it (`preset=`) instead of writing its model: the link
/// opens the same model, and the embed shows the preset's page written at build time (the
/// Embed dialog's snippet used to carry `#m=`, so a pasted embed waited for its code).
#[test]
fn an_embed_of_a_preset_names_it_and_opens_on_its_snapshot() {
    use attention_explorer::core::formats::link::snapshot::snapshot;
    let embed = Embed {
        steps: Some(vec![Step::Softmax]),
        controls: None,
        theme: Theme::Auto,
    };
    let page = Page {
        model: "",
        preset: Some("dog"),
        shown: &Shown::default(),
        embed: Some(&embed),
        at: None,
        exercises: None,
        lang: None,
    };
    let (query, fragment) = (
        params::write(&page, Part::Query),
        params::write(&page, Part::Fragment),
    );
    assert_eq!(query, "preset=dog&embed=1&steps=weights");
    assert_eq!(fragment, "");
    let link = read_link(&query, &fragment);
    assert!(link.messages.is_empty(), "{:?}", link.messages);
    assert_eq!(link.model, preset("dog").unwrap());
    assert_eq!(link.preset, Some("dog"));
    assert_eq!(
        snapshot(&format!("?{query}"), "", Lang::En, false).as_deref(),
        Some("embed-dog")
    );
}

/// The Embed dialog's snippets name an embed's page: of its own for a preset's embed of every
/// step or one (written by the build with those steps in it), else the embeds' entry page;
/// either beside the full page wherever it is served, and an embed's "Open in the full
/// explorer" goes back to the full page.
#[test]
fn an_embed_opens_on_its_own_page_or_the_embeds_page_beside_the_full_page() {
    use attention_explorer::core::formats::contract::{full_page_path, page_folder};
    use attention_explorer::core::formats::link::snapshot::{embed_page, own_embed_page};
    for (search, page) in [
        ("preset=dog&embed=1&steps=weights", "embed-dog-weights.html"),
        (
            "?preset=dog&embed=1&steps=weights",
            "embed-dog-weights.html",
        ),
        ("embed=1&steps=scores", "embed-dog-scores.html"),
        ("view=mask&theme=dark", "embed-dog-mask.html"),
        ("preset=raschka&embed=1", "embed-raschka.html"),
        (
            "preset=raschka-multihead&embed=1&steps=output",
            "embed-raschka-multihead-output.html",
        ),
        (
            "preset=raschka-multihead&embed=1&lang=en",
            "embed-raschka-multihead.html",
        ),
        // Two steps, a step its model has not, more than a preset, another language.
        ("preset=dog&embed=1&steps=scores,weights", "embed.html"),
        ("preset=dog&embed=1&steps=output", "embed.html"),
        (
            "preset=dog&embed=1&steps=weights&controls=all",
            "embed.html",
        ),
        (
            "preset=dog&embed=1&steps=weights&ask=scores.0:6,1",
            "embed.html",
        ),
        ("preset=dog&embed=1&steps=weights&lang=fr", "embed.html"),
        ("embed=1&steps=weights&preset=nonsense", "embed.html"),
        (
            "embed=1&m=q1ZKSixOVbJSSslPV9JRKkstKs7Mz1OyMqwFAA",
            "embed.html",
        ),
    ] {
        assert_eq!(embed_page(search), page, "{search}");
    }
    assert_eq!(
        own_embed_page("embed-dog", Some(Step::Softmax)),
        "embed-dog-weights.html"
    );
    for (path, folder, full) in [
        ("/", "/", "/"),
        ("/index.html", "/", "/index.html"),
        (
            "/course/attention/",
            "/course/attention/",
            "/course/attention/",
        ),
        ("/a/embed.html", "/a/", "/a/"),
        ("/a/embed-dog-weights.html", "/a/", "/a/"),
        ("/a/my-embed.html", "/a/", "/a/my-embed.html"),
        ("/a/embed.htm", "/a/", "/a/embed.htm"),
        ("", "", ""),
    ] {
        assert_eq!(page_folder(path), folder, "{path}");
        assert_eq!(full_page_path(path), full, "{path}");
    }
}
