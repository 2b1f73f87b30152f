//! Prints every intermediate of a model's attention, for tests and for authors' slides.
//!
//! attention-trace [--preset NAME | --state FILE | --state -] [--format json|markdown]

use std::io::Read;
use std::process::ExitCode;

use attention_explorer::core::presets::{preset, PRESETS};
use attention_explorer::core::report::{trace_json, trace_markdown};
use attention_explorer::core::state::read_state;
use attention_explorer::core::trace::Trace;

const USAGE: &str =
    "usage: attention-trace [--preset NAME | --state FILE | --state -] [--format json|markdown]";

fn run(args: &[String]) -> Result<String, String> {
    let mut source = None;
    let mut format = "json".to_owned();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it
            .next()
            .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
        match flag.as_str() {
            "--preset" | "--state" => source = Some((flag.clone(), value.clone())),
            "--format" => format = value.clone(),
            _ => return Err(format!("unknown option {flag}\n{USAGE}")),
        }
    }
    let model = match source {
        None => preset("dog").expect("dog is a preset"),
        Some((flag, name)) if flag == "--preset" => preset(&name).ok_or_else(|| {
            let names: Vec<_> = PRESETS.iter().map(|p| p.name).collect();
            format!("unknown preset {name:?}; presets: {}", names.join(", "))
        })?,
        Some((_, path)) => {
            let text = if path == "-" {
                let mut text = String::new();
                std::io::stdin()
                    .read_to_string(&mut text)
                    .map_err(|e| format!("reading stdin: {e}"))?;
                text
            } else {
                std::fs::read_to_string(&path).map_err(|e| format!("reading {path}: {e}"))?
            };
            read_state(&text).map_err(|e| format!("invalid state: {e}"))?
        }
    };
    let trace = Trace::of(&model);
    match format.as_str() {
        "json" => {
            Ok(serde_json::to_string_pretty(&trace_json(&trace)).expect("JSON values serialise"))
        }
        "markdown" => Ok(trace_markdown(&trace, 4)),
        other => Err(format!("unknown format {other:?}; use json or markdown")),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("attention-trace: {e}");
            ExitCode::FAILURE
        }
    }
}
