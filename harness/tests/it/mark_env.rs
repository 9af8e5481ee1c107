//! `mark` on small folder packs: a kept mark is re-used only when nothing
//! it depends on changed (the model, the suite, the pack), and a re-mark
//! says what did (docs/mark.md, "Stale marks"); a case the environment
//! struck (a module missing, a runtime that never starts) is no verdict
//! in any output (docs/mark.md, "Environment failures").

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn harness() -> Command {
    let mut cmd = Command::cargo_bin("boxes-harness").expect("the harness binary");
    cmd.env_remove("CONFORMANCE_REFERENCE").env("NO_COLOR", "1");
    cmd
}

use crate::write_file::write;

/// A one-case pack whose model is a shell script printing `says`, its
/// submissions shell scripts `prog.sh`.
fn pack(dir: &Path, says: &str) -> PathBuf {
    crate::write_file::toy_pack(dir, says, "cp prog.sh prog && chmod +x prog")
}

fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = harness()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("harness");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn mark(dir: &Path) -> (Option<i32>, String) {
    run(dir, &["mark", "--spec", "./pack", "subs", "--out", "marks"])
}

fn bless(dir: &Path) {
    let (code, text) = run(dir, &["bless", "--spec", "./pack"]);
    assert_eq!(code, Some(0), "{text}");
}

fn csv(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("marks/marks.csv")).expect("marks.csv")
}

#[test]
fn a_re_mark_after_the_model_changes_re_marks_and_says_why() {
    let dir = tempfile::tempdir().expect("temp dir");
    pack(dir.path(), "same");
    bless(dir.path());
    for (who, says) in [("alice", "same"), ("bob", "other")] {
        write(
            &dir.path().join("subs").join(who).join("prog.sh"),
            &format!("#!/bin/sh\necho {says}\n"),
        );
    }
    let (code, text) = mark(dir.path());
    assert_eq!(code, Some(0), "{text}");
    assert!(
        csv(dir.path()).contains("\nalice,,,,ok,0,1,1,"),
        "{}",
        csv(dir.path())
    );

    // Nothing changed: both kept.
    let (code, text) = mark(dir.path());
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(text.matches(": unchanged, ").count(), 2, "{text}");

    // The model alone changed (a comment): both re-marked, the model named.
    write(&dir.path().join("pack/model.sh"), "# v2\necho same\n");
    let (code, text) = mark(dir.path());
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(
        text.matches("re-marked (the model changed)").count(),
        2,
        "{text}"
    );

    // The model prints otherwise and the suite is blessed from it: the
    // marks follow, and the re-mark names both.
    write(&dir.path().join("pack/model.sh"), "echo other\n");
    bless(dir.path());
    let (code, text) = mark(dir.path());
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("re-marked (the model and the suite changed)"),
        "{text}"
    );
    let table = csv(dir.path());
    assert!(table.contains("\nalice,,,,ok,0,0,0,"), "{table}");
    assert!(table.contains("\nbob,,,,ok,0,1,1,"), "{table}");

    // pack.yaml changed (a longer time limit): the pack named.
    let yaml = std::fs::read_to_string(dir.path().join("pack/pack.yaml")).expect("pack.yaml");
    write(
        &dir.path().join("pack/pack.yaml"),
        &format!("{yaml}timeout: 20s\n"),
    );
    let (code, text) = mark(dir.path());
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("re-marked (the pack changed)"), "{text}");
}

/// A Python pack whose model prints `ok`, two cases.
fn python_pack(dir: &Path) -> PathBuf {
    let pack = dir.join("pack");
    write(
        &pack.join("pack.yaml"),
        "name: hello\nmodel:\n  dir: model\n  command: python3 hello.py\nsubmissions:\n  \
         program: hello.py\n  run: \"python3 {program}\"\ntimeout: 10s\n",
    );
    write(&pack.join("model/hello.py"), "print('ok')\n");
    write(
        &pack.join("suite.yaml"),
        "name: hello\ncategories:\n  - {name: c, marks: 2}\n",
    );
    write(
        &pack.join("rules.yaml"),
        "rules:\n  - id: T-1\n    summary: says ok\n    ambiguous: no\n  - id: T-2\n    \
         summary: says ok again\n    ambiguous: no\n",
    );
    for (name, rule) in [("one", "T-1"), ("two", "T-2")] {
        write(
            &pack.join(format!("c/{name}.yaml")),
            &format!("summary: {name}\ncategory: c\nrules: [{rule}]\nargs: []\n"),
        );
    }
    let (code, text) = run(dir, &["bless", "--spec", "./pack"]);
    assert_eq!(code, Some(0), "{text}");
    pack
}

