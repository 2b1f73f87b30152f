//! Component tests in headless Chromium (wasm-bindgen-test): mount the app or one table, edit as
//! a learner would, let the reactive system settle, and read the DOM contract.
#![cfg(target_arch = "wasm32")]

use attention_explorer::core::model::{Editable, Projection};
use attention_explorer::core::presets::dog;
use attention_explorer::core::trace::Trace;
use attention_explorer::ui::app::App;
use leptos::prelude::*;
use leptos::task::tick;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{
    Element, Event, EventInit, HtmlElement, HtmlInputElement, KeyboardEvent, KeyboardEventInit,
};

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts the whole app in a fresh container and returns the container.
async fn mount_app() -> HtmlElement {
    let document = document();
    let container: HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&container).unwrap();
    leptos::mount::mount_to(container.clone(), App).forget();
    tick().await;
    container
}

fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
}

fn cell(root: &Element, matrix: &str, row: usize, col: usize) -> Element {
    find(root, &format!("table[data-matrix=\"{matrix}\"][data-head=\"0\"] td[data-row=\"{row}\"][data-col=\"{col}\"], table[data-matrix=\"{matrix}\"]:not([data-head]) td[data-row=\"{row}\"][data-col=\"{col}\"]"))
}

fn value_of(root: &Element, matrix: &str, row: usize, col: usize) -> f64 {
    cell(root, matrix, row, col)
        .get_attribute("data-value")
        .unwrap()
        .parse()
        .unwrap()
}

