//! Component tests in headless Chromium (wasm-bindgen-test): mount the app, or one component
//! with a hand-built state (a matrix view, a step, the controls) and dispose it after; edit as a
//! learner would, let the reactive system settle, and read the DOM contract.
#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::rc::Rc;

use attention_explorer::core::document::edit::Edit;
use attention_explorer::core::formats::link::{Controls as Level, Shown};
use attention_explorer::core::forward::trace::Trace;
use attention_explorer::core::model::presets::dog;
use attention_explorer::core::model::Matrix;
use attention_explorer::core::model::{Editable, Model, Projection};
use attention_explorer::core::views::heatmap::{Heat, Layout, Palette};
use attention_explorer::core::views::pipeline::Step;
use attention_explorer::ui::app::App;
use attention_explorer::ui::controls::Controls;
use attention_explorer::ui::matrix::heatmap::canvas::text_width;
use attention_explorer::ui::matrix::MatrixView;
use attention_explorer::ui::state::AppState;
use attention_explorer::ui::steps;
use leptos::prelude::*;
use leptos::task::tick;
use nalgebra::DMatrix;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{
    CanvasRenderingContext2d, Element, Event, EventInit, HtmlCanvasElement, HtmlElement,
    HtmlInputElement, KeyboardEvent, KeyboardEventInit,
};

wasm_bindgen_test_configure!(run_in_browser);

/// An app mounted in a container of its own: dropped, it unmounts (disposing its signals and
/// effects) and leaves the page, so no test leaks its app into the next.
struct Mounted {
    root: HtmlElement,
    handle: Option<Box<dyn std::any::Any>>,
}

impl std::ops::Deref for Mounted {
    type Target = HtmlElement;
    fn deref(&self) -> &HtmlElement {
        &self.root
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.handle.take();
        self.root.remove();
    }
}

/// Mounts the whole app in a fresh container.
async fn mount_app() -> Mounted {
    let root = container();
    let opened = attention_explorer::ui::share::opening().await;
    let handle = leptos::mount::mount_to(root.clone(), move || view! { <App opened/> });
    tick().await;
    Mounted {
        root,
        handle: Some(Box::new(handle)),
    }
}

/// A fresh container in the page.
fn container() -> HtmlElement {
    let container: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&container).unwrap();
    container
}

/// Mounts what `view` builds below a store holding `model` (built inside the mount, so it is
/// disposed with it), and returns the container, the store and the handle that unmounts.
async fn mount_with<V: IntoView + 'static>(
    model: Model,
    view: impl FnOnce() -> V + 'static,
) -> (
    HtmlElement,
    AppState,
    leptos::mount::UnmountHandle<V::State>,
) {
    let root = container();
    let slot = Rc::new(Cell::new(None));
    let handle = leptos::mount::mount_to(root.clone(), {
        let slot = slot.clone();
        move || {
            let state = AppState::new(model, &Shown::default(), "dog", false, false);
            state.provide();
            slot.set(Some(state));
            view()
        }
    });
    tick().await;
    (root, slot.get().expect("mounted"), handle)
}

fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
}

/// What a chunk brings (the settings come after the page is painted): waits up to 5 s for it.
async fn arrived(root: &Element, selector: &str) -> Element {
    for _ in 0..100 {
        if let Some(found) = root.query_selector(selector).unwrap() {
            return found;
        }
        let later = js_sys::Promise::new(&mut |done, _| {
            window()
                .set_timeout_with_callback_and_timeout_and_arguments_0(&done, 50)
                .unwrap();
        });
        wasm_bindgen_futures::JsFuture::from(later).await.unwrap();
    }
    panic!("{selector} never arrived")
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
    // The "1" typed on the way is not kept: the number from before the typing is in use again.
    let kept = attention_explorer::core::text::fmt(before, 4);
    assert!(
        message.contains(&format!("still using {kept}.")),
        "{message}"
    );
    assert_eq!(
        value_of(&root, "w_key", 1, 2),
        before,
        "the number from before the typing is in use"
    );

    input.blur().unwrap();
    tick().await;
    assert_eq!(input.value(), kept);
    assert_eq!(input.get_attribute("aria-invalid"), None);
    assert_ne!(before, 1.0);
}

