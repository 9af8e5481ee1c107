//! The harness's own small robustness fixes: a closed output pipe, filters
//! that match nothing, absurd timeouts, special files in case folders,
//! reproduce lines for paths that are not UTF-8, and the reference with
//! its stdout closed.

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]

use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use assert_cmd::Command;

fn harness_path() -> PathBuf {
    assert_cmd::cargo::cargo_bin("boxes-harness")
}

fn harness() -> Command {
    let mut cmd = Command::cargo_bin("boxes-harness").unwrap();
    cmd.env("NO_COLOR", "1")
        .env_remove("BOXES_BIN")
        .env_remove("BOXES_BLESS");
    cmd
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/misbehave")
}

fn seeds() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/boxes")
}

/// Runs the harness with its stdout already closed by the reader.
fn with_stdout_closed(args: &[&str]) -> (Option<i32>, String) {
    let mut child = std::process::Command::new(harness_path())
        .args(args)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_output_pipe_ends_quietly() {
    for args in [
        &["--list"][..],
        &["--cases", &seeds().display().to_string()][..],
    ] {
        let (code, err) = with_stdout_closed(args);
        assert_eq!(code, Some(141), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn diff_with_a_closed_output_pipe_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = env!("CARGO_BIN_EXE_boxes-fixture-misbehave");
    let out_dir = dir.path().join("out");
    let (code, err) = with_stdout_closed(&[
        "diff",
        "--bin",
        fixture,
        "--sessions",
        "3",
        "--seed",
        "1",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(code == Some(141) || code == Some(1), "{code:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_filter_that_matches_no_case_is_a_usage_error() {
    for args in [
        &["--exact", "no/such-case"][..],
        &["no-such-case-anywhere"][..],
    ] {
        let out = harness().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("no case matches"), "{err}");
    }
    // A filter that matches still runs.
    harness()
        .args(["--cases", &seeds().display().to_string(), "args"])
        .assert()
        .code(0);
}

#[test]
fn absurd_timeouts_are_refused_at_parse_time() {
    for t in ["-1", "NaN", "0", "86401", "9.3e18", "soon"] {
        let arg = format!("--timeout={t}");
        let out = harness().args([arg.as_str(), "--list"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{t}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--timeout"), "{t}: {err}");
        assert!(!err.contains("panicked"), "{t}: {err}");
        let out = harness()
            .args(["diff", "--bin", "/bin/true", arg.as_str()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "diff {t}");
    }
}

#[test]
fn special_files_in_a_case_folder_are_skipped_not_opened() {
    let dir = tempfile::tempdir().unwrap();
    let cat = dir.path().join("process");
    std::fs::create_dir(&cat).unwrap();
    std::fs::copy(fixtures().join("suite.yaml"), dir.path().join("suite.yaml")).unwrap();
    std::fs::copy(
        fixtures().join("process/no-read.yaml"),
        cat.join("no-read.yaml"),
    )
    .unwrap();
    std::fs::write(cat.join("big.stdin"), "0 0 h\n").unwrap();
    // A FIFO nobody writes: opening it would block the harness for ever.
    let fifo = cat.join("stuck.yaml");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let out = harness()
        .args(["--bin", env!("CARGO_BIN_EXE_boxes-fixture-misbehave")])
        .arg("--cases")
        .arg(dir.path())
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("stuck.yaml: not a regular file"), "{err}");
}

#[test]
fn reproduce_lines_quote_paths_that_are_not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir
        .path()
        .join(std::ffi::OsStr::from_bytes(b"fixture-\xff bin"));
    std::fs::copy(env!("CARGO_BIN_EXE_boxes-fixture-misbehave"), &bin).unwrap();
    let out = harness()
        .arg("--bin")
        .arg(&bin)
        .arg("--cases")
        .arg(fixtures().join("streams/wrong-stream.yaml"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(r"fixture-\xff bin'"), "{text}");
    let command = text
        .lines()
        .skip_while(|l| *l != "reproduce:")
        .nth(1)
        .unwrap()
        .trim();
    // The line makes its folder in TMPDIR and removes it when it ends.
    let tmp = tempfile::tempdir().unwrap();
    let run = std::process::Command::new("bash")
        .args(["-c", command])
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "Usage: boxes height width playercount [filename]\nexit status 1\n"
    );
    assert_eq!(
        std::fs::read_dir(tmp.path()).unwrap().count(),
        0,
        "{command}"
    );
}

#[test]
fn the_reference_with_stdout_closed_is_a_system_call_failure() {
    let out = std::process::Command::new("sh")
        .args(["-c", "exec \"$0\" 3 3 2 >&- </dev/null"])
        .arg(harness_path())
        .env("CONFORMANCE_REFERENCE", "boxes")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(9));
    assert_eq!(out.stderr, b"System call failure\n");
}

/// A `--bin` that cannot be executed: exit 2 before any case, with `words`.
fn assert_preflight(bytes: &[u8], words: &str) {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("boxes");
    std::fs::write(&bin, bytes).unwrap();
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = harness().arg("--bin").arg(&bin).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot be executed: "), "{err}");
    assert!(err.contains(words), "{err}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("running"));
}

#[test]
fn a_program_that_cannot_be_executed_is_a_setup_error() {
    assert_preflight(b"#!/bin/sh\r\necho hi\r\n", "carriage return");
    assert_preflight(
        b"#!/usr/bin/python-nowhere\nprint(1)\n",
        "`/usr/bin/python-nowhere`, which does not exist",
    );
    let mut elf = b"\x7fELF\x02\x01\x01".to_vec();
    elf.resize(18, 0);
    let foreign: u16 = if cfg!(target_arch = "aarch64") {
        62
    } else {
        183
    };
    elf.extend_from_slice(&foreign.to_le_bytes());
    elf.resize(64, 0);
    assert_preflight(&elf, "another architecture");
}