/// Focuses the input and types `text` into it (one input event, as after a keystroke).
async fn type_into(input: &HtmlInputElement, text: &str) {
    input.focus().unwrap();
    input.set_value(text);
    let init = EventInit::new();
    init.set_bubbles(true);
    input
        .dispatch_event(&Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
    tick().await;
}

fn input_in(root: &Element, matrix: &str, row: usize, col: usize) -> HtmlInputElement {
    find(&cell(root, matrix, row, col), "input").unchecked_into()
}

#[wasm_bindgen_test]
async fn opens_on_the_dog_story() {
    let root = mount_app().await;
    let weights = value_of(&root, "weights", 6, 1);
    assert!((weights - 0.883).abs() < 5e-4, "she → dog: {weights}");
    assert_eq!(
        cell(&root, "masked_scores", 0, 1)
            .get_attribute("data-value")
            .unwrap(),
        "-inf"
    );
    assert_eq!(
        cell(&root, "masked_scores", 0, 1).text_content().unwrap(),
        "−∞"
    );
    assert!(cell(&root, "weights", 0, 1).class_name().contains("masked"));
    root.remove();
}

#[wasm_bindgen_test]
async fn an_edited_weight_updates_every_later_step() {
    let root = mount_app().await;
    let before = value_of(&root, "context", 6, 0);
    type_into(&input_in(&root, "w_query", 0, 0), "-1.5").await;

    let mut model = dog();
    model.set(Editable::Weight(0, Projection::Query), 0, 0, -1.5);
    let expected = Trace::of(&model);
    assert_eq!(value_of(&root, "w_query", 0, 0), -1.5);
    for (name, m) in [
        ("queries", &expected.heads[0].queries),
        ("scores", &expected.heads[0].scores),
        ("weights", &expected.heads[0].weights),
        ("context", &expected.heads[0].context),
    ] {
        for i in 0..m.nrows() {
            for j in 0..m.ncols() {
                assert_eq!(value_of(&root, name, i, j), m[(i, j)], "{name}[{i}][{j}]");
            }
        }
    }
    assert_ne!(value_of(&root, "context", 6, 0), before);
    root.remove();
}

#[wasm_bindgen_test]
async fn a_focused_cell_keeps_its_raw_text_and_garbage_is_flagged() {
    let root = mount_app().await;
    let input = input_in(&root, "w_key", 1, 2);
    let before = value_of(&root, "w_key", 1, 2);

    type_into(&input, "1.").await;
    assert_eq!(input.value(), "1.", "a focused cell is never rewritten");
    assert_eq!(value_of(&root, "w_key", 1, 2), 1.0);

    type_into(&input, "1e-").await;
    assert_eq!(input.value(), "1e-");
    assert_eq!(
        input.get_attribute("aria-invalid"),
        None,
        "an unfinished number is not an error"
    );
    assert_eq!(
        value_of(&root, "w_key", 1, 2),
        1.0,
        "nothing committed mid-way"
    );

    type_into(&input, "abc").await;
    assert_eq!(input.get_attribute("aria-invalid").as_deref(), Some("true"));
    let message_id = input.get_attribute("aria-describedby").unwrap();
    let message = document()
        .get_element_by_id(&message_id)
        .unwrap()
        .text_content()
        .unwrap();
    assert!(message.contains("“abc” is not a number"), "{message}");
    assert_eq!(
        value_of(&root, "w_key", 1, 2),
        1.0,
        "the last good value stays in use"
    );

    input.blur().unwrap();
    tick().await;
    assert_eq!(input.value(), "1.0000");
    assert_eq!(input.get_attribute("aria-invalid"), None);
    assert_ne!(before, 1.0);
    root.remove();
}

#[wasm_bindgen_test]
async fn arrow_keys_and_enter_move_between_cells() {
    let root = mount_app().await;
    let start = input_in(&root, "embedding", 0, 0);
    start.focus().unwrap();
    let press = |key: &str| {
        let init = KeyboardEventInit::new();
        init.set_key(key);
        init.set_bubbles(true);
        init.set_cancelable(true);
        let target = document().active_element().unwrap();
        target
            .dispatch_event(
                &KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap(),
            )
            .unwrap();
    };
    press("ArrowDown");
    assert!(input_in(&root, "embedding", 1, 0)
        .is_same_node(document().active_element().as_ref().map(|e| e.as_ref())));
    press("Enter");
    assert!(input_in(&root, "embedding", 2, 0)
        .is_same_node(document().active_element().as_ref().map(|e| e.as_ref())));
    // The whole text is selected on arrival, so the caret is at the start: Left stays, Right moves.
    let here: HtmlInputElement = document().active_element().unwrap().unchecked_into();
    here.set_selection_range(here.value().len() as u32, here.value().len() as u32)
        .unwrap();
    press("ArrowRight");
    assert!(input_in(&root, "embedding", 2, 1)
        .is_same_node(document().active_element().as_ref().map(|e| e.as_ref())));
    root.remove();
}

#[wasm_bindgen_test]
async fn changing_d_k_reshapes_every_table() {
    let root = mount_app().await;
    let d_k: HtmlInputElement = find(&root, "[data-control=\"d_k\"]").unchecked_into();
    type_into(&d_k, "5").await;
    let shape = |name: &str| {
        let table = find(&root, &format!("table[data-matrix=\"{name}\"]"));
        let rows = table.query_selector_all("tbody tr").unwrap().length();
        let cols = table
            .query_selector_all("tbody tr:first-child td")
            .unwrap()
            .length();
        (rows, cols)
    };
    assert_eq!(shape("w_query"), (2, 5));
    assert_eq!(shape("w_key"), (2, 5));
    assert_eq!(shape("queries"), (9, 5));
    assert_eq!(shape("keys"), (9, 5));
    assert_eq!(shape("scores"), (9, 9));
    assert_eq!(shape("values"), (9, 3));

    type_into(&d_k, "0").await;
    assert_eq!(d_k.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert_eq!(
        shape("queries"),
        (9, 5),
        "an out-of-range size keeps the last good one"
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn clicking_a_score_spells_out_its_dot_product() {
    let root = mount_app().await;
    cell(&root, "scores", 6, 1)
        .unchecked_into::<HtmlElement>()
        .click();
    tick().await;
    let text = find(&root, "[data-breakdown=\"score\"]")
        .text_content()
        .unwrap();
    assert!(
        text.starts_with("she·dog = 2.6400×2.8770 + 1.4600×3.0570 + 0.9400×1.8870 = 13.8"),
        "{text}"
    );
    let row = find(
        &root,
        "table[data-matrix=\"weights\"] tbody tr:nth-child(7)",
    );
    assert!(
        row.class_list().contains("selected"),
        "the clicked query's row is followed"
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn a_hidden_step_leaves_the_page_and_long_sentences_hide_intermediate_steps() {
    let root = mount_app().await;
    let toggle: HtmlElement =
        find(&root, "#step-scores [data-action=\"toggle-step\"]").unchecked_into();
    toggle.click();
    tick().await;
    assert_eq!(
        toggle.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    assert!(root
        .query_selector("table[data-matrix=\"scores\"]")
        .unwrap()
        .is_none());
    assert!(root
        .query_selector("table[data-matrix=\"weights\"]")
        .unwrap()
        .is_some());
    toggle.click();
    tick().await;
    assert!(root
        .query_selector("table[data-matrix=\"scores\"]")
        .unwrap()
        .is_some());

    let sentence: HtmlInputElement = find(&root, "[data-control=\"sentence\"]").unchecked_into();
    let long: Vec<String> = (0..30).map(|i| format!("w{i}")).collect();
    type_into(&sentence, &long.join(" ")).await;
    assert!(root
        .query_selector("table[data-matrix=\"scaled_scores\"]")
        .unwrap()
        .is_none());
    assert!(root
        .query_selector("table[data-matrix=\"masked_scores\"]")
        .unwrap()
        .is_none());
    assert_eq!(
        find(&root, "table[data-matrix=\"weights\"]")
            .query_selector_all("tbody tr")
            .unwrap()
            .length(),
        30
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn undo_takes_back_a_typed_number_in_one_step_and_redo_repeats_it() {
    let root = mount_app().await;
    let undo: HtmlElement = find(&root, "[data-action=\"undo\"]").unchecked_into();
    let redo: HtmlElement = find(&root, "[data-action=\"redo\"]").unchecked_into();
    assert!(undo.has_attribute("disabled"), "nothing to undo yet");
    let original = value_of(&root, "w_value", 0, 0);
    let context = value_of(&root, "context", 6, 0);

    let input = input_in(&root, "w_value", 0, 0);
    for text in ["-", "-2", "-2.", "-2.5"] {
        type_into(&input, text).await;
    }
    input.blur().unwrap();
    tick().await;
    assert_eq!(value_of(&root, "w_value", 0, 0), -2.5);
    assert!(!undo.has_attribute("disabled"));

    undo.click();
    tick().await;
    assert_eq!(
        value_of(&root, "w_value", 0, 0),
        original,
        "one undo takes back the whole number"
    );
    assert_eq!(value_of(&root, "context", 6, 0), context);
    assert!(undo.has_attribute("disabled"));

    redo.click();
    tick().await;
    assert_eq!(value_of(&root, "w_value", 0, 0), -2.5);
    assert_eq!(input.value(), "-2.5000");
    root.remove();
}
