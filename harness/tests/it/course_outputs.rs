//! Every output format carries the same marks (issue 46, item 4): one
//! pack and one program with partial marks, run once with `--score`,
//! `--results`, `--junit`, `--gradescope`, `--github` (with the files
//! GitHub Actions names) and `--prairielearn`, and marked by `mark`:
//! the score table's total, the results' score, Gradescope's sum,
//! Classroom's decoded `result`, PrairieLearn's score times the maximum
//! and `marks.csv`'s total are one number, and JUnit's failures are the
//! results' failed cases. The step summary holds the marks table and
//! each cause; the annotations are escaped workflow commands, at most
//! ten, and never on the stdout of `--format json`.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use base64::Engine as _;

use crate::files::{bless, text, write};

fn harness() -> Command {
    let mut cmd = crate::files::harness("shout");
    cmd.env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_OUTPUT")
        .env_remove("GITHUB_STEP_SUMMARY");
    cmd
}

/// Upper-cases its line; the student upper-cases only the first letter.
const MODEL: &str = "print(input().upper())\n";
const STUDENT: &str = "s = input()\nprint(s[:1].upper() + s[1:])\n";

/// The `shout` pack: basics (3 marks: `hi` fails, `H` passes), edge (2
/// marks: an empty line passes, `1a` fails): 2.5 of 5.
fn pack(dir: &Path) -> PathBuf {
    let pack = dir.join("shout");
    write(
        &pack.join("pack.yaml"),
        "name: shout\nmodel:\n  dir: model\n  command: python3 shout.py\nsubmissions:\n  \
         program: shout.py\n  run: \"python3 {program}\"\n",
    );
    write(&pack.join("model/shout.py"), MODEL);
    write(
        &pack.join("suite.yaml"),
        "name: shout\nversion: \"1\"\nspec: rulings.md\ncategories:\n  - {name: basics, \
         title: \"Basic lines\", marks: 3}\n  - {name: edge, marks: 2}\n",
    );
    write(
        &pack.join("rules.yaml"),
        "rules:\n  - {id: UP-1, summary: \"every letter upper-cased\", ambiguous: no}\n",
    );
    write(&pack.join("rulings.md"), "# shout\n\n- **UP-1** Shout.\n");
    for (name, stdin) in [
        ("basics/hi", "hi"),
        ("basics/h", "H"),
        ("edge/empty", ""),
        ("edge/digit-first", "1a"),
    ] {
        let category = name.split('/').next().expect("category");
        write(
            &pack.join(format!("{name}.yaml")),
            &format!(
                "summary: {name}\ncategory: {category}\nstdin: \"{stdin}\\n\"\nrules: [UP-1]\n"
            ),
        );
    }
    bless(harness(), &pack);
    pack
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json")
}