/// Imports a module no machine has: what a course package missing
/// where the marks run looks like.
const IMPORTS: &str = "import tabulate_not_installed_here\nprint('ok')\n";

#[test]
fn a_module_missing_where_the_marks_run_is_the_environments_failure() {
    let dir = tempfile::tempdir().expect("temp dir");
    python_pack(dir.path());
    write(&dir.path().join("subs/alice/hello.py"), IMPORTS);
    write(&dir.path().join("subs/bob/hello.py"), "print('ok')\n");
    let (code, text) = mark(dir.path());
    // Exit 3: marks not to publish.
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains(
            "alice: build ok, no mark of 2 (2 case(s) not judged) — ENVIRONMENT FAILURE, not the \
             program's: cannot import `tabulate_not_installed_here`: not installed where the \
             marks run"
        ),
        "{text}"
    );
    assert!(
        text.contains("ENVIRONMENT FAILURE: 1 submission(s) failed for what this machine lacks"),
        "{text}"
    );
    // The row says so, charging nothing: its 2 cases not judged (neither
    // passed nor failed), no mark in the category and no total rather
    // than 0; the class view's banner names alice, not bob.
    let table = csv(dir.path());
    assert!(
        table.contains(
            "\nalice,,,,ok,0,,,0,0,2,environment: cannot import `tabulate_not_installed_here`: \
             not installed where the marks run,"
        ),
        "{table}"
    );
    assert!(table.contains("\nbob,,,,ok,0,2,2,2,0,0,"), "{table}");
    let index = std::fs::read_to_string(dir.path().join("marks/index.html")).expect("index");
    let banner = index
        .split_once("<div id=\"environment\"")
        .and_then(|(_, rest)| rest.split_once("</div>"))
        .map(|(b, _)| b)
        .expect("the banner");
    assert!(
        banner.contains("Environment failures: do not publish these marks")
            && banner.contains("1 submission(s), 2 case(s): alice"),
        "{banner}"
    );
    assert!(
        index.find("id=\"environment\"") < index.find("<h2>Submissions</h2>"),
        "the banner heads the page"
    );
    assert!(index.contains("<td class=\"n\">not judged</td>"), "{index}");
    // The class's figures are bob's alone.
    let cohort = std::fs::read_to_string(dir.path().join("marks/cohort.json")).expect("cohort");
    assert!(cohort.contains("\"mean\": 2.0"), "{cohort}");

    // `run` on alice's program alone: the environment's cause first,
    // exit 3.
    let out = harness()
        .current_dir(dir.path().join("subs/alice"))
        .args(["--spec", "../../pack", "--bin", "python3 hello.py"])
        .output()
        .expect("run");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(3), "{said}");
    assert!(
        said.contains(
            "cause 1 of 1: 2 case(s): environment: cannot import `tabulate_not_installed_here`"
        ),
        "{said}"
    );
}

#[test]
fn a_mark_the_environment_struck_is_never_kept() {
    let dir = tempfile::tempdir().expect("temp dir");
    python_pack(dir.path());
    write(&dir.path().join("subs/alice/hello.py"), IMPORTS);
    write(&dir.path().join("subs/bob/hello.py"), "print('ok')\n");
    let (code, text) = mark(dir.path());
    assert_eq!(code, Some(3), "{text}");
    // Nothing the hash reads changed (a module installed on the machine
    // is no file of the pack's): alice is marked again all the same.
    let (code, text) = mark(dir.path());
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains("alice: re-marked (it failed for the environment last time), build ok"),
        "{text}"
    );
    assert!(text.contains("bob: unchanged, 2 of 2"), "{text}");
}

/// What a JVM that cannot reserve its heap prints, on every run: the
/// runtime never starts, whatever the program.
const NO_START: &str = "#!/bin/sh\necho 'Error occurred during initialization of VM' >&2\necho \
                        'Could not reserve enough space for 6172672KB object heap' >&2\nexit 1\n";

/// A blessed toy pack and alice's program whose runtime never starts.
fn no_start(dir: &Path) {
    pack(dir, "same");
    bless(dir);
    write(&dir.join("subs/alice/prog.sh"), NO_START);
}

