//! The trace as JSON or Markdown, for `attention-trace` and for authors' slides.

use nalgebra::DMatrix;
use serde_json::{json, Value};

use crate::core::decoder::{top, Decoder, Run as DecoderRun};
use crate::core::forward::trace::Trace;
use crate::core::model::Matrix;
use crate::core::pretrained::EncoderTrace;
use crate::core::text::fmt;
use crate::core::training::Gradients;
use crate::core::views::pipeline::{head_matrices, Axes};

/// A number as JSON; −∞ becomes the string "-inf" and NaN "nan", which JSON cannot hold.
fn number(x: f64) -> Value {
    if x.is_nan() {
        json!("nan")
    } else if x == f64::NEG_INFINITY {
        json!("-inf")
    } else if x == f64::INFINITY {
        json!("inf")
    } else {
        json!(x)
    }
}

fn rows(m: &DMatrix<f64>) -> Value {
    Value::Array(
        m.row_iter()
            .map(|r| Value::Array(r.iter().map(|&x| number(x)).collect()))
            .collect(),
    )
}

/// A one-row matrix (a bias) as one list.
fn flat(m: &DMatrix<f64>) -> Value {
    Value::Array(m.iter().map(|&x| number(x)).collect())
}

/// Every intermediate, under the names the page's DOM contract uses (from the catalogue).
pub fn trace_json(trace: &Trace) -> Value {
    let heads: Vec<Value> = trace
        .heads
        .iter()
        .map(|h| {
            // Inserted one by one: collecting into a map would sort first (more code, no gain).
            let mut head = serde_json::Map::new();
            for (info, pick) in head_matrices() {
                if let Some(m) = pick(h) {
                    head.insert(info.key().to_owned(), rows(m));
                }
            }
            Value::Object(head)
        })
        .collect();
    let mut out = json!({
        "tokens": trace.tokens.words,
        "token_ids": trace.tokens.ids,
        "embedded": rows(&trace.embedded),
        "heads": heads,
        "output": rows(&trace.output),
    });
    if let Some(c) = &trace.concatenated {
        out["concatenated"] = rows(c);
    }
    if let Some(p) = &trace.positioned {
        out["positioned"] = rows(p);
    }
    if let Some((tokens, embedded)) = &trace.source {
        out["source_tokens"] = json!(tokens.words);
        out["source_embedded"] = rows(embedded);
    }
    out
}

/// A trained encoder's run as `attention-trace --pretrained` prints it: `tokens`, `ids`,
/// `embedded` (after the embeddings' LayerNorm), and per layer each head's `weights` (query ×
/// key) and the layer's `output`.
pub fn encoder_json(trace: &EncoderTrace) -> Value {
    let layers = layers_json(
        trace
            .layers
            .iter()
            .map(|l| (l.heads.iter().map(|h| &h.weights).collect(), &l.output)),
    );
    json!({
        "tokens": trace.tokens,
        "ids": trace.ids,
        "embedded": rows(&trace.embedded),
        "layers": layers,
    })
}

/// Layers as the command line prints them: each with its heads' `weights` and its `output`.
fn layers_json<'a>(
    layers: impl Iterator<Item = (Vec<&'a DMatrix<f64>>, &'a DMatrix<f64>)>,
) -> Value {
    layers
        .map(|(weights, output)| {
            let heads: Vec<Value> = weights
                .into_iter()
                .map(|w| json!({ "weights": rows(w) }))
                .collect();
            json!({ "heads": heads, "output": rows(output) })
        })
        .collect()
}

/// A decoder's run as `attention-trace --decoder` prints it: the tokens (as the file writes
/// them) and ids, layer 0's input, each layer's heads' weights and output, the state after the
/// final norm, and `next`: the `n` most likely next tokens with their log-probabilities, most
/// likely first, and the log-sum-exp of the logits.
pub fn decoder_json(decoder: &Decoder, ids: &[u32], run: &DecoderRun, n: usize) -> Value {
    let layers = layers_json(
        run.layers
            .iter()
            .map(|l| (l.weights.iter().collect(), &l.output)),
    );
    let tokens: Vec<&str> = ids
        .iter()
        .map(|&id| decoder.tokenizer.token(id).unwrap_or(""))
        .collect();
    json!({
        "tokens": tokens,
        "ids": ids,
        "embedded": rows(&run.embedded),
        "layers": layers,
        "normed": rows(&run.normed),
        "next": next_json(&run.logits, n),
    })
}

/// What comes next after the last token's `logits`: `{"top": [[id, log-probability], …]` (the
/// `n` most likely, most likely first), `"logsumexp"}`.
pub fn next_json(logits: &[f64], n: usize) -> Value {
    let total = crate::core::decoder::steps::log_sum_exp(logits);
    let top: Vec<Value> = top(logits, n)
        .into_iter()
        .map(|(id, l)| json!([id, number(l - total)]))
        .collect();
    json!({ "top": top, "logsumexp": number(total) })
}

