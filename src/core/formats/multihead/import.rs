//! A state dict brought into a model: onto the page's model, or with its sentence and embedding
//! from `attention-trace --from-torch`'s file.

use nalgebra::DMatrix;
use serde_json::Value;

use crate::core::i18n::keys::formats;
use crate::core::i18n::Msg;
use crate::core::model::limits::check_sentence;
use crate::core::model::presets::DEFAULT_SEED;
use crate::core::model::tokens::Tokens;
use crate::core::model::{Dims, Head, Model, Scale};

use super::dict::{
    not_json, state_dict_of_value, tensor_of_value, StateDict, Tensor, MAX_DICT_BYTES,
};
use super::layer::layer_of;
use super::shapes::matrix_of;
/// `model` with the attention layer of `dict` (its sentence, embedding and mask kept, the
/// scaling ÷√dₖ as PyTorch's); the message says what does not fit.
pub fn import_into(model: &Model, dict: &StateDict, heads: usize) -> Result<Model, Msg> {
    let (heads, output) = layer_of(dict, heads)?;
    let e = heads[0].w_query.nrows();
    let d_in = model.embedding().ncols();
    if e != d_in {
        return Err(formats::input_width(e, d_in));
    }
    Model::new(
        model.sentence(),
        model.embedding().clone(),
        heads,
        model.causal,
        Scale::SqrtDk,
    )
    .and_then(|m| m.with_output(Some(output)))
    .and_then(|m| m.with_positions(model.positions().clone()))
}

/// Reads `attention-trace --from-torch`'s file: `{"sentence", "embedding" (a row per token),
/// "causal", "num_heads", "state_dict"}`. Without an embedding (absent or null) the words get the
/// page's seeded rows, `torch.manual_seed(123)` then `nn.Embedding(50_000, E)`.
pub fn read_torch_file(text: &str) -> Result<Model, Msg> {
    if text.len() > MAX_DICT_BYTES {
        return Err(formats::longer_than(MAX_DICT_BYTES));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| not_json(text, e))?;
    let field = |name: &str| value.get(name).ok_or_else(|| formats::field_missing(name));
    let sentence = field("sentence")?
        .as_str()
        .ok_or(formats::sentence_not_string)?;
    let tokens = check_sentence(sentence).map_err(|e| formats::at("sentence", e))?;
    let causal = field("causal")?.as_bool().ok_or(formats::causal_not_bool)?;
    let heads = field("num_heads")?
        .as_u64()
        .ok_or(formats::num_heads_not_number)? as usize;
    let dict =
        state_dict_of_value(field("state_dict")?).map_err(|e| formats::at("state_dict", e))?;
    let start = match value.get("embedding").filter(|e| !e.is_null()) {
        Some(x) => {
            let embedding = embedding_of_rows(&tokens, &tensor_of_value("embedding", x)?)?;
            let d_in = embedding.ncols();
            Model::new(
                sentence,
                embedding,
                vec![Head::new(
                    DMatrix::zeros(d_in, 1),
                    DMatrix::zeros(d_in, 1),
                    DMatrix::zeros(d_in, 1),
                )],
                causal,
                Scale::SqrtDk,
            )?
        }
        None => {
            let d_in = layer_of(&dict, heads)?.0[0].w_query.nrows();
            let dims = Dims {
                d_in,
                d_k: 1,
                d_v: 1,
                heads: 1,
            };
            Model::seeded(sentence, dims, DEFAULT_SEED, causal, Scale::SqrtDk)?
        }
    };
    import_into(&start, &dict, heads)
}

/// The embedding table (a row per vocabulary word) of `x`, a row per token.
fn embedding_of_rows(tokens: &Tokens, x: &Tensor) -> Result<DMatrix<f64>, Msg> {
    let (n, width) = (tokens.len(), x.shape.get(1).copied().unwrap_or(0));
    let x = matrix_of(x, "embedding", n, width).map_err(formats::a_row_per_token)?;
    // One row per vocabulary word: a word that repeats must have the same row each time.
    let mut rows: Vec<Option<usize>> = vec![None; tokens.vocabulary.len()];
    for (t, &id) in tokens.ids.iter().enumerate() {
        match rows[id] {
            Some(first) if x.row(first) != x.row(t) => {
                return Err(formats::word_two_rows(&tokens.words[t], first, t))
            }
            Some(_) => {}
            None => rows[id] = Some(t),
        }
    }
    Ok(DMatrix::from_fn(rows.len(), width, |i, j| {
        x[(rows[i].expect("every word is a token"), j)]
    }))
}
