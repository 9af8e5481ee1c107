//! The early verdict on a program that hangs (`crate::budget` of the
//! engine): when the first cases to finish all timed out, the rest are not
//! run, each reported as a failure saying why and how to run it anyway; a
//! program that passes any case first is never cut short; `--no-early-stop`
//! turns it off. Verdicts and words only: how fast it is, is
//! `benches/hostile.rs`'s business.

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

const FIXTURE: &str = env!("CARGO_BIN_EXE_boxes-fixture-misbehave");

/// A suite folder: `(name, args)` cases in category `c`, each expecting
/// status 0 within one second.
fn suite(dir: &Path, cases: &[(&str, &[&str])]) -> PathBuf {
    let root = dir.join("suite");
    std::fs::create_dir_all(root.join("c")).unwrap();
    std::fs::write(
        root.join("suite.yaml"),
        "name: budget\nversion: \"1\"\nspec: the early verdict\ncategories:\n  \
         - {name: c, marks: 10, title: cases}\n",
    )
    .unwrap();
    for (name, args) in cases {
        let args: Vec<String> = args.iter().map(|a| format!("\"{a}\"")).collect();
        std::fs::write(
            root.join("c").join(format!("{name}.yaml")),
            format!(
                "summary: {name}\ncategory: c\nrules: [T-1]\nargs: [{}]\ntimeout: 1\nstatus: 0\n",
                args.join(", ")
            ),
        )
        .unwrap();
    }
    root
}

struct Run {
    code: i32,
    stdout: String,
    results: Value,
    junit: String,
}

fn run(dir: &Path, root: &Path, extra: &[&str]) -> Run {
    let results = dir.join("results.json");
    let junit = dir.join("junit.xml");
    let out = Command::cargo_bin("boxes-harness")
        .unwrap()
        .env("NO_COLOR", "1")
        .env_remove("BOXES_BIN")
        .args([
            "--bin",
            FIXTURE,
            "--test-threads",
            "2",
            "--score",
            "--cases",
        ])
        .arg(root)
        .arg("--results")
        .arg(&results)
        .arg("--junit")
        .arg(&junit)
        .args(extra)
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr),
        results: serde_json::from_slice(&std::fs::read(&results).unwrap()).unwrap(),
        junit: std::fs::read_to_string(&junit).unwrap(),
    }
}

/// The cases of `--results` whose first difference is `part`.
fn with_part(results: &Value, part: &str) -> usize {
    results["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["differences"][0]["part"] == part)
        .count()
}

/// The cases that timed out.
fn timed_out(results: &Value) -> usize {
    results["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| {
            c["actual_status"]
                .as_str()
                .is_some_and(|a| a.starts_with("timed out"))
        })
        .count()
}

const HANG: &[&str] = &["hang"];
const PASS: &[&str] = &["exit", "0"];

#[test]
fn a_program_that_hangs_everywhere_gets_an_early_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (1..=9).map(|i| format!("hang-{i}")).collect();
    let cases: Vec<(&str, &[&str])> = names.iter().map(|n| (n.as_str(), HANG)).collect();
    let root = suite(dir.path(), &cases);
    let r = run(dir.path(), &root, &[]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    // The cases already running when the verdict came finish as usual.
    let (hung, not_run) = (timed_out(&r.results), with_part(&r.results, "not-run"));
    assert!((4..=5).contains(&hung), "{hung} timed out:\n{}", r.stdout);
    assert_eq!(hung + not_run, 9, "{}", r.stdout);
    for words in [
        "not run: early verdict, the first 4 cases to finish all timed out (the program hangs, \
         or never ends at end of input), so this one would only time out again; \
         --no-early-stop runs every case",
        "run: not run (early verdict after the first 4 cases timed out)",
        &format!(
            "early verdict: the first 4 cases to finish all timed out, so the program hangs \
             (or never ends at end of input); the other {not_run} case(s) were not run and \
             count as failed, in --score too. --no-early-stop runs every case"
        ),
        "--no-early-stop --exact c/hang-",
    ] {
        assert!(
            r.stdout.contains(words),
            "missing {words:?} in:\n{}",
            r.stdout
        );
    }
    let message = r.results["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["differences"][0]["part"] == "not-run")
        .map(|c| c["verdict"].clone())
        .unwrap();
    assert_eq!(message, "failed", "not run is charged as a failure");
    assert_eq!(r.results["score"]["categories"][0]["passed"], 0);
    assert_eq!(r.junit.matches("<failure").count(), 9, "{}", r.junit);
    assert!(r.junit.contains("not run: early verdict"), "{}", r.junit);
}

#[test]
fn a_program_that_passes_a_case_first_is_never_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (1..=6).map(|i| format!("b-hang-{i}")).collect();
    let mut cases: Vec<(&str, &[&str])> = vec![("a-pass", PASS)];
    cases.extend(names.iter().map(|n| (n.as_str(), HANG)));
    cases.push(("c-pass", PASS));
    let root = suite(dir.path(), &cases);
    let r = run(dir.path(), &root, &[]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert_eq!(timed_out(&r.results), 6, "{}", r.stdout);
    assert_eq!(with_part(&r.results, "not-run"), 0, "{}", r.stdout);
    assert!(!r.stdout.contains("early verdict"), "{}", r.stdout);
    assert_eq!(r.results["score"]["categories"][0]["passed"], 2);
}

#[test]
fn no_early_stop_runs_every_case() {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (1..=6).map(|i| format!("hang-{i}")).collect();
    let cases: Vec<(&str, &[&str])> = names.iter().map(|n| (n.as_str(), HANG)).collect();
    let root = suite(dir.path(), &cases);
    let r = run(dir.path(), &root, &["--no-early-stop"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert_eq!(timed_out(&r.results), 6, "{}", r.stdout);
    assert!(!r.stdout.contains("not run"), "{}", r.stdout);
}

#[test]
fn the_slowed_and_hanging_fixtures_behave_as_named() {
    // `slow100` is the reference, only slower: it passes what the
    // reference passes. `hang-games` passes the argument cases (none of
    // `args-count` starts a game).
    let dir = tempfile::tempdir().unwrap();
    for name in ["slow100", "hang-games"] {
        let link = dir.path().join(name);
        std::os::unix::fs::symlink(FIXTURE, &link).unwrap();
        Command::cargo_bin("boxes-harness")
            .unwrap()
            .env("NO_COLOR", "1")
            .env_remove("BOXES_BIN")
            .arg("--bin")
            .arg(&link)
            .args(["--category", "args-count"])
            .assert()
            .code(0);
    }
}
