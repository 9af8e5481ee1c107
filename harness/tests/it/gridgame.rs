//! The gridgame pack through `boxes-harness`: registered, its suite passes
//! on the reference, departures are caught, and an exit status is never
//! charged outside the cases tagged ambiguous (PROG-2).

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

const HARNESS: &str = env!("CARGO_BIN_EXE_boxes-harness");

/// A shell script around the reference (the harness in reference mode).
fn variant(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nref() {{ CONFORMANCE_REFERENCE=gridgame {HARNESS} \"$@\"; }}\n{body}\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    path
}

fn suite(bin: Option<&Path>, extra: &[&str]) -> (i32, String) {
    let mut cmd = Command::cargo_bin("boxes-harness").unwrap();
    cmd.env("NO_COLOR", "1")
        .env("CONFORMANCE_CONTAINMENT", "group")
        .env_remove("GRIDGAME_BIN")
        .args(["--spec", "gridgame", "-j", "2"])
        .args(extra);
    if let Some(bin) = bin {
        cmd.arg("--bin").arg(bin);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn the_reference_passes_every_case() {
    let (code, text) = suite(None, &["--include-ignored", "--score"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("estimated mark: 80.00 / 80"), "{text}");
}

#[test]
fn trimmed_trailing_spaces_fail_the_display() {
    let dir = tempfile::tempdir().unwrap();
    let bin = variant(dir.path(), "trimmed", "ref | sed 's/ *$//'");
    // The display's own category: elsewhere, at a terminal, sed holds a
    // prompt without its newline and the interactive cases wait out their
    // time limit, which shows nothing about the display.
    let (code, text) = suite(Some(&bin), &["--timeout", "2", "--category", "display"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("display/empty-2x2"), "{text}");
}

#[test]
fn another_exit_status_is_charged_only_in_ambiguous_cases() {
    let dir = tempfile::tempdir().unwrap();
    let bin = variant(dir.path(), "exit-3", "ref; exit 3");
    let (code, text) = suite(Some(&bin), &[]);
    assert_eq!(code, 0, "PROG-2 is ambiguous: {text}");
    let (code, text) = suite(Some(&bin), &["--include-ignored"]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("status 3 where status 0 was expected"),
        "{text}"
    );
}

fn diff(bin: &Path, out: &Path) -> (i32, String) {
    let output = Command::cargo_bin("boxes-harness")
        .unwrap()
        .env("NO_COLOR", "1")
        .env("CONFORMANCE_CONTAINMENT", "group")
        .args([
            "diff",
            "--spec",
            "gridgame",
            "--sessions",
            "60",
            "--seed",
            "5",
            "-j",
            "2",
        ])
        .arg("--bin")
        .arg(bin)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr),
    )
}

#[test]
fn diff_finds_nothing_on_the_reference_and_shrinks_a_departure() {
    let dir = tempfile::tempdir().unwrap();
    let same = variant(dir.path(), "same", "ref \"$@\"");
    let (code, text) = diff(&same, &dir.path().join("none"));
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("0 mismatching"), "{text}");

    let trimmed = variant(dir.path(), "trimmed", "ref \"$@\" | sed 's/ *$//'");
    let out = dir.path().join("found");
    let (code, text) = diff(&trimmed, &out);
    assert_eq!(code, 1, "{text}");
    // Shrunk to the smallest session: the size prompt alone shows it.
    assert!(text.contains("with 0 stdin line(s)"), "{text}");
    let written: Vec<_> = std::fs::read_dir(out.join("pre-game")).unwrap().collect();
    assert!(!written.is_empty(), "{text}");
}

#[test]
fn the_corpus_of_hostile_lines_runs_as_cases() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    let n = gridgame_corpus::generate::generate(&corpus).unwrap();
    assert!(n >= 50, "{n}");
    let cases = corpus.to_str().unwrap();
    let (code, text) = suite(None, &["--cases", cases, "--include-ignored"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains(&format!("{n} passed")), "{text}");
    // Writing into a folder that is not empty is refused.
    assert!(gridgame_corpus::generate::generate(&corpus).is_err());
    let trimmed = variant(dir.path(), "trimmed", "ref | sed 's/ *$//'");
    let (code, _) = suite(Some(&trimmed), &["--cases", cases]);
    assert_eq!(code, 1);
}

/// `gridgame-fixture-variant` under a variant's name: a chooser wrong in
/// one tie-break level.
fn chooser_variant(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_gridgame-fixture-variant"), &path).unwrap();
    path
}

#[test]
fn a_chooser_wrong_in_one_tie_break_level_is_failed_found_and_named() {
    let dir = tempfile::tempdir().unwrap();
    // Under a neutral name the fixture is the reference: the suite passes.
    let same = chooser_variant(dir.path(), "gridgame");
    assert_eq!(suite(Some(&same), &[]).0, 0);
    for (name, level) in [("y-sum-first", "COMP-6"), ("largest-x-sum", "COMP-6")] {
        let bin = chooser_variant(dir.path(), name);
        // Not `-q`: that prints each cause's one line, not its cases.
        let (code, text) = suite(Some(&bin), &[]);
        assert_eq!(code, 1, "{name}: {text}");
        assert!(text.contains("computer-tie-break/"), "{name}: {text}");

        let out = dir.path().join(format!("{name}-found"));
        let (code, text) = diff(&bin, &out);
        assert_eq!(code, 1, "{name}: {text}");
        // Shrunk to the size and one human move, named by the level.
        assert!(text.contains("with 2 stdin line(s)"), "{name}: {text}");
        assert!(
            text.contains(&format!(
                "category computer-tie-break; rules COMP-1, COMP-3, {level}"
            )),
            "{name}: {text}"
        );
        assert!(out.join("computer-tie-break").is_dir(), "{name}: {text}");
    }
}

#[test]
fn byte_ff_read_as_end_of_input_is_failed_and_found() {
    let dir = tempfile::tempdir().unwrap();
    let bin = chooser_variant(dir.path(), "byte-ff-is-eof");
    let (code, text) = suite(Some(&bin), &[]);
    assert_eq!(code, 1, "{text}");
    for case in [
        "human-input/accepted-byte-above-127",
        "pre-game/size-line-high-bytes",
    ] {
        assert!(text.contains(case), "{case}: {text}");
    }
    // diff reaches a 0xFF inside a line (MOVE-3 drops it; the variant stops).
    let out = dir.path().join("found");
    let (code, text) = diff(&bin, &out);
    assert_eq!(code, 1, "{text}");
}
