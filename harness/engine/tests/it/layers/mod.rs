//! The engine's shape stays: every file of `src/` lies in one layer (the
//! folder under `src/` it sits in), a file imports only from its own layer
//! or the layers below it, and no files import each other in a circle.
//!
//! The check reads the sources, not the compiler's view: every `use` tree
//! and every `crate::…`, `super::…`, `self::…` path outside comments and
//! strings, resolved to the file that defines the module it names. A
//! `crate::` path that names no file (an item of `lib.rs`, a re-export of
//! another crate) is refused, so the facade `lib.rs` keeps for the other
//! crates cannot hide an arrow inside the engine.
//!
//! Circles are checked between files across the whole crate (strongly
//! connected files), not only between layers: a circle inside one layer
//! hides which file to change first just as well, and the issue that made
//! the layers counted them between files.
//!
//! `docs/architecture.md` is held to the same tree: its picture lists the
//! layers in order and the page names every module of every layer.
//!
//! [`measure`] gives the numbers (arrows, upward arrows, circles, long
//! files) for any tree: `LAYERS_SRC=/some/src cargo test -p
//! conformance-engine --test it layers:: -- --nocapture` prints them for another
//! checkout.
//!
//! The source reader (comments and strings blanked, tokens, use trees,
//! paths) is [`reader`]; the sandbox's order, checked with the same graph,
//! is [`sandbox`]; every other crate's order, the same way, is [`crates`];
//! the workspace-wide length rules are [`workspace`]; the
//! synthetic trees that prove each check can fail are [`synthetic`].
//!
//! One piece: the graph of imports, its measures and the engine's checks
//! on it (layers, circles, the thin top layer, the architecture page)
//! read one tree of sources; the checks are a few lines each.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

mod crates;
mod reader;
mod sandbox;
mod synthetic;
mod workspace;
use reader::named_paths;

/// The layers, lowest first: each is a folder of `src/`, and may import
/// from itself and from the folders before it in this list.
const LAYERS: &[&str] = &[
    "bytes", "exec", "model", "judge", "output", "explorer", "packs", "marking", "commands",
];

/// Lines past which a file is long (the measure counts them; no file of
/// the workspace may pass them, [`workspace`] checks).
const LONG: usize = 600;

/// One import of a file by another: `from` names `to` at `line`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Arrow {
    from: String,
    line: usize,
    to: String,
}

/// A source file: its path under `src/` and the module it is.
struct Source {
    rel: String,
    module: Vec<String>,
    text: String,
}

/// What a tree of sources imports, file to file.
struct Graph {
    /// Every file, by its path under `src/`.
    files: BTreeMap<String, usize>,
    /// The first import of each (from, to) pair of files, `from` ≠ `to`.
    arrows: Vec<Arrow>,
    /// Paths that name no file: `file:line: path`.
    unresolved: Vec<String>,
}

/// The numbers of a tree's shape.
#[derive(Debug, PartialEq, Eq)]
struct Measure {
    /// Files under `src/`.
    files: usize,
    /// Pairs of files where one imports the other (`lib.rs`, the crate's
    /// facade above the layers, left out).
    arrows: usize,
    /// Of those, the ones from one layer to another.
    between_layers: usize,
    /// Of those, the ones from a lower layer to a higher.
    upward: Vec<Arrow>,
    /// Pairs of layers (lower, higher) with an arrow up.
    upward_layer_pairs: BTreeSet<(String, String)>,
    /// Sets of files that import each other in a circle.
    circles: Vec<Vec<String>>,
    /// The arrows inside those sets: where to cut.
    circle_arrows: Vec<Arrow>,
    /// Files in no layer (other than `lib.rs`).
    outside: Vec<String>,
    /// Files past [`LONG`] lines, with their length.
    long_files: Vec<(String, usize)>,
    /// Paths that name no file.
    unresolved: Vec<String>,
}

impl fmt::Display for Measure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "files: {}", self.files)?;
        writeln!(f, "arrows between files: {}", self.arrows)?;
        writeln!(f, "arrows between layers: {}", self.between_layers)?;
        writeln!(f, "arrows pointing upward: {}", self.upward.len())?;
        for a in &self.upward {
            writeln!(f, "  {}:{}: imports {}", a.from, a.line, a.to)?;
        }
        writeln!(
            f,
            "layer pairs with an arrow up: {:?}",
            self.upward_layer_pairs
        )?;
        writeln!(f, "circles between files: {}", self.circles.len())?;
        for c in &self.circles {
            writeln!(f, "  {}", c.join(" ⇄ "))?;
        }
        writeln!(f, "files outside every layer: {:?}", self.outside)?;
        writeln!(f, "files over {LONG} lines: {}", self.long_files.len())?;
        for (file, lines) in &self.long_files {
            writeln!(f, "  {file}: {lines}")?;
        }
        writeln!(f, "paths naming no file: {}", self.unresolved.len())?;
        for u in &self.unresolved {
            writeln!(f, "  {u}")?;
        }
        Ok(())
    }
}

