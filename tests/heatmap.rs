//! `core::heatmap`: the face a matrix opens with, cell colours equal to the tables', layout.

use attention_explorer::core::views::heatmap::{
    cell_pixels, fit_label, parse_colour, Face, Heat, Layout, Palette,
};
use nalgebra::DMatrix;

#[test]
fn small_matrices_open_as_numbers_and_large_ones_as_heat_maps() {
    assert_eq!(Face::default_for(16, 16), Face::Numbers);
    assert_eq!(Face::default_for(9, 3), Face::Numbers);
    assert_eq!(Face::default_for(17, 3), Face::Heatmap);
    assert_eq!(Face::default_for(64, 64), Face::Heatmap);
    assert_eq!(Face::Numbers.toggled(), Face::Heatmap);
}

#[test]
fn levels_follow_the_tables_scales() {
    assert_eq!(Heat::Signed.level(-2.0, (-4.0, 4.0)), -0.5);
    assert_eq!(Heat::Signed.level(f64::NEG_INFINITY, (-4.0, 4.0)), 0.0);
    assert_eq!(Heat::Signed.level(3.0, (0.0, 0.0)), 0.0);
    assert_eq!(Heat::Unit.level(f64::NAN, (0.0, 1.0)), 0.0);
    let m = DMatrix::from_row_slice(1, 3, &[1.0, -3.0, f64::NEG_INFINITY]);
    assert_eq!(Heat::Signed.span(&m, false), (-3.0, 3.0));
}

#[test]
fn a_weight_map_runs_from_its_smallest_visible_weight_to_its_largest() {
    // Near-uniform weights still span the whole scale.
    let near = DMatrix::from_row_slice(2, 2, &[0.49, 0.51, 0.52, 0.48]);
    let span = Heat::Unit.span(&near, false);
    assert_eq!(span, (0.48, 0.52));
    assert_eq!(Heat::Unit.level(0.48, span), 0.0);
    assert_eq!(Heat::Unit.level(0.52, span), 1.0);
    assert!((Heat::Unit.level(0.5, span) - 0.5).abs() < 1e-12);
    // Under the mask the future's zeros do not count.
    let causal = DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.3, 0.7]);
    assert_eq!(Heat::Unit.span(&causal, true), (0.3, 1.0));
    assert_eq!(Heat::Unit.span(&causal, false), (0.0, 1.0));
    // One value everywhere keeps its own level.
    let flat = DMatrix::from_element(2, 2, 0.5);
    assert_eq!(Heat::Unit.level(0.5, Heat::Unit.span(&flat, false)), 0.5);
}

/// WCAG's contrast ratio of two sRGB colours.
fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let luminance = |c: [u8; 3]| {
        let lin = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
    };
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[test]
fn the_largest_and_smallest_weight_differ_by_three_to_one_in_both_themes() {
    for (name, p) in [("light", Palette::LIGHT), ("dark", Palette::DARK)] {
        let ratio = contrast(p.cell(Heat::Unit, 1.0), p.cell(Heat::Unit, 0.0));
        assert!(ratio >= 3.0, "{name}: {ratio:.2}");
    }
}

#[test]
fn colours_blend_the_tint_over_the_panel_as_css_does() {
    let light = Palette::LIGHT;
    // rgba(37, 99, 235, 0.55) over white.
    assert_eq!(light.cell(Heat::Signed, 1.0), [135, 169, 244]);
    assert_eq!(light.cell(Heat::Signed, 0.0), [255, 255, 255]);
    // rgba(220, 38, 38, 0.275) over white.
    assert_eq!(light.cell(Heat::Signed, -0.5), [245, 195, 195]);
    // rgb(22, 163, 74) at full strength.
    assert_eq!(light.cell(Heat::Unit, 1.0), [22, 163, 74]);
    assert_eq!(Palette::DARK.cell(Heat::Unit, 0.0), Palette::DARK.panel);
}

#[test]
fn css_colours_are_read_as_style_css_writes_them() {
    assert_eq!(parse_colour("#f8fafc"), Some([0xf8, 0xfa, 0xfc]));
    assert_eq!(parse_colour(" #fff"), Some([255, 255, 255]));
    assert_eq!(parse_colour(" 37, 99, 235"), Some([37, 99, 235]));
    assert_eq!(parse_colour("37, 99"), None);
    assert_eq!(parse_colour("red"), None);
    assert_eq!(parse_colour("#12"), None);
    let css = |name: &str| match name {
        "--pos" => " 1, 2, 3".to_owned(),
        "--panel" => "#000000".to_owned(),
        _ => String::new(),
    };
    let p = Palette::from_css(css, Palette::DARK);
    assert_eq!(
        (p.pos, p.panel, p.neg),
        ([1, 2, 3], [0, 0, 0], Palette::DARK.neg)
    );
}