#[wasm_bindgen_test]
async fn arrow_keys_and_enter_move_between_cells() {
    let root = mount_app().await;
    let start = input_in(&root, "embedding", 0, 0);
    start.focus().unwrap();
    let press = |key: &str| press(&document().active_element().unwrap(), key);
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
}

#[wasm_bindgen_test]
async fn changing_d_k_reshapes_every_table() {
    let root = mount_app().await;
    let d_k: HtmlInputElement = arrived(&root, "[data-control=\"d_k\"]")
        .await
        .unchecked_into();
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
}

#[wasm_bindgen_test]
async fn a_hidden_step_leaves_the_page_and_long_sentences_turn_into_heat_maps() {
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

    // Past 16 tokens the n × n matrices open as heat maps, and every step stays on the page.
    let sentence: HtmlInputElement = find(&root, "[data-control=\"sentence\"]").unchecked_into();
    let long: Vec<String> = (0..30).map(|i| format!("w{i}")).collect();
    type_into(&sentence, &long.join(" ")).await;
    for name in ["scores", "scaled_scores", "masked_scores", "weights"] {
        let map = find(
            &root,
            &format!("canvas[data-matrix=\"{name}\"][data-view=\"heatmap\"]"),
        );
        assert_eq!(
            map.get_attribute("data-rows").as_deref(),
            Some("30"),
            "{name}"
        );
        assert_eq!(
            map.get_attribute("data-cols").as_deref(),
            Some("30"),
            "{name}"
        );
        assert!(map
            .get_attribute("aria-label")
            .unwrap()
            .contains("heat map"));
    }
    assert!(root
        .query_selector("table[data-matrix=\"weights\"]")
        .unwrap()
        .is_none());
}

/// Switches the figure of `matrix` (head 0) to its other face.
async fn toggle_face(root: &Element, matrix: &str) {
    let selector = format!("[data-matrix=\"{matrix}\"]:is([data-head=\"0\"], :not([data-head]))");
    let figure = find(root, &selector).closest("figure").unwrap().unwrap();
    let button: HtmlElement = find(&figure, "[data-action=\"toggle-view\"]").unchecked_into();
    button.click();
    tick().await;
}

fn heat_map(root: &Element, matrix: &str) -> HtmlCanvasElement {
    find(
        root,
        &format!("canvas[data-matrix=\"{matrix}\"][data-view=\"heatmap\"]"),
    )
    .unchecked_into()
}

/// Scrolls `canvas` into view and waits until it is painted (at most a second's frames): heat
/// maps paint only once they are in view.
async fn bring_into_view(canvas: &HtmlCanvasElement) {
    canvas.scroll_into_view();
    for _ in 0..60 {
        if canvas.width() != 300 {
            return;
        }
        let frame = js_sys::Promise::new(&mut |resolve, _| {
            window().request_animation_frame(&resolve).unwrap();
        });
        wasm_bindgen_futures::JsFuture::from(frame).await.unwrap();
        tick().await;
    }
}

fn press(el: &Element, key: &str) {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    el.dispatch_event(&KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap())
        .unwrap();
}

/// The colour painted at CSS point (x, y) of a canvas.
fn pixel(canvas: &HtmlCanvasElement, x: f64, y: f64) -> [u8; 3] {
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().unchecked_into();
    let dpr = window().device_pixel_ratio().max(1.0);
    let data = ctx
        .get_image_data((x * dpr).floor(), (y * dpr).floor(), 1.0, 1.0)
        .unwrap()
        .data();
    [data[0], data[1], data[2]]
}

