//! The workspace's files stay short (issue 47): no Rust file passes 600
//! lines, and one past 400 says at its top why it is one piece, in a
//! paragraph of its opening `//!` doc that begins `//! One piece:`.
//!
//! Test files are exempt from the second rule: files under a `tests/`
//! folder and sibling `tests.rs` files. Each is a list of independent
//! tests (a table of cases) of the topic its name says; its length is
//! the number of cases, not code that must be read together, and the
//! 600-line limit still splits it by topic.

use std::path::{Path, PathBuf};

/// Lines no Rust file of the workspace may pass.
const LIMIT: usize = 600;

/// Lines past which a file says why it is one piece.
const ONE_PIECE: usize = 400;

/// How the paragraph that says so begins.
const MARK: &str = "//! One piece:";

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every Rust file of the workspace under `dir`, but build output and
/// hidden folders.
fn workspace_rust(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "target" || name.starts_with("mutants.out") {
            continue;
        }
        if path.is_dir() {
            workspace_rust(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every Rust file of the workspace: its path from the root and its text.
fn workspace_files() -> Vec<(String, String)> {
    let root = root();
    let mut files = Vec::new();
    workspace_rust(&root, &mut files);
    let mut out: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(&root).unwrap_or(f);
            (
                rel.to_string_lossy().into_owned(),
                std::fs::read_to_string(f).unwrap_or_default(),
            )
        })
        .collect();
    out.sort();
    out
}

/// A file of tests: under a `tests/` folder, or a sibling `tests.rs`.
fn is_test_file(rel: &str) -> bool {
    rel.split('/').any(|part| part == "tests") || rel.ends_with("/tests.rs") || rel == "tests.rs"
}

/// Whether the opening `//!` doc of `text` (after any `#![…]` lines) has
/// a paragraph beginning [`MARK`].
fn says_one_piece(text: &str) -> bool {
    text.lines()
        .skip_while(|l| l.starts_with("#!["))
        .take_while(|l| l.starts_with("//!"))
        .any(|l| l.starts_with(MARK))
}

/// The files of `files` (path, text) past [`ONE_PIECE`] lines that do not
/// say why they are one piece, with their length; test files aside.
pub(super) fn silent_long_files(files: &[(String, String)]) -> Vec<String> {
    files
        .iter()
        .filter(|(rel, text)| {
            text.lines().count() > ONE_PIECE && !is_test_file(rel) && !says_one_piece(text)
        })
        .map(|(rel, text)| format!("{rel} ({} lines)", text.lines().count()))
        .collect()
}

/// No Rust file of the workspace passes 600 lines (issue 47): sources,
/// tests, benches and fixture programs alike; a long one is split by
/// concept, its tests into a sibling `tests.rs`.
#[test]
fn no_rust_file_of_the_workspace_passes_600_lines() {
    let files = workspace_files();
    assert!(
        files.len() > 100,
        "the check must read the workspace: {} files",
        files.len()
    );
    let long: Vec<String> = files
        .iter()
        .filter(|(_, text)| text.lines().count() > LIMIT)
        .map(|(rel, text)| format!("{rel} ({} lines)", text.lines().count()))
        .collect();
    assert!(
        long.is_empty(),
        "files past {LIMIT} lines:\n{}",
        long.join("\n")
    );
}

/// A file past 400 lines says at its top why it is one piece (issue 47),
/// or is split.
#[test]
fn every_file_past_400_lines_says_why_it_is_one_piece() {
    let files = workspace_files();
    let long = files
        .iter()
        .filter(|(rel, text)| text.lines().count() > ONE_PIECE && !is_test_file(rel))
        .count();
    println!("files past {ONE_PIECE} lines, tests aside: {long}");
    assert!(
        files.len() > 100,
        "the check must read the workspace: {} files",
        files.len()
    );
    let silent = silent_long_files(&files);
    assert!(
        silent.is_empty(),
        "files past {ONE_PIECE} lines whose opening doc has no paragraph beginning \
         `{MARK}` (say in a sentence or two why the file is one piece, or split it):\n{}",
        silent.join("\n")
    );
}
