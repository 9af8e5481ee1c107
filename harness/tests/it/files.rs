//! Helpers the folder-pack tests share: a file written with its folders,
//! a finished command's output as one text, the harness as they run it, a
//! pack blessed.

#![expect(
    clippy::expect_used,
    reason = "test helpers: a file that cannot be written must fail the test"
)]

use std::path::Path;
use std::process::Output;

use assert_cmd::Command;

/// Writes `text` to `path`, making its folders.
pub fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("folder");
    }
    std::fs::write(path, text).expect("write");
}

/// What a finished command printed, stdout then stderr.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The harness as a test runs its folder pack `name`: no colour, and none
/// of a developer's environment that would change what runs (a reference
/// mode, a containment level, the pack's own `NAME_BIN`).
pub fn harness(name: &str) -> Command {
    let mut cmd = Command::cargo_bin("boxes-harness").expect("the harness binary");
    cmd.env("NO_COLOR", "1")
        .env_remove("CONFORMANCE_REFERENCE")
        .env_remove("CONFORMANCE_CONTAINMENT")
        .env_remove(format!("{}_BIN", name.to_uppercase()));
    cmd
}

/// Blesses the folder pack `pack` with `harness` (the test's own harness
/// command, its environment set): the test fails, showing what the harness
/// said, unless it exits 0.
pub fn bless(mut harness: Command, pack: &Path) {
    let out = harness
        .args(["bless", "--spec"])
        .arg(pack)
        .output()
        .expect("bless");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}