#[wasm_bindgen_test]
async fn a_heat_map_paints_each_cell_in_the_map_colours_with_labels_and_legend() {
    let root = mount_app().await;
    toggle_face(&root, "weights").await;
    let canvas = heat_map(&root, "weights");
    bring_into_view(&canvas).await;
    let trace = Trace::of(&dog());
    let words = &trace.tokens.words;
    let widest = words.iter().map(|w| text_width(w)).fold(0.0, f64::max);
    let layout = Layout::labelled(9, 9, widest, widest);
    assert_eq!(
        f64::from(canvas.width()) / window().device_pixel_ratio().max(1.0),
        layout.width
    );
    let weights = &trace.heads[0].weights;
    // The page has no stylesheet here, so the palette is style.css's light one.
    let palette = Palette::LIGHT;
    // From the smallest weight a query sees to the largest.
    let span = Heat::Unit.span(weights, true);
    for (i, j) in [(6, 1), (6, 3), (0, 0), (8, 2)] {
        let (x, y) = layout.cell_origin(i, j);
        let expected = palette.map_cell(Heat::Unit, Heat::Unit.level(weights[(i, j)], span));
        let got = pixel(&canvas, x + layout.cell_w / 2.0, y + layout.cell_h / 2.0);
        let near = got.iter().zip(expected).all(|(a, b)| a.abs_diff(b) <= 2);
        assert!(
            near,
            "cell ({i}, {j}) = {}: painted {got:?}, expected {expected:?}",
            weights[(i, j)]
        );
    }
    // A masked cell (causal) is neither the panel nor a weight colour: it is hatched grey.
    let (x, y) = layout.cell_origin(0, 5);
    assert_ne!(pixel(&canvas, x + 2.0, y + 2.0), palette.panel);
    // Labels are drawn in the label margins: some pixel of the row label "she" is not the panel.
    let (_, y_she) = layout.cell_origin(6, 0);
    let inked = (0..layout.left as usize)
        .any(|x| pixel(&canvas, x as f64, y_she + layout.cell_h / 2.0) != palette.panel);
    assert!(inked, "row label drawn");
    let figure = canvas.closest("figure").unwrap().unwrap();
    assert_eq!(
        find(&figure, ".legend-low")
            .get_attribute("data-value")
            .as_deref(),
        Some(span.0.to_string().as_str())
    );
    assert_eq!(
        find(&figure, ".legend-high")
            .get_attribute("data-value")
            .as_deref(),
        Some("1")
    );
    assert!(find(&figure, ".legend")
        .text_content()
        .unwrap()
        .contains("masked"));

    // Back to numbers: the choice sticks across an edit.
    let w = input_in(&root, "w_value", 0, 0);
    type_into(&w, "3").await;
    assert!(root
        .query_selector("canvas[data-matrix=\"weights\"][data-view=\"heatmap\"]")
        .unwrap()
        .is_some());
    toggle_face(&root, "weights").await;
    assert!(root
        .query_selector("table[data-matrix=\"weights\"]")
        .unwrap()
        .is_some());
}

