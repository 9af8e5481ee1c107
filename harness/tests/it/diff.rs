//! `boxes-harness diff` end to end: the reference against itself finds
//! nothing, and each deliberately wrong variant (the `boxes-fixture-
//! variant` binary under the variant's name) is found and shrunk to a
//! small case that fails on the variant and passes on the reference.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

const SESSIONS: &str = "2000";

/// This file's variant fixture under `name`, through a symlink in `dir`.
fn variant(dir: &Path, name: &str) -> PathBuf {
    link(dir, name, env!("CARGO_BIN_EXE_boxes-fixture-variant"))
}

/// `fixture` under `name`, through a symlink in `dir`.
fn link(dir: &Path, name: &str, fixture: &str) -> PathBuf {
    let link = dir.join(name);
    std::os::unix::fs::symlink(fixture, &link).expect("symlink the variant fixture");
    link
}

/// The suite's one-rule-wrong variants (`boxes-fixture-variant`), with
/// whether finding them needs `--ambiguous`.
const SUITE_VARIANTS: [(&str, bool); 15] = [
    ("usage-on-stdout", false),
    ("dimension-wording", false),
    ("dimension-1000", false),
    ("players-before-dimensions", false),
    ("trimmed-trailing-spaces", false),
    ("blank-line-after-grid", false),
    ("save-reprints-grid", false),
    ("prompt-newline", false),
    ("cr-tolerant", false),
    ("leading-zero-moves", true),
    ("extra-turn-per-cell", false),
    ("no-extra-turn", false),
    ("zero-based-save", false),
    ("winners-without-ties", false),
    ("winners-at-eof", false),
];

fn harness() -> Command {
    let mut cmd = Command::cargo_bin("boxes-harness").expect("the harness binary");
    // These tests are about exploring and shrinking, not containment
    // (tests/it/contain.rs): the process group is the cheapest level, and
    // namespaces per run would multiply their time several times over.
    cmd.env_remove("BOXES_BIN")
        .env_remove("CONFORMANCE_REFERENCE")
        .env("CONFORMANCE_CONTAINMENT", "group");
    cmd
}

/// Every case file written under `out`.
fn cases(out: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![out.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                found.push(path);
            }
        }
    }
    found
}

/// The number of stdin lines a written case feeds the program.
/// Whether the case text's `tags` list holds `tag`.
fn has_tag(text: &str, tag: &str) -> bool {
    let yaml: yaml_serde::Value = yaml_serde::from_str(text).expect("case YAML");
    yaml.get("tags")
        .and_then(|t| t.as_sequence())
        .is_some_and(|tags| tags.iter().any(|t| t.as_str() == Some(tag)))
}

fn stdin_lines(case: &Path) -> usize {
    let text = std::fs::read_to_string(case).expect("case text");
    let yaml: yaml_serde::Value = yaml_serde::from_str(&text).expect("case YAML");
    let stdin: Vec<u8> = if let Some(inline) = yaml.get("stdin").and_then(|v| v.as_str()) {
        inline.as_bytes().to_vec()
    } else if let Some(file) = yaml.get("stdin-file").and_then(|v| v.as_str()) {
        std::fs::read(case.with_file_name(file)).expect("stdin sidecar")
    } else {
        Vec::new()
    };
    stdin.split_inclusive(|&b| b == b'\n').count()
}

#[test]
fn the_reference_against_itself_finds_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let reference = variant(dir.path(), "boxes");
    let out = dir.path().join("cases");
    let assert = harness()
        .current_dir(dir.path())
        .args(["diff", "--bin"])
        .arg(&reference)
        .args(["--sessions", SESSIONS, "--seed", "2015", "--out"])
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(
        stdout.contains("2000 sessions, 0 mismatching") && stdout.contains("seed 2015"),
        "{stdout}"
    );
    assert!(cases(&out).is_empty());
}

/// Finds `name`'s bug within 2000 sessions, checks the shrunk case and
/// returns its path and the run's stdout.
fn find_and_check(name: &str, extra: &[&str]) -> (PathBuf, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = variant(dir.path(), name);
    find_and_check_bin(dir.path(), &bin, name, extra)
}

/// [`find_and_check`] for any variant binary `bin` in `dir`.
fn find_and_check_bin(dir: &Path, bin: &Path, name: &str, extra: &[&str]) -> (PathBuf, String) {
    let out = dir.join("cases");
    let assert = harness()
        .current_dir(dir)
        .args(["diff", "--bin"])
        .arg(bin)
        .args([
            "--sessions",
            SESSIONS,
            "--seed",
            "42",
            "--max-failures",
            "1",
        ])
        .args(extra)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(stdout.contains("mismatch 1 "), "{name}: {stdout}");
    assert!(
        stdout.contains("reproduce: boxes-harness --bin"),
        "{name}: {stdout}"
    );
    let written = cases(&out);
    assert_eq!(written.len(), 1, "{name}: {stdout}");
    let case = written[0].clone();
    let text = std::fs::read_to_string(&case).expect("case text");
    assert!(has_tag(&text, "found-by-diff"), "{text}");
    let lines = stdin_lines(&case);
    assert!(lines <= 5, "{name}: shrunk to {lines} stdin lines\n{text}");
    harness()
        .arg("--cases")
        .arg(&case)
        .arg("--include-ignored")
        .assert()
        .success();
    harness()
        .arg("--bin")
        .arg(bin)
        .arg("--cases")
        .arg(&case)
        .arg("--include-ignored")
        .assert()
        .code(1);
    // Keep the case for the caller's own checks beyond the temp dir.
    let kept = std::env::temp_dir().join(format!(
        "boxes-diff-test-{}-{name}.yaml",
        std::process::id()
    ));
    std::fs::copy(&case, &kept).expect("copy the case");
    (kept, stdout)
}

