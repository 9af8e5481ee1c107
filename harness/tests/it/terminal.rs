//! Interactive cases run at a real terminal: stdin and stdout on one
//! pseudo-terminal. A program that buffers exactly like C's stdio (the
//! variant fixtures' `c-stdio`: stdout line buffered at a terminal, fully
//! buffered on a pipe, the prompt printed without a flush, stdout flushed
//! before each read of a terminal stdin) passes every case of the suite;
//! one that really never shows its prompt before reading
//! (`c-stdio-fully-buffered`) fails every interactive case, and the report
//! says why.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The harness's exit status when a case failed, and when a case could not
/// be run.
const CASE_FAILED: i32 = 1;
const SUITE_ERROR: i32 = 2;

/// A variant fixture under `name`, through a symlink in `dir`.
fn variant(dir: &Path, fixture: &str, name: &str) -> PathBuf {
    let link = dir.join(name);
    std::os::unix::fs::symlink(fixture, &link).expect("symlink the variant fixture");
    link
}

fn boxes(dir: &Path, name: &str) -> PathBuf {
    variant(dir, env!("CARGO_BIN_EXE_boxes-fixture-variant"), name)
}

fn nogo(dir: &Path, name: &str) -> PathBuf {
    variant(dir, env!("CARGO_BIN_EXE_nogo-fixture-variant"), name)
}

/// The harness at the cheapest containment (verdicts are tested here, not
/// containment), with the environment a test must not inherit cleared.
fn harness(containment: &str) -> Command {
    let mut cmd = Command::cargo_bin("boxes-harness").expect("the harness binary");
    cmd.env("NO_COLOR", "1")
        .env("CONFORMANCE_CONTAINMENT", containment)
        .env_remove("BOXES_BIN")
        .env_remove("BOXES_BLESS")
        .env_remove("CONFORMANCE_REFERENCE")
        .args(["--test-threads", "2", "--format", "libtest"]);
    cmd
}

/// The run's stdout and the cases that passed and failed.
struct Verdicts {
    stdout: String,
    passed: BTreeSet<String>,
    failed: BTreeSet<String>,
}

fn verdicts(cmd: &mut Command, code: i32) -> Verdicts {
    let assert = cmd.assert().code(code);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    let named = |suffix: &str| -> BTreeSet<String> {
        stdout
            .lines()
            .filter_map(|l| l.strip_prefix("test ")?.strip_suffix(suffix))
            .map(|name| name.trim().to_owned())
            .collect()
    };
    Verdicts {
        passed: named(" ... ok"),
        failed: named(" ... FAILED"),
        stdout,
    }
}

fn interactive(names: &BTreeSet<String>) -> BTreeSet<String> {
    names
        .iter()
        .filter(|n| n.contains("interactive"))
        .cloned()
        .collect()
}

#[test]
fn a_program_buffering_like_c_stdio_passes_every_boxes_case() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = boxes(dir.path(), "c-stdio");
    let run = verdicts(harness("group").arg("--bin").arg(&bin), 0);
    assert!(run.failed.is_empty(), "{:?}", run.failed);
    assert!(
        interactive(&run.passed).len() >= 7,
        "the interactive cases ran: {:?}",
        run.passed
    );
}

#[test]
fn c_stdio_departs_only_where_a_full_stdout_is_noticed_at_exit() {
    // The ambiguous SYS-1 cases put stdout on /dev/full: a C program that
    // never flushes finds out only in exit's flush, too late to say so.
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = boxes(dir.path(), "c-stdio");
    let run = verdicts(
        harness("group")
            .arg("--bin")
            .arg(&bin)
            .arg("--include-ignored"),
        CASE_FAILED,
    );
    let expected: BTreeSet<String> = [
        "initial-display/loaded-stdout-full",
        "initial-display/new-game-stdout-full",
    ]
    .map(str::to_owned)
    .into();
    assert_eq!(run.failed, expected);
}

#[test]
fn a_program_that_never_shows_its_prompt_fails_every_interactive_case() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = boxes(dir.path(), "c-stdio-fully-buffered");
    let run = verdicts(
        harness("group")
            .arg("--bin")
            .arg(&bin)
            .args(["--timeout", "1", "interactive"]),
        CASE_FAILED,
    );
    assert!(run.passed.is_empty(), "{:?}", run.passed);
    assert!(run.failed.len() >= 7, "{:?}", run.failed);
    assert!(
        run.stdout.contains(
            "the program's prompt never appeared before stdin line 1 (stdin and stdout were one \
             terminal"
        ),
        "{}",
        run.stdout
    );
    // No stdin at all: the end of input waits for the prompt too.
    assert!(
        run.stdout
            .contains("never appeared before the end of input (Ctrl-D after the last line)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("(interactive: the harness ran it with stdin and stdout on one terminal;"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_terminal_works_inside_the_namespaces_too() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = boxes(dir.path(), "c-stdio");
    let run = verdicts(harness("pid").arg("--bin").arg(&bin).arg("interactive"), 0);
    assert!(run.passed.len() >= 7, "{:?}", run.passed);
}

#[test]
fn nogo_c_stdio_passes_every_case_and_fully_buffered_fails_the_interactive_ones() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good = nogo(dir.path(), "c-stdio");
    let run = verdicts(
        harness("group")
            .args(["--spec", "nogo", "--bin"])
            .arg(&good)
            .arg("--include-ignored"),
        0,
    );
    // nogo's SYS-1 ignores a stdout that cannot be written: even its
    // ambiguous cases pass.
    assert!(run.failed.is_empty(), "{:?}", run.failed);
    assert!(interactive(&run.passed).len() >= 3, "{:?}", run.passed);
    let bad = nogo(dir.path(), "c-stdio-fully-buffered");
    let run = verdicts(
        harness("group")
            .args(["--spec", "nogo", "--bin"])
            .arg(&bad)
            .args(["--timeout", "1", "interactive"]),
        CASE_FAILED,
    );
    assert!(run.passed.is_empty(), "{:?}", run.passed);
    assert!(run.failed.len() >= 3, "{:?}", run.failed);
}

#[test]
fn an_interactive_line_too_long_for_a_terminal_is_a_case_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("initial-display");
    std::fs::create_dir(&folder).expect("case folder");
    let case = folder.join("long-line.yaml");
    let line = "a".repeat(4096);
    let write = |line: &str| {
        std::fs::write(
            &case,
            format!(
                "summary: a line no terminal delivers whole\ncategory: initial-display\n\
                 rules: [TURN-1]\nmode: interactive\nargs: [\"2\", \"2\", \"2\"]\n\
                 stdin: \"{line}\\n\"\nstatus: 6\n\
                 stdout: \"+ + +\\n     \\n+ + +\\n     \\n+ + +\\nA> A> \"\n\
                 stderr: \"End of user input\\n\"\n"
            ),
        )
        .expect("case file");
    };
    write(&line);
    let run = verdicts(harness("group").arg("--cases").arg(dir.path()), SUITE_ERROR);
    let message = format!(
        "{}: stdin line 1 has 4096 bytes, but `mode: interactive` types stdin at a terminal",
        case.display()
    );
    assert!(run.stdout.contains(&message), "{}", run.stdout);
    // One byte shorter is typed whole: an invalid move, the prompt again.
    write(&line[1..]);
    let run = verdicts(harness("group").arg("--cases").arg(dir.path()), 0);
    assert_eq!(run.passed.len(), 1, "{}", run.stdout);
}