#[wasm_bindgen_test]
async fn the_heat_map_cursor_reads_cells_and_its_edit_box_types_like_a_cell() {
    let root = mount_app().await;
    toggle_face(&root, "w_query").await;
    let canvas = heat_map(&root, "w_query");
    canvas.focus().unwrap();
    tick().await;
    assert_eq!(canvas.get_attribute("data-cursor").as_deref(), Some("0,0"));
    press(&canvas, "ArrowRight");
    press(&canvas, "ArrowDown");
    press(&canvas, "ArrowDown"); // stays on the last row
    tick().await;
    assert_eq!(canvas.get_attribute("data-cursor").as_deref(), Some("1,1"));
    let figure = canvas.closest("figure").unwrap().unwrap();
    let readout = || find(&figure, ".heatmap-readout [data-value]");
    let w = dog().heads()[0].w_query[(1, 1)];
    assert_eq!(
        readout().get_attribute("data-value").unwrap(),
        w.to_string()
    );

    press(&canvas, "Enter");
    tick().await;
    let input: HtmlInputElement = find(&figure, ".heatmap-editor input").unchecked_into();
    type_into(&input, "2.5").await;
    assert_eq!(
        readout().get_attribute("data-value").as_deref(),
        Some("2.5")
    );
    type_into(&input, "abc").await;
    assert_eq!(input.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert_eq!(
        readout().get_attribute("data-value").unwrap(),
        w.to_string(),
        "the number from before the typing is in use again"
    );
    type_into(&input, "2.5").await;
    assert_eq!(
        readout().get_attribute("data-value").as_deref(),
        Some("2.5")
    );
    press(&input, "Enter");
    tick().await;
    assert!(
        figure.query_selector(".heatmap-editor").unwrap().is_none(),
        "Enter closes the box"
    );

    // The box's edit is one undo step, as in a table.
    let undo: HtmlElement = find(&root, "[data-action=\"undo\"]").unchecked_into();
    undo.click();
    tick().await;
    assert_eq!(
        readout().get_attribute("data-value").unwrap(),
        w.to_string()
    );
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
}

#[wasm_bindgen_test]
async fn a_matrix_view_mounts_alone_and_is_disposed() {
    let root = container();
    let matrix = RwSignal::new(DMatrix::from_row_slice(2, 2, &[1.0, -2.0, 0.5, 4.0]));
    let handle = leptos::mount::mount_to(root.clone(), move || {
        let labels = Signal::stored(vec!["a".to_owned(), "b".to_owned()]);
        view! { <MatrixView of=Matrix::Scores values=matrix.into() row_labels=labels col_labels=labels/> }
    });
    tick().await;
    assert_eq!(
        value_of(&root, "scores", 0, 1),
        -2.0,
        "rows as given, not columns"
    );
    assert_eq!(
        cell(&root, "scores", 1, 0).text_content().unwrap(),
        "0.5000"
    );
    matrix.set(DMatrix::from_row_slice(2, 2, &[1.0, -2.0, 0.5, 8.0]));
    tick().await;
    assert_eq!(value_of(&root, "scores", 1, 1), 8.0);
    drop(handle);
    assert!(root.query_selector("table").unwrap().is_none(), "unmounted");
    root.remove();
}

#[wasm_bindgen_test]
async fn one_step_mounts_with_a_hand_built_state_and_follows_its_edits() {
    let (root, state, handle) = mount_with(dog(), || steps::render(Step::Scores)).await;
    let expected = Trace::of(&dog());
    assert_eq!(
        value_of(&root, "scores", 6, 1),
        expected.heads[0].scores[(6, 1)]
    );
    assert!(
        root.query_selector("[data-matrix=weights]")
            .unwrap()
            .is_none(),
        "only the step"
    );
    let target = Editable::Weight(0, Projection::Query);
    state
        .apply(Edit::Cell {
            target,
            row: 0,
            col: 0,
            value: 2.0,
        })
        .unwrap();
    tick().await;
    let mut model = dog();
    model.set(target, 0, 0, 2.0);
    assert_eq!(
        value_of(&root, "scores", 6, 1),
        Trace::of(&model).heads[0].scores[(6, 1)]
    );
    drop(handle);
    root.remove();
}

#[wasm_bindgen_test]
async fn the_picker_says_your_own_after_an_edit_and_names_the_preset_after_undo() {
    let (root, state, handle) = mount_with(dog(), || view! { <Controls level=Level::All/> }).await;
    let picker: web_sys::HtmlSelectElement = arrived(&root, "[data-control=preset]")
        .await
        .unchecked_into();
    assert_eq!(picker.value(), "dog");
    state
        .apply(Edit::Cell {
            target: Editable::Embedding,
            row: 0,
            col: 0,
            value: 9.0,
        })
        .unwrap();
    tick().await;
    assert_eq!(picker.value(), "", "an edited preset is the learner's own");
    assert!(picker
        .selected_options()
        .item(0)
        .unwrap()
        .text_content()
        .unwrap()
        .contains("Your own"));
    state.apply(Edit::Undo).unwrap();
    tick().await;
    assert_eq!(picker.value(), "dog", "undo brings the preset back");
    drop(handle);
    root.remove();
}

#[wasm_bindgen_test]
async fn the_caption_and_the_heads_picture_say_the_keys_tie_naming_no_favourite() {
    // Two heads whose queries are all zero: every score is 0, every row of weights uniform.
    let mut model = attention_explorer::core::model::presets::preset("raschka-multihead").unwrap();
    for h in 0..model.heads().len() {
        let w = model.heads()[h].w_query.clone();
        for i in 0..w.nrows() {
            for j in 0..w.ncols() {
                model.set(Editable::Weight(h, Projection::Query), i, j, 0.0);
            }
        }
    }
    let (root, _, handle) = mount_with(model, || {
        view! { {steps::render(Step::Softmax)} {steps::render(Step::Output)} }
    })
    .await;
    let caption = find(&root, "figure.lines figcaption")
        .text_content()
        .unwrap();
    let picks = find(&root, ".heads-picks").text_content().unwrap();
    // Six keys alike: none of them is "most".
    assert_eq!(
        caption,
        "Where “first” looks, head 0: 6 keys alike, 0.1667 each"
    );
    assert!(
        picks.contains("head 0 → 6 keys alike (0.1667 each)"),
        "{picks}"
    );
    assert!(picks.contains("it has no favourite"), "{picks}");
    drop(handle);
    root.remove();
}

/// A lab mounted alone on a store: the heads lab shows "she"'s weights in each hand-made head
/// and opens the two-head model in the page; unmounted, it leaves nothing behind.
#[wasm_bindgen_test]
async fn the_heads_lab_shows_two_heads_and_opens_them_in_the_page() {
    use attention_explorer::ui::labs::several_heads::SeveralHeadsLab;
    let (root, state, handle) = mount_with(dog(), || view! { <SeveralHeadsLab/> }).await;
    let ball: f64 = find(&root, "[data-stat=heads_lab]")
        .get_attribute("data-value")
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (ball - 0.808).abs() < 5e-4,
        "head 1 sends “she” to “ball”: {ball}"
    );
    assert!(root
        .query_selector("[data-lab-matrix=two_heads]")
        .unwrap()
        .is_some());
    let open: HtmlElement = find(&root, "[data-action=open-two-heads]").unchecked_into();
    open.click();
    tick().await;
    assert_eq!(state.doc.model.with_untracked(|m| m.heads().len()), 2);
    drop(handle);
    assert!(root.first_element_child().is_none(), "unmounted");
    root.remove();
}