#[test]
fn every_output_format_carries_the_same_marks() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = pack(dir.path());
    let student = dir.path().join("submissions/ann");
    write(&student.join("shout.py"), STUDENT);
    let out_dir = dir.path().join("out");
    std::fs::create_dir_all(&out_dir).expect("out");
    let at = |name: &str| out_dir.join(name);
    let run = harness()
        .current_dir(&student)
        .env("GITHUB_OUTPUT", at("github_output"))
        .env("GITHUB_STEP_SUMMARY", at("summary.md"))
        .args(["--score", "--github", "--spec"])
        .arg(&pack)
        .args(["--bin", "python3 shout.py", "--results"])
        .arg(at("results.json"))
        .arg("--junit")
        .arg(at("junit.xml"))
        .arg("--gradescope")
        .arg(at("gradescope.json"))
        .arg("--prairielearn")
        .arg(at("results/results.json"))
        .output()
        .expect("run");
    let said = text(&run);
    assert_eq!(run.status.code(), Some(1), "{said}");
    let expected = 2.5;
    let close = |x: f64, what: &str| assert!((x - expected).abs() < 1e-9, "{what}: {x}");

    // --score: the table's total line.
    assert!(said.contains("2.50 / 5"), "{said}");
    // --results.
    let results = json(&at("results.json"));
    close(
        results["score"]["earned"].as_f64().expect("earned"),
        "results",
    );
    assert_eq!(results["score"]["max"].as_f64(), Some(5.0));
    // --gradescope: the tests' scores sum to it.
    let grade = json(&at("gradescope.json"));
    close(grade["score"].as_f64().expect("score"), "gradescope");
    // --github: the `result` output decodes to the reporter's document.
    let output = std::fs::read_to_string(at("github_output")).expect("GITHUB_OUTPUT");
    let b64 = output
        .lines()
        .find_map(|l| l.strip_prefix("result="))
        .expect("a result= line");
    let classroom: serde_json::Value = serde_json::from_slice(
        &base64::engine::general_purpose::STANDARD
            .decode(b64)
            .expect("base64"),
    )
    .expect("the reporter's JSON");
    assert_eq!(classroom["version"], 1);
    assert_eq!(classroom["status"], "fail");
    assert_eq!(classroom["max_score"].as_f64(), Some(5.0));
    let tests = classroom["tests"].as_array().expect("tests");
    assert_eq!(tests.len(), 2, "{classroom}");
    close(
        tests.iter().filter_map(|t| t["score"].as_f64()).sum(),
        "classroom",
    );
    assert_eq!(tests[0]["name"], "Basic lines (basics)");
    assert_eq!(tests[0]["max_score"].as_f64(), Some(3.0));
    let message = tests[0]["message"].as_str().expect("message");
    assert!(message.contains("reproduce:"), "{message}");
    assert!(message.contains("printf 'hi\\n'"), "{message}");
    // --prairielearn: the score is the marks over the maximum.
    let pl = json(&at("results/results.json"));
    assert_eq!(pl["gradable"], true);
    close(pl["score"].as_f64().expect("score") * 5.0, "prairielearn");
    let points: f64 = pl["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .filter_map(|t| t["points"].as_f64())
        .sum();
    close(points, "prairielearn points");
    // --junit: its failures are the results' failed cases.
    let junit = std::fs::read_to_string(at("junit.xml")).expect("junit");
    let failed = results["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|c| c["verdict"] == "failed")
        .count();
    assert_eq!(failed, 2);
    assert_eq!(junit.matches("<failure").count(), failed, "{junit}");

    summary_and_annotations(&at("summary.md"), &said);

    close(
        marks_csv_total(dir.path(), &pack, &at("mark_output")),
        "marks.csv",
    );
}

/// `mark`'s total for the one submission in `dir/submissions`, with the
/// variables of GitHub Actions set: the harnesses it starts write nothing
/// for GitHub (`mark_output` stays absent).
fn marks_csv_total(dir: &Path, pack: &Path, mark_output: &Path) -> f64 {
    let marks = dir.join("marks");
    let out = harness()
        .env("TMPDIR", dir)
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_OUTPUT", mark_output)
        .env_remove("CARGO_MANIFEST_DIR")
        .args(["mark", "--spec"])
        .arg(pack)
        .arg(dir.join("submissions"))
        .arg("--out")
        .arg(&marks)
        .output()
        .expect("mark");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let csv = std::fs::read_to_string(marks.join("marks.csv")).expect("marks.csv");
    let header: Vec<&str> = csv.lines().next().expect("header").split(',').collect();
    let row: Vec<&str> = csv
        .lines()
        .find(|l| l.starts_with("ann,"))
        .expect("ann's row")
        .split(',')
        .collect();
    let total = header
        .iter()
        .position(|h| *h == "total")
        .and_then(|i| row.get(i))
        .and_then(|v| v.parse::<f64>().ok())
        .expect("a total");
    // The harnesses `mark` starts write nothing for GitHub.
    assert!(!mark_output.exists());
    total
}

/// The step summary holds the marks table and each cause; the
/// annotations in `said` are escaped workflow commands, one per cause, at
/// most ten.
fn summary_and_annotations(summary: &Path, said: &str) {
    // The step summary: the marks table and each cause.
    let summary = std::fs::read_to_string(summary).expect("summary");
    assert!(summary.contains("| basics | 1/2 | 1.5 / 3 |"), "{summary}");
    assert!(summary.contains("| edge | 1/2 | 1 / 2 |"), "{summary}");
    assert!(summary.contains("### Failures by cause"), "{summary}");
    assert!(summary.contains("reproduce:"), "{summary}");
    // Annotations: escaped, one per cause, at most ten.
    let notes: Vec<&str> = said.lines().filter(|l| l.starts_with("::error ")).collect();
    assert!(!notes.is_empty() && notes.len() <= 10, "{said}");
    for n in &notes {
        let (props, message) = n
            .strip_prefix("::error ")
            .and_then(|r| r.split_once("::"))
            .expect("::error PROPS::MESSAGE");
        let title = props.strip_prefix("title=").expect("a title");
        assert!(!title.contains(':') && !title.contains(','), "{n}");
        assert!(message.contains("%0A"), "{n}");
    }
}

#[test]
fn annotations_never_break_json_output() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = pack(dir.path());
    let student = dir.path().join("ann");
    write(&student.join("shout.py"), STUDENT);
    let run = harness()
        .current_dir(&student)
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_OUTPUT", dir.path().join("o"))
        .env("GITHUB_STEP_SUMMARY", dir.path().join("s"))
        .env_remove("CARGO_MANIFEST_DIR")
        .args(["--format", "json", "--spec"])
        .arg(&pack)
        .args(["--bin", "python3 shout.py"])
        .output()
        .expect("run");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(!stdout.contains("::error"), "{stdout}");
    for line in stdout.lines().filter(|l| !l.trim().is_empty()) {
        assert!(
            serde_json::from_str::<serde_json::Value>(line).is_ok(),
            "not JSON: {line}"
        );
    }
    // Chosen by GITHUB_ACTIONS=true: the outputs are written, the
    // annotations on stderr.
    assert!(dir.path().join("o").exists(), "{}", text(&run));
    assert!(String::from_utf8_lossy(&run.stderr).contains("::error title="));
    // CONFORMANCE_GITHUB=0 opts out.
    let quiet = harness()
        .current_dir(&student)
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_OUTPUT", dir.path().join("o2"))
        .env("CONFORMANCE_GITHUB", "0")
        .env_remove("CARGO_MANIFEST_DIR")
        .args(["--spec"])
        .arg(&pack)
        .args(["--bin", "python3 shout.py"])
        .output()
        .expect("run");
    assert!(!dir.path().join("o2").exists(), "{}", text(&quiet));
    assert!(!text(&quiet).contains("::error"));
}

