//! The codingame pack through `boxes-harness`: the reference bot (cg-bot)
//! and the valid settings of the faulty fixture pass every case; each fault
//! fails exactly the cases it should, each failure citing the rule it
//! breaks; failures show the request, the answer and commands that replay
//! them; `--results`, `--junit` and `--gradescope` work for the pack.

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]
#![expect(clippy::panic, reason = "a missing results file fails the test")]

use std::collections::BTreeSet;
use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

const FIXTURE: &str = env!("CARGO_BIN_EXE_codingame-fixture-faulty");

/// Cases that end before the bot's second request, which most faults
/// leave alone (they strike from the second request, or when a side is
/// drawn).
const FIRST_ONLY_A: [&str; 3] = [
    "answer-grammar/first-answer",
    "protocol-init/seat-a-first-request",
    "timing/first-request-seat-a",
];

/// Runs the harness on the codingame suite; returns the exit code and the
/// `--results` document.
fn run(bin: Option<&str>, fault: &str, extra: &[&str]) -> (i32, Value) {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("r.json");
    let mut cmd = Command::cargo_bin("boxes-harness").unwrap();
    cmd.args(["--spec", "codingame", "--include-ignored", "-q"])
        .arg("--results")
        .arg(&results)
        .args(extra)
        .env("CG_FAULT", fault)
        .env_remove("CODINGAME_BIN")
        .env_remove("CODINGAME_TIME_FACTOR");
    if let Some(bin) = bin {
        cmd.args(["--bin", bin]);
    }
    let out = cmd.output().unwrap();
    let code = out.status.code().unwrap();
    let text = std::fs::read_to_string(&results)
        .unwrap_or_else(|_| panic!("no results: {}", String::from_utf8_lossy(&out.stderr)));
    (code, serde_json::from_str(&text).unwrap())
}

fn names(doc: &Value, verdict: &str) -> BTreeSet<String> {
    doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["verdict"] == verdict)
        .map(|c| c["name"].as_str().unwrap().to_owned())
        .collect()
}

