//! "Copy as PyTorch": the model as a short, self-contained Python script that computes every
//! step the tutorial's way in float64, head by head, and prints the weights and `output`; with
//! an objective, also its loss, `.backward()` and every parameter's `.grad`.
//! Numbers are written in shortest round-trip form, so the script starts from our exact numbers;
//! a model with too many to read as text (a trained layer's 600 000) gives them as a
//! `.safetensors` file of float64 the script loads.

use std::fmt::Write;

use nalgebra::DMatrix;

use crate::core::model::positions::{Positions, Rope};
use crate::core::model::{Model, Projection, Scale};
use crate::core::training::{Goal, Objective};

mod numbers;

use crate::core::document::history::model_numbers;
pub use numbers::NUMBERS_FILE;
use numbers::{float, Numbers, MOST_WRITTEN_NUMBERS};

/// "Copy as PyTorch": the script, and for a large model the numbers it loads (safetensors bytes,
/// to be saved as [`NUMBERS_FILE`] beside it).
pub struct Script {
    /// The Python.
    pub text: String,
    /// A large model's numbers, as the file the script loads.
    pub numbers: Option<Vec<u8>>,
}

/// A Python list of strings (JSON's string escapes are Python's too; words hold no commas, so
/// every comma separates two of them).
fn strings(words: &[String]) -> String {
    serde_json::to_string(words)
        .expect("strings always serialise")
        .replace(',', ", ")
}

/// Writes how the model's positions are computed, in plain torch so that a learner sees the
/// formula; returns what the projections take (`embedded` or `positioned`) and the line that
/// rotates the queries and keys (or nothing).
fn positions_code(
    model: &Model,
    grad: bool,
    numbers: &mut Numbers,
    s: &mut String,
) -> (&'static str, &'static str) {
    match model.positions() {
        Positions::None => ("embedded", ""),
        Positions::Sinusoidal { base } => {
            let _ = writeln!(
                s,
                "# Sinusoidal positions: PE[p, 2i] = sin(p / base^(2i/d_in)), PE[p, 2i+1] = cos(…).\n\
                 base = {}\n\
                 place = torch.arange(len(words), dtype=torch.float64)[:, None]\n\
                 column = torch.arange(embedded.shape[1], dtype=torch.float64)\n\
                 angle = place / base ** ((column - column % 2) / embedded.shape[1])\n\
                 positions = torch.where(column % 2 == 0, torch.sin(angle), torch.cos(angle))\n\
                 positioned = embedded + positions",
                float(*base)
            );
            ("positioned", "")
        }
        Positions::Learned(table) => {
            let _ = writeln!(
                s,
                "# Learned positions: a row per place, added to the embedding.\n\
                 positions = {}\n\
                 positioned = embedded + positions",
                numbers.matrix("positions", table, "", grad)
            );
            ("positioned", "")
        }
        Positions::Rope { base, pairs } => {
            let (which, split, join) = match pairs {
                Rope::Half => (
                    "pairs (i, i + d/2), as Hugging Face's rotate_half",
                    "x1, x2 = x[:, : d // 2], x[:, d // 2 :]",
                    "torch.cat((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=1)",
                ),
                Rope::Interleaved => (
                    "pairs (2i, 2i + 1), as Meta's reference",
                    "x1, x2 = x[:, 0::2], x[:, 1::2]",
                    "torch.stack((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=2).reshape(n, d)",
                ),
            };
            let _ = writeln!(
                s,
                "# RoPE: {which}, pair i of place p turned by p · base^(-2i/d).\n\
                 base = {}\n\
                 def rope(x):\n\
                 \x20   n, d = x.shape\n\
                 \x20   theta = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)\n\
                 \x20   angle = torch.arange(n, dtype=torch.float64)[:, None] * theta\n\
                 \x20   cos, sin = torch.cos(angle), torch.sin(angle)\n\
                 \x20   {split}\n\
                 \x20   return {join}",
                float(*base)
            );
            (
                "embedded",
                "\x20   queries, keys = rope(queries), rope(keys)  # by each token's place\n",
            )
        }
    }
}

