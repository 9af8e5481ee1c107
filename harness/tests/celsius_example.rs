//! The celsius example (`examples/celsius/`): an assignment whose text
//! leaves the error messages free and the prompt's spacing loose, with a
//! Python model and eight submissions. With the pack's `match:`
//! declarations (in `rules.yaml`) the model and the four submissions
//! correct by the text pass every case and each buggy submission fails
//! the cases of the rule its bug breaks; judged exactly (`--strict`) the
//! submissions correct by the text fail.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn pack() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/celsius")
}

/// Checks `student`'s submission (the model without one) against the
/// pack at `pack`: the harness's exit status and the failed cases.
fn check(pack: &Path, student: Option<&str>, dir: &Path) -> (Option<i32>, BTreeSet<String>) {
    check_with(pack, student, dir, &[])
}

/// [`check`] with more arguments for the harness.
fn check_with(
    pack: &Path,
    student: Option<&str>,
    dir: &Path,
    extra: &[&str],
) -> (Option<i32>, BTreeSet<String>) {
    let results = dir.join(format!("{}.json", student.unwrap_or("model")));
    let mut cmd = Command::cargo_bin("boxes-harness").expect("the harness binary");
    cmd.env("NO_COLOR", "1")
        // Verdicts, not containment (tests/contain.rs): the cheapest level.
        .env("CONFORMANCE_CONTAINMENT", "group")
        .arg("--spec")
        .arg(pack)
        .arg("--results")
        .arg(&results)
        .args(extra);
    if let Some(student) = student {
        let file = pack.join("submissions").join(student).join("celsius.py");
        cmd.arg("--bin").arg(format!("python3 {}", file.display()));
    }
    let out = cmd.output().expect("the harness runs");
    let text = std::fs::read_to_string(&results).expect("the results file");
    let doc: Value = serde_json::from_str(&text).expect("results parse");
    let failed = doc["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|c| c["verdict"] == "failed")
        .map(|c| c["name"].as_str().expect("a name").to_owned())
        .collect();
    (out.status.code(), failed)
}

#[test]
fn the_model_passes_every_case_and_the_cases_cite_every_rule() {
    let dir = tempfile::tempdir().expect("a folder");
    let (code, failed) = check(&pack(), None, dir.path());
    assert_eq!((code, failed), (Some(0), BTreeSet::new()));
    let rules = std::fs::read_to_string(pack().join("rules.yaml")).expect("rules.yaml");
    let mut cited = String::new();
    for folder in ["convert", "invalid", "end"] {
        for entry in std::fs::read_dir(pack().join(folder)).expect("a category") {
            let path = entry.expect("an entry").path();
            if path.extension().is_some_and(|e| e == "yaml") {
                cited.push_str(&std::fs::read_to_string(path).expect("a case"));
            }
        }
    }
    for line in rules.lines().filter_map(|l| l.strip_prefix("  - id: ")) {
        assert!(cited.contains(line), "no case cites {line}");
    }
}

/// Each buggy submission and cases of its rule that must fail, whatever
/// the tolerance.
const BUGGY: [(&str, &[&str]); 4] = [
    (
        "fay",
        &["invalid/below-absolute-zero", "invalid/just-below-zero"],
    ),
    ("gus", &["invalid/a-word", "invalid/empty-line"]),
    ("hana", &["invalid/trailing-junk"]),
    ("ivan", &["convert/boiling", "convert/freezing"]),
];

#[test]
fn each_buggy_submission_fails_the_cases_of_its_rule() {
    let dir = tempfile::tempdir().expect("a folder");
    for (student, must) in BUGGY {
        let (code, failed) = check(&pack(), Some(student), dir.path());
        assert_eq!(code, Some(1), "{student}");
        for case in must {
            assert!(
                failed.contains(*case),
                "{student} passes {case}: {failed:?}"
            );
        }
    }
    // The example's prompt and messages: correct, and exact too.
    assert_eq!(
        check(&pack(), Some("dev"), dir.path()),
        (Some(0), BTreeSet::new())
    );
}

#[test]
fn with_its_match_declarations_the_class_is_marked_by_the_text() {
    let dir = tempfile::tempdir().expect("a folder");
    for student in ["ana", "ben", "chloe", "dev"] {
        let (code, failed) = check(&pack(), Some(student), dir.path());
        assert_eq!((code, failed), (Some(0), BTreeSet::new()), "{student}");
    }
}

#[test]
fn judged_exactly_the_students_correct_by_the_text_fail() {
    // `--strict` is the byte-exact comparison a pack without `match:`
    // would make: a message's wording or one space of the prompt fails.
    let dir = tempfile::tempdir().expect("a folder");
    for student in ["ana", "ben", "chloe"] {
        let (code, failed) = check_with(&pack(), Some(student), dir.path(), &["--strict"]);
        assert_eq!(code, Some(1), "{student} passes every case under --strict");
        assert!(!failed.is_empty(), "{student}");
    }
}
