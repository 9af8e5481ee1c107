//! Secret cases (`visibility: secret`, docs/folder-packs.md "Secret
//! cases"): no byte of a secret case's input or output in any
//! student-facing output of a run or of `mark`, the marker's copy whole;
//! `publish` writes the student's copy of the pack without them.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The secret case's distinctive input (its expected and actual output
/// quote it too).
const SECRET: &str = "zebra-quartz-7731";

fn harness() -> Command {
    let mut cmd = Command::cargo_bin("boxes-harness").expect("the harness binary");
    cmd.env_remove("CONFORMANCE_REFERENCE")
        .env_remove("GITHUB_ACTIONS")
        .env("NO_COLOR", "1");
    cmd
}

use crate::write_file::write;

/// A pack of four cases: two public (one a submission fails), one secret by its category, one
/// secret by its own `visibility:` in a public category.
fn pack(dir: &Path) -> PathBuf {
    let pack = dir.join("pack");
    write(
        &pack.join("pack.yaml"),
        "name: echo\nmodel:\n  command: sh model.sh\nsubmissions:\n  program: prog\n  build: cp \
         prog.sh prog && chmod +x prog\n",
    );
    write(&pack.join("model.sh"), "sed 's/^/Said /'\n");
    write(
        &pack.join("echo-rulings.md"),
        "# Echo\n\nE-1: say each line.\n",
    );
    write(
        &pack.join("suite.yaml"),
        "name: echo\ncategories:\n  - {name: basic, marks: 2}\n  - {name: hidden, marks: 2, \
         visibility: secret}\n",
    );
    write(
        &pack.join("rules.yaml"),
        "rules:\n  - id: E-1\n    summary: says each line\n    ambiguous: no\n",
    );
    write(
        &pack.join("basic/apple.yaml"),
        "summary: apple\ncategory: basic\nrules: [E-1]\nstdin: \"apple\\n\"\nstatus: 0\nstdout: \"Said \
         apple\\n\"\n",
    );
    write(
        &pack.join("basic/num.yaml"),
        "summary: a number\ncategory: basic\nrules: [E-1]\nstdin: \"42\\n\"\nstatus: \
         0\nstdout: \"Said 42\\n\"\n",
    );
    write(
        &pack.join("basic/own.yaml"),
        &format!(
            "summary: {SECRET} own\ncategory: basic\nvisibility: secret\nrules: [E-1]\nhint: \
             try {SECRET}\nstdin: \"{SECRET}-own\\n\"\nstatus: 0\nstdout: \"Said {SECRET}-own\\n\"\n"
        ),
    );
    write(
        &pack.join("hidden/big.yaml"),
        &format!(
            "summary: {SECRET}\ncategory: hidden\nrules: [E-1]\nstdin: \"{SECRET}\\n\"\nstatus: 0\nstdout: \
             \"Said {SECRET}\\n\"\n"
        ),
    );
    pack
}

/// Every file under `dir` (but `skip`) holding `needle`, by path.
fn holding(dir: &Path, needle: &str, skip: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_owned()];
    while let Some(at) = todo.pop() {
        for entry in std::fs::read_dir(&at)
            .expect("read_dir")
            .filter_map(Result::ok)
        {
            let path = entry.path();
            if skip.iter().any(|s| path.starts_with(dir.join(s))) {
                continue;
            }
            if path.is_dir() {
                todo.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap_or_default();
                if bytes.windows(needle.len()).any(|w| w == needle.as_bytes()) {
                    found.push(path.display().to_string());
                }
            }
        }
    }
    found
}

