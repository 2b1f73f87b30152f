//! Prints every intermediate of a model's attention, for tests and for authors' slides.
//!
//! attention-trace [--preset NAME | --state FILE | --from-torch FILE] [--format json|markdown|state]
//!                 [--to-torch] [--objective FILE [--train N [--optimizer sgd|adam] [--lr X]]]
//! attention-trace --pretrained DIR --sentence TEXT [--ablate L:H,…] [--format json]
//! attention-trace --pack DIR --out FILE
//! attention-trace --decoder FILE --prompt TEXT [--ablate L:H,…] [--top N] [--generate N]
//!                 [--temperature T] [--top-k K] [--top-p P] [--format json]
//! attention-trace --decoder FILE --tokenize (a JSON list of texts on standard input)
//!
//! `--from-torch` reads `{"sentence", "embedding", "causal", "num_heads", "state_dict"}` (an
//! `nn.MultiheadAttention` state dict as lists); `--to-torch` prints that file for the model.

use std::io::{Read, Write};
use std::process::ExitCode;

use attention_explorer::core::decoder::{greedy, Decoder, Sampling};
use attention_explorer::core::formats::multihead::{read_torch_file, torch_file};
use attention_explorer::core::formats::report::{
    decoder_json, encoder_json, gradients_json, trace_json, trace_markdown,
};
use attention_explorer::core::formats::state::{read_state, state_value, write_state};
use attention_explorer::core::forward::trace::Trace;
use attention_explorer::core::i18n::catalogue::ship;
use attention_explorer::core::model::presets::{preset, PRESETS};
use attention_explorer::core::pretrained::{pack_folder, read_folder, read_heads};
use attention_explorer::core::training::{gradients, train, Objective, Optimizer, DEFAULT_LR};

const USAGE: &str = "usage: attention-trace [--preset NAME | --state FILE | --from-torch FILE]
                       [--format json|markdown|state] [--to-torch]
                       [--objective FILE [--train N [--optimizer sgd|adam] [--lr X]]]
       attention-trace --pretrained DIR --sentence TEXT [--ablate L:H,…] [--format json]
       attention-trace --pack DIR --out FILE
       attention-trace --decoder FILE --prompt TEXT [--ablate L:H,…] [--top N] [--generate N]
                       [--temperature T] [--top-k K] [--top-p P] [--format json]
       attention-trace --decoder FILE --tokenize   (a JSON list of texts on standard input)
       attention-trace --ship-language FILE   (www/i18n/<tag>.json as the page ships it)
  FILE may be - for standard input; DIR is a Hugging Face folder of a BERT encoder
  (config.json, vocab.txt, model.safetensors) or the float16 file --pack makes of one (what
  the page ships); --decoder reads a Llama GGUF file (F32, F16, Q8_0, Q4_1); layers and heads
  count from 0";

/// `value` as a `T` that passes `ok`, or a message naming the flag's `what`.
fn parsed<T: std::str::FromStr>(
    value: &str,
    ok: impl Fn(&T) -> bool,
    what: &str,
) -> Result<T, String> {
    value
        .parse()
        .ok()
        .filter(ok)
        .ok_or_else(|| format!("it takes {what}, not {value:?}"))
}

/// `args` as (flag, value) pairs: a flag in `switches` stands alone (its value empty), every
/// other takes the argument after it.
fn flag_pairs<'a>(
    args: &'a [String],
    switches: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, String> {
    let mut pairs = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = if switches.contains(&flag.as_str()) {
            ""
        } else {
            it.next()
                .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?
        };
        pairs.push((flag.as_str(), value));
    }
    Ok(pairs)
}

/// A file's text, or standard input's for "-".
fn read_text(path: &str) -> Result<String, String> {
    if path == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("reading stdin: {e}"))?;
        Ok(text)
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("reading {path}: {e}"))
    }
}

/// `--pretrained DIR --sentence TEXT [--ablate L:H,…] [--format json]`: the encoder's run.
fn run_pretrained(args: &[String]) -> Result<String, String> {
    let (mut dir, mut sentence, mut ablate) = (None, None, Vec::new());
    for (flag, value) in flag_pairs(args, &[])? {
        match flag {
            "--pretrained" => dir = Some(value.to_owned()),
            "--sentence" => sentence = Some(value.to_owned()),
            "--ablate" => ablate = read_heads(value).map_err(|e| format!("--ablate: {e}"))?,
            "--format" if value == "json" => {}
            "--format" => return Err("--pretrained writes JSON: use --format json".into()),
            _ => return Err(format!("{flag} does not go with --pretrained\n{USAGE}")),
        }
    }
    let dir = dir.unwrap_or_default();
    let sentence = sentence.ok_or_else(|| format!("--pretrained needs --sentence\n{USAGE}"))?;
    let encoder =
        read_folder(std::path::Path::new(&dir)).map_err(|e| format!("--pretrained {dir}: {e}"))?;
    let trace = encoder
        .run(&sentence, &ablate)
        .map_err(|e| format!("the sentence: {}", e.english()))?;
    Ok(serde_json::to_string(&encoder_json(&trace)).expect("JSON values serialise"))
}

