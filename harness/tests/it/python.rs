//! Python programs as a course runs them (docs/python.md): a folder pack
//! whose model and submissions are one `fuel.py`, run by the line
//! `python3 {program}` with no build, and three students: one right (no
//! `#!` line), one raising a traceback, one whose rounding is wrong; each
//! prompts with `input()`, at a terminal too (an interactive case). Under
//! `run`, `mark` and the Gradescope output: `--bin 'python3 fuel.py'` typed
//! in the student's folder gives the verdicts of an absolute path, a
//! script that cannot be opened stops the run before its first case (exit
//! 2), nothing a student reads names the marker's folders, and reproduce
//! lines name `python3 "$p"/fuel.py`.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

use crate::files::{bless, text, write};

/// The model: CS50's *fuel*, prompting with `input()`.
const MODEL: &str = r#"def main():
    while True:
        try:
            x, y = input("Fraction: ").split("/")
            x, y = int(x), int(y)
            if y <= 0 or x < 0 or x > y:
                continue
        except ValueError:
            continue
        except EOFError:
            return 1
        p = round(x / y * 100)
        print("E" if p <= 1 else "F" if p >= 99 else f"{p}%")
        return 0


raise SystemExit(main())
"#;

/// Right, and with no `#!` line: run as `python3 fuel.py`.
const ALICE: &str = MODEL;

/// No check of what it reads: a word raises a traceback.
const BOB: &str = r#"x, y = input("Fraction: ").split("/")
p = round(int(x) / int(y) * 100)
print("E" if p <= 1 else "F" if p >= 99 else f"{p}%")
"#;

/// Truncates where the rulings round (2/3 is 66%, not 67%).
const CAROL: &str = r#"while True:
    try:
        x, y = map(int, input("Fraction: ").split("/"))
        if 0 <= x <= y and y > 0:
            break
    except ValueError:
        pass
p = int(x / y * 100)
print("E" if p <= 1 else "F" if p >= 99 else f"{p}%")
"#;

/// The cases: (category/name, the case's YAML without expectations).
const CASES: [(&str, &str); 5] = [
    (
        "basics/three-quarters",
        "stdin: \"3/4\\n\"\nrules: [OUT-1]\n",
    ),
    ("basics/two-thirds", "stdin: \"2/3\\n\"\nrules: [OUT-1]\n"),
    ("basics/empty", "stdin: \"1/100\\n\"\nrules: [OUT-1]\n"),
    (
        "retry/a-word",
        "stdin: \"cat\\n1/4\\n\"\nrules: [FRAC-1, OUT-1]\n",
    ),
    (
        "retry/at-a-terminal",
        "mode: interactive\nstdin: \"cat\\n1/2\\n\"\nrules: [FRAC-1, OUT-1]\n",
    ),
];

fn harness() -> Command {
    crate::files::harness("fuel")
}

/// The fuel pack in `dir/fuel`, blessed from its model.
fn pack(dir: &Path) -> PathBuf {
    let pack = dir.join("fuel");
    write(
        &pack.join("pack.yaml"),
        "name: fuel\nmodel:\n  dir: model\n  command: python3 fuel.py\nsubmissions:\n  program: \
         fuel.py\n  run: \"python3 {program}\"\ntimeout: 10s\n",
    );
    write(&pack.join("model/fuel.py"), MODEL);
    write(
        &pack.join("suite.yaml"),
        "name: fuel\nversion: \"1\"\nspec: fuel-rulings.md\nprompt: \": \"\ncategories:\n  - \
         {name: basics, marks: 2}\n  - {name: retry, marks: 1}\n",
    );
    write(
        &pack.join("rules.yaml"),
        "rules:\n  - {id: FRAC-1, summary: \"not X/Y with 0 <= X <= Y, Y > 0: ask again\", \
         ambiguous: no}\n  - {id: OUT-1, summary: \"the percentage rounded, E, or F\", \
         ambiguous: no}\n",
    );
    write(
        &pack.join("fuel-rulings.md"),
        "# fuel: rulings\n\n- **FRAC-1** Ask `Fraction: ` until X/Y.\n- **OUT-1** Print it.\n",
    );
    for (name, body) in CASES {
        let category = name.split('/').next().expect("category");
        write(
            &pack.join(format!("{name}.yaml")),
            &format!("summary: \"{name}\"\ncategory: {category}\n{body}"),
        );
    }
    bless(harness(), &pack);
    pack
}

fn student(dir: &Path, who: &str, source: &str) -> PathBuf {
    let folder = dir.join("submissions").join(who);
    write(&folder.join("fuel.py"), source);
    folder
}

