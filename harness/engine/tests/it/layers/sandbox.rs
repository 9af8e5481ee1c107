//! The sandbox's order (issue 47: its keeper, resident, start, watchdog
//! and zygote once imported one another in a circle). The files of
//! `harness/sandbox/src/` import one another in one direction, every
//! `crate::` path names a module (not an item of the facade `lib.rs`,
//! which would hide the arrow), and `docs/architecture.md` draws the
//! order as it is: each module once, in a row of the sandbox's picture,
//! none importing a module drawn above it.
//!
//! The same reader and graph as the engine's layers ([`super::graph`]).
//! `SANDBOX_SRC=/other/checkout/harness/sandbox/src cargo test -p
//! conformance-engine --test it the_sandbox_has_no_circle` checks another
//! tree (the one before issue 47 had three circles, the five files' among
//! them, and 43 paths through `lib.rs`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{Graph, circles, graph};

/// The sandbox crate's `src/`, or the tree `SANDBOX_SRC` names (another
/// checkout's, to measure it).
fn sandbox_src() -> PathBuf {
    std::env::var_os("SANDBOX_SRC").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../sandbox/src"),
        PathBuf::from,
    )
}

/// What breaks the order of the crate whose graph is `g`: each circle of
/// files, with the imports inside it (where to cut), and every path that
/// names no module.
pub(super) fn order_problems(g: &Graph) -> Vec<String> {
    let mut out = Vec::new();
    for c in circles(&g.files, &g.arrows) {
        out.push(format!("circle between files: {}", c.join(" ⇄ ")));
        for a in g
            .arrows
            .iter()
            .filter(|a| c.contains(&a.from) && c.contains(&a.to))
        {
            out.push(format!("  {}:{}: imports {}", a.from, a.line, a.to));
        }
    }
    for u in &g.unresolved {
        out.push(format!(
            "{u}: names no module (a path through lib.rs hides the arrow: name the module)"
        ));
    }
    out
}

/// The rows of the sandbox's picture on `page` (the first `text` block
/// after the heading `## The sandbox's order`), from the top (0): each
/// name at the start of a line of a box, with its row. Names drawn twice
/// come back in the second list.
pub(super) fn drawn_rows(page: &str) -> (BTreeMap<String, usize>, Vec<String>) {
    let mut rows = BTreeMap::new();
    let mut twice = Vec::new();
    let Some(at) = page.find("## The sandbox's order") else {
        return (rows, twice);
    };
    let section = &page[at..];
    let Some(open) = section.find("```text") else {
        return (rows, twice);
    };
    let body = &section[open + "```text".len()..];
    let body = &body[..body.find("```").unwrap_or(body.len())];
    let mut row = 0;
    for line in body.lines() {
        if line.contains('├') {
            row += 1;
            continue;
        }
        // A module's line starts right after `│ `; a wrapped description
        // is indented.
        let Some((_, rest)) = line.split_once('│') else {
            continue;
        };
        let Some(rest) = rest.strip_prefix(' ') else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        if rows.insert(name.clone(), row).is_some() {
            twice.push(name);
        }
    }
    (rows, twice)
}

/// What the picture on `page` gets wrong about the graph `g` of a flat
/// crate: a module it does not draw, a name that is no module, a name
/// drawn twice, an import of a module drawn above.
pub(super) fn picture_problems(page: &str, g: &Graph) -> Vec<String> {
    let (rows, twice) = drawn_rows(page);
    let module = |rel: &str| rel.strip_suffix(".rs").unwrap_or(rel).to_owned();
    let modules: Vec<String> = g
        .files
        .keys()
        .filter(|f| *f != "lib.rs")
        .map(|f| module(f))
        .collect();
    let mut out = Vec::new();
    for m in &modules {
        if !rows.contains_key(m) {
            out.push(format!("{m}.rs: not drawn in the sandbox's picture"));
        }
    }
    for name in rows.keys() {
        if !modules.contains(name) {
            out.push(format!("{name}: drawn, but no module of the sandbox"));
        }
    }
    for name in twice {
        out.push(format!("{name}: drawn twice"));
    }
    for a in g.arrows.iter().filter(|a| a.from != "lib.rs") {
        if let (Some(from), Some(to)) = (rows.get(&module(&a.from)), rows.get(&module(&a.to)))
            && to < from
        {
            out.push(format!(
                "{}:{}: imports {}, drawn above it",
                a.from, a.line, a.to
            ));
        }
    }
    out
}

#[test]
fn the_sandbox_has_no_circle() {
    let (g, _) = graph(&sandbox_src());
    println!(
        "sandbox: {} files, {} arrows",
        g.files.len(),
        g.arrows.len()
    );
    assert!(
        g.files.len() > 10 && g.arrows.len() > 30,
        "the check must read the sandbox's sources: {} files, {} arrows",
        g.files.len(),
        g.arrows.len()
    );
    let problems = order_problems(&g);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_architecture_page_draws_the_sandboxs_order() {
    let (g, _) = graph(&sandbox_src());
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/architecture.md"),
    )
    .unwrap_or_default();
    let problems = picture_problems(&page, &g);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