#[test]
fn a_runtime_that_never_starts_is_no_verdict_in_mark() {
    let dir = tempfile::tempdir().expect("temp dir");
    no_start(dir.path());
    write(
        &dir.path().join("subs/bob/prog.sh"),
        "#!/bin/sh\necho same\n",
    );
    let (code, text) = mark(dir.path());
    // Exit 3, the environment named at the end and on alice's line.
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains("ENVIRONMENT FAILURE: 1 submission(s)")
            && text.contains("alice: build ok, no mark of 1 (1 case(s) not judged)"),
        "{text}"
    );
    let table = csv(dir.path());
    assert!(
        table.contains(
            "\nalice,,,,ok,0,,,0,0,1,environment: the program's runtime could not start where \
             the marks run (3 runs): `Error occurred during initialization of VM`,"
        ),
        "{table}"
    );
    let index = std::fs::read_to_string(dir.path().join("marks/index.html")).expect("index");
    let banner = index.find("Environment failures: do not publish these marks");
    assert!(
        banner.is_some() && banner < index.find("<h2>Submissions</h2>"),
        "the banner heads the page: {index}"
    );
    // alice's own files: the case's verdict is the environment's, with
    // its reason; no Gradescope mark (the autograder fails, no 0); bob's
    // is there.
    let subs = dir.path().join("marks/submissions");
    let results: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(subs.join("alice/results.json")).expect("results.json"),
    )
    .expect("JSON");
    assert_eq!(results["cases"][0]["verdict"], "environment", "{results}");
    assert!(
        results["cases"][0]["environment"]
            .as_str()
            .is_some_and(|e| e.contains("Error occurred during initialization of VM")),
        "{results}"
    );
    assert!(!subs.join("alice/gradescope.json").exists());
    let page = std::fs::read_to_string(subs.join("alice/report.html")).expect("report.html");
    assert!(
        page.contains("1 case(s) not passed in all (1 of them not judged: the environment"),
        "{page}"
    );
    assert!(subs.join("bob/gradescope.json").exists());
}

/// `run` of alice's program with every machine output: a stale
/// Gradescope file is removed, not left to be uploaded.
#[test]
fn a_runtime_that_never_starts_is_no_verdict_in_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    no_start(dir.path());
    let out = dir.path().join("out");
    write(&out.join("gradescope.json"), "{\"score\": 1}\n");
    let prog = dir.path().join("subs/alice/prog.sh");
    let ran = harness()
        .current_dir(dir.path())
        .args(["--spec", "./pack", "--bin"])
        .arg(format!("sh {}", prog.display()))
        .arg("--results")
        .arg(out.join("results.json"))
        .arg("--junit")
        .arg(out.join("junit.xml"))
        .arg("--gradescope")
        .arg(out.join("gradescope.json"))
        .arg("--prairielearn")
        .arg(out.join("pl.json"))
        .arg("-v")
        .output()
        .expect("run");
    let said = String::from_utf8_lossy(&ran.stderr);
    assert_eq!(ran.status.code(), Some(3), "{said}");
    assert!(
        said.contains("--gradescope: no ") && said.contains("1 case(s) not judged"),
        "{said}"
    );
    assert!(
        said.contains("ENVIRONMENT FAILURE: the program's runtime could not start"),
        "{said}"
    );
    let report = String::from_utf8_lossy(&ran.stdout);
    assert!(
        report.contains("failures by cause: 0 failed case(s), 1 case(s) not judged"),
        "{report}"
    );
    // libtest's own line (`-v`) knows only `ok` and `FAILED`: its message
    // says the case was not judged.
    assert!(
        report.contains("not judged: environment: the program's runtime could not start"),
        "{report}"
    );
    assert!(!out.join("gradescope.json").exists());
    let junit = std::fs::read_to_string(out.join("junit.xml")).expect("junit");
    assert!(
        junit.contains("<error")
            && junit.contains("type=\"environment\"")
            && !junit.contains("<failure"),
        "{junit}"
    );
    let pl: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("pl.json")).expect("pl"))
            .expect("JSON");
    assert_eq!(pl["gradable"], false, "{pl}");
    let results = std::fs::read_to_string(out.join("results.json")).expect("results");
    assert!(
        results.contains("\"verdict\": \"environment\""),
        "{results}"
    );
}
