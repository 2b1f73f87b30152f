//! Properties of `core::trace` and `core::softmax` on random models, and of `core::text::fmt` on
//! any number (proptest).
#![cfg(not(target_arch = "wasm32"))] // proptest is a native-only dev-dependency

use attention_explorer::core::forward::softmax::softmax_rows;
use attention_explorer::core::forward::trace::attend;
use attention_explorer::core::model::{Head, Scale};
use attention_explorer::core::text::fmt;
use nalgebra::DMatrix;
use proptest::prelude::*;

fn matrix(rows: usize, cols: usize, spread: f64) -> impl Strategy<Value = DMatrix<f64>> {
    prop::collection::vec(-spread..spread, rows * cols)
        .prop_map(move |v| DMatrix::from_row_slice(rows, cols, &v))
}

/// An embedded sentence and one head: n tokens, d_in, d_k, d_v in 1..=6.
fn model(spread: f64) -> impl Strategy<Value = (DMatrix<f64>, Head)> {
    (1usize..=6, 1usize..=6, 1usize..=6, 1usize..=6).prop_flat_map(move |(n, d_in, d_k, d_v)| {
        (
            matrix(n, d_in, spread),
            matrix(d_in, d_k, spread),
            matrix(d_in, d_k, spread),
            matrix(d_in, d_v, spread),
        )
            .prop_map(|(x, w_query, w_key, w_value)| {
                (
                    x,
                    Head {
                        w_query,
                        w_key,
                        w_value,
                        biases: None,
                    },
                )
            })
    })
}

fn scale() -> impl Strategy<Value = Scale> {
    prop::sample::select(Scale::ALL.to_vec())
}

proptest! {
    #[test]
    fn softmax_rows_sum_to_one((x, head) in model(30.0), causal: bool, scale in scale()) {
        let t = attend(&x, &head, causal, scale);
        for row in t.weights.row_iter() {
            prop_assert!((row.sum() - 1.0).abs() < 1e-12, "row sums to {}", row.sum());
            prop_assert!(row.iter().all(|w| (0.0..=1.0).contains(w)));
        }
    }

    #[test]
    fn causal_weights_are_exactly_zero_above_the_diagonal((x, head) in model(30.0), scale in scale()) {
        let t = attend(&x, &head, true, scale);
        for i in 0..t.weights.nrows() {
            for j in i + 1..t.weights.ncols() {
                prop_assert_eq!(t.weights[(i, j)], 0.0);
                prop_assert_eq!(t.masked_scores[(i, j)], f64::NEG_INFINITY);
            }
        }
    }

    #[test]
    fn the_two_masking_methods_agree_when_renormalising_is_sound((x, head) in model(3.0), scale in scale()) {
        let t = attend(&x, &head, true, scale);
        let methods = t.causal_methods.unwrap();
        let (renormalized, simple) = (methods.renormalized, methods.simple);
        for i in 0..t.weights.nrows() {
            // Sound: the visible part of the unmasked row kept a sum well above underflow.
            if simple.row(i).sum() > 1e-6 {
                for j in 0..t.weights.ncols() {
                    prop_assert!((renormalized[(i, j)] - t.weights[(i, j)]).abs() < 1e-9);
                }
            }
        }
    }

    #[test]
    fn adding_a_constant_to_a_score_row_leaves_its_weights((scores, c, row) in (1usize..=6, 1usize..=6).prop_flat_map(|(r, k)| (matrix(r, k, 50.0), -1e3..1e3f64, 0..r))) {
        let mut shifted = scores.clone();
        shifted.row_mut(row).add_scalar_mut(c);
        let (a, b) = (softmax_rows(&scores), softmax_rows(&shifted));
        for j in 0..a.ncols() {
            prop_assert!((a[(row, j)] - b[(row, j)]).abs() < 1e-9);
        }
    }

    #[test]
    fn without_a_mask_permuting_tokens_permutes_the_output(((x, head), perm) in model(5.0).prop_flat_map(|(x, h)| {
        let n = x.nrows();
        (Just((x, h)), Just((0..n).collect::<Vec<_>>()).prop_shuffle())
    }), scale in scale()) {
        let permuted = DMatrix::from_fn(x.nrows(), x.ncols(), |i, j| x[(perm[i], j)]);
        let (a, b) = (attend(&x, &head, false, scale), attend(&permuted, &head, false, scale));
        for (i, &from) in perm.iter().enumerate() {
            for j in 0..a.context.ncols() {
                prop_assert!((b.context[(i, j)] - a.context[(from, j)]).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn huge_scores_never_give_nan((x, head) in model(1e3), causal: bool) {
        let t = attend(&x, &head, causal, Scale::None);
        prop_assert!(t.weights.iter().all(|w| w.is_finite()));
    }
}

/// What `format!` writes with `precision` decimals, "-0.00" written "0.00": what `fmt` promises.
fn formatted(x: f64, precision: usize) -> String {
    let s = format!("{x:.precision$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_owned(),
        _ => s,
    }
}

proptest! {
    /// `fmt`'s quick rounding writes every number as the standard library's exact one does.
    #[test]
    fn fmt_writes_what_format_writes(x in prop::num::f64::ANY, precision in 0usize..12) {
        prop_assume!(x != f64::NEG_INFINITY);
        prop_assert_eq!(fmt(x, precision), formatted(x, precision));
    }

    /// The numbers a page shows: small, and many at a few decimals' half-way points.
    #[test]
    fn fmt_writes_table_numbers_as_format_does(n in -2_000_000i64..2_000_000, tweak in -3i64..=3, precision in 0usize..7) {
        let x = (n as f64 + 0.5) / 10f64.powi(precision as i32) + tweak as f64 * 1e-17;
        prop_assert_eq!(fmt(x, precision), formatted(x, precision));
    }
}

#[test]
fn fmt_at_the_edges() {
    for (x, p) in [
        (0.0, 4),
        (-0.0, 4),
        (-0.00004, 4),
        (0.00005, 4),
        (2.5, 0),
        (3.5, 0),
        (0.125, 2),
        (1e9, 4),
        (99999.99995, 4),
        (f64::NAN, 4),
        (f64::INFINITY, 2),
        (-1.23456789, 9),
        (1e-12, 9),
    ] {
        assert_eq!(fmt(x, p), formatted(x, p), "{x} at {p}");
    }
}