/// docs/github-classroom.md's `Conformance` step, run as the page writes
/// it (the pack and the student's file this test's): its `result`
/// decodes to the reporter's document with `--score`'s total.
#[test]
fn the_documented_classroom_step_writes_a_result_the_reporter_reads() {
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/github-classroom.md"),
    )
    .expect("the page");
    let line = page
        .lines()
        .find_map(|l| l.trim().strip_prefix("run: boxes-harness "))
        .expect("the Conformance step's run line");
    let words = shlex::split(line).expect("shell words");
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = pack(dir.path());
    let student = dir.path().join("repo");
    write(&student.join("shout.py"), STUDENT);
    let args: Vec<String> = words
        .iter()
        .map(|w| match w.as_str() {
            ".course/fuel" => pack.display().to_string(),
            "python3 fuel.py" => "python3 shout.py".to_owned(),
            _ => w.clone(),
        })
        .collect();
    let run = harness()
        .current_dir(&student)
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_OUTPUT", dir.path().join("output"))
        .env("GITHUB_STEP_SUMMARY", dir.path().join("summary.md"))
        .args(&args)
        .output()
        .expect("run");
    let said = text(&run);
    assert_eq!(run.status.code(), Some(1), "{said}");
    assert!(said.contains("2.50 / 5"), "{said}");
    let output = std::fs::read_to_string(dir.path().join("output")).expect("output");
    let b64 = output
        .lines()
        .find_map(|l| l.strip_prefix("result="))
        .expect("result=");
    let doc: serde_json::Value = serde_json::from_slice(
        &base64::engine::general_purpose::STANDARD
            .decode(b64)
            .expect("base64"),
    )
    .expect("json");
    let total: f64 = doc["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .filter_map(|t| t["score"].as_f64())
        .sum();
    assert!((total - 2.5).abs() < 1e-9, "{doc}");
    assert_eq!(doc["max_score"].as_f64(), Some(5.0));
    let summary = std::fs::read_to_string(dir.path().join("summary.md")).expect("summary");
    assert!(summary.contains("## shout: 2.5 / 5"), "{summary}");
    assert!(said.contains("::error title=cause 1 of "), "{said}");
}

/// `gradescope-autograder --spec PATH` for a folder pack: the pack is
/// copied beside the scripts, and `run_autograder`, run on a fake tree
/// (the zip unpacked in `source/`, as Gradescope does), writes a
/// `results.json` with the same marks.
#[test]
fn the_gradescope_autograder_takes_a_folder_pack() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = pack(dir.path());
    let scripts = dir.path().join("zip");
    let wrote = harness()
        .args(["gradescope-autograder", "--spec"])
        .arg(&pack)
        .arg("--out")
        .arg(&scripts)
        .output()
        .expect("gradescope-autograder");
    assert_eq!(wrote.status.code(), Some(0), "{}", text(&wrote));
    assert!(scripts.join("shout/pack.yaml").is_file());
    assert!(scripts.join("shout/basics/hi.yaml").is_file());
    let tree = dir.path().join("autograder");
    std::fs::create_dir_all(&tree).expect("tree");
    let copied = std::process::Command::new("cp")
        .arg("-R")
        .arg(&scripts)
        .arg(tree.join("source"))
        .status()
        .expect("cp");
    assert!(copied.success());
    write(&tree.join("submission/shout.py"), STUDENT);
    let out = std::process::Command::new(scripts.join("run_autograder"))
        .env("AUTOGRADER_ROOT", &tree)
        .env(
            "AUTOGRADER_HARNESS",
            assert_cmd::cargo::cargo_bin("boxes-harness"),
        )
        .env("TMPDIR", dir.path())
        .env_remove("CONFORMANCE_REFERENCE")
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run_autograder");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let grade = json(&tree.join("results/results.json"));
    let score = grade["score"].as_f64().expect("score");
    assert!((score - 2.5).abs() < 1e-9, "{grade}");
}
