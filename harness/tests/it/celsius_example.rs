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

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use assert_cmd::Command;
use serde_json::Value;

fn pack() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/celsius")
}

/// Checks `student`'s submission (the model without one) against the
/// example's pack, once per student for the whole test binary: several
/// tests check the model, fay, dev and hana alike.
fn check(student: Option<&str>) -> Arc<Checked> {
    type Runs = BTreeMap<Option<String>, Arc<Checked>>;
    static RUNS: Mutex<Runs> = Mutex::new(BTreeMap::new());
    let key = student.map(str::to_owned);
    let made = RUNS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&key)
        .cloned();
    made.unwrap_or_else(|| {
        let dir = tempfile::tempdir().expect("a folder");
        let checked = Arc::new(check_with(&pack(), student, dir.path(), &[]));
        RUNS.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, Arc::clone(&checked));
        checked
    })
}

/// What a check gave: the harness's exit status and its results document.
struct Checked {
    code: Option<i32>,
    doc: Value,
}

impl Checked {
    /// The exit status and the failed cases.
    fn outcome(&self) -> (Option<i32>, BTreeSet<String>) {
        let failed = self.doc["cases"]
            .as_array()
            .expect("cases")
            .iter()
            .filter(|c| c["verdict"] == "failed")
            .map(|c| c["name"].as_str().expect("a name").to_owned())
            .collect();
        (self.code, failed)
    }

    /// The verdict of `case`.
    fn verdict(&self, case: &str) -> String {
        self.doc["cases"]
            .as_array()
            .expect("cases")
            .iter()
            .find(|c| c["name"] == case)
            .map(|c| c["verdict"].as_str().unwrap_or_default().to_owned())
            .unwrap_or_default()
    }
}

/// A check with more arguments for the harness, its results in `dir`.
fn check_with(pack: &Path, student: Option<&str>, dir: &Path, extra: &[&str]) -> Checked {
    let results = dir.join(format!("{}.json", student.unwrap_or("model")));
    let mut cmd = Command::cargo_bin("boxes-harness").expect("the harness binary");
    cmd.env("NO_COLOR", "1")
        // Verdicts, not containment (tests/it/contain.rs): the cheapest level.
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
    Checked {
        code: out.status.code(),
        doc: serde_json::from_str(&text).expect("results parse"),
    }
}

#[test]
fn the_model_passes_every_case_and_the_cases_cite_every_rule() {
    let (code, failed) = check(None).outcome();
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
    for (student, must) in BUGGY {
        let (code, failed) = check(Some(student)).outcome();
        assert_eq!(code, Some(1), "{student}");
        for case in must {
            assert!(
                failed.contains(*case),
                "{student} passes {case}: {failed:?}"
            );
        }
    }
    // The example's prompt and messages: correct, and exact too.
    assert_eq!(check(Some("dev")).outcome(), (Some(0), BTreeSet::new()));
}

#[test]
fn a_result_printed_without_its_decimal_is_one_cause_naming_io_4_and_the_values() {
    // ivan prints `32` where `32.0` is expected: his newline comes early
    // but the bug is the value, one cause whether the digits match or not.
    let ivan = check(Some("ivan"));
    let causes = ivan.doc["causes"].as_array().expect("causes");
    assert_eq!(causes.len(), 1, "{causes:?}");
    let cause = causes[0]["cause"].as_str().unwrap_or_default();
    assert!(cause.contains("(IO-4)"), "{cause}");
    assert!(!cause.contains("line break"), "{cause}");
    let example = causes[0]["example"].as_str().unwrap_or_default();
    assert!(
        example.contains("Fahrenheit: 32\\n` where `Celsius: Fahrenheit: 32.0"),
        "{example}"
    );
}