impl Measure {
    /// What breaks the shape, one line each; empty when it holds.
    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for a in &self.upward {
            out.push(format!(
                "{}:{}: imports {}, a layer above",
                a.from, a.line, a.to
            ));
        }
        for c in &self.circles {
            out.push(format!("circle between files: {}", c.join(" ⇄ ")));
            for a in self.circle_arrows.iter().filter(|a| c.contains(&a.from)) {
                out.push(format!("  {}:{}: imports {}", a.from, a.line, a.to));
            }
        }
        for f in &self.outside {
            out.push(format!("{f}: in no layer (one of {LAYERS:?})"));
        }
        for u in &self.unresolved {
            out.push(format!("{u}: names no file of the engine"));
        }
        out
    }
}

/// The layer of a file: its index in `layers`, by the folder it sits in.
fn layer_of(rel: &str, layers: &[&str]) -> Option<usize> {
    let top = rel.split('/').next()?;
    layers.iter().position(|l| *l == top)
}

/// Every `.rs` file under `src`, with its module path.
fn sources(src: &Path) -> Vec<Source> {
    sources_where(src, |_| true)
}

/// The `.rs` files under `src` whose path under it `keep` takes, with
/// their module paths (a crate's library leaves out its binaries).
fn sources_where(src: &Path, keep: impl Fn(&str) -> bool) -> Vec<Source> {
    let mut out = Vec::new();
    let mut pending = vec![src.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = rel_of(src, &path);
                if !keep(&rel) {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                out.push(Source {
                    module: module_of(&rel),
                    rel,
                    text,
                });
            }
        }
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    out
}

fn rel_of(src: &Path, path: &Path) -> String {
    path.strip_prefix(src)
        .unwrap_or(path)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// `exec/run/mod.rs` → `[exec, run]`; `lib.rs` (or a binary's
/// `main.rs`) → `[]`.
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel.split('/').map(str::to_owned).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.strip_suffix(".rs").unwrap_or(&last);
    if !(stem == "mod" || (matches!(stem, "lib" | "main") && parts.is_empty())) {
        parts.push(stem.to_owned());
    }
    parts
}

/// Reads `src` into a graph of imports between its files.
fn graph(src: &Path) -> (Graph, Vec<Source>) {
    graph_where(src, |_| true)
}

/// Reads the files under `src` that `keep` takes into a graph of imports.
fn graph_where(src: &Path, keep: impl Fn(&str) -> bool) -> (Graph, Vec<Source>) {
    let sources = sources_where(src, keep);
    let by_module: BTreeMap<Vec<String>, String> = sources
        .iter()
        .map(|s| (s.module.clone(), s.rel.clone()))
        .collect();
    let modules: BTreeSet<Vec<String>> = by_module.keys().cloned().collect();
    let mut seen = BTreeSet::new();
    let mut arrows = Vec::new();
    let mut unresolved = Vec::new();
    for source in &sources {
        for (abs, line) in named_paths(source, &modules) {
            // The longest module prefix is the file that holds the item;
            // the root itself (`use super::*` in `lib.rs`'s tests) is
            // `lib.rs`, but an item of the root never is.
            // A binary's `main.rs` holds items of its own, not a facade:
            // a path to one of them imports the root.
            let target = if abs.is_empty() {
                by_module.get(&abs)
            } else {
                (1..=abs.len())
                    .rev()
                    .find_map(|n| by_module.get(&abs[..n]))
                    .or_else(|| by_module.get(&[][..]).filter(|root| *root == "main.rs"))
            };
            let Some(to) = target else {
                unresolved.push(format!("{}:{line}: crate::{}", source.rel, abs.join("::")));
                continue;
            };
            if *to != source.rel && seen.insert((source.rel.clone(), to.clone())) {
                arrows.push(Arrow {
                    from: source.rel.clone(),
                    line,
                    to: to.clone(),
                });
            }
        }
    }
    let files = sources
        .iter()
        .map(|s| (s.rel.clone(), s.text.lines().count()))
        .collect();
    (
        Graph {
            files,
            arrows,
            unresolved,
        },
        sources,
    )
}

/// Sets of two or more files that reach each other (Tarjan's strongly
/// connected components), each sorted, in file order.
fn circles(files: &BTreeMap<String, usize>, arrows: &[Arrow]) -> Vec<Vec<String>> {
    struct State<'a> {
        next: BTreeMap<&'a str, Vec<&'a str>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.next.get(v).cloned().unwrap_or_default() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low[v];
                s.low.insert(v, lv.min(lw));
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low[v];
                s.low.insert(v, lv.min(iw));
            }
        }
        if s.low[v] == s.index[v] {
            let mut set = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                set.push(w.to_owned());
                if w == v {
                    break;
                }
            }
            if set.len() > 1 {
                set.sort();
                s.found.push(set);
            }
        }
    }
    let mut state = State {
        next: BTreeMap::new(),
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for a in arrows {
        state
            .next
            .entry(a.from.as_str())
            .or_default()
            .push(a.to.as_str());
    }
    for f in files.keys() {
        if !state.index.contains_key(f.as_str()) {
            visit(&mut state, f);
        }
    }
    state.found.sort();
    state.found
}