/// `root/prog.sh`, a student's program: it answers each line with `Said`
/// and the line's digits turned to 9s, right on a case without digits.
fn student_program(root: &Path) {
    write(
        &root.join("prog.sh"),
        "#!/bin/sh\nsed 's/^/Said /; s/[0-9]/9/g'\n",
    );
    std::fs::set_permissions(
        root.join("prog.sh"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .expect("chmod");
}

/// Asks a run (working in the folder holding `out`) for every output a
/// student's run writes, into `out`: the score, results, JUnit,
/// Gradescope, GitHub's output and step summary, PrairieLearn, the kits
/// of failed cases.
pub(crate) fn every_output(cmd: &mut Command, out: &Path) {
    cmd.env("GITHUB_OUTPUT", out.join("github-output"))
        .env("GITHUB_STEP_SUMMARY", out.join("summary.md"))
        .arg("--score")
        .args(["--results", "out/results.json", "--junit", "out/junit.xml"])
        .args(["--gradescope", "out/gradescope.json", "--github"])
        .args(["--prairielearn", "out/pl/results.json"])
        .args(["--keep-failed", "out/kits"]);
}

#[test]
fn no_student_facing_output_of_a_run_carries_a_secret_case() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    pack(root);
    student_program(root);
    let out = root.join("out");
    std::fs::create_dir_all(&out).expect("mkdir");
    let run = |marker: bool| {
        let mut cmd = harness();
        cmd.current_dir(root)
            .args(["run", "--spec", "./pack", "--bin", "./prog.sh"]);
        every_output(&mut cmd, &out);
        if marker {
            cmd.arg("--marker");
        }
        cmd.output().expect("harness")
    };
    let student = run(false);
    let said = String::from_utf8_lossy(&student.stdout).into_owned()
        + &String::from_utf8_lossy(&student.stderr);
    assert_eq!(student.status.code(), Some(1), "{said}");
    assert!(!said.contains("zebra"), "{said}");
    assert!(
        said.contains("2 secret case(s) failed (basic: 1, hidden: 1)"),
        "{said}"
    );
    assert!(said.contains("Said 42"), "a public case is whole: {said}");
    assert_eq!(holding(&out, "zebra", &[]), Vec::<String>::new());
    assert!(out.join("kits").is_dir(), "the public case's kit");
    let grade = std::fs::read_to_string(out.join("gradescope.json")).expect("gradescope.json");
    let grade: serde_json::Value = serde_json::from_str(&grade).expect("json");
    let tests = grade["tests"].as_array().expect("tests");
    let shown: Vec<(&str, &str)> = tests
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap_or(""),
                t["visibility"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(shown, [(" (basic)", "visible"), (" (hidden)", "hidden")]);

    // The pack may show them once the due date is past.
    let suite = root.join("pack/suite.yaml");
    let yaml = std::fs::read_to_string(&suite).expect("suite.yaml");
    write(&suite, &format!("{yaml}secret-tests: after_due_date\n"));
    let later = harness()
        .current_dir(root)
        .args([
            "--spec",
            "./pack",
            "--bin",
            "./prog.sh",
            "--exact",
            "hidden/big",
        ])
        .args(["--gradescope", "out/later.json"])
        .output()
        .expect("harness");
    assert_eq!(later.status.code(), Some(1));
    let later = std::fs::read_to_string(out.join("later.json")).expect("later.json");
    assert!(
        later.contains("\"visibility\": \"after_due_date\""),
        "{later}"
    );
    write(&suite, &yaml);

    // The marker's run shows everything.
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).expect("mkdir");
    let marker = run(true);
    let said = String::from_utf8_lossy(&marker.stdout);
    assert!(said.contains(&format!("Said {SECRET}")), "{said}");
    assert!(!holding(&out, SECRET, &[]).is_empty());
}

#[test]
fn mark_keeps_secret_cases_in_the_markers_folder_only() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    pack(root);
    write(
        &root.join("subs/alice/prog.sh"),
        "#!/bin/sh\nsed 's/^/Said /; s/[0-9]/9/g'\n",
    );
    let out = harness()
        .current_dir(root)
        .args(["mark", "--spec", "./pack", "subs", "--out", "marks"])
        .output()
        .expect("harness");
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{said}");
    let marks = root.join("marks");
    assert_eq!(
        holding(&marks, "zebra", &["marker", "programs"]),
        Vec::<String>::new()
    );
    let report =
        std::fs::read_to_string(marks.join("submissions/alice/report.txt")).expect("report.txt");
    assert!(report.contains("2 secret case(s) failed"), "{report}");
    for name in ["results.json", "report.txt"] {
        let text = std::fs::read_to_string(marks.join("marker/alice").join(name)).expect(name);
        assert!(text.contains(&format!("Said {SECRET}")), "{name}: {text}");
    }
}

#[test]
fn publish_writes_the_students_copy_without_secret_cases_or_the_model() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    pack(root);
    let out = harness()
        .current_dir(root)
        .args(["publish", "--spec", "./pack", "student"])
        .output()
        .expect("harness");
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(
        said.contains("2 public case(s); left out 2 secret case(s) and 1 file(s) of the model"),
        "{said}"
    );
    let copy = root.join("student");
    assert_eq!(holding(&copy, "zebra", &[]), Vec::<String>::new());
    for kept in [
        "STUDENT-COPY.md",
        "pack.yaml",
        "echo-rulings.md",
        "rules.yaml",
        "suite.yaml",
        "basic/num.yaml",
    ] {
        assert!(copy.join(kept).is_file(), "{kept}");
    }
    assert!(!copy.join("model.sh").exists());
    // The student checks a program on the public cases of the copy.
    student_program(root);
    let checked = harness()
        .current_dir(root)
        .args(["--spec", "./student", "--bin", "./prog.sh"])
        .output()
        .expect("harness");
    let said = String::from_utf8_lossy(&checked.stdout);
    assert_eq!(checked.status.code(), Some(1), "{said}");
    assert!(said.contains("1 passed; 1 failed"), "{said}");
    assert!(said.contains("Said 42"), "{said}");
    // Never over a folder already holding something.
    let again = harness()
        .current_dir(root)
        .args(["publish", "--spec", "./pack", "student"])
        .output()
        .expect("harness");
    assert_eq!(again.status.code(), Some(2));
}