/// The script for `model`, and for `objective` if one is given.
pub fn pytorch_script(model: &Model, objective: Option<&Objective>) -> Script {
    let grad = objective.is_some();
    let tokens = model.tokens();
    let count = model_numbers(model);
    let mut numbers = Numbers {
        file: (count > MOST_WRITTEN_NUMBERS).then(Vec::new),
    };
    let mut s = String::new();
    let sentence = serde_json::to_string(model.sentence()).expect("a string always serialises");
    let _ = writeln!(
        s,
        "# Attention Explorer's model as PyTorch computes it (float64), head by head.\n\
         import math\nimport torch\n"
    );
    if numbers.file.is_some() {
        let _ = writeln!(
            s,
            "# Its {count} numbers are too many to print here: they are in the file the page saved\n\
             # with this script (float64, exact). Keep it beside the script.\n\
             from safetensors.torch import load_file\n\
             numbers = load_file(\"{NUMBERS_FILE}\")\n"
        );
    }
    let _ = writeln!(
        s,
        "torch.set_printoptions(precision=4, sci_mode=False)\n\nsentence = {sentence}"
    );
    if let Some(layered) = model.layered() {
        let _ = writeln!(
            s,
            "# The pieces the trained model's tokenizer cut. Each place has its own row: the\n\
             # hidden state entering {} differs at every place, whatever the piece.\n\
             words = {}\n\
             ids = torch.arange(len(words))\n\n\
             embedding = {}\n\
             embedded = embedding[ids]\n",
            layered.name,
            strings(&tokens.words),
            numbers.matrix("embedding", model.embedding(), "", grad),
        );
    } else {
        let _ = writeln!(
            s,
            "# Commas dropped, split on white space; the vocabulary is the sorted set of words.\n\
             words = {}\n\
             vocab = sorted(set(words))\n\
             ids = torch.tensor([vocab.index(w) for w in words])\n\n\
             # One row per vocabulary word, in vocabulary order: {}\n\
             embedding = {}\n\
             embedded = embedding[ids]\n",
            strings(&tokens.words),
            strings(&tokens.vocabulary),
            numbers.matrix("embedding", model.embedding(), "", grad),
        );
    }
    if let Some(source) = model.source() {
        let source_text =
            serde_json::to_string(source.sentence()).expect("a string always serialises");
        let _ = writeln!(
            s,
            "# Cross-attention: the keys and values come from the source sentence.\n\
             source = {source_text}\n\
             source_words = {}\n\
             source_vocab = sorted(set(source_words))\n\
             source_ids = torch.tensor([source_vocab.index(w) for w in source_words])\n\
             source_embedding = {}\n\
             source_embedded = source_embedding[source_ids]\n",
            strings(&source.tokens().words),
            numbers.matrix("source_embedding", source.embedding(), "", grad),
        );
    }
    // Shared keys and values are written once per key/value head.
    let kv_heads: Vec<usize> = (0..model.kv_heads()).map(|g| model.kv_leader(g)).collect();
    for p in Projection::ALL {
        let (of, per) = match p {
            Projection::Query => ((0..model.heads().len()).collect(), "head"),
            _ if model.shares_kv() => (kv_heads.clone(), "key/value head"),
            _ => ((0..model.heads().len()).collect::<Vec<_>>(), "head"),
        };
        let heads: Vec<String> = of
            .iter()
            .map(|&h| {
                let name = format!("{}.{h}", p.key());
                format!(
                    "    {},",
                    numbers.matrix(&name, &model.heads()[h][p], "    ", grad)
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "{} = [  # one per {per}\n{}\n]",
            p.key(),
            heads.join("\n")
        );
    }
    if model.has_biases() {
        for p in Projection::ALL {
            let of = match p {
                Projection::Query => (0..model.heads().len()).collect(),
                _ if model.shares_kv() => kv_heads.clone(),
                _ => (0..model.heads().len()).collect::<Vec<_>>(),
            };
            let heads: Vec<String> = of
                .iter()
                .map(|&h| {
                    let head = &model.heads()[h];
                    let b = head
                        .biases
                        .as_ref()
                        .map_or_else(|| DMatrix::zeros(1, head[p].ncols()), |b| b[p].clone());
                    let name = format!("{}.{h}", crate::core::model::Editable::Bias(0, p).key());
                    format!("    {},", numbers.vector(&name, &b, grad))
                })
                .collect();
            let name = crate::core::model::Editable::Bias(0, p).key();
            let _ = writeln!(
                s,
                "{name} = [  # added to every row, as nn.Linear's bias\n{}\n]",
                heads.join("\n")
            );
        }
    }
    let (input, rope) = positions_code(model, grad, &mut numbers, &mut s);
    let scaling = match model.scale {
        Scale::SqrtDk => "scores / math.sqrt(keys.shape[1])",
        Scale::Dk => "scores / keys.shape[1]",
        Scale::None => "scores",
    };
    let causal = if model.causal { "True" } else { "False" };
    // Query head h uses key/value head h // (H / G).
    let (kv, kv_line) = if model.shares_kv() {
        (
            "kv",
            "    kv = h // (len(w_query) // len(w_key))  # the key/value head it shares\n",
        )
    } else {
        ("h", "")
    };
    let (bq, bk, bv) = if model.has_biases() {
        (
            " + b_query[h]".to_owned(),
            format!(" + b_key[{kv}]"),
            format!(" + b_value[{kv}]"),
        )
    } else {
        Default::default()
    };
    let kv_input = if model.source().is_some() {
        "source_embedded"
    } else {
        input
    };
    let concat = if model.output().is_some() {
        "concatenated"
    } else {
        "output"
    };
    let _ = write!(
        s,
        "\ncausal = {causal}\n\
         n = len(words)\n\
         head_weights, contexts = [], []\n\
         for h in range(len(w_query)):\n\
         {kv_line}\
         \x20   queries = {input} @ w_query[h]{bq}\n\
         \x20   keys = {kv_input} @ w_key[{kv}]{bk}\n\
         \x20   values = {kv_input} @ w_value[{kv}]{bv}\n\
         {rope}\
         \x20   scores = queries @ keys.T\n\
         \x20   scaled = {scaling}\n\
         \x20   if causal:  # a query may not look at later tokens\n\
         \x20       future = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)\n\
         \x20       scaled = scaled.masked_fill(future, -torch.inf)\n\
         \x20   weights = torch.softmax(scaled, dim=-1)\n\
         \x20   print(f\"head {{h}} weights:\\n{{weights}}\")\n\
         \x20   head_weights.append(weights)\n\
         \x20   contexts.append(weights @ values)\n\n\
         # The heads' context vectors side by side.\n\
         {concat} = torch.cat(contexts, dim=1)\n"
    );
    if let Some(o) = model.output() {
        let bias = o
            .b_output
            .as_ref()
            .map(|b| format!("\nb_output = {}", numbers.vector("b_output", b, grad)))
            .unwrap_or_default();
        let _ =
            writeln!(
            s,
            "# The output projection (nn.MultiheadAttention's out_proj, transposed: x @ W + b).\n\
             w_output = {}{bias}\n\
             output = concatenated @ w_output{}",
            numbers.matrix("w_output", &o.w_output, "", grad),
            if o.b_output.is_some() { " + b_output" } else { "" }
        );
    }
    let _ = writeln!(s, "print(f\"output:\\n{{output}}\")");
    sdpa_check(model, input, kv_input, &mut s);
    if let Some(objective) = objective {
        let loss = match &objective.goal {
            Goal::Attend(targets) => {
                let list: Vec<String> = targets
                    .iter()
                    .map(|t| format!("({}, {}, {})", t.head, t.query, t.key))
                    .collect();
                format!(
                    "# The training lab's target: minus the mean log of these weights (head, query, key).\n\
                     targets = [{}]\n\
                     loss = -torch.stack([torch.log(head_weights[h][i, j]) for h, i, j in targets]).mean()",
                    list.join(", ")
                )
            }
            Goal::Output(target) => format!(
                "# The target output: the mean squared difference.\n\
                 target = {}\n\
                 loss = torch.nn.functional.mse_loss(output, target)",
                numbers.matrix("target", target, "", false)
            ),
        };
        let _ = write!(
            s,
            "\n{loss}\n\
             loss.backward()  # autograd: every parameter's .grad\n\
             print(f\"loss: {{loss.item()}}\")\n\
             print(f\"embedding.grad:\\n{{embedding.grad}}\")\n\
             # One per head; shared keys and values one per key/value head.\n\
             for name, ws in ((\"w_query\", w_query), (\"w_key\", w_key), (\"w_value\", w_value)):\n\
             \x20   for h, w in enumerate(ws):\n\
             \x20       print(f\"{{name}}[{{h}}].grad:\\n{{w.grad}}\")\n"
        );
        if model.has_biases() {
            let _ = writeln!(
                s,
                "for name, bs in ((\"b_query\", b_query), (\"b_key\", b_key), (\"b_value\", b_value)):\n\
                 \x20   for h, b in enumerate(bs):\n\
                 \x20       print(f\"{{name}}[{{h}}].grad:\\n{{b.grad}}\")"
            );
        }
        if let Some(o) = model.output() {
            let _ = writeln!(s, "print(f\"w_output.grad:\\n{{w_output.grad}}\")");
            if o.b_output.is_some() {
                let _ = writeln!(s, "print(f\"b_output.grad:\\n{{b_output.grad}}\")");
            }
        }
    }
    Script {
        text: s,
        numbers: numbers.into_file(),
    }
}

/// With shared key/value heads or a source (and no RoPE, which rotates inside the heads):
/// the same heads through PyTorch's fused `scaled_dot_product_attention`, compared.
fn sdpa_check(model: &Model, input: &str, kv_input: &str, s: &mut String) {
    let same_widths = model
        .heads()
        .iter()
        .all(|h| h.d_k() == model.dims().d_k && h.d_v() == model.dims().d_v);
    if !(model.shares_kv() || model.source().is_some())
        || model.positions().rope().is_some()
        || !same_widths
    {
        return;
    }
    let scale = match model.scale {
        Scale::SqrtDk => "None",
        Scale::Dk => "1 / w_query[0].shape[1]",
        Scale::None => "1.0",
    };
    let (bq, bk, bv) = if model.has_biases() {
        (" + b_query[h]", " + b_key[g]", " + b_value[g]")
    } else {
        ("", "", "")
    };
    let gqa = if model.shares_kv() {
        ", enable_gqa=True"
    } else {
        ""
    };
    let concat = if model.output().is_some() {
        "concatenated"
    } else {
        "output"
    };
    let _ = write!(
        s,
        "\n# The same with PyTorch's fused attention: queries (H, n, d_k), keys and values \
         (G, m, d) per key/value head.\n\
         q = torch.stack([{input} @ w_query[h]{bq} for h in range(len(w_query))])\n\
         k = torch.stack([{kv_input} @ w_key[g]{bk} for g in range(len(w_key))])\n\
         v = torch.stack([{kv_input} @ w_value[g]{bv} for g in range(len(w_value))])\n\
         fused = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale={scale}{gqa})\n\
         print(\"the same as scaled_dot_product_attention:\", torch.allclose(torch.cat(list(fused), dim=1), {concat}))\n"
    );
}