/// The variants' control: sharing key/value heads takes effect through the reducer, and a count
/// that does not divide the heads is refused beside the field, the model kept.
#[wasm_bindgen_test]
async fn the_key_value_heads_field_shares_them_and_refuses_what_does_not_divide() {
    let model = attention_explorer::core::model::presets::preset("raschka-multihead").unwrap();
    let heads = model.heads().len();
    let (root, state, handle) = mount_with(model, || view! { <Controls level=Level::All/> }).await;
    let field: HtmlInputElement = arrived(&root, "[data-control=kv_heads]")
        .await
        .unchecked_into();
    type_into(&field, "1").await;
    assert_eq!(state.doc.model.with_untracked(Model::kv_heads), 1);
    let trace = state.derived.trace.get_untracked();
    assert_eq!(
        trace.heads[heads - 1].keys,
        trace.heads[0].keys,
        "one key head for all"
    );
    type_into(&field, &(heads + 1).to_string()).await;
    assert_eq!(
        state.doc.model.with_untracked(Model::kv_heads),
        1,
        "the last good value is kept"
    );
    assert!(
        field
            .parent_element()
            .unwrap()
            .query_selector(".field-error")
            .unwrap()
            .is_some(),
        "said beside the field"
    );
    drop(handle);
    root.remove();
}

