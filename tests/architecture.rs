//! The house's rule, read from the source: imports in `src/ui` and `src/core` run one way, and
//! core's rooms (`CORE_RANKS`) from the bottom up. No file imports
//! another that imports it back, directly or through others; `core` never names the browser
//! layer; every core item is documented (`#![deny(missing_docs)]` on it is checked here too).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, recursively.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// `src/ui/steps/mod.rs` → `ui::steps`, `src/ui/steps/scores.rs` → `ui::steps::scores`.
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts.join("::")
}

/// The source without comments (line comments and doc comments), so prose naming a path is
/// not an import.
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths a file names through `prefix` (`crate::ui::`), each as its segments; a group
/// `{a, b::C}` gives one path per item.
fn paths_after(text: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        let before = &rest[..at];
        rest = &rest[at + prefix.len()..];
        // Part of a longer path (`crate::core::document::` is not the child `document::`).
        if before.chars().last().is_some_and(is_ident) || before.ends_with("::") {
            continue;
        }
        out.extend(read_path(rest));
    }
    out
}

/// Reads `a::b::{c, d::e}` from the start of `text`.
fn read_path(text: &str) -> Vec<Vec<String>> {
    let mut segments = Vec::new();
    let mut rest = text;
    loop {
        let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        if name.is_empty() {
            break;
        }
        rest = &rest[name.len()..];
        segments.push(name);
        match rest.strip_prefix("::") {
            Some(r) => rest = r,
            None => return vec![segments],
        }
    }
    let Some(group) = rest.strip_prefix('{') else {
        return vec![segments];
    };
    let end = group.find('}').unwrap_or(group.len());
    group[..end]
        .split(',')
        .flat_map(|item| read_path(item.trim()))
        .map(|tail| segments.iter().cloned().chain(tail).collect())
        .collect()
}

/// The longest module of `modules` that `path` starts with.
fn resolve(path: &[String], modules: &BTreeSet<String>) -> Option<String> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].join("::"))
        .find(|m| modules.contains(m))
}

/// The import graph of `layer` (`ui` or `core`): module → the modules of the layer it names,
/// through `crate::layer::`, `super::` or a child's name.
fn graph_of(layer: &str) -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let layer_files = files(&src.join(layer));
    let modules: BTreeSet<String> = layer_files.iter().map(|f| module_of(&src, f)).collect();
    let mut graph = BTreeMap::new();
    for file in &layer_files {
        let me = module_of(&src, file);
        let text = code(&fs::read_to_string(file).unwrap());
        let mut named: Vec<Vec<String>> = paths_after(&text, &format!("crate::{layer}::"))
            .into_iter()
            .map(|p| std::iter::once(layer.to_owned()).chain(p).collect())
            .collect();
        // `super::x` from `a::b::me` (or from `a::b::me`'s mod.rs) is `a::b::x`; `super::super::`
        // one further up.
        let parent: Vec<String> = me.split("::").map(str::to_owned).collect();
        for (prefix, up) in [("super::super::", 2), ("super::", 1)] {
            let base = &parent[..parent.len().saturating_sub(up)];
            for path in paths_after(&text, prefix) {
                if path.first().is_some_and(|s| s == "super") {
                    continue;
                }
                named.push(base.iter().cloned().chain(path).collect());
            }
        }
        // A module's own children, named without `crate::` (`use frame::StepText`,
        // `sqrt_dk::TEXT`).
        for child in modules.iter().filter_map(|m| {
            m.strip_prefix(&format!("{me}::"))
                .filter(|c| !c.contains("::"))
        }) {
            for path in paths_after(&text, &format!("{child}::")) {
                let full = me.split("::").map(str::to_owned).chain([child.to_owned()]);
                named.push(full.chain(path).collect());
            }
        }
        let targets: BTreeSet<String> = named
            .iter()
            .filter_map(|p| resolve(p, &modules))
            .filter(|m| *m != me)
            .collect();
        graph.insert(me, targets);
    }
    graph
}

/// A cycle through the graph, if there is one, as the modules along it.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_reader_sees_groups_children_and_skips_comments() {
    let paths = read_path("matrix::{index_labels, spec::CellView};");
    assert_eq!(
        paths,
        vec![
            vec!["matrix".to_owned(), "index_labels".to_owned()],
            vec![
                "matrix".to_owned(),
                "spec".to_owned(),
                "CellView".to_owned()
            ],
        ]
    );
    assert!(code("// crate::ui::app\nlet x = 1;")
        .find("crate::ui")
        .is_none());
    let graph = BTreeMap::from([
        ("a".to_owned(), BTreeSet::from(["b".to_owned()])),
        ("b".to_owned(), BTreeSet::from(["a".to_owned()])),
    ]);
    assert_eq!(find_cycle(&graph).unwrap(), ["a", "b", "a"]);
}

