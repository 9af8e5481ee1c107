//! Every crate of the workspace keeps one-way imports (issue 55: the
//! references and corpus crates once held seven circles of files). For
//! each member of the workspace's `Cargo.toml`: its library (`src/` but
//! `main.rs` and `bin/`), its `main.rs` when it has no library, and each
//! binary that is a folder of files (`src/bin/NAME/`) is one unit; no
//! files of a unit import each other in a circle, and every `crate::`
//! path names a module (a path through `lib.rs` would hide the arrow).
//!
//! `docs/crates.md` draws each unit of two modules or more under the
//! heading `## Each crate's order`: a `### \`PATH\`` heading, then a
//! `text` block of rows, top to bottom; a row names modules (`a`,
//! `a::b`) before an optional `—` and what they are. Every module once,
//! and none imports a module drawn in a row above it. The engine and the
//! sandbox have their own, stricter checks ([`super`], [`super::sandbox`]),
//! circles included, and are left out here.
//!
//! The same reader and graph as the engine's layers ([`super::graph`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::sandbox::order_problems;
use super::{Graph, graph_where};

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The crates with checks of their own, stricter (layers, the sandbox's
/// picture in `docs/architecture.md`), circles included.
const CHECKED_ELSEWHERE: &[&str] = &["harness/engine", "harness/sandbox"];

/// The members of the workspace, as the root `Cargo.toml` lists them.
pub(super) fn members(manifest: &str) -> Vec<String> {
    let Some(at) = manifest.find("members") else {
        return Vec::new();
    };
    let rest = &manifest[at..];
    let list = &rest[..rest.find(']').unwrap_or(rest.len())];
    list.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// One unit of a crate: a tree of files that make one Rust crate.
pub(super) struct Unit {
    /// How the report and the picture name it: the crate's path, or a
    /// binary folder's path.
    pub(super) name: String,
    pub(super) graph: Graph,
}

/// The units of the crate at `dir` (its path from the root `rel`).
fn units(dir: &Path, rel: &str) -> Vec<Unit> {
    let src = dir.join("src");
    let mut out = Vec::new();
    let has_lib = src.join("lib.rs").is_file();
    let (g, _) = graph_where(&src, |f| {
        !f.starts_with("bin/") && (f != "main.rs" || !has_lib)
    });
    out.push(Unit {
        name: rel.to_owned(),
        graph: g,
    });
    let Ok(bins) = std::fs::read_dir(src.join("bin")) else {
        return out;
    };
    let mut folders: Vec<PathBuf> = bins
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    for folder in folders {
        let name = folder.file_name().unwrap_or_default().to_string_lossy();
        let (g, _) = graph_where(&folder, |_| true);
        out.push(Unit {
            name: format!("{rel}/src/bin/{name}"),
            graph: g,
        });
    }
    out
}

/// Every unit of every member of the workspace but those
/// [`CHECKED_ELSEWHERE`].
fn workspace_units() -> Vec<Unit> {
    let root = root();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap_or_default();
    members(&manifest)
        .iter()
        .filter(|m| !CHECKED_ELSEWHERE.contains(&m.as_str()))
        .flat_map(|m| units(&root.join(m), m))
        .collect()
}

/// `session/mod.rs` → `session`; `arena/standings.rs` →
/// `arena::standings`; the root (`lib.rs`, `main.rs`) → `None`.
fn module_name(rel: &str) -> Option<String> {
    let path = super::module_of(rel);
    (!path.is_empty()).then(|| path.join("::"))
}

/// The pictures of `page`: each unit's name (the `### \`…\`` heading
/// under `## Each crate's order`) and its rows, top first, each the
/// modules it names.
pub(super) fn pictures(page: &str) -> BTreeMap<String, Vec<Vec<String>>> {
    let mut out = BTreeMap::new();
    let Some(at) = page.find("## Each crate's order") else {
        return out;
    };
    let section = &page[at + 2..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    for part in section.split("\n### ").skip(1) {
        let heading = part.lines().next().unwrap_or_default();
        let name = heading.trim().trim_matches('`').to_owned();
        let Some(open) = part.find("```text") else {
            continue;
        };
        let body = &part[open + "```text".len()..];
        let body = &body[..body.find("```").unwrap_or(body.len())];
        let rows = body
            .lines()
            .map(|l| l.split('—').next().unwrap_or_default())
            .map(|names| names.split_whitespace().map(str::to_owned).collect())
            .filter(|row: &Vec<String>| !row.is_empty())
            .collect();
        out.insert(name, rows);
    }
    out
}

/// What the picture `rows` gets wrong about `unit`: a module it does not
/// draw, a name that is no module, a name drawn twice, an import of a
/// module drawn above.
pub(super) fn picture_problems(unit: &Unit, rows: Option<&Vec<Vec<String>>>) -> Vec<String> {
    let modules: Vec<String> = unit
        .graph
        .files
        .keys()
        .filter_map(|f| module_name(f))
        .collect();
    let name = &unit.name;
    let Some(rows) = rows else {
        return vec![format!(
            "{name}: no picture of its {} modules in docs/crates.md; as they import \
             one another now, top first:\n{}",
            modules.len(),
            suggested_rows(unit).join("\n")
        )];
    };
    let mut at: BTreeMap<&str, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for (row, names) in rows.iter().enumerate() {
        for n in names {
            if at.insert(n, row).is_some() {
                out.push(format!("{name}: {n} drawn twice"));
            }
        }
    }
    for m in &modules {
        if !at.contains_key(m.as_str()) {
            out.push(format!("{name}: {m} not drawn"));
        }
    }
    for n in at.keys() {
        if !modules.iter().any(|m| m == n) {
            out.push(format!("{name}: {n} drawn, but no module of it"));
        }
    }
    for a in &unit.graph.arrows {
        let (Some(from), Some(to)) = (module_name(&a.from), module_name(&a.to)) else {
            continue;
        };
        if let (Some(f), Some(t)) = (at.get(from.as_str()), at.get(to.as_str()))
            && t < f
        {
            out.push(format!(
                "{name}/src/{}:{}: imports {}, drawn above it",
                a.from, a.line, a.to
            ));
        }
    }
    out
}

/// The modules of `unit` by height, top first: a leaf is at 0, a module
/// one above the highest it imports (a circle, refused elsewhere, stops
/// the climb).
fn suggested_rows(unit: &Unit) -> Vec<String> {
    let modules: Vec<(String, String)> = unit
        .graph
        .files
        .keys()
        .filter_map(|f| module_name(f).map(|m| (f.clone(), m)))
        .collect();
    let mut height: BTreeMap<&str, usize> = modules.iter().map(|(f, _)| (f.as_str(), 0)).collect();
    for _ in 0..modules.len() {
        for a in &unit.graph.arrows {
            if let (Some(&to), Some(&from)) =
                (height.get(a.to.as_str()), height.get(a.from.as_str()))
                && from <= to
            {
                height.insert(&a.from, to + 1);
            }
        }
    }
    let top = height.values().copied().max().unwrap_or(0);
    (0..=top)
        .rev()
        .map(|h| {
            modules
                .iter()
                .filter(|(f, _)| height.get(f.as_str()) == Some(&h))
                .map(|(_, m)| m.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[test]
fn no_crate_of_the_workspace_has_a_circle() {
    let units = workspace_units();
    let files: usize = units.iter().map(|u| u.graph.files.len()).sum();
    let arrows: usize = units.iter().map(|u| u.graph.arrows.len()).sum();
    println!("{} units, {files} files, {arrows} arrows", units.len());
    assert!(
        units.len() > 10 && files > 100 && arrows > 200,
        "the check must read every crate: {} units, {files} files, {arrows} arrows",
        units.len()
    );
    let problems: Vec<String> = units
        .iter()
        .flat_map(|u| {
            order_problems(&u.graph)
                .into_iter()
                .map(move |p| format!("{}: {p}", u.name))
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_crates_page_draws_every_crates_order() {
    let page = std::fs::read_to_string(root().join("docs/crates.md")).unwrap_or_default();
    let pictures = pictures(&page);
    let units = workspace_units();
    let mut problems = Vec::new();
    let mut drawn = 0;
    for u in &units {
        // The root and one module have one order only.
        if u.graph.files.len() < 3 {
            continue;
        }
        drawn += 1;
        problems.extend(picture_problems(u, pictures.get(&u.name)));
    }
    for name in pictures.keys() {
        if !units.iter().any(|u| &u.name == name) {
            problems.push(format!("{name}: drawn, but no crate of the workspace"));
        }
    }
    assert!(drawn > 8, "the check must read every crate: {drawn} drawn");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
