//! What a failing run tells people: failures grouped by cause (one worked
//! example per cause), the stdin line being answered, reproduce blocks
//! that never inline more than a few KiB, `--keep-failed` kits that
//! replay a case, no re-bless hint for a program that is not the
//! reference, and `diff`'s plain progress lines and cause-keyed findings.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The suite's variant fixture under `name`, through a symlink in `dir`.
fn variant(dir: &Path, name: &str) -> PathBuf {
    let link = dir.join(name);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_boxes-fixture-variant"), &link)
        .expect("symlink the variant fixture");
    link
}

fn harness() -> Command {
    let mut cmd = Command::cargo_bin("boxes-harness").expect("the harness binary");
    cmd.env("NO_COLOR", "1")
        .env_remove("BOXES_BIN")
        .env_remove("BOXES_BLESS")
        .env_remove("CONFORMANCE_REFERENCE");
    cmd
}

fn stdout_of(cmd: &mut Command, code: i32) -> String {
    let assert = cmd.assert().code(code);
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

#[test]
fn one_debug_line_after_each_move_is_one_cause_with_one_worked_example() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = variant(dir.path(), "echo-moves");
    let text = stdout_of(
        harness()
            .arg("--bin")
            .arg(&bin)
            .args(["--test-threads", "2"]),
        1,
    );
    // The report shows causes, not a line per case.
    assert!(!text.contains("... FAILED"), "{text}");
    let failed: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("test result: FAILED. ")?.split("; ").nth(1))
        .and_then(|f| f.strip_suffix(" failed")?.parse().ok())
        .expect("a result line");
    assert!(failed > 50, "{failed} failed\n{text}");
    let grouped = text
        .split_once("failures by cause:")
        .map(|(_, g)| g)
        .expect("a grouped report");
    // Named by the rule context the reference was writing (its
    // provenance), the bytes quoted once.
    assert!(
        grouped.contains(&format!(
            "cause 1 of 1: {failed} case(s): stdout, before the grid after a valid move \
             (DISP-1, DISP-2, DISP-3, TURN-5): an extra line\n  \
             for example: stdout: extra output `DEBUG: valid move "
        )),
        "{grouped}"
    );
    assert_eq!(text.matches("\nreproduce:\n").count(), 1, "{text}");
    assert!(grouped.len() < 8 * 1024, "{} bytes", grouped.len());
    // The program under test is not the reference.
    assert!(!text.contains("--bless"), "{text}");
    // The worked example is a shortest case (one stdin line), and the
    // stdin line being answered is named.
    assert!(grouped.contains("input: after stdin line 1 `"), "{grouped}");
    assert!(grouped.contains(", got `DEBUG: valid move "), "{grouped}");
}

#[test]
fn keep_failed_writes_a_kit_that_replays_the_case() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = variant(dir.path(), "echo-moves");
    let kits = dir.path().join("kits");
    let text = stdout_of(
        harness()
            .arg("--bin")
            .arg(&bin)
            .arg("--keep-failed")
            .arg(&kits)
            .args(["--exact", "initial-display/new-game-interactive-move"]),
        1,
    );
    let kit = kits.join("initial-display/new-game-interactive-move");
    assert!(
        text.contains(&kit.join("run.sh").display().to_string()),
        "{text}"
    );
    // An interactive case lists the lines to type.
    assert!(
        text.contains("type these lines, one at each prompt"),
        "{text}"
    );
    assert!(text.contains("\n     1  0 0 h\n"), "{text}");
    assert_eq!(std::fs::read(kit.join("stdin")).expect("stdin"), b"0 0 h\n");
    let expected = std::fs::read(kit.join("expected/stdout")).expect("expected stdout");
    // run.sh works in a folder of TMPDIR and removes it when it ends.
    let tmp = tempfile::tempdir().expect("temp dir");
    let replay = std::process::Command::new(kit.join("run.sh"))
        .env("TMPDIR", tmp.path())
        .output()
        .expect("run.sh runs");
    assert_eq!(replay.status.code(), Some(6));
    let got = String::from_utf8_lossy(&replay.stdout);
    assert!(got.contains("DEBUG: valid move 00\n"), "{got}");
    assert_ne!(replay.stdout, expected);
    let left = std::fs::read_dir(tmp.path()).expect("tmp").count();
    assert_eq!(left, 0, "run.sh left its folder behind");
}