#[test]
fn a_script_typed_relative_to_its_folder_runs_as_an_absolute_path_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = pack(dir.path());
    let alice = student(dir.path(), "alice", ALICE);
    let bob = student(dir.path(), "bob", BOB);
    let run = |folder: &Path, bin: &str| {
        harness()
            .current_dir(folder)
            .args(["--score", "--spec"])
            .arg(&pack)
            .args(["--bin", bin])
            .output()
            .expect("run")
    };
    let typed = run(&alice, "python3 fuel.py");
    assert_eq!(typed.status.code(), Some(0), "{}", text(&typed));
    // The header names the interpreter that ran, and its version.
    assert!(text(&typed).contains("interpreter "), "{}", text(&typed));
    assert!(text(&typed).contains("(Python 3."), "{}", text(&typed));
    let absolute = run(
        dir.path(),
        &format!("python3 {}", alice.join("fuel.py").display()),
    );
    assert_eq!(absolute.status.code(), Some(0), "{}", text(&absolute));

    // Bob's traceback names his file as his own: `./fuel.py`.
    let failed = run(&bob, "python3 fuel.py");
    let said = text(&failed);
    assert_eq!(failed.status.code(), Some(1), "{said}");
    assert!(said.contains("File \"./fuel.py\""), "{said}");
    assert!(
        !said.contains(&format!("File \"{}", bob.display())),
        "{said}"
    );
    assert!(!said.contains("conformance-case-"), "{said}");

    // A script that is not there stops the run before its first case.
    let missing = run(&alice, "python3 fule.py");
    let said = text(&missing);
    assert_eq!(missing.status.code(), Some(2), "{said}");
    assert!(said.contains("can't open file"), "{said}");
    assert!(!said.contains("three-quarters"), "{said}");
}

#[test]
fn a_python_class_is_marked_with_the_run_line_and_no_marker_path() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = pack(dir.path());
    student(dir.path(), "alice", ALICE);
    student(dir.path(), "bob", BOB);
    student(dir.path(), "carol", CAROL);
    let marks = dir.path().join("marks");
    let out = harness()
        .env("TMPDIR", dir.path())
        .args(["mark", "--spec"])
        .arg(&pack)
        .arg(dir.path().join("submissions"))
        .arg("--out")
        .arg(&marks)
        .output()
        .expect("mark");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let csv = std::fs::read_to_string(marks.join("marks.csv")).expect("marks.csv");
    let row = |who: &str| {
        csv.lines()
            .find(|l| l.starts_with(&format!("{who},")))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(row("alice").contains(",ok,"), "{csv}");
    assert!(row("alice").contains(",3,5,0,0,"), "{csv}");
    assert!(row("bob").contains(",ok,"), "{csv}");
    assert!(row("carol").contains(",ok,"), "{csv}");

    let marker = [
        marks.display().to_string(),
        dir.path().display().to_string(),
        "conformance-case-".to_owned(),
        "programs/".to_owned(),
    ];
    for who in ["alice", "bob", "carol"] {
        let folder = marks.join("submissions").join(who);
        for file in [
            "report.txt",
            "report.html",
            "results.json",
            "gradescope.json",
        ] {
            let body = std::fs::read_to_string(folder.join(file)).expect("a student's file");
            for path in &marker {
                assert!(
                    !body.contains(path.as_str()),
                    "{who}/{file} names {path}:\n{body}"
                );
            }
        }
    }
    let report = |who: &str, file: &str| {
        std::fs::read_to_string(marks.join("submissions").join(who).join(file)).expect("read")
    };
    // Bob's traceback is his own file's; his reproduce line is the course's.
    let bob = report("bob", "report.txt");
    assert!(bob.contains("File \"./fuel.py\""), "{bob}");
    assert!(bob.contains("python3 \"$p\"/fuel.py"), "{bob}");
    assert!(bob.contains("(p=\"$(pwd)\" && d="), "{bob}");
    assert!(
        report("bob", "gradescope.json").contains("File \\\"./fuel.py\\\""),
        "{}",
        report("bob", "gradescope.json")
    );
    // Carol's prompts at a terminal are seen: the interactive case fails
    // only where she truncates, which it does not test.
    let carol: serde_json::Value =
        serde_json::from_str(&report("carol", "results.json")).expect("results.json");
    let verdict = |name: &str| {
        carol["cases"]
            .as_array()
            .and_then(|cases| cases.iter().find(|c| c["name"] == name))
            .map(|c| c["verdict"].clone())
            .unwrap_or_default()
    };
    assert_eq!(verdict("retry/at-a-terminal"), "passed", "{carol}");
    assert_eq!(verdict("basics/two-thirds"), "failed", "{carol}");
}

#[test]
fn bless_names_the_line_of_a_rule_explore_yaml_still_cites() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = pack(dir.path());
    write(
        &pack.join("explore.yaml"),
        "category: basics\nargv:\n  - {words: [], rules: [ARGS-1]}\n",
    );
    let out = harness()
        .args(["bless", "--spec"])
        .arg(&pack)
        .output()
        .expect("bless");
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("explore.yaml:3:1: rules: ARGS-1"), "{said}");
    assert!(said.contains("FRAC-1, OUT-1"), "{said}");
}

#[test]
fn a_wrapper_whose_program_the_sandbox_cannot_read_is_named_before_any_case() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = pack(dir.path());
    // The real program lives outside the wrapper's folder.
    let elsewhere = dir.path().join("elsewhere");
    write(&elsewhere.join("prog"), "#!/bin/sh\necho hi\n");
    let wrapper = dir.path().join("student/run.sh");
    write(
        &wrapper,
        &format!("#!/bin/sh\nexec {}\n", elsewhere.join("prog").display()),
    );
    std::fs::set_permissions(
        elsewhere.join("prog"),
        std::fs::Permissions::from_mode(0o755),
    )
    .expect("chmod");
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let out = harness()
        .args(["--spec"])
        .arg(&pack)
        .arg("--bin")
        .arg(&wrapper)
        .output()
        .expect("run");
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("--allow-read"), "{said}");
}