#[test]
fn ui_imports_run_one_way() {
    let graph = graph_of("ui");
    assert!(graph.len() > 20, "every ui file is read: {graph:?}");
    // The store is below every view: it names none of them, only the theme and the exercises'
    // part of the store, which names nothing of the page.
    let state = &graph["ui::state"];
    assert!(
        state
            .iter()
            .all(|m| m == "ui::theme" || m == "ui::exercises" || m.starts_with("ui::state::")),
        "ui::state imports {state:?}"
    );
    let exercises = &graph["ui::exercises"];
    assert!(exercises.is_empty(), "ui::exercises imports {exercises:?}");
    assert!(graph["ui::app"].contains("ui::state"));
    if let Some(cycle) = find_cycle(&graph) {
        panic!("an import cycle in src/ui: {}", cycle.join(" → "));
    }
}

#[test]
fn core_knows_nothing_of_the_browser() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for file in files(&src.join("core")) {
        let text = code(&fs::read_to_string(&file).unwrap());
        for name in ["crate::ui", "leptos", "web_sys", "wasm_bindgen", "js_sys"] {
            assert!(!text.contains(name), "{} names {name}", file.display());
        }
    }
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap();
    assert!(
        lib.contains("#[deny(missing_docs)]\npub mod core;"),
        "missing docs are denied on core"
    );
}

/// Core's rooms from the bottom up: a module imports only from a room of lower rank, or from its
/// own room (without a circle). Two rooms of one rank know nothing of each other.
const CORE_RANKS: [(&str, u32); 11] = [
    ("text", 0),
    ("i18n", 0),
    ("model", 1),
    ("forward", 2),
    ("training", 3),
    ("document", 3),
    ("pretrained", 3),
    ("decoder", 3),
    ("views", 4),
    ("teaching", 5),
    ("formats", 6),
];

/// `module`'s room in `ranks` and its rank: the longest entry its path (past the layer) starts
/// with (`core::model::limits` → `model`; `ui::exercises::engine` → `exercises::engine`, which
/// ranks apart from `exercises`); none for the layer's root.
fn place<'a>(ranks: &[(&'a str, u32)], module: &str) -> Option<(&'a str, u32)> {
    let path = module.split_once("::")?.1;
    let found = ranks
        .iter()
        .filter(|(r, _)| path == *r || path.starts_with(&format!("{r}::")))
        .max_by_key(|(r, _)| r.len());
    Some(*found.unwrap_or_else(|| panic!("{module} has no room in its layer's ranks: give it one")))
}

/// The imports that break the rooms' order: from a room to one of the same or a higher rank.
fn broken_ranks(graph: &BTreeMap<String, BTreeSet<String>>, ranks: &[(&str, u32)]) -> Vec<String> {
    let mut broken = Vec::new();
    for (from, targets) in graph {
        for to in targets {
            let (Some((a, ra)), Some((b, rb))) = (place(ranks, from), place(ranks, to)) else {
                continue;
            };
            if a != b && rb >= ra {
                broken.push(format!("{from} → {to} ({a} is rank {ra}, {b} {rb})"));
            }
        }
    }
    broken
}

#[test]
fn core_imports_run_one_way_room_by_room() {
    let graph = graph_of("core");
    assert!(graph.len() > 30, "every core file is read: {graph:?}");
    assert!(graph["core::formats::link::page"].contains("core::teaching::exercise"));
    assert!(
        graph["core::formats::link::model_code"].contains("core::formats::link::base64url"),
        "super:: is read"
    );
    if let Some(cycle) = find_cycle(&graph) {
        panic!("an import cycle in src/core: {}", cycle.join(" → "));
    }
    let broken = broken_ranks(&graph, &CORE_RANKS);
    assert!(
        broken.is_empty(),
        "imports against the rooms' order:\n{}",
        broken.join("\n")
    );
}

