//! What a student reads (issue 57, and issue 53's item 7): a small Python
//! class of a CSV exercise (read `Last, First` names, write
//! first,last,house; on a file that cannot be read, a message of the
//! program's choice and a status other than 0), its model marking spans
//! and stops, and five students: a leftover debug print (a deduction), a
//! crash on a header-only file, a missing-file traceback, a wrong output
//! file, and a message on stdout with status 0 where the words are free.
//! Each point is checked on `run`'s report (the student's own run) and on
//! the report `mark` hands each student: a deduction is a charge in words
//! with its hint and in the result line; a crash says what the reference
//! does there and marks the exception's words as the program's; free words
//! are said to be free, the model's never shown as a target; a file case's
//! reproduce line prints the file, in `sh` and `bash`; `mark`'s report
//! carries none of the marker's words or options, and each cause keeps its
//! worked example's values beside its key.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

use crate::files::{bless, text, write};

/// The model, marking its spans and its stops.
const MODEL: &str = r#"import csv
import os
import sys

import conformance_span as span

span.install()
span.enter("CSV-1", "the converted file")
if len(sys.argv) != 3:
    sys.exit("Usage: scourgify.py BEFORE AFTER")
try:
    with open(sys.argv[1]) as f:
        rows = list(csv.DictReader(f))
except FileNotFoundError:
    span.stopped("ERR-1", "missing", "a file that cannot be read", "ERR-1",
                 f"{sys.argv[1]} cannot be read: ERR-1 stops with a message")
    if os.environ.get("SCOURGIFY_READING") == "stdout":
        print(f"Could not read {sys.argv[1]}")
        sys.exit(1)
    sys.exit(f"Could not read {sys.argv[1]}")
with open(sys.argv[2], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["first", "last", "house"], lineterminator="\n")
    w.writeheader()
    for r in rows:
        last, first = r["name"].split(", ")
        w.writerow({"first": first, "last": last, "house": r["house"]})
span.empty("CSV-1", "after the file is written")
span.stopped("CSV-1", "done", "the file is written", "CSV-1", f"{sys.argv[2]} written")
"#;

/// A student's program: the exercise, with `before` run before the file
/// is written and `missing` the answer to a file that cannot be read.
fn program(before: &str, missing: &str, swapped: bool) -> String {
    let order = if swapped {
        "last, \"last\": first"
    } else {
        "first, \"last\": last"
    };
    format!(
        "import csv\nimport sys\n\ntry:\n    with open(sys.argv[1]) as f:\n        rows = \
         list(csv.DictReader(f))\nexcept FileNotFoundError:\n{missing}\n{before}\nwith \
         open(sys.argv[2], \"w\") as f:\n    w = csv.DictWriter(f, [\"first\", \"last\", \
         \"house\"], lineterminator=\"\\n\")\n    w.writeheader()\n    for r in rows:\n        \
         last, first = r[\"name\"].split(\", \")\n        w.writerow({{\"first\": {order}, \
         \"house\": r[\"house\"]}})\n"
    )
}

const EXITS: &str = "    sys.exit(\"no such file\")";

