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
//! Past 600 lines: the use-tree reader, the graph, the measures and the
//! synthetic trees that prove the checker can fail belong together; about
//! half of the file is those tests.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// The layers, lowest first: each is a folder of `src/`, and may import
/// from itself and from the folders before it in this list.
const LAYERS: &[&str] = &[
    "bytes", "exec", "model", "judge", "output", "explorer", "packs", "marking", "commands",
];

/// Lines past which a file must say at its top why it is long.
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

/// `exec/run/mod.rs` → `[exec, run]`; `lib.rs` → `[]`.
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel.split('/').map(str::to_owned).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.strip_suffix(".rs").unwrap_or(&last);
    if !(stem == "mod" || (stem == "lib" && parts.is_empty())) {
        parts.push(stem.to_owned());
    }
    parts
}

/// The text with comments, strings and character literals blanked (lines
/// kept), so that only code is read.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !is_ident(chars[i - 1]))
            && raw_start(&chars, i + 1).is_some()
        {
            let (hashes, body) = raw_start(&chars, i + 1).unwrap_or((0, i + 1));
            for _ in i..body {
                out.push(' ');
            }
            i = body;
            while i < chars.len() {
                if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
                    for _ in 0..=hashes {
                        out.push(' ');
                    }
                    i += hashes + 1;
                    break;
                }
                out.push(blank(chars[i]));
                i += 1;
            }
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if let Some(&ch) = chars.get(i) {
                    out.push(blank(ch));
                }
                i += 1;
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A character literal ('a', '\n', '\''), not a lifetime ('a).
            let close = if next == Some('\\') {
                (i + 3..chars.len().min(i + 12)).find(|&k| chars[k] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            if let Some(end) = close {
                for _ in i..=end {
                    out.push(' ');
                }
                i = end + 1;
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// After an `r` at `at - 1`: the number of `#` and where the body starts,
/// when a raw string opens there.
fn raw_start(chars: &[char], at: usize) -> Option<(usize, usize)> {
    let mut k = at;
    while chars.get(k) == Some(&'#') {
        k += 1;
    }
    (chars.get(k) == Some(&'"')).then_some((k - at, k + 1))
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// A token of code: an identifier, `::`, or one other character.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Sep,
    Punct(char),
}

/// The tokens of code, each with its line (from 1).
fn tokens(code: &str) -> Vec<(Tok, usize)> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if is_ident(c) {
            let start = i;
            while i < chars.len() && is_ident(chars[i]) {
                i += 1;
            }
            out.push((Tok::Ident(chars[start..i].iter().collect()), line));
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push((Tok::Sep, line));
            i += 2;
        } else {
            out.push((Tok::Punct(c), line));
            i += 1;
        }
    }
    out
}

/// Reads a `use` tree from `toks[at..]`: every full path it names, each
/// with its line; returns where the tree ends.
fn use_tree(
    toks: &[(Tok, usize)],
    mut at: usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, usize)>,
) -> usize {
    let mut path = prefix.to_vec();
    let mut line = toks.get(at).map_or(0, |t| t.1);
    loop {
        match toks.get(at) {
            Some((Tok::Ident(name), l)) => {
                if name == "as" {
                    // `as name`: the alias names nothing new.
                    at += 2;
                    out.push((path, line));
                    return at;
                }
                path.push(name.clone());
                line = *l;
                at += 1;
                if toks.get(at).map(|t| &t.0) == Some(&Tok::Sep) {
                    at += 1;
                } else {
                    out.push((path, line));
                    return at;
                }
            }
            Some((Tok::Punct('{'), _)) => {
                at += 1;
                loop {
                    match toks.get(at) {
                        Some((Tok::Punct('}'), _)) => return at + 1,
                        Some((Tok::Punct(','), _)) => at += 1,
                        None => return at,
                        _ => at = use_tree(toks, at, &path, out),
                    }
                }
            }
            Some((Tok::Punct('*'), l)) => {
                out.push((path, *l));
                return at + 1;
            }
            _ => {
                if !path.is_empty() && path.len() > prefix.len() {
                    out.push((path, line));
                }
                return at;
            }
        }
    }
}

/// Every module path (absolute, from the crate root) a file names, each
/// with its line.
fn named_paths(source: &Source, modules: &BTreeSet<Vec<String>>) -> Vec<(Vec<String>, usize)> {
    let toks = tokens(&code_only(&source.text));
    let mut out = Vec::new();
    // Inline modules (`mod tests { … }`) open at a brace depth.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let current: Vec<String> = source
            .module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(n, _)| n.clone()))
            .collect();
        match &toks[i].0 {
            Tok::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                i += 1;
            }
            Tok::Ident(kw) if kw == "mod" => {
                if let (Some((Tok::Ident(name), _)), Some((Tok::Punct('{'), _))) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    inline.push((name.clone(), depth));
                    depth += 1;
                    i += 3;
                } else {
                    i += 1;
                }
            }
            Tok::Ident(kw) if kw == "use" => {
                let mut found = Vec::new();
                i = use_tree(&toks, i + 1, &[], &mut found);
                for (path, line) in found {
                    if let Some(abs) = absolute(&path, &current, modules, true) {
                        out.push((abs, line));
                    }
                }
            }
            Tok::Ident(first)
                if matches!(first.as_str(), "crate" | "super" | "self")
                    && toks.get(i + 1).map(|t| &t.0) == Some(&Tok::Sep)
                    && !(i > 0 && matches!(toks[i - 1].0, Tok::Sep | Tok::Punct('$')))
                    && !(i > 0 && toks[i - 1].0 == Tok::Ident("in".to_owned())) =>
            {
                let line = toks[i].1;
                let mut path = vec![first.clone()];
                let mut k = i + 1;
                while toks.get(k).map(|t| &t.0) == Some(&Tok::Sep) {
                    if let Some((Tok::Ident(seg), _)) = toks.get(k + 1) {
                        path.push(seg.clone());
                        k += 2;
                    } else {
                        break;
                    }
                }
                if let Some(abs) = absolute(&path, &current, modules, false) {
                    out.push((abs, line));
                }
                i = k;
            }
            _ => i += 1,
        }
    }
    out
}

