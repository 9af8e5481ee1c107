//! A timeout is confirmed before it is charged (`cli/confirm.rs` of the
//! engine), and its words tell stuck from blocked: a program spinning for
//! ever is run again with 4× the limit and charged "timed out twice …
//! still using the CPU"; one blocked waiting (using no CPU) is charged at
//! once, since no load explains it. (A slow program that finishes, and
//! the same marks under load: `mark_rules.rs`.)

#![expect(clippy::expect_used, reason = "test helpers fail loudly")]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write the script");
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    path
}

/// The report of one case run on `bin` with a 0.3 s limit.
fn report(bin: &Path) -> String {
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness")
        .env("NO_COLOR", "1")
        .env_remove("BOXES_BIN")
        .env_remove("CONFORMANCE_REFERENCE")
        .args([
            "--timeout",
            "0.3",
            "--exact",
            "args-count/no-arguments",
            "--bin",
        ])
        .arg(bin)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_spinning_program_times_out_twice_and_a_blocked_one_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spin = script(dir.path(), "spin", "while :; do :; done");
    let text = report(&spin);
    assert!(
        // After 1.2 s, or 4.8 s when a loaded machine starved the first
        // confirmation; one that used all of its CPU time at once is told
        // so by confirming the worked example.
        text.contains("timed out twice: still running after 0.3 s, and again after ")
            && text.contains("still using the CPU at the kill"),
        "{text}"
    );
    assert!(text.contains("the reference takes under 0.05 s"), "{text}");

    let blocked = script(dir.path(), "blocked", "exec sleep 60");
    let text = report(&blocked);
    assert!(
        text.contains("still running after 0.3 s, waiting at the kill and using no CPU"),
        "{text}"
    );
    // Not run again.
    assert!(!text.contains("timed out twice"), "{text}");
}