/// The numbers of the tree under `src`, its files laid out in `layers`.
fn measure(src: &Path, layers: &[&str]) -> Measure {
    let (graph, sources) = graph(src);
    let mut between_layers = 0;
    let mut upward = Vec::new();
    let mut upward_layer_pairs = BTreeSet::new();
    for a in &graph.arrows {
        let (Some(from), Some(to)) = (layer_of(&a.from, layers), layer_of(&a.to, layers)) else {
            continue;
        };
        if from != to {
            between_layers += 1;
        }
        if to > from {
            upward.push(a.clone());
            upward_layer_pairs.insert((layers[from].to_owned(), layers[to].to_owned()));
        }
    }
    let outside = sources
        .iter()
        .filter(|s| s.rel != "lib.rs" && layer_of(&s.rel, layers).is_none())
        .map(|s| s.rel.clone())
        .collect();
    let long_files = graph
        .files
        .iter()
        .filter(|(_, n)| **n > LONG)
        .map(|(f, n)| (f.clone(), *n))
        .collect();
    let circles = circles(&graph.files, &graph.arrows);
    let circle_arrows = graph
        .arrows
        .iter()
        .filter(|a| {
            circles
                .iter()
                .any(|c| c.contains(&a.from) && c.contains(&a.to))
        })
        .cloned()
        .collect();
    Measure {
        files: graph.files.len(),
        arrows: graph.arrows.iter().filter(|a| a.from != "lib.rs").count(),
        between_layers,
        upward,
        upward_layer_pairs,
        circles,
        circle_arrows,
        outside,
        long_files,
        unresolved: graph.unresolved,
    }
}

/// The engine's `src/`, or the tree `LAYERS_SRC` names.
fn engine_src() -> PathBuf {
    std::env::var_os("LAYERS_SRC").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        PathBuf::from,
    )
}

#[test]
fn the_engine_keeps_its_layers() {
    let src = engine_src();
    let m = measure(&src, LAYERS);
    println!("{}:\n{m}", src.display());
    assert!(
        m.files > 20 && m.arrows > 50,
        "the check must read the sources:\n{m}"
    );
    let problems = m.problems();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Lines of every `.rs` file under `dir`.
fn lines_under(dir: &Path) -> usize {
    sources(dir).iter().map(|s| s.text.lines().count()).sum()
}

/// The commands stay thin (issue 47): argument handling, wiring and the
/// choice of output, at most a quarter of the engine's lines; a subsystem
/// growing there (as `diff`'s explorer and `mark`'s cohort once did) is a
/// layer of its own.
#[test]
fn the_top_layer_stays_thin() {
    let src = engine_src();
    let top = LAYERS.last().copied().unwrap_or_default();
    let all = lines_under(&src);
    let commands = lines_under(&src.join(top));
    println!("{top}/: {commands} of {all} lines");
    assert!(all > 10_000, "the check must read the sources: {all} lines");
    assert!(
        commands * 4 <= all,
        "{top}/ holds {commands} of the engine's {all} lines, more than a quarter: \
         move what is not argument handling, wiring or output choice into its layer"
    );
}

/// `docs/architecture.md` draws the layers as they are: each one, top
/// (last in [`LAYERS`]) to bottom, in its picture, and every module of a
/// layer named in that layer's box of the picture.
#[test]
fn the_architecture_page_matches_the_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("../../docs/architecture.md")).unwrap_or_default();
    let at: Vec<Option<usize>> = LAYERS
        .iter()
        .map(|l| page.find(&format!("│ {l}/")))
        .collect();
    assert!(at.iter().all(Option::is_some), "layers drawn: {at:?}");
    assert!(
        at.windows(2).all(|w| w[0] > w[1]),
        "the picture must list the layers top to bottom: {LAYERS:?} reversed"
    );
    let mut missing = Vec::new();
    for layer in LAYERS {
        let Ok(entries) = std::fs::read_dir(root.join("src").join(layer)) else {
            missing.push((*layer).to_owned());
            continue;
        };
        // The layer's own box of the picture: from its name to the next rule.
        let start = page.find(&format!("│ {layer}/")).unwrap_or(page.len());
        let rest = &page[start..];
        let end = rest.find(['├', '└']).unwrap_or(rest.len());
        let drawn = &rest[..end];
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".rs").unwrap_or(&name);
            let named = drawn
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| w == stem);
            if stem != "mod" && !named {
                missing.push(format!("{layer}/{name}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "modules the page does not name: {missing:?}"
    );
}
