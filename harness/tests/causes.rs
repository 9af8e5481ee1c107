//! One cause per bug, across the packs: fixture programs that each
//! reproduce one pattern met in real submissions (an echo of every input
//! line, a debug line, a loader that leaves cells unset and prints
//! garbage, a missing computer player, a crash after a failed save, a
//! chooser wrong in one tie-break level) each give one cause, two at most,
//! named after the rule whose output differs; and two runs give the same
//! cause list byte for byte (the garbage byte changes from run to run).

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::Path;

use assert_cmd::Command;

/// The cause lines of a `-q` run of `pack`'s suite on `fixture` under the
/// variant's `name`.
fn causes(dir: &Path, pack: &str, fixture: &str, name: &str) -> Vec<String> {
    let link = dir.join(pack).join(name);
    if !link.exists() {
        std::fs::create_dir_all(dir.join(pack)).expect("a folder per pack");
        std::os::unix::fs::symlink(fixture, &link).expect("symlink the fixture");
    }
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env("NO_COLOR", "1")
        .env_remove("CONFORMANCE_REFERENCE")
        .args(["--spec", pack, "-q", "--bin"])
        .arg(&link)
        .output()
        .expect("the harness runs");
    assert_eq!(out.status.code(), Some(1), "{pack} {name}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with("cause "))
        .map(str::to_owned)
        .collect()
}

const BOXES: &str = env!("CARGO_BIN_EXE_boxes-fixture-variant");
const NOGO: &str = env!("CARGO_BIN_EXE_nogo-fixture-variant");
const GRIDGAME: &str = env!("CARGO_BIN_EXE_gridgame-fixture-variant");

/// Each pattern: the pack, the fixture, the variant, and words its first
/// cause must hold (the rule, or the named departure).
const PATTERNS: &[(&str, &str, &str, &str)] = &[
    (
        "boxes",
        BOXES,
        "echo-lines",
        "the program echoes the input line it just read",
    ),
    (
        "boxes",
        BOXES,
        "echo-moves",
        "before the grid after a valid move (DISP-1",
    ),
    (
        "boxes",
        BOXES,
        "no-extra-turn",
        "in the prompt after a valid move (TURN-1, TURN-5)",
    ),
    (
        "nogo",
        NOGO,
        "loader-garbage",
        "in the grid at the start (a new game or the loaded file) (GRID-1",
    ),
    (
        "nogo",
        NOGO,
        "no-computer",
        "in the computer's move (COMP-4",
    ),
    (
        "nogo",
        NOGO,
        "crash-after-failed-save",
        "killed by signal SIGABRT",
    ),
    (
        "gridgame",
        GRIDGAME,
        "echo-lines",
        "the program echoes the input line it just read",
    ),
    (
        "gridgame",
        GRIDGAME,
        "debug-line",
        "before the grid of a turn (DISP-1",
    ),
    (
        "gridgame",
        GRIDGAME,
        "y-sum-first",
        "in the computer's move (COMP-8, COMP-3, COMP-6)",
    ),
];

#[test]
fn each_pattern_is_one_cause_named_by_its_rule_and_stable() {
    let dir = tempfile::tempdir().expect("temp dir");
    for &(pack, fixture, name, words) in PATTERNS {
        let first = causes(dir.path(), pack, fixture, name);
        assert!(
            (1..=2).contains(&first.len()),
            "{pack} {name}: {} causes\n{}",
            first.len(),
            first.join("\n")
        );
        assert!(first[0].contains(words), "{pack} {name}: {}", first[0]);
        let again = causes(dir.path(), pack, fixture, name);
        assert_eq!(first, again, "{pack} {name}: another run, other causes");
    }
}
