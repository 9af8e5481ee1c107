//! The harness against a misbehaving program: each misbehaviour is
//! reported with the right words, and a bad case fails alone.

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn fixture_bin() -> &'static str {
    env!("CARGO_BIN_EXE_boxes-fixture-misbehave")
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/misbehave")
}

/// Runs one fixture case; returns (exit status, stdout).
fn run_case(rel: &str) -> (i32, String) {
    let out = Command::cargo_bin("boxes-harness")
        .unwrap()
        .env("NO_COLOR", "1")
        .env_remove("BOXES_BIN")
        .env_remove("BOXES_BLESS")
        .args(["--bin", fixture_bin(), "--cases"])
        .arg(fixtures().join(rel))
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

fn assert_fails_with(rel: &str, words: &[&str]) {
    let (code, text) = run_case(rel);
    assert_eq!(code, 1, "{rel} should fail:\n{text}");
    for w in words {
        assert!(text.contains(w), "{rel}: missing {w:?} in:\n{text}");
    }
}

#[test]
fn hang_is_killed_at_the_timeout() {
    assert_fails_with(
        "process/hang.yaml",
        &[
            "expected status 0, got timed out after 1 s",
            "&& timeout 1s env -i ",
        ],
    );
}

#[test]
fn orphan_holding_stdout_is_reported() {
    assert_fails_with(
        "process/orphan.yaml",
        &["left a process running that kept its output open"],
    );
}

#[test]
fn flood_hits_the_cap() {
    assert_fails_with(
        "process/flood.yaml",
        &["killed: stdout passed the output cap of 10000 bytes"],
    );
}

#[test]
fn a_flood_past_the_kept_window_is_counted_in_the_report() {
    // Expected nothing: 1 MiB is kept, the rest of the 3 MB to the cap is
    // only counted, and the report still gives the whole length.
    let (code, text) = run_case("process/flood-window.yaml");
    assert_eq!(code, 1, "{text}");
    let actual: u64 = text
        .split("+ actual ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no `+ actual N bytes` in:\n{text}"));
    assert!(actual > 3_000_000, "{actual} bytes in:\n{text}");
    assert!(text.contains("killed: stdout passed the output cap of 3000000 bytes"));
}

#[test]
fn segv_is_named() {
    assert_fails_with(
        "process/segv.yaml",
        &[
            "got killed by signal SIGSEGV (11)",
            "hint: a crash is never an acceptable answer",
        ],
    );
}

#[test]
fn exiting_without_reading_stdin_passes() {
    let dir = tempfile::tempdir().unwrap();
    let cat = dir.path().join("process");
    std::fs::create_dir(&cat).unwrap();
    std::fs::copy(fixtures().join("suite.yaml"), dir.path().join("suite.yaml")).unwrap();
    std::fs::copy(
        fixtures().join("process/no-read.yaml"),
        cat.join("no-read.yaml"),
    )
    .unwrap();
    // Far more than a pipe holds: the writer meets a closed pipe.
    std::fs::write(cat.join("big.stdin"), "0 0 h\n".repeat(100_000)).unwrap();
    Command::cargo_bin("boxes-harness")
        .unwrap()
        .args(["--bin", fixture_bin(), "--cases"])
        .arg(dir.path())
        .assert()
        .code(0);
}

#[test]
fn wrong_stream_shows_both_streams() {
    assert_fails_with(
        "streams/wrong-stream.yaml",
        &[
            "stdout differs",
            "(expected nothing on stdout)",
            "stderr differs",
            "(got nothing on stderr)",
            "+Usage: boxes height width playercount [filename]",
            "hint: the usage line goes to stderr, not stdout",
        ],
    );
}

#[test]
fn unflushed_prompt_is_named() {
    assert_fails_with(
        "streams/no-flush.yaml",
        &["the program's prompt never appeared before stdin line 1"],
    );
}

#[test]
fn flushed_prompts_release_lines_one_at_a_time() {
    let (code, text) = run_case("streams/prompt.yaml");
    assert_eq!(code, 0, "{text}");
}

#[test]
fn files_written_are_compared() {
    assert_fails_with(
        "files/write-files.yaml",
        &[
            "file: `saved.txt` differs",
            "-2",
            "+1",
            "file: `extra.txt` should not exist after the run but does",
        ],
    );
}

#[test]
fn a_bad_case_fails_alone() {
    let (code, text) = run_case("files");
    // A case that cannot be run is an error of the suite: exit 2, while the
    // other cases still run and are judged.
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("1 case(s) could not be run"), "{text}");
    assert!(
        text.contains("invalid case file (a fault of the suite, not of the program): "),
        "{text}"
    );
    assert!(
        text.contains("bad-key.yaml:6:1: unknown field `stdot`"),
        "{text}"
    );
    assert!(text.contains("1 passed; 2 failed"), "{text}");
}

#[test]
fn failure_reports_reproduce_commands_and_no_rebless_for_a_candidate() {
    let (_, text) = run_case("streams/wrong-stream.yaml");
    assert!(
        text.contains(
            "reproduce:\n  (d=\"$(mktemp -d)\" && trap 'rm -rf \"$d\"' EXIT && cd \"$d\""
        ),
        "{text}"
    );
    assert!(
        text.contains(" wrong-stream < /dev/null; echo \"exit status $?\")"),
        "{text}"
    );
    // The program under test is not the reference: a re-bless hint would
    // be of no use to its author.
    assert!(!text.contains("--bless"), "{text}");
}

#[test]
fn timeout_option_replaces_the_case_timeout() {
    let out = Command::cargo_bin("boxes-harness")
        .unwrap()
        .env("NO_COLOR", "1")
        .args(["--bin", fixture_bin(), "--timeout", "0.5", "--cases"])
        .arg(fixtures().join("process/hang.yaml"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("got timed out after 0.5 s"), "{text}");
}

#[test]
fn the_reproduce_command_reproduces() {
    let (_, text) = run_case("streams/wrong-stream.yaml");
    let command = text
        .lines()
        .skip_while(|l| *l != "reproduce:")
        .nth(1)
        .unwrap()
        .trim();
    let out = std::process::Command::new("sh")
        .args(["-c", command])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Usage: boxes height width playercount [filename]\nexit status 1\n"
    );
}

#[test]
fn no_colour_off_a_terminal() {
    let (_, text) = run_case("streams/wrong-stream.yaml");
    assert!(!text.contains('\x1b'), "{text}");
}

#[test]
fn missing_or_non_executable_bin_is_a_setup_error() {
    for bin in ["/nonexistent/boxes", env!("CARGO_MANIFEST_DIR")] {
        let out = Command::cargo_bin("boxes-harness")
            .unwrap()
            .args(["--bin", bin])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(bin), "{err}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("running"));
    }
    let script = tempfile::NamedTempFile::new().unwrap();
    let out = Command::cargo_bin("boxes-harness")
        .unwrap()
        .arg("--bin")
        .arg(script.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not an executable file"));
}

#[test]
fn bless_refuses_a_candidate() {
    let out = Command::cargo_bin("boxes-harness")
        .unwrap()
        .args(["--bless", "--bin", fixture_bin(), "--cases"])
        .arg(fixtures())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("from the reference only"));
}
