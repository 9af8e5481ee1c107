//! Synthetic trees that prove the layers check can fail: an import from a
//! layer above, use trees, `super` and inline modules, a path through the
//! facade.

use super::*;

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

/// A flat crate as the sandbox is: `use crate::{…}` groups, a `super::`
/// path from a file at the root, an inline `crate::` path and one through
/// the facade.
#[test]
fn the_sandbox_check_names_a_circle() {
    let dir = tree(&[
        (
            "lib.rs",
            "mod a;\nmod b;\nmod c;\nmod d;\npub use a::One;\n",
        ),
        (
            "a.rs",
            "//! A.\nuse crate::{b, d::Four};\npub struct One;\n",
        ),
        ("b.rs", "use super::c::Three;\npub struct Two;\n"),
        (
            "c.rs",
            "pub struct Three;\nfn f() { crate::a::g(); let _ = crate::One; }\n",
        ),
        ("d.rs", "pub struct Four;\n"),
    ]);
    let (g, _) = graph(dir.path());
    assert_eq!(
        sandbox::order_problems(&g),
        [
            "circle between files: a.rs ⇄ b.rs ⇄ c.rs",
            "  a.rs:2: imports b.rs",
            "  b.rs:1: imports c.rs",
            "  c.rs:2: imports a.rs",
            "c.rs:2: crate::One: names no module (a path through lib.rs hides the arrow: name the module)",
        ]
    );
    let page = "# X\n\n## The sandbox's order\n\n```text\n┌─┐\n│ d   low, but drawn on top\n├─┤\n│ a   a\n│ b   b\n│     c, wrapped: not a name\n│ e   no module\n└─┘\n```\n";
    assert_eq!(
        sandbox::picture_problems(page, &g),
        [
            "c.rs: not drawn in the sandbox's picture",
            "e: drawn, but no module of the sandbox",
            "a.rs:2: imports d.rs, drawn above it",
        ]
    );
}

/// A long file without its paragraph is named; one with it, a short one
/// and a test file are not; the paragraph counts only in the opening doc.
#[test]
fn the_one_piece_check_names_a_silent_long_file() {
    let body = "fn f() {}\n".repeat(400);
    let files: Vec<(String, String)> = [
        ("a/src/silent.rs", format!("//! Silent.\n{body}")),
        (
            "a/src/said.rs",
            format!("#![doc = \"x\"]\n//! Said.\n//!\n//! One piece: one format.\n{body}"),
        ),
        (
            "a/src/late.rs",
            format!("//! Late.\n\n//! One piece: too late.\n{body}"),
        ),
        ("a/src/short.rs", "//! Short.\n".to_owned()),
        ("a/tests/it/table.rs", body.clone()),
        ("a/src/x/tests.rs", body.clone()),
    ]
    .into_iter()
    .map(|(rel, text)| (rel.to_owned(), text))
    .collect();
    assert_eq!(
        workspace::silent_long_files(&files),
        ["a/src/silent.rs (401 lines)", "a/src/late.rs (403 lines)"]
    );
}

/// A crate as the references are: a circle through a shared type, a
/// path through `lib.rs`, and a picture that draws it wrong; a binary's
/// `main.rs` holds items, so a path to one imports the root.
#[test]
fn the_crates_check_names_a_circle_and_a_wrong_picture() {
    let dir = tree(&[
        (
            "lib.rs",
            "pub mod app;\npub mod judge;\npub mod moves;\npub use judge::Reason;\n",
        ),
        ("app.rs", "use crate::judge::Judge;\n"),
        (
            "judge.rs",
            "use crate::moves::Move;\npub enum Reason {}\npub struct Judge;\n",
        ),
        (
            "moves.rs",
            "use crate::judge::Reason;\nuse crate::Reason as R;\npub struct Move;\n",
        ),
    ]);
    let (g, _) = graph(dir.path());
    assert_eq!(
        sandbox::order_problems(&g),
        [
            "circle between files: judge.rs ⇄ moves.rs",
            "  judge.rs:1: imports moves.rs",
            "  moves.rs:1: imports judge.rs",
            "moves.rs:2: crate::Reason: names no module (a path through lib.rs hides the arrow: name the module)",
        ]
    );
    let unit = crates::Unit {
        name: "reference/x".to_owned(),
        graph: g,
    };
    let page = "# X\n\n## Each crate's order\n\n### `reference/x`\n\n```text\nmoves — drawn on top\njudge judge\nghost\n```\n";
    let pictures = crates::pictures(page);
    assert_eq!(
        crates::picture_problems(&unit, pictures.get("reference/x")),
        [
            "reference/x: judge drawn twice",
            "reference/x: app not drawn",
            "reference/x: ghost drawn, but no module of it",
            "reference/x/src/judge.rs:1: imports moves.rs, drawn above it",
        ]
    );
    let bin = tree(&[
        ("main.rs", "mod round;\nuse round::play;\nstruct Variant;\n"),
        ("round.rs", "use crate::Variant;\npub fn play() {}\n"),
    ]);
    let (g, _) = graph(bin.path());
    assert_eq!(
        sandbox::order_problems(&g),
        [
            "circle between files: main.rs ⇄ round.rs",
            "  main.rs:2: imports round.rs",
            "  round.rs:1: imports main.rs",
        ]
    );
    assert_eq!(
        crates::members("members = [\"a\", \"b/c\"]\n[x]\nm = [\"d\"]"),
        ["a", "b/c"]
    );
}
