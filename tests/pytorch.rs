//! "Copy as PyTorch": the script's text for a preset, and floats Python reads back exactly.

use attention_explorer::core::formats::pytorch::pytorch_script;
use attention_explorer::core::model::presets::preset;
use attention_explorer::core::model::{Editable, Projection};

const DOG: &str = "tests/fixtures/pytorch/dog.py";

#[test]
fn the_dog_script_is_the_reviewed_one() {
    let script = pytorch_script(&preset("dog").unwrap(), None).text;
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(DOG, &script).unwrap();
    }
    assert_eq!(
        script,
        std::fs::read_to_string(DOG).unwrap(),
        "run with UPDATE_FIXTURES=1 and review the diff"
    );
}

#[test]
fn every_number_is_a_python_float_literal_that_round_trips() {
    let mut model = preset("raschka-multihead").unwrap();
    for (col, x) in [(0, 1e-7), (1, -0.0), (2, 1e6)] {
        model.set(Editable::Embedding, 0, col, x);
    }
    model.set(Editable::Weight(3, Projection::Value), 2, 0, 5e-324);
    let script = pytorch_script(&model, None).text;
    for literal in ["1e-7", "-0.0", "1000000.0", "5e-324"] {
        assert!(script.contains(literal), "{literal}");
    }
    assert!(script.contains("w_value = [  # one per head"));
    assert_eq!(script.matches("dtype=torch.float64)").count(), 1 + 3 * 4);
    assert!(script.contains("causal = False"));
    assert!(script.contains("scaled = scores / math.sqrt(keys.shape[1])"));
}

#[test]
fn with_an_objective_the_script_takes_the_loss_and_prints_every_grad() {
    use attention_explorer::core::training::Objective;
    let model = preset("dog").unwrap();
    let objective =
        Objective::read(r#"{"attend": [{"head": 0, "query": 6, "key": 4}]}"#, &model).unwrap();
    let script = pytorch_script(&model, Some(&objective)).text;
    assert!(script.contains("dtype=torch.float64, requires_grad=True)"));
    assert!(script.contains("targets = [(0, 6, 4)]"));
    assert!(script.contains("loss.backward()"));
    assert!(script.contains("{w.grad}"));
    // Without one, nothing of it.
    assert!(!pytorch_script(&model, None).text.contains("requires_grad"));
}

#[test]
fn a_large_models_numbers_are_a_safetensors_file_of_its_exact_floats() {
    use attention_explorer::core::formats::pytorch::NUMBERS_FILE;
    use attention_explorer::core::model::{Dims, Model, Scale};
    let dims = Dims {
        d_in: 64,
        d_k: 32,
        d_v: 32,
        heads: 4,
    };
    let model = Model::seeded("a b c d e f g h", dims, 7, false, Scale::SqrtDk).unwrap();
    let script = pytorch_script(&model, None);
    assert!(script
        .text
        .contains(&format!("numbers = load_file(\"{NUMBERS_FILE}\")")));
    assert!(script.text.contains("numbers[\"w_key.3\"]"));
    let bytes = script.numbers.expect("past 20 000 numbers, a file");
    let file = safetensors::SafeTensors::deserialize(&bytes).expect("safetensors reads it");
    let w_key = file.tensor("w_key.3").unwrap();
    assert_eq!(w_key.dtype(), safetensors::Dtype::F64);
    assert_eq!(w_key.shape(), [64, 32]);
    // Row by row, as torch reads it.
    let at = |r: usize, c: usize| {
        let i = (r * 32 + c) * 8;
        f64::from_le_bytes(w_key.data()[i..i + 8].try_into().unwrap())
    };
    assert_eq!(at(5, 7), model.heads()[3].w_key[(5, 7)]);
    assert_eq!(at(63, 31), model.heads()[3].w_key[(63, 31)]);
    // A small model's script holds its numbers.
    assert!(pytorch_script(&preset("dog").unwrap(), None)
        .numbers
        .is_none());
}
