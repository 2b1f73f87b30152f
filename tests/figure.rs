//! A matrix as a figure for slides: labels, every number, the page's colours, masked cells.

use attention_explorer::core::forward::trace::Trace;
use attention_explorer::core::model::presets::dog;
use attention_explorer::core::views::figure::{file_stem, matrix_svg, MatrixFigure};
use attention_explorer::core::views::heatmap::{Heat, Palette};

#[test]
fn a_table_figure_has_its_title_labels_numbers_and_masked_cells() {
    let model = dog();
    let trace = Trace::of(&model);
    let words = model.tokens().words.clone();
    let weights = &trace.heads[0].weights;
    let figure = MatrixFigure {
        title: "weights, head 0",
        corner: "query ╲ key",
        rows: &words,
        cols: &words,
        values: weights,
        heat: Heat::Unit,
        masked: true,
        decimals: Some(4),
        palette: &Palette::DARK,
    };
    let (svg, width, height) = matrix_svg(&figure);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.contains(">weights, head 0</text>") && svg.contains(">query ╲ key</text>"));
    assert_eq!(
        svg.matches(">she</text>").count(),
        2,
        "a row and a column label"
    );
    // She attends 0.8830 to dog, and every cell is a rectangle.
    assert!(svg.contains(">0.8830</text>"));
    assert_eq!(svg.matches("<rect x=").count(), 81);
    // A masked cell takes the masked colour; the panel is the dark one.
    assert!(svg.contains("fill=\"#111827\""));
    assert!(svg.contains("fill=\"#1f2937\" stroke"));
    assert!(width > 500.0 && height > 200.0, "{width} × {height}");
    // A heat map: the same cells, no numbers.
    let (map, ..) = matrix_svg(&MatrixFigure {
        decimals: None,
        ..figure
    });
    assert!(!map.contains(">0.8830</text>") && map.matches("<rect x=").count() == 81);
    assert_eq!(file_stem("weights", Some(0)), "weights-head0");
    assert_eq!(file_stem("output", None), "output");
}

#[test]
fn labels_are_escaped() {
    let rows = vec!["<b>&".to_owned()];
    let values = nalgebra::DMatrix::from_row_slice(1, 1, &[f64::NEG_INFINITY]);
    let (svg, ..) = matrix_svg(&MatrixFigure {
        title: "a \"title\"",
        corner: "",
        rows: &rows,
        cols: &rows,
        values: &values,
        heat: Heat::Signed,
        masked: false,
        decimals: Some(2),
        palette: &Palette::LIGHT,
    });
    assert!(
        svg.contains("&lt;b&gt;&amp;")
            && svg.contains("a &quot;title&quot;")
            && svg.contains(">−∞</text>")
    );
}