/// `--decoder FILE --prompt TEXT …` or `--decoder FILE --tokenize`: the decoder's run, or
/// the ids of standard input's texts.
fn run_decoder(args: &[String]) -> Result<String, String> {
    let (mut file, mut prompt, mut ablate, mut n_top, mut generate) =
        (None, None, Vec::new(), 50, 0);
    let (mut sampling, mut sampled, mut tokenize) = (Sampling::default(), false, false);
    for (flag, value) in flag_pairs(args, &["--tokenize"])? {
        let in_flag = |e: String| format!("{flag}: {e}");
        match flag {
            "--tokenize" => tokenize = true,
            "--decoder" => file = Some(value.to_owned()),
            "--prompt" => prompt = Some(value.to_owned()),
            "--ablate" => ablate = read_heads(value).map_err(in_flag)?,
            "--top" => n_top = parsed(value, |&n| n >= 1, "a number above 0").map_err(in_flag)?,
            "--generate" => {
                generate =
                    parsed(value, |&n| n <= 1000, "a number from 0 to 1000").map_err(in_flag)?
            }
            "--temperature" => {
                sampling.temperature = parsed(
                    value,
                    |x: &f64| x.is_finite() && *x > 0.0,
                    "a number above 0",
                )
                .map_err(in_flag)?;
                sampled = true;
            }
            "--top-k" => {
                sampling.top_k =
                    parsed(value, |_| true, "a whole number (0: all)").map_err(in_flag)?;
                sampled = true;
            }
            "--top-p" => {
                sampling.top_p = parsed(
                    value,
                    |x: &f64| *x > 0.0 && *x <= 1.0,
                    "a number above 0 and at most 1",
                )
                .map_err(in_flag)?;
                sampled = true;
            }
            "--format" if value == "json" => {}
            "--format" => return Err("--decoder writes JSON: use --format json".into()),
            _ => return Err(format!("{flag} does not go with --decoder\n{USAGE}")),
        }
    }
    let file = file.unwrap_or_default();
    let bytes = std::fs::read(&file).map_err(|e| format!("--decoder {file}: {e}"))?;
    let decoder =
        Decoder::read(&bytes).map_err(|e| format!("--decoder {file}: {}", e.english()))?;
    if tokenize {
        let texts: Vec<String> = serde_json::from_str(&read_text("-")?)
            .map_err(|e| format!("--tokenize reads a JSON list of texts: {e}"))?;
        let ids: Vec<Vec<u32>> = texts.iter().map(|t| decoder.tokenizer.encode(t)).collect();
        return Ok(serde_json::to_string(&ids).expect("JSON values serialise"));
    }
    let prompt =
        prompt.ok_or_else(|| format!("--decoder needs --prompt or --tokenize\n{USAGE}"))?;
    let c = &decoder.config;
    if let Some(&(l, h)) = ablate.iter().find(|&&(l, h)| l >= c.layers || h >= c.heads) {
        return Err(format!(
            "--ablate: the model has {} layers of {} heads, so there is no {l}:{h}",
            c.layers, c.heads
        ));
    }
    let ids = decoder.tokenizer.encode(&prompt);
    let run = decoder
        .run(&ids, &ablate)
        .map_err(|e| format!("the prompt: {}", e.english()))?;
    let mut out = decoder_json(&decoder, &ids, &run, n_top);
    if generate > 0 {
        out["generated"] = decoder
            .generate(&ids, generate, &ablate, greedy)
            .map_err(|e| e.english())?
            .into();
    }
    if sampled {
        let probs = sampling.probabilities(&run.logits);
        let mut kept = serde_json::Map::new();
        for (id, p) in probs.iter().enumerate().filter(|(_, &p)| p > 0.0) {
            kept.insert(id.to_string(), (*p).into());
        }
        out["sampling"] = serde_json::json!({ "probs": kept });
    }
    Ok(serde_json::to_string(&out).expect("JSON values serialise"))
}

/// `--pack DIR --out FILE`: the folder as the one float16 file the page ships.
fn run_pack(args: &[String]) -> Result<String, String> {
    let [flag, dir, out_flag, out] = args else {
        return Err(format!("--pack takes a folder and --out FILE\n{USAGE}"));
    };
    if flag != "--pack" || out_flag != "--out" {
        return Err(format!("--pack takes a folder and --out FILE\n{USAGE}"));
    }
    let packed = pack_folder(std::path::Path::new(dir))?;
    std::fs::write(out, &packed).map_err(|e| format!("{out}: {e}"))?;
    Ok(format!("{out}: {} bytes", packed.len()))
}