#[test]
fn a_missing_check_is_named_by_its_rule_not_by_a_message_the_tolerance_forgave() {
    // fay answers `abc` in her own words (forgiven) and converts -500: in
    // `invalid/several` her stdout first differs at the answer to `abc`,
    // but her one bug is IO-3, and every cause must say so.
    let fay = check(Some("fay"));
    let (code, failed) = fay.outcome();
    assert_eq!(code, Some(1));
    assert!(failed.contains("invalid/several"), "{failed:?}");
    let causes: Vec<&str> = fay.doc["causes"]
        .as_array()
        .expect("causes")
        .iter()
        .map(|c| c["cause"].as_str().expect("a cause"))
        .collect();
    assert_eq!(causes.len(), 1, "{causes:?}");
    assert!(causes[0].contains("IO-3"), "{causes:?}");
}

#[test]
fn with_its_match_declarations_the_class_is_marked_by_the_text() {
    for student in ["ana", "ben", "chloe", "dev"] {
        let (code, failed) = check(Some(student)).outcome();
        assert_eq!((code, failed), (Some(0), BTreeSet::new()), "{student}");
    }
}

#[test]
fn judged_exactly_the_students_correct_by_the_text_fail() {
    // `--strict` is the byte-exact comparison a pack without `match:`
    // would make: a message's wording or one space of the prompt fails.
    let dir = tempfile::tempdir().expect("a folder");
    for student in ["ana", "ben", "chloe"] {
        let (code, failed) =
            check_with(&pack(), Some(student), dir.path(), &["--strict"]).outcome();
        assert_eq!(code, Some(1), "{student} passes every case under --strict");
        assert!(!failed.is_empty(), "{student}");
    }
}

#[test]
fn an_ambiguous_case_is_judged_against_every_reading_and_scored() {
    // IO-6 is ambiguous and names its other reading (`lenient`): its case
    // carries the model's output under it and is run, not set aside.
    let model = check(None);
    assert_eq!(model.outcome(), (Some(0), BTreeSet::new()));
    assert_eq!(model.verdict("invalid/exponent"), "passed");
    // A program following the other reading passes it.
    let lenient = tempfile::tempdir().expect("a folder");
    let script = lenient.path().join("lenient.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nCELSIUS_READING=lenient exec python3 {}\n",
            pack().join("model/celsius.py").display()
        ),
    )
    .expect("a wrapper");
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env("NO_COLOR", "1")
        .env("CONFORMANCE_CONTAINMENT", "group")
        .arg("--spec")
        .arg(pack())
        .arg("--allow-read")
        .arg(pack())
        .arg("--bin")
        .arg(format!("sh {}", script.display()))
        .output()
        .expect("the harness runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    // One wrong under both readings (`1e2` read as 1) fails it.
    let (_, failed) = check(Some("hana")).outcome();
    assert!(failed.contains("invalid/exponent"), "{failed:?}");
}

#[test]
fn readings_on_a_rule_not_marked_ambiguous_are_a_fault_of_the_suite() {
    let dir = tempfile::tempdir().expect("a folder");
    let copy = dir.path().join("celsius");
    let status = std::process::Command::new("cp")
        .arg("-r")
        .arg(pack())
        .arg(&copy)
        .status()
        .expect("cp runs");
    assert!(status.success());
    let rules = std::fs::read_to_string(copy.join("rules.yaml")).expect("rules.yaml");
    let moved = rules.replace(
        "    ambiguous: no\n  - id: IO-5",
        "    ambiguous: no\n    readings: {loose: {X: y}}\n  - id: IO-5",
    );
    assert_ne!(moved, rules, "the rule before IO-4 is found");
    std::fs::write(copy.join("rules.yaml"), moved).expect("rules.yaml written");
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env("NO_COLOR", "1")
        .arg("--spec")
        .arg(&copy)
        .output()
        .expect("the harness runs");
    // Every case names the fault, with the file and line of the rule.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains("rules.yaml:26:1: rule IO-4 names readings but is not marked ambiguous"),
        "{stdout}"
    );
}