/// A path made absolute from the module `current`, or `None` when it
/// names another crate.
fn absolute(
    path: &[String],
    current: &[String],
    modules: &BTreeSet<Vec<String>>,
    in_use: bool,
) -> Option<Vec<String>> {
    let first = path.first()?;
    match first.as_str() {
        "crate" => Some(path[1..].to_vec()),
        "self" => Some(current.iter().chain(&path[1..]).cloned().collect()),
        "super" => {
            let mut base = current.to_vec();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            Some(base.into_iter().chain(rest.iter().cloned()).collect())
        }
        // A `use` may start at a child module (`use watch::Probe;`).
        _ if in_use => {
            let child: Vec<String> = current.iter().chain([first]).cloned().collect();
            modules
                .contains(&child)
                .then(|| current.iter().chain(path).cloned().collect())
        }
        _ => None,
    }
}

/// Reads `src` into a graph of imports between its files.
fn graph(src: &Path) -> (Graph, Vec<Source>) {
    let sources = sources(src);
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
            // The longest module prefix is the file that holds the item.
            let target = (1..=abs.len()).rev().find_map(|n| by_module.get(&abs[..n]));
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

#[test]
fn every_long_file_says_why_at_its_top() {
    let src = engine_src();
    let m = measure(&src, LAYERS);
    let silent: Vec<&String> = m
        .long_files
        .iter()
        .map(|(f, _)| f)
        .filter(|f| {
            let text = std::fs::read_to_string(src.join(f)).unwrap_or_default();
            !text
                .lines()
                .take_while(|l| l.starts_with("//!"))
                .any(|l| l.contains("Past 600 lines:"))
        })
        .collect();
    assert!(silent.is_empty(), "long files without a reason: {silent:?}");
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

/// Writes `files` (path under `src/`, text) into a new folder.
#[expect(
    clippy::expect_used,
    reason = "test helper: a tree that cannot be written must fail the test"
)]
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary folder");
    for (rel, text) in files {
        let path = dir.path().join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("folder");
        }
        std::fs::write(path, text).expect("write");
    }
    dir
}

const SMALL: &[&str] = &["low", "high"];

#[test]
fn the_check_names_an_import_from_a_layer_above() {
    let dir = tree(&[
        ("lib.rs", "pub mod low;\npub mod high;\n"),
        ("low/mod.rs", "//! Low.\npub mod a;\n"),
        (
            "low/a.rs",
            "//! A, with crate::high::b::X in a comment.\n\nuse crate::high::b::X;\n",
        ),
        ("high/mod.rs", "pub mod b;\n"),
        ("high/b.rs", "use crate::low::a;\npub struct X;\n"),
    ]);
    let m = measure(dir.path(), SMALL);
    assert_eq!(m.arrows, 2, "{m}");
    assert_eq!(m.between_layers, 2, "{m}");
    assert_eq!(
        m.problems(),
        [
            "low/a.rs:3: imports high/b.rs, a layer above",
            "circle between files: high/b.rs ⇄ low/a.rs",
            "  high/b.rs:1: imports low/a.rs",
            "  low/a.rs:3: imports high/b.rs",
        ],
        "{m}"
    );
}

#[test]
fn the_check_reads_use_trees_super_and_inline_modules() {
    let dir = tree(&[
        ("lib.rs", "pub mod low;\n"),
        (
            "low/mod.rs",
            "mod a;\nmod b;\nmod c;\nuse {a::One, b::{Two, self}};\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::low::c;\n}\n",
        ),
        (
            "low/a.rs",
            "pub struct One;\nfn f() { let s = \"crate::low::b\"; }\n",
        ),
        (
            "low/b.rs",
            "use super::a::One;\npub struct Two<'a>(&'a One);\n",
        ),
        ("low/c.rs", "pub(in crate::low) fn g() -> char { '{' }\n"),
    ]);
    let m = measure(dir.path(), &["low"]);
    let (g, _) = graph(dir.path());
    let got: Vec<(&str, usize, &str)> = g
        .arrows
        .iter()
        .map(|a| (a.from.as_str(), a.line, a.to.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("low/b.rs", 1, "low/a.rs"),
            ("low/mod.rs", 4, "low/a.rs"),
            ("low/mod.rs", 4, "low/b.rs"),
            ("low/mod.rs", 8, "low/c.rs"),
        ]
    );
    assert!(m.problems().is_empty(), "{m}");
}

#[test]
fn the_check_refuses_a_path_through_the_facade() {
    let dir = tree(&[
        ("lib.rs", "pub mod low;\npub use low::a as a;\n"),
        ("low/mod.rs", "pub mod a;\npub mod b;\n"),
        ("low/a.rs", "pub struct One;\n"),
        ("low/b.rs", "use crate::a::One;\n"),
    ]);
    let m = measure(dir.path(), &["low"]);
    assert_eq!(
        m.problems(),
        ["low/b.rs:1: crate::a::One: names no file of the engine"]
    );
}