/// The loss's gradient as `attention-trace --objective` prints it: `embedding`, and per head the
/// projections (and biases) and the intermediates (`scores` before scaling); `w_output` and
/// `b_output` with an output projection (while the loss reaches them).
pub fn gradients_json(g: &Gradients) -> Value {
    // A bias is one list of numbers, as the saved state writes it.
    let value = |m: Matrix, d: &DMatrix<f64>| match m {
        Matrix::Bias(_) | Matrix::OutputBias => flat(d),
        _ => rows(d),
    };
    let with_gradient = || Matrix::ALL.into_iter().filter(|m| m.has_gradient());
    // Inserted one by one: a map collected from an iterator sorts it first (5 KB of sort code).
    let object = |head: Option<usize>| {
        let mut map = serde_json::Map::new();
        for m in with_gradient().filter(|m| m.per_head() == head.is_some()) {
            if let Some(d) = m.gradient(g, head) {
                map.insert(m.key().to_owned(), value(m, d));
            }
        }
        map
    };
    let heads: Vec<Value> = (0..g.heads.len())
        .map(|h| Value::Object(object(Some(h))))
        .collect();
    let mut out = object(None);
    out.insert("heads".into(), Value::Array(heads));
    Value::Object(out)
}

/// One Markdown table: rows labelled with tokens, columns with the keys' tokens (queries ×
/// keys) or indices.
fn table(
    title: &str,
    m: &DMatrix<f64>,
    (tokens, keys): (&[String], &[String]),
    axes: Axes,
    precision: usize,
) -> String {
    let (title, header): (String, Vec<String>) = if axes == Axes::QueryByKey {
        (format!("{title} (query × key)"), keys.to_vec())
    } else {
        (
            title.to_owned(),
            (0..m.ncols()).map(|j| j.to_string()).collect(),
        )
    };
    let mut out = format!(
        "### {title} ({} × {})\n\n| | {} |\n|---|{}\n",
        m.nrows(),
        m.ncols(),
        header.join(" | "),
        "---:|".repeat(m.ncols())
    );
    for (i, row) in m.row_iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|&x| fmt(x, precision)).collect();
        out += &format!("| **{}** | {} |\n", tokens[i], cells.join(" | "));
    }
    out + "\n"
}

/// Every step as a Markdown table with token labels, `precision` decimals, in page order.
pub fn trace_markdown(trace: &Trace, precision: usize) -> String {
    let t = (&trace.tokens.words[..], &trace.key_tokens().words[..]);
    let ids: Vec<String> = trace
        .tokens
        .words
        .iter()
        .zip(&trace.tokens.ids)
        .map(|(w, id)| format!("{w} → {id}"))
        .collect();
    let mut out = format!("## Tokens\n\n{}\n\n", ids.join(", "));
    out += &table(
        "embedded",
        &trace.embedded,
        t,
        Axes::TokensByIndex,
        precision,
    );
    if let Some(p) = &trace.positioned {
        out += &table("positioned", p, t, Axes::TokensByIndex, precision);
    }
    if let Some((_, s)) = &trace.source {
        out += &table(
            "source_embedded",
            s,
            (t.1, t.1),
            Axes::TokensByIndex,
            precision,
        );
    }
    for (i, h) in trace.heads.iter().enumerate() {
        out += &format!("## Head {i}\n\n");
        for (info, pick) in head_matrices() {
            if let Some(m) = pick(h) {
                let rows = if info.rows_are_keys() { (t.1, t.1) } else { t };
                out += &table(info.key(), m, rows, info.axes(), precision);
            }
        }
    }
    if let Some(c) = &trace.concatenated {
        out += &table("concatenated", c, t, Axes::TokensByIndex, precision);
    }
    out + &table("output", &trace.output, t, Axes::TokensByIndex, precision)
}

/// A matrix as CSV: a first row of column labels (after an empty corner), then each row's label
/// and numbers as the page's `data-value` writes them (shortest round-trip, `-inf` for −∞).
pub fn matrix_csv(m: &DMatrix<f64>, row_labels: &[String], col_labels: &[String]) -> String {
    // RFC 4180: a field holding a quote, comma or line break is quoted, its quotes doubled.
    let field = |s: &str| {
        if s.contains(['"', ',', '\n', '\r']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_owned()
        }
    };
    let label =
        |labels: &[String], i: usize| labels.get(i).map_or_else(|| i.to_string(), |l| field(l));
    let mut out = String::new();
    let header: Vec<String> = (0..m.ncols()).map(|j| label(col_labels, j)).collect();
    out.push_str(&format!(",{}\r\n", header.join(",")));
    for (i, row) in m.row_iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|x| x.to_string()).collect();
        out.push_str(&format!("{},{}\r\n", label(row_labels, i), cells.join(",")));
    }
    out
}