/// The five students: (name, program).
fn students() -> [(&'static str, String); 5] {
    [
        // A leftover debug print: every case passes, 0.5 is deducted.
        ("alice", program("print(rows[:0])", EXITS, false)),
        // Line 9 crashes on a header-only file (no first row).
        ("bob", program("first_row = rows[0]", EXITS, false)),
        // No answer to a missing file: line 5 raises.
        ("carol", program("", "    raise", false)),
        // first and last swapped in after.csv.
        ("dave", program("", EXITS, true)),
        // Its own words, on stdout, and status 0.
        (
            "erin",
            program("", "    print(\"Sorry, no file\")\n    sys.exit(0)", false),
        ),
    ]
}

fn harness() -> Command {
    crate::files::harness("scourgify")
}

/// The pack in `dir/scourgify`, blessed from its model.
fn pack(dir: &Path) -> PathBuf {
    let pack = dir.join("scourgify");
    write(
        &pack.join("pack.yaml"),
        "name: scourgify\nmodel:\n  command: python3 scourgify.py\nsubmissions:\n  program: \
         scourgify.py\n  run: \"python3 {program}\"\n",
    );
    write(&pack.join("scourgify.py"), MODEL);
    let module = Path::new(env!("CARGO_MANIFEST_DIR")).join("../span/conformance_span.py");
    std::fs::copy(module, pack.join("conformance_span.py")).expect("copy the span module");
    write(
        &pack.join("suite.yaml"),
        "name: scourgify\ncategories:\n  - {name: basic, marks: 4}\n  - {name: more, marks: \
         3}\n  - {name: errors, marks: 3}\n",
    );
    write(
        &pack.join("rules.yaml"),
        "rules:\n  - id: CSV-1\n    summary: names become first,last,house; nothing on \
         stdout\n    ambiguous: no\n    match: {stdout: any, deduct: 0.5}\n  - id: ERR-1\n    \
         summary: a message of the program's choice, a status other than 0\n    ambiguous: \
         whole\n    match: {stderr: nonempty, status: nonzero}\n    readings:\n      stdout: \
         {SCOURGIFY_READING: stdout}\n",
    );
    // Each case's own time limit: one derived from the model's blessed
    // time (1 ms, so 1 s) is starved on a loaded machine, the model's
    // read-counting run included.
    let case = |file: &str, category: &str, before: &str, own: &str| {
        write(
            &pack.join(file),
            &format!(
                "summary: {file}\ncategory: {category}\nrules: [CSV-1]\nargs: [before.csv, \
                 after.csv]\ntimeout: 10\nhint: print nothing on stdout; write after.csv\n{own}files:\n  - \
                 {{path: before.csv, text: \"{before}\"}}\noutput-files:\n  - {{path: \
                 after.csv, text: \"\"}}\n"
            ),
        );
    };
    // A case declaring its own tolerance (of a part no rule frees): the
    // marker's listing counts it.
    case(
        "basic/one.yaml",
        "basic",
        "name,house\\n\\\"Weasley, Ron\\\",Gryffindor\\n",
        "match: {stderr: any}\n",
    );
    case("more/header-only.yaml", "more", "name,house\\n", "");
    write(
        &pack.join("errors/missing.yaml"),
        "summary: a file that is not there\ncategory: errors\nrules: [ERR-1]\nargs: \
         [invalid_file.csv, after.csv]\ntimeout: 10\nhint: print a message on stderr and exit \
         1\n",
    );
    bless(harness(), &pack);
    pack
}

/// The line under `reproduce:` in `report`, for the case `case`.
fn reproduce_line<'a>(report: &'a str, case: &str) -> &'a str {
    let from = report.find(case).expect("the case is in the report");
    let rest = &report[from..];
    let at = rest.find("reproduce:\n  ").expect("a reproduce line") + "reproduce:\n  ".len();
    rest[at..].lines().next().expect("its line")
}

/// `line` run by `sh -c` and `bash -c` in `dir`: what each printed.
fn in_both_shells(line: &str, dir: &Path) -> [String; 2] {
    ["sh", "bash"].map(|shell| {
        let out = std::process::Command::new(shell)
            .args(["-c", line])
            .current_dir(dir)
            .output()
            .expect(shell);
        String::from_utf8_lossy(&out.stdout).into_owned()
    })
}

/// What a student must read, whoever ran the check: each cause true to
/// the model and the program.
fn reads_right(who: &str, report: &str) {
    match who {
        "alice" => {
            assert!(
                report.contains(
                    "-0.5 CSV-1: prints `[]` on stdout where the model prints nothing (in 2 \
                     cases, first basic/one; charged once)"
                ),
                "{report}"
            );
            assert!(report.contains("\ncharges: 1 rule(s)"), "{report}");
            assert!(
                report.contains("    hint: print nothing on stdout; write after.csv"),
                "{report}"
            );
            assert!(
                report.contains("test result: ok. 3 passed; 0 failed")
                    && report.contains("; 0.5 mark(s) deducted, see the charges above"),
                "{report}"
            );
            assert!(!report.contains("forgave"), "{report}");
        }
        "bob" => assert!(
            report.contains(
                "raises IndexError (`./scourgify.py:9`, saying `list index out of range`) \
                 where the reference writes its output and exits 0 (CSV-1)"
            ),
            "{report}"
        ),
        "carol" => {
            assert!(
                report.contains(
                    "raises FileNotFoundError (`./scourgify.py:5`, saying `[Errno 2] No such \
                     file or directory: 'invalid_file.csv'`) where the reference stops with an \
                     error message (ERR-1)"
                ),
                "{report}"
            );
            assert!(!report.contains("its message"), "{report}");
        }
        "erin" => {
            assert!(
                report.contains(
                    "stderr: the words are free (the model's are not a target); judged: a \
                     message in the program's own words (ERR-1), never a traceback; got nothing"
                ),
                "{report}"
            );
            assert!(
                report.contains("ending: expected any status but 0 (ERR-1), got status 0"),
                "{report}"
            );
            assert!(!report.contains("Could not read"), "{report}");
        }
        _ => {}
    }
}