fn run(args: &[String]) -> Result<String, String> {
    if args.iter().any(|a| a == "--pretrained") {
        return run_pretrained(args);
    }
    if args.iter().any(|a| a == "--decoder") {
        return run_decoder(args);
    }
    if args.first().is_some_and(|a| a == "--pack") {
        return run_pack(args);
    }
    if let [flag, file] = args {
        if flag == "--ship-language" {
            let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
            return ship(&text).map_err(|e| format!("{file}: {e}"));
        }
    }
    let mut source = None;
    let mut format = "json".to_owned();
    let (mut objective, mut steps, mut optimizer, mut lr) = (None, None, None, None);
    let mut to_torch = false;
    for (flag, value) in flag_pairs(args, &["--to-torch"])? {
        let in_flag = |e: String| format!("{flag}: {e}");
        match flag {
            "--to-torch" => to_torch = true,
            "--preset" | "--state" | "--from-torch" => {
                source = Some((flag.to_owned(), value.to_owned()))
            }
            "--format" => format = value.to_owned(),
            "--objective" => objective = Some(value.to_owned()),
            "--train" => {
                steps = Some(
                    parsed(
                        value,
                        |&n| n <= 100_000,
                        "a number of steps from 0 to 100000",
                    )
                    .map_err(in_flag)?,
                )
            }
            "--optimizer" => optimizer = Some(value.to_owned()),
            "--lr" => {
                lr = Some(
                    parsed(
                        value,
                        |x: &f64| x.is_finite() && *x > 0.0,
                        "a positive number",
                    )
                    .map_err(in_flag)?,
                )
            }
            _ => return Err(format!("unknown option {flag}\n{USAGE}")),
        }
    }
    let model = match source {
        None => preset("dog").expect("dog is a preset"),
        Some((flag, name)) if flag == "--preset" => preset(&name).ok_or_else(|| {
            let names: Vec<_> = PRESETS.iter().map(|p| p.name).collect();
            format!("unknown preset {name:?}; presets: {}", names.join(", "))
        })?,
        Some((flag, path)) if flag == "--from-torch" => read_torch_file(&read_text(&path)?)
            .map_err(|e| format!("--from-torch: {}", e.english()))?,
        Some((_, path)) => {
            read_state(&read_text(&path)?).map_err(|e| format!("invalid state: {e}"))?
        }
    };
    if to_torch {
        let file = torch_file(&model).map_err(|e| format!("--to-torch: {}", e.english()))?;
        return Ok(serde_json::to_string_pretty(&file).expect("JSON values serialise"));
    }
    if objective.is_none() && (steps.is_some() || optimizer.is_some() || lr.is_some()) {
        return Err(format!(
            "--train, --optimizer and --lr need --objective\n{USAGE}"
        ));
    }
    let trace = Trace::of(&model);
    match format.as_str() {
        "json" => {
            let mut out = trace_json(&trace);
            if let Some(path) = objective {
                let objective = Objective::read(&read_text(&path)?, &model)
                    .map_err(|e| format!("invalid objective: {}", e.english()))?;
                let g = gradients(&model, &objective);
                out["loss"] = g.loss.into();
                out["grad"] = gradients_json(&g);
                if let Some(steps) = steps {
                    let optimizer =
                        Optimizer::named(optimizer.as_deref(), lr.unwrap_or(DEFAULT_LR))
                            .map_err(|e| e.english())?;
                    let trained = train(&model, &objective, optimizer, steps);
                    out["losses"] = trained.losses.into();
                    out["trained"] = state_value(&trained.model);
                    // The steps before a refused one are kept; the losses say how many.
                    if let Some(refused) = trained.refused {
                        out["stopped"] = refused.message().english().into();
                    }
                } else if optimizer.is_some() || lr.is_some() {
                    return Err(format!("--optimizer and --lr need --train N\n{USAGE}"));
                }
            }
            Ok(serde_json::to_string_pretty(&out).expect("JSON values serialise"))
        }
        _ if objective.is_some() => {
            Err("--objective writes JSON: leave out --format or use --format json".into())
        }
        "markdown" => Ok(trace_markdown(&trace, 4)),
        "state" => Ok(write_state(&model)),
        other => Err(format!(
            "unknown format {other:?}; use json, markdown or state"
        )),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(out) => {
            // A reader that stops early (`| head`) is not an error.
            let _ = writeln!(std::io::stdout(), "{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("attention-trace: {e}");
            ExitCode::FAILURE
        }
    }
}
