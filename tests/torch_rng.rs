//! `core::torch_rng` against values drawn by real PyTorch (`tests/fixtures/torch_rng.json`).

mod common;

use attention_explorer::core::model::torch_rng::TorchRng;
use common::fixture;

fn floats(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn rand_matches_pytorch_exactly() {
    let cases = fixture("torch_rng.json")["rand"]
        .as_array()
        .unwrap()
        .clone();
    assert!(cases.len() >= 9);
    for case in cases {
        let mut rng = TorchRng::manual_seed(case["seed"].as_u64().unwrap());
        for (shape, values) in case["shapes"]
            .as_array()
            .unwrap()
            .iter()
            .zip(case["values"].as_array().unwrap())
        {
            let (r, c) = (
                shape[0].as_u64().unwrap() as usize,
                shape[1].as_u64().unwrap() as usize,
            );
            let got = rng.rand(r, c);
            let expected = floats(values);
            for i in 0..r {
                for j in 0..c {
                    assert_eq!(
                        got[(i, j)],
                        expected[i * c + j],
                        "seed {} rand({r}, {c})[{i}][{j}]",
                        case["seed"]
                    );
                }
            }
        }
    }
}

#[test]
fn seed_uses_low_32_bits() {
    let high = TorchRng::manual_seed((1 << 32) + 7).rand(2, 3);
    let low = TorchRng::manual_seed(7).rand(2, 3);
    assert_eq!(high, low);
}

#[test]
fn linear_matches_pytorch_within_one_f32_ulp() {
    for case in fixture("torch_rng.json")["linear"].as_array().unwrap() {
        let (fin, fout) = (
            case["in_features"].as_u64().unwrap() as usize,
            case["out_features"].as_u64().unwrap() as usize,
        );
        let got = TorchRng::manual_seed(case["seed"].as_u64().unwrap()).linear_weight(fin, fout);
        assert_eq!(got.shape(), (fout, fin));
        for (i, row) in case["weight"].as_array().unwrap().iter().enumerate() {
            for (j, e) in floats(row).into_iter().enumerate() {
                let ulp = (e as f32).abs().max(f32::MIN_POSITIVE) * f32::EPSILON;
                assert!(
                    (got[(i, j)] - e).abs() <= ulp as f64,
                    "seed {} Linear({fin}, {fout})[{i}][{j}]: {} vs {e}",
                    case["seed"],
                    got[(i, j)]
                );
            }
        }
    }
}

#[test]
fn embedding_matches_pytorch_within_1e_5() {
    let cases = fixture("torch_rng.json")["embedding"]
        .as_array()
        .unwrap()
        .clone();
    for case in cases {
        let (num, dim) = (
            case["num_embeddings"].as_u64().unwrap() as usize,
            case["embedding_dim"].as_u64().unwrap() as usize,
        );
        let rows = case["rows"].as_object().unwrap();
        let picked: Vec<usize> = rows.keys().map(|k| k.parse().unwrap()).collect();
        let got =
            TorchRng::manual_seed(case["seed"].as_u64().unwrap()).embedding_rows(num, dim, &picked);
        for (i, r) in picked.iter().enumerate() {
            for (j, e) in floats(&rows[&r.to_string()]).into_iter().enumerate() {
                assert!(
                    (got[(i, j)] - e).abs() <= 1e-5,
                    "seed {} Embedding({num}, {dim}) row {r} col {j}: {} vs {e}",
                    case["seed"],
                    got[(i, j)]
                );
            }
        }
    }
}

#[test]
fn embedding_rows_outside_the_table_are_zero() {
    let got = TorchRng::manual_seed(1).embedding_rows(4, 4, &[2, 9]);
    assert!(got.row(0).iter().all(|x| *x != 0.0));
    assert!(got.row(1).iter().all(|x| *x == 0.0));
}