#[test]
fn pixels_are_row_major_with_masked_cells_greyed() {
    let m = DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.5, 0.5]);
    let p = Palette::LIGHT;
    let px = cell_pixels(&m, Heat::Unit, true, &p);
    assert_eq!(px.len(), 16);
    assert_eq!(px[0..4], [22, 163, 74, 255]);
    assert_eq!(px[4..8], [p.masked[0], p.masked[1], p.masked[2], 255]);
    assert_eq!(px[8..12], px[12..16]);
    let unmasked = cell_pixels(&m, Heat::Unit, false, &p);
    assert_eq!(unmasked[4..8], [255, 255, 255, 255]);
}

#[test]
fn layout_finds_cells_and_labels_and_thins_crowded_labels() {
    let small = Layout::labelled(9, 9, 40.0, 40.0);
    assert_eq!((small.cell_w, small.cell_h), (22.0, 22.0));
    assert_eq!(small.row_label_every, 1);
    assert!(
        small.vertical_cols,
        "7-letter labels do not fit 22 px across"
    );
    let (x, y) = small.cell_origin(2, 3);
    assert_eq!(small.cell_at(x + 1.0, y + 1.0), Some((2, 3)));
    assert_eq!(small.cell_at(x - 1.0 - 2.0 * 22.0 - small.left, y), None);
    assert_eq!(small.row_label_at(1.0, y + 5.0), Some(2));
    assert_eq!(small.cell_at(small.width + 1.0, y), None);
    assert_eq!(small.labelled_rows(), (0..9).collect::<Vec<_>>());
    // An edit box opens below its cell, above it near the bottom, inside the right edge.
    let (x0, _) = small.cell_origin(2, 0);
    assert_eq!(small.box_origin(2, 0, (150.0, 64.0)), (x0, y + 22.0));
    let (_, last_y) = small.cell_origin(8, 8);
    let (bx, by) = small.box_origin(8, 8, (150.0, 64.0));
    assert_eq!((bx, by), (small.width - 150.0, last_y - 64.0));

    let big = Layout::labelled(64, 64, 70.0, 70.0);
    assert_eq!(big.cell_h, 5.0);
    assert_eq!(big.row_label_every, 3);
    assert_eq!(big.labelled_rows().len(), 22);
    assert_eq!(big.width, big.left + 320.0);

    let numbers = Layout::labelled(3, 4, 7.0, 7.0);
    assert!(!numbers.vertical_cols, "digits fit across a cell");

    let wide = Layout::labelled(64, 2048, 70.0, 28.0);
    // One pixel per column at most: the widest output (16 heads × 128) scrolls sideways.
    assert_eq!(wide.cell_w, 1.0);
    assert_eq!(wide.width, wide.left + 2048.0);
    let output = Layout::labelled(64, 256, 70.0, 21.0);
    assert_eq!((output.cell_w, output.cell_h), (3.0, 3.0));

    let thumb = Layout::thumbnail(64, 64, 128.0);
    assert_eq!(
        (thumb.width, thumb.height, thumb.has_labels()),
        (128.0, 128.0, false)
    );
    assert!(thumb.labelled_rows().is_empty());
}

#[test]
fn long_labels_are_cut() {
    assert_eq!(fit_label("dog"), "dog");
    assert_eq!(fit_label("antidisestablishment"), "antidisesta…");
    assert_eq!(fit_label("antidisestablishment").chars().count(), 12);
}

#[test]
fn a_dark_map_shows_a_weight_a_quarter_up_its_scale_at_three_to_one() {
    let p = Palette::DARK;
    let quarter = contrast(p.map_cell(Heat::Unit, 0.25), p.panel);
    assert!(quarter >= 3.0, "{quarter:.2}");
    assert_eq!(
        p.map_cell(Heat::Unit, 1.0),
        p.unit,
        "the top at full strength"
    );
    assert_eq!(p.map_cell(Heat::Unit, 0.0), p.panel);
    // Brighter than the tables' ramp everywhere between.
    let table = contrast(p.cell(Heat::Unit, 0.25), p.panel);
    assert!(
        quarter > table,
        "{quarter:.2} against the table's {table:.2}"
    );
    assert_eq!(p.map_cell(Heat::Signed, -0.5), p.cell(Heat::Signed, -0.5));
}

#[test]
fn a_spread_scale_leaves_an_outlier_dimension_out_of_its_ends() {
    use attention_explorer::core::views::heatmap::Heat;
    // A hidden state: 199 ordinary numbers and one outlier dimension, as a trained model has.
    let mut values: Vec<f64> = (0..199).map(|i| (i % 7) as f64 * 0.25 - 0.75).collect();
    values.push(-400.0);
    let m = nalgebra::DMatrix::from_row_slice(10, 20, &values);
    assert_eq!(Heat::Signed.span(&m, false), (-400.0, 400.0));
    let (low, high) = Heat::Spread.span(&m, false);
    assert_eq!((low, high), (-0.75, 0.75));
    // The ordinary cells use the whole scale; the outlier is at its end.
    assert_eq!(Heat::Spread.level(0.75, (low, high)), 1.0);
    assert_eq!(Heat::Spread.level(-400.0, (low, high)), -1.0);
    assert_eq!(
        Heat::Spread.span(&nalgebra::DMatrix::zeros(0, 0), false),
        (0.0, 0.0)
    );
}