#[test]
fn a_megabyte_of_input_is_pointed_at_not_inlined() {
    let text = stdout_of(
        harness().args([
            "--bin",
            "/bin/true",
            "--exact",
            "file-errors/long-garbage-line",
        ]),
        1,
    );
    assert!(text.len() < 16 * 1024, "{} bytes", text.len());
    assert!(text.contains("too long to paste"), "{text}");
    assert!(text.contains("--keep-failed DIR"), "{text}");
}

#[test]
fn a_wrong_expectation_checked_on_the_reference_offers_a_rebless() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("args-count");
    std::fs::create_dir(&folder).expect("case folder");
    let case = folder.join("wrong.yaml");
    std::fs::write(
        &case,
        "summary: a deliberately wrong expectation\ncategory: args-count\nrules: [ARGS-1]\n\
         args: []\nstatus: 0\nstdout: \"\"\nstderr: \"\"\n",
    )
    .expect("write the case");
    let kits = dir.path().join("kits");
    let text = stdout_of(
        harness()
            .arg("--cases")
            .arg(&case)
            .arg("--keep-failed")
            .arg(&kits),
        1,
    );
    assert!(text.contains("--bless --cases"), "{text}");
    // The kit replays the reference itself.
    let replay = std::process::Command::new(kits.join("args-count/wrong/run.sh"))
        .output()
        .expect("run.sh runs");
    assert_eq!(replay.status.code(), Some(1), "{replay:?}");
    assert!(
        String::from_utf8_lossy(&replay.stderr).contains("Usage:"),
        "{replay:?}"
    );
    assert!(
        text.contains("status: status 1 where status 0 was expected"),
        "{text}"
    );
}

#[test]
fn diff_prints_plain_progress_and_keys_findings_by_cause() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = variant(dir.path(), "echo-moves");
    let assert = harness()
        .current_dir(dir.path())
        .args(["diff", "--bin"])
        .arg(&bin)
        .args(["--sessions", "300", "--seed", "7", "--max-failures", "4"])
        .arg("--out")
        .arg(dir.path().join("cases"))
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    let progress = stderr.lines().filter(|l| l.starts_with("diff: ")).count();
    assert!(progress >= 2, "{stderr}");
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    let causes: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("  cause: "))
        .collect();
    assert!(!causes.is_empty(), "{stdout}");
    let distinct: std::collections::BTreeSet<&&str> = causes.iter().collect();
    assert_eq!(distinct.len(), causes.len(), "{stdout}");
    // Named by the reference's provenance: where the extra line lands.
    assert!(
        causes[0].contains("stdout, before the grid after a valid move"),
        "{stdout}"
    );
    assert_eq!(causes.len(), 1, "one bug, one finding: {stdout}");
}

#[test]
fn diff_against_a_program_that_hangs_stops_with_a_verdict() {
    let dir = tempfile::tempdir().expect("temp dir");
    let hang = dir.path().join("hang");
    std::fs::write(&hang, "#!/bin/sh\nexec sleep 60\n").expect("write the script");
    std::fs::set_permissions(&hang, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("make it executable");
    // Defaults: no --timeout, no --sessions. Each candidate run gets
    // max(1 s, 20 × the reference's time), and the run stops once every
    // session so far has timed out.
    let assert = harness()
        .current_dir(dir.path())
        .args(["diff", "--bin"])
        .arg(&hang)
        .args(["--seed", "5"])
        .arg("--out")
        .arg(dir.path().join("cases"))
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(
        stdout.contains("got \"timed out after 1 s: killed at its time limit"),
        "{stdout}"
    );
    assert!(
        stdout.contains("stopped early: the program timed out in each of the"),
        "{stdout}"
    );
    assert!(!stdout.contains("2000 sessions"), "{stdout}");
}