#[test]
fn a_broken_rank_is_found() {
    let graph = BTreeMap::from([
        (
            "core::model".to_owned(),
            BTreeSet::from(["core::forward::trace".to_owned()]),
        ),
        (
            "core::document::edit".to_owned(),
            BTreeSet::from(["core::training".to_owned(), "core::model".to_owned()]),
        ),
    ]);
    assert_eq!(
        broken_ranks(&graph, &CORE_RANKS),
        [
            "core::document::edit → core::training (document is rank 3, training 3)",
            "core::model → core::forward::trace (model is rank 1, forward 2)",
        ]
    );
}

/// The page's rooms from the bottom up, as `CORE_RANKS`: helpers that know nothing of the page;
/// the store and loading on demand; what reads and writes the store for everyone (the URL, the
/// fields, the files); the scripting API and the exercises' cards; a matrix's views; the steps'
/// pictures, labs and the trained model; the steps; what names the steps (the walk, the exercise
/// maker, the embed); the opening, the settings and the exercises' engine; the page's root
/// (a room's part can have a rank of its own: the longest name that fits counts).
const UI_RANKS: [(&str, u32); 32] = [
    ("theme", 0),
    ("lang", 0),
    ("lang::picker", 4),
    ("panic", 1),
    ("pause", 0),
    ("in_view", 1),
    ("scroll", 0),
    ("tasks", 0),
    ("state", 2),
    ("on_demand", 2),
    ("share", 3),
    ("fields", 3),
    ("export", 3),
    ("undo_keys", 3),
    ("prerendered", 3),
    ("api", 4),
    ("exercises", 4),
    ("import_torch", 4),
    ("matrix", 5),
    ("lines", 6),
    ("live", 6),
    ("labs", 6),
    ("pretrained", 6),
    ("steps", 7),
    ("walk", 8),
    ("author", 8),
    ("embed", 8),
    ("intro", 9),
    ("controls", 9),
    ("page_tools", 9),
    ("exercises::engine", 9),
    ("app", 10),
];

#[test]
fn ui_imports_run_one_way_room_by_room() {
    let graph = graph_of("ui");
    let broken = broken_ranks(&graph, &UI_RANKS);
    assert!(
        broken.is_empty(),
        "imports against the page's rooms' order:\n{}",
        broken.join("\n")
    );
    // Every module of src/ui but the layer's root has a room (place() panics on one without).
    for module in graph.keys() {
        place(&UI_RANKS, module);
    }
}

#[test]
fn a_broken_rank_in_the_page_is_found() {
    let graph = BTreeMap::from([(
        "ui::steps::scores".to_owned(),
        BTreeSet::from([
            "ui::walk".to_owned(),
            "ui::matrix".to_owned(),
            "ui::steps::frame".to_owned(),
        ]),
    )]);
    assert_eq!(
        broken_ranks(&graph, &UI_RANKS),
        ["ui::steps::scores → ui::walk (steps is rank 7, walk 8)"]
    );
}

/// docs/developers/architecture.md's table names every file of `src/`, once, and no other.
#[test]
fn the_code_map_names_every_file_of_src_once() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/developers/architecture.md")).unwrap();
    let mut listed: Vec<&str> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| `src/"))
        .filter_map(|l| l.split('`').next())
        .collect();
    let count = listed.len();
    listed.sort_unstable();
    listed.dedup();
    assert_eq!(listed.len(), count, "a file is listed twice");
    let src = root.join("src");
    let tree: Vec<String> = files(&src)
        .iter()
        .map(|f| {
            f.strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    let missing: Vec<&String> = tree
        .iter()
        .filter(|f| !listed.contains(&f.as_str()))
        .collect();
    let gone: Vec<&&str> = listed
        .iter()
        .filter(|f| !tree.iter().any(|t| t == *f))
        .collect();
    assert!(
        missing.is_empty() && gone.is_empty(),
        "the code map of docs/developers/architecture.md: add {missing:?}, remove {gone:?}"
    );
}

/// A file a newcomer reads at one sitting: none of the core over 500 lines, none of the page's
/// layout over 300.
#[test]
fn no_file_is_too_long_to_read() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let long: Vec<String> = files(&src)
        .into_iter()
        .filter_map(|file| {
            let lines = fs::read_to_string(&file).unwrap().lines().count();
            let most = if file.starts_with(src.join("ui")) {
                300
            } else {
                500
            };
            (lines > most).then(|| format!("{} ({lines} > {most})", file.display()))
        })
        .collect();
    assert!(long.is_empty(), "split these files: {long:?}");
}
