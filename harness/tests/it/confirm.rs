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

/// Eleven cases that hang alike (one cause: `args-count`, each killed at
/// its 0.3 s limit while runnable, having slept a fifth of a second
/// first, so short of its CPU time and confirmed on every machine): the
/// cause is run again once, not once per case, and every case is charged
/// (eleven runs and one confirmation; two when a loaded machine starves
/// the confirmation too). Each run counts itself in a file, which the
/// process-group level lets it write. Since every case failed, the
/// harness also asks which registered pack the program looks like, with
/// one run per pack that ends at its first timeout: four more runs at
/// most. Confirmed one per case, as before, it made 22 runs and more.
#[test]
fn a_cause_of_alike_hangs_is_run_again_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let count = dir.path().join("runs");
    let bin = script(
        dir.path(),
        "late-spin",
        &format!(
            "echo run >> '{}'\nsleep 0.2\nwhile :; do :; done",
            count.display()
        ),
    );
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness")
        .env("NO_COLOR", "1")
        .env("CONFORMANCE_CONTAINMENT", "group")
        .env_remove("BOXES_BIN")
        .env_remove("CONFORMANCE_REFERENCE")
        .args([
            "--timeout",
            "0.3",
            "--no-early-stop",
            "--category",
            "args-count",
            "--bin",
        ])
        .arg(&bin)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("0 passed; 11 failed"), "{text}");
    assert!(text.contains("11 failed case(s), 1 cause(s)"), "{text}");
    assert!(
        text.contains("timed out twice: still running after 0.3 s"),
        "{text}"
    );
    let runs = std::fs::read_to_string(&count)
        .expect("the runs")
        .lines()
        .count();
    assert!((12..=11 + 2 + 4).contains(&runs), "{runs} runs\n{text}");
}