fn all_names(doc: &Value) -> BTreeSet<String> {
    doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Faults that are not about time: the rule each failure must cite, and
/// the cases that must pass (all others must fail).
const FAULTS: [(&str, &str, &[&str]); 11] = [
    ("lower-case", "ANSWER-3", &[]),
    ("trailing-space", "ANSWER-3", &[]),
    ("garbage", "ANSWER-3", &[]),
    ("two-spaces", "ANSWER-3", &[]),
    ("too-long", "ANSWER-5", &[]),
    ("no-such-box", "MOVE-1", &[]),
    ("side-already-drawn", "MOVE-1", &FIRST_ONLY_A),
    (
        "other-name-of-drawn-side",
        "MOVE-1",
        &[
            FIRST_ONLY_A[0],
            FIRST_ONLY_A[1],
            FIRST_ONLY_A[2],
            // B's first request shows `A1 L` drawn: an outer side, which
            // has no other name.
            "timing/first-request-seat-b",
        ],
    ),
    (
        "rows-from-top",
        "MOVE-1",
        &[
            FIRST_ONLY_A[0],
            FIRST_ONLY_A[1],
            FIRST_ONLY_A[2],
            // One request, on boards where the mirror of the first free
            // side is still free.
            "protocol-init/seat-b-first-request",
            "timing/first-request-seat-b",
        ],
    ),
    (
        "exit-early",
        "END-3",
        &[
            FIRST_ONLY_A[0],
            FIRST_ONLY_A[1],
            FIRST_ONLY_A[2],
            "protocol-init/seat-b-first-request",
            "timing/first-request-seat-b",
        ],
    ),
    (
        "no-newline",
        "END-3",
        &[
            FIRST_ONLY_A[0],
            FIRST_ONLY_A[1],
            FIRST_ONLY_A[2],
            "protocol-init/seat-b-first-request",
            "timing/first-request-seat-b",
        ],
    ),
];

#[test]
fn each_fault_fails_exactly_its_cases_with_its_rule() {
    for (fault, rule, passing) in FAULTS {
        // Time is not what these faults are about: a wide factor keeps a
        // loaded machine from adding timeouts.
        let (code, doc) = run(Some(FIXTURE), fault, &["--time-factor", "10"]);
        assert_eq!(code, 1, "{fault}");
        let passed = names(&doc, "passed");
        let want: BTreeSet<String> = passing.iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(passed, want, "{fault}: the cases that pass");
        assert!(names(&doc, "error").is_empty(), "{fault}");
        for case in doc["cases"].as_array().unwrap() {
            if case["verdict"] == "failed" {
                let diffs = case["differences"].as_array().unwrap();
                assert_eq!(diffs.len(), 1, "{fault}: {case}");
                assert_eq!(diffs[0]["part"], "exchange");
                assert_eq!(diffs[0]["rule"], rule, "{fault}: {}", case["name"]);
            }
        }
    }
}

#[test]
fn slow_faults_fail_the_timing_cases() {
    // TIME-5: at factor 1 the slow answers take three times the limit and
    // more (3.5 s for the first request, 350 ms for a later one).
    let (code, doc) = run(Some(FIXTURE), "slow-first", &["--category", "timing"]);
    assert_eq!(code, 1);
    assert!(names(&doc, "passed").is_empty(), "{doc}");
    let (code, doc) = run(Some(FIXTURE), "slow-later", &["--category", "timing"]);
    assert_eq!(code, 1);
    let passed = names(&doc, "passed");
    assert_eq!(
        passed,
        BTreeSet::from([
            "timing/first-request-seat-a".to_owned(),
            "timing/first-request-seat-b".to_owned()
        ])
    );
    for case in doc["cases"].as_array().unwrap() {
        if case["verdict"] == "failed" {
            assert_eq!(case["differences"][0]["rule"], "TIME-2");
            assert_eq!(case["differences"][0]["request_number"], 2);
        }
    }
}

#[test]
fn valid_fixture_settings_pass_every_case() {
    for fault in ["none", "crlf", "msg", "early-line"] {
        let (code, doc) = run(Some(FIXTURE), fault, &["--time-factor", "10"]);
        assert_eq!(
            names(&doc, "passed"),
            all_names(&doc),
            "{fault}: {}",
            serde_json::to_string_pretty(&doc["cases"]).unwrap()
        );
        assert_eq!(code, 0, "{fault}");
    }
}

#[test]
fn the_reference_bot_passes_every_case_with_junit_and_gradescope() {
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("j.xml");
    let grade = dir.path().join("g.json");
    let (code, doc) = run(
        None,
        "none",
        &[
            "--time-factor",
            "10",
            "--junit",
            junit.to_str().unwrap(),
            "--gradescope",
            grade.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["spec"], "codingame");
    assert_eq!(names(&doc, "passed").len(), all_names(&doc).len());
    assert!(all_names(&doc).len() >= 30);
    assert_eq!(doc["score"]["earned"], doc["score"]["max"]);
    let xml = std::fs::read_to_string(junit).unwrap();
    assert!(xml.contains("<testsuite name=\"full-matches\""), "{xml}");
    let grade: Value = serde_json::from_str(&std::fs::read_to_string(grade).unwrap()).unwrap();
    assert_eq!(grade["score"], 100.0);
}

#[test]
fn a_failure_shows_the_request_the_answer_the_rule_and_replays() {
    let out = Command::cargo_bin("boxes-harness")
        .unwrap()
        .args(["--spec", "codingame", "--bin", FIXTURE, "--exact"])
        .arg("protocol-init/seat-a-first-request")
        .env("CG_FAULT", "lower-case")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    for want in [
        "request 1 broke ANSWER-3",
        "sent:     2\\nA\\n0 0\\n4\\nA1 LTRB\\nB1 LTRB\\nA2 LTRB\\nB2 LTRB\\n",
        "received: a1 l\\n",
        "printf '2\\nA\\n0 0\\n4\\nA1 LTRB\\nB1 LTRB\\nA2 LTRB\\nB2 LTRB\\n' |",
        "re-run this conversation:",
        "--exact protocol-init/seat-a-first-request",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
}

#[test]
fn bin_is_a_command_line_for_this_pack_and_a_path_for_others() {
    // A command line with arguments, split as a shell would (no shell).
    let line = format!("sh -c 'exec \"$0\"' {FIXTURE}");
    let out = Command::cargo_bin("boxes-harness")
        .unwrap()
        .args(["--spec", "codingame", "--bin", &line, "--time-factor", "10"])
        .args(["--exact", "protocol-init/seat-b-first-request"])
        .env("CG_FAULT", "none")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    for bad in ["'unbalanced", "no-such-program-anywhere"] {
        let out = Command::cargo_bin("boxes-harness")
            .unwrap()
            .args(["--spec", "codingame", "--bin", bad])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
    // The default pack still takes a path: a command line is no file.
    let out = Command::cargo_bin("boxes-harness")
        .unwrap()
        .args(["--bin", "sh -c true", "--list"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn diff_has_no_explorer_for_this_pack() {
    let out = Command::cargo_bin("boxes-harness")
        .unwrap()
        .args(["diff", "--spec", "codingame", "--bin", FIXTURE])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("codingame"), "{err}");
}

#[test]
fn the_suite_folder_runs_as_cases_too() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases/codingame/protocol-init");
    let out = Command::cargo_bin("boxes-harness")
        .unwrap()
        .args(["--spec", "codingame", "--time-factor", "10", "--cases"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Running processes (not zombies) `sleep MARKER`.
fn sleepers(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit_once(") ")
            .is_some_and(|(_, s)| s.starts_with('Z'));
        if text.starts_with("sleep ") && text.contains(marker) && !zombie {
            found.push(format!("{}: {text}", entry.file_name().to_string_lossy()));
        }
    }
    found
}

#[test]
fn a_bots_setsid_daemon_dies_with_its_case() {
    let line = format!("sh -c 'setsid -f sleep 62.75; exec \"$0\"' {FIXTURE}");
    let out = Command::cargo_bin("boxes-harness")
        .unwrap()
        .args(["--spec", "codingame", "--bin", &line, "--time-factor", "10"])
        .args(["--exact", "protocol-init/seat-b-first-request"])
        .env("CG_FAULT", "none")
        .env_remove("CONFORMANCE_CONTAINMENT")
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(!text.contains("process group only"), "{text}");
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(sleepers("62.75"), Vec::<String>::new());
}

#[test]
fn ctrl_c_kills_a_waiting_bot_and_removes_its_folder() {
    // The bot sleeps instead of answering; with the limits scaled up it is
    // still waited for when the interrupt comes.
    let tmp = tempfile::tempdir().unwrap();
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("boxes-harness"))
        .args([
            "--spec",
            "codingame",
            "--bin",
            "sh -c 'exec sleep 61.5'",
            "--time-factor",
            "60",
        ])
        .args(["--exact", "protocol-init/seat-b-first-request"])
        .env("TMPDIR", tmp.path())
        .env_remove("CONFORMANCE_CONTAINMENT")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    // The preflight starts the command once too: wait for the case's bot,
    // whose folder the conversation driver makes.
    let bot_folder = || {
        std::fs::read_dir(tmp.path()).unwrap().flatten().any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("conformance-bot-")
        })
    };
    while !(bot_folder() && sleepers("61.5").len() == 1)
        && start.elapsed() < std::time::Duration::from_secs(30)
    {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(bot_folder(), "the case's bot never started");
    assert_eq!(sleepers("61.5").len(), 1, "the bot never started");
    let pid = rustix::process::Pid::from_child(&child);
    rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
    let out = child.wait_with_output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{text}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(sleepers("61.5"), Vec::<String>::new(), "{text}");
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().flatten().collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// The harness on the codingame pack with a shell one-liner as the bot.
fn with_bot(bot: &str, extra: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("boxes-harness")
        .unwrap()
        .env("NO_COLOR", "1")
        .env_remove("CODINGAME_BIN")
        .args(["--spec", "codingame", "--bin", bot])
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_bot_that_dies_at_once_is_one_set_up_error_with_its_status_and_stderr() {
    let (code, out, err) = with_bot("sh -c 'echo cannot load model >&2; exit 7'", &[]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("before it answered its first request"),
        "{err}"
    );
    assert!(err.contains("exit status 7"), "{err}");
    assert!(err.contains("`cannot load model`"), "{err}");
    assert!(!out.contains("failures by cause"), "{out}");
}

#[test]
fn a_bot_that_crashes_later_shows_how_it_ended_in_the_failure() {
    // Answers its first request, then dies by a signal at the second.
    let bot = "sh -c 'read a; read b; read c; read n; i=0; while [ $i -lt $n ]; do read l; \
               i=$((i+1)); done; echo A1 T; echo dying >&2; kill -SEGV $$'";
    let (code, out, _) = with_bot(bot, &["--exact", "extra-turns/extra-request-seat-a"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("the bot ended (killed by signal 11)"), "{out}");
    assert!(out.contains("`dying`"), "{out}");
}

/// A bot that answers its first request, then closes its stdout and keeps
/// running.
const CLOSES_STDOUT: &str = "sh -c 'read a; read b; read c; read n; i=0; while [ $i -lt $n ]; do \
                             read l; i=$((i+1)); done; echo A1 T; exec >&-; sleep 20'";

#[test]
fn a_bot_that_closes_its_stdout_is_eof_at_its_next_request_at_every_level() {
    for level in ["group", "pid", "full"] {
        let out = Command::cargo_bin("boxes-harness")
            .unwrap()
            .env("NO_COLOR", "1")
            .env("CONFORMANCE_CONTAINMENT", level)
            .env_remove("CODINGAME_BIN")
            .args(["--spec", "codingame", "--bin", CLOSES_STDOUT])
            .args(["--exact", "extra-turns/extra-request-seat-a"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{level}: {text}");
        assert!(text.contains("request 2 broke END-3"), "{level}: {text}");
        assert!(text.contains("(END-3: eof)"), "{level}: {text}");
    }
}