/// The trained model's panel where the model file is not served (the test runner's server):
/// it says why and offers to try again, the page untouched; unmounted, its request is dropped.
#[wasm_bindgen_test]
async fn the_trained_models_panel_says_why_it_cannot_fetch_and_keeps_the_page() {
    use attention_explorer::ui::pretrained::PretrainedInEmbed;
    let (root, state, handle) = mount_with(dog(), || {
        let state = attention_explorer::ui::state::use_app();
        state.doc.pretrained.set(Some("{}".into()));
        view! { <PretrainedInEmbed/> }
    })
    .await;
    let mut said = None;
    for _ in 0..200 {
        said = root.query_selector("[data-stat=pretrained-error]").unwrap();
        if said.is_some() {
            break;
        }
        sleep(10).await;
    }
    let said = said
        .expect("a failed fetch is said")
        .text_content()
        .unwrap();
    assert!(
        said.contains("could not be fetched") || said.contains("the server answered"),
        "{said}"
    );
    assert!(root
        .query_selector("[data-action=retry-pretrained]")
        .unwrap()
        .is_some());
    assert_eq!(
        state.doc.model.with_untracked(|m| m.heads().len()),
        1,
        "the page's model stays"
    );
    drop(handle);
    assert!(root.first_element_child().is_none(), "unmounted");
    root.remove();
}

/// The language model's kernels with the browser's WebAssembly SIMD: the numbers of Q8_0 and
/// Q4_1 blocks as gguf-py makes them, and a written token's row (multiplied as each block is
/// de-quantized, never stored) the same sums as a prompt's rows give, bit for bit.
#[wasm_bindgen_test]
fn the_language_models_kernels_are_its_numbers_bit_for_bit() {
    use attention_explorer::core::decoder::gguf::Kind;
    use attention_explorer::core::decoder::weights::Stored;
    let (rows, cols) = (3, 64);
    let mut seed = 7_u32;
    let mut next = move || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 24) as u8
    };
    // The float16 scales 0.1 and -0.2.
    let (d, m) = ([0x66, 0x2E], [0x66, 0xB2]);
    let (d32, m32) = (1638.0_f32 / 16384.0, -1638.0_f32 / 8192.0);
    for (kind, size) in [(Kind::Q8_0, 34), (Kind::Q4_1, 20)] {
        let mut bytes: Vec<u8> = (0..rows * cols / 32 * size).map(|_| next()).collect();
        for block in bytes.chunks_exact_mut(size) {
            block[..2].copy_from_slice(&d);
            if kind == Kind::Q4_1 {
                block[2..4].copy_from_slice(&m);
            }
        }
        let first = &bytes[..size];
        let want: Vec<f64> = match kind {
            Kind::Q8_0 => first[2..]
                .iter()
                .map(|&q| f64::from(d32 * f32::from(q as i8)))
                .collect(),
            _ => {
                let low = first[4..]
                    .iter()
                    .map(|&q| f64::from(d32 * f32::from(q & 15) + m32));
                let high = first[4..]
                    .iter()
                    .map(|&q| f64::from(d32 * f32::from(q >> 4) + m32));
                low.chain(high).collect()
            }
        };
        let len = bytes.len();
        let stored = Stored::new(kind, (rows, cols), std::sync::Arc::new(bytes), 0..len).unwrap();
        assert_eq!(stored.row(0)[..32], want[..], "{kind:?}'s numbers");
        let x = DMatrix::from_fn(2, cols, |t, c| ((t * cols + c) as f64 * 0.37).sin());
        let (one, two) = (stored.apply(&x.rows(0, 1).into_owned()), stored.apply(&x));
        for r in 0..rows {
            assert_eq!(
                one[(0, r)].to_bits(),
                two[(0, r)].to_bits(),
                "{kind:?} row {r}"
            );
        }
    }
}

/// Waits `ms` milliseconds (a timer task, so the browser answers requests meanwhile).
async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}