/// Dave's file case: its reproduce line, run as printed, shows the wrong
/// `after.csv` in `sh` and in `bash`.
fn shows_the_file(report: &str, dir: &Path) {
    let line = reproduce_line(report, "basic/one");
    assert!(
        line.contains("echo '== after.csv:'; cat after.csv)"),
        "{line}"
    );
    for shown in in_both_shells(line, dir) {
        assert!(
            shown.ends_with(
                "exit status 0\n== after.csv:\nfirst,last,house\nWeasley,Ron,Gryffindor\n"
            ),
            "{shown}\n{line}"
        );
    }
}

/// The marker's words and the options a student of a marked class cannot
/// use.
const MARKERS: [&str; 7] = [
    "tolerances:",
    "declare their own",
    "also under the reading",
    "--strict",
    "--include-ignored",
    "--keep-failed",
    "--spec",
];

#[test]
fn a_python_classs_reports_read_right_under_run_and_under_mark() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = pack(dir.path());
    for (who, source) in students() {
        write(
            &dir.path().join(format!("subs/{who}/scourgify.py")),
            &source,
        );
    }
    // Each student's own run (the case that shows their bug, all three
    // for the deduction's count): the marker's words are theirs too.
    for (who, case) in [
        ("alice", ""),
        ("bob", "more/header-only"),
        ("carol", "errors/missing"),
        ("dave", "basic/one"),
        ("erin", "errors/missing"),
    ] {
        let program = dir.path().join(format!("subs/{who}/scourgify.py"));
        let mut run = harness();
        run.args(["--score", "--spec"])
            .arg(&pack)
            .arg("--bin")
            .arg(format!("python3 {}", program.display()));
        if !case.is_empty() {
            run.args([case, "--exact"]);
        }
        let out = run.output().expect("run");
        let report = text(&out);
        // Alice's cases all pass; the others fail one.
        let want = i32::from(who != "alice");
        assert_eq!(out.status.code(), Some(want), "{who}: {report}");
        reads_right(who, &report);
        assert!(
            report.contains(
                "tolerances: CSV-1: stdout any; ERR-1: stderr nonempty, status nonzero; 1 \
                 case(s) declare their own"
            ),
            "{report}"
        );
        if who == "erin" {
            assert!(
                report.contains("also under the reading `stdout`"),
                "{report}"
            );
        }
        if who == "dave" {
            shows_the_file(&report, dir.path());
        }
    }
    // Carol's traceback is checked on her own run: one crash is enough
    // for the class (bob's), which keeps this test cheap.
    std::fs::remove_dir_all(dir.path().join("subs/carol")).expect("rm carol");
    // The class: each report reads right and carries no marker's word.
    let out = harness()
        .args(["mark", "--spec"])
        .arg(&pack)
        .arg(dir.path().join("subs"))
        .arg("--out")
        .arg(dir.path().join("marks"))
        .output()
        .expect("mark");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // The marker's view keeps the listing the students' reports drop.
    assert!(
        text(&out).contains("mark: tolerances: CSV-1: stdout any; ERR-1: stderr nonempty"),
        "{}",
        text(&out)
    );
    for who in ["alice", "bob", "dave", "erin"] {
        let report = std::fs::read_to_string(
            dir.path()
                .join(format!("marks/submissions/{who}/report.txt")),
        )
        .expect("report.txt");
        reads_right(who, &report);
        for word in MARKERS {
            assert!(!report.contains(word), "{who}: `{word}` in\n{report}");
        }
        if who == "dave" {
            // From the student's own folder, as the report says.
            shows_the_file(&report, &dir.path().join("subs/dave"));
        }
    }
    // results.json keeps each cause's worked example with its values,
    // beside the key that groups causes (marks.csv shows it where the key
    // masks them: `marking::cohort`'s tests).
    let results = std::fs::read_to_string(dir.path().join("marks/submissions/bob/results.json"))
        .expect("results.json");
    assert!(
        results.contains("saying `list index out of range`"),
        "{results}"
    );
}