#[test]
fn every_suite_variant_is_found_and_shrunk() {
    for (name, ambiguous) in SUITE_VARIANTS {
        let dir = tempfile::tempdir().expect("temp dir");
        let bin = link(
            dir.path(),
            name,
            env!("CARGO_BIN_EXE_boxes-fixture-variant"),
        );
        let extra: &[&str] = if ambiguous { &["--ambiguous"] } else { &[] };
        let (case, _) = find_and_check_bin(dir.path(), &bin, name, extra);
        if ambiguous {
            let text = std::fs::read_to_string(&case).expect("case");
            assert!(has_tag(&text, "ambiguous"), "{text}");
        }
        let _ = std::fs::remove_file(case);
    }
}

#[test]
fn trimmed_trailing_spaces_are_found_and_shrunk() {
    let (case, _) = find_and_check("boxes-trim", &[]);
    let text = std::fs::read_to_string(&case).expect("case");
    assert!(text.contains("category: initial-display"), "{text}");
    let _ = std::fs::remove_file(case);
}

#[test]
fn a_missing_extra_turn_is_found_and_shrunk() {
    let (case, stdout) = find_and_check("boxes-no-extra-turn", &[]);
    assert!(stdout.contains("stdout differs"), "{stdout}");
    let _ = std::fs::remove_file(case);
}

#[test]
fn lax_move_parsing_is_found_and_shrunk() {
    let (case, _) = find_and_check("boxes-lax-moves", &[]);
    let _ = std::fs::remove_file(case);
}

#[test]
fn wrapping_move_numbers_are_found_and_shrunk() {
    let (case, _) = find_and_check("boxes-wrap", &[]);
    let _ = std::fs::remove_file(case);
}

#[test]
fn a_wrong_saved_next_player_is_found_in_the_file() {
    let (case, stdout) = find_and_check("boxes-save-next", &[]);
    assert!(stdout.contains("file `"), "{stdout}");
    let text = std::fs::read_to_string(&case).expect("case");
    assert!(
        text.contains("category: save") && text.contains("output-files:"),
        "{text}"
    );
    let _ = std::fs::remove_file(case);
}

#[test]
fn a_loaded_game_starting_with_a_is_found() {
    let (case, _) = find_and_check("boxes-load-first", &[]);
    let text = std::fs::read_to_string(&case).expect("case");
    assert!(text.contains("FILE-7"), "{text}");
    let _ = std::fs::remove_file(case);
}

#[test]
fn checks_in_the_wrong_order_are_found() {
    let (case, stdout) = find_and_check("boxes-players-first", &[]);
    assert!(stdout.contains("status differs"), "{stdout}");
    let text = std::fs::read_to_string(&case).expect("case");
    assert!(text.contains("category: args-dims"), "{text}");
    let _ = std::fs::remove_file(case);
}

#[test]
fn against_compares_two_programs_and_takes_the_second_as_expected() {
    let dir = tempfile::tempdir().expect("temp dir");
    let trim = variant(dir.path(), "boxes-trim");
    let reference = variant(dir.path(), "boxes");
    let out = dir.path().join("cases");
    let assert = harness()
        .args(["diff", "--bin"])
        .arg(&reference)
        .arg("--against")
        .arg(&trim)
        .args([
            "--sessions",
            "50",
            "--seed",
            "1",
            "--max-failures",
            "1",
            "--out",
        ])
        .arg(&out)
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(stdout.contains("expected \"\\n\""), "{stdout}");
    let written = cases(&out);
    assert_eq!(written.len(), 1);
    // The case expects the trimming program: the reference fails it.
    harness().arg("--cases").arg(&written[0]).assert().code(1);
    harness()
        .arg("--bin")
        .arg(&trim)
        .arg("--cases")
        .arg(&written[0])
        .assert()
        .success();
}

#[test]
fn the_same_seed_writes_the_same_case() {
    let read = |dir: &Path| {
        let bin = variant(dir, "boxes-no-extra-turn");
        harness()
            .current_dir(dir)
            .args(["diff", "--bin"])
            .arg(&bin)
            .args([
                "--sessions",
                "200",
                "--seed",
                "9",
                "--max-failures",
                "1",
                "--jobs",
                "1",
            ])
            .assert()
            .code(1);
        let written = cases(&dir.join("diff-cases"));
        assert_eq!(written.len(), 1);
        std::fs::read(&written[0]).expect("case")
    };
    let (a, b) = (
        tempfile::tempdir().expect("a"),
        tempfile::tempdir().expect("b"),
    );
    assert_eq!(read(a.path()), read(b.path()));
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    harness().args(["diff"]).assert().code(2);
    harness()
        .args(["diff", "--bin", "/no/such/boxes"])
        .assert()
        .code(2);
    let bin = variant(dir.path(), "boxes");
    harness()
        .args(["diff", "--bin"])
        .arg(&bin)
        .args(["--sessions", "5", "--time", "1"])
        .assert()
        .code(2);
    harness()
        .args(["diff", "--bin"])
        .arg(&bin)
        .args(["--max-failures", "0"])
        .assert()
        .code(2);
    harness().args(["diff", "--help"]).assert().success();
}
