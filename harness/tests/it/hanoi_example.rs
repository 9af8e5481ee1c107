//! The hanoi example (`examples/hanoi/`): an assignment none of the
//! built-in packs covers, replayed today as a plain case folder
//! (`--cases examples/hanoi`). The model and five submissions are built
//! with the build lines of its `pack.yaml`; the model passes every case,
//! the suite cites every rule of `rules.yaml`, and each submission fails,
//! among others, the cases that prove the rule its bug breaks.
//!
//! The model marks its output with the span protocol, so the engine's
//! causes, fed the model's record, name each submission's bug by rule
//! ("accepts `1 3`: MOVE-3 rejects it") as they will once folder packs run
//! the model traced.
//!
//! A new submission is one more row of [`SUBMISSIONS`] and of [`CAUSES`].

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use boxes_harness::engine::cause::Cause;
use boxes_harness::engine::compare::Mismatch;
use boxes_harness::engine::failure::input_note;
use boxes_harness::engine::run::{Ending, Stream};
use serde_json::Value;

/// A submission: its folder, the rule its bug breaks, and cases that must
/// fail on it (each citing that rule), which are all that fail when
/// `only`.
struct Submission {
    student: &'static str,
    rule: &'static str,
    fails: &'static [&'static str],
    only: bool,
}

const SUBMISSIONS: [Submission; 5] = [
    Submission {
        student: "alice",
        rule: "ARGS-2",
        fails: &["display/nine-discs"],
        only: true,
    },
    Submission {
        student: "bob",
        rule: "EOF-1",
        fails: &["display/three-discs", "end/eof-after-moves"],
        only: false,
    },
    Submission {
        student: "carol",
        rule: "FILE-4",
        fails: &[
            "file-errors/larger-on-smaller",
            "file-errors/larger-on-smaller-peg-3",
        ],
        only: true,
    },
    Submission {
        student: "dave",
        rule: "DISP-1",
        fails: &[
            "display/one-disc",
            "display/three-discs",
            "display/nine-discs",
        ],
        only: false,
    },
    Submission {
        student: "erin",
        rule: "MOVE-3",
        fails: &["moves/onto-smaller"],
        only: true,
    },
];

fn pack() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/hanoi")
}

/// A key of `pack.yaml` (`model.build`).
fn pack_key(section: &str, key: &str) -> String {
    let text = std::fs::read_to_string(pack().join("pack.yaml")).expect("pack.yaml");
    let yaml: yaml_serde::Value = yaml_serde::from_str(&text).expect("pack.yaml parses");
    yaml[section][key]
        .as_str()
        .expect("pack.yaml has the key (model.build, submissions.program, ...)")
        .to_owned()
}

/// Copies the files of `from` into a new folder `into/name` and runs the
/// build line there: the program it leaves.
fn build(from: &Path, into: &Path, name: &str, line: &str, program: &str) -> PathBuf {
    let dir = into.join(name);
    std::fs::create_dir(&dir).expect("a build folder");
    for entry in std::fs::read_dir(from).expect("the sources") {
        let path = entry.expect("an entry").path();
        if path.is_file() {
            std::fs::copy(&path, dir.join(path.file_name().expect("a name"))).expect("a copy");
        }
    }
    let status = std::process::Command::new("sh")
        .args(["-c", line])
        .current_dir(&dir)
        .status()
        .expect("sh runs");
    assert!(status.success(), "`{line}` failed for {name}");
    dir.join(program)
}

/// The model, built in `into` by `pack.yaml`'s line.
fn model(into: &Path) -> PathBuf {
    build(
        &pack().join("model"),
        into,
        "model",
        &pack_key("model", "build"),
        pack_key("model", "command").trim_start_matches("./"),
    )
}

/// Runs the case folder on `bin`: the harness's exit status and results.
fn replay(bin: &Path, results: &Path) -> (Option<i32>, Value) {
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env("NO_COLOR", "1")
        // Verdicts, not containment (tests/it/contain.rs): the cheapest level.
        .env("CONFORMANCE_CONTAINMENT", "group")
        .arg("--cases")
        .arg(pack())
        .arg("--bin")
        .arg(bin)
        .arg("--results")
        .arg(results)
        .output()
        .expect("the harness runs");
    let text = std::fs::read_to_string(results).expect("the results file");
    (
        out.status.code(),
        serde_json::from_str(&text).expect("results JSON"),
    )
}

/// The cases of a results document with their verdict and rules.
fn cases(results: &Value) -> Vec<(String, String, Vec<String>)> {
    let as_str = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    results["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| {
            let rules = c["rules"].as_array().expect("rules");
            (
                as_str(&c["name"]),
                as_str(&c["verdict"]),
                rules.iter().map(as_str).collect(),
            )
        })
        .collect()
}

#[test]
fn the_model_passes_and_each_submission_fails_on_its_rule() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let model = model(dir.path());
    let (code, results) = replay(&model, &dir.path().join("model.json"));
    let all = cases(&results);
    assert_eq!(code, Some(0), "the model passes: {results}");
    assert!(all.len() >= 30, "about 30 cases or more: {}", all.len());
    assert!(all.iter().all(|(_, verdict, _)| verdict == "passed"));

    let known = rule_ids();
    let cited: BTreeSet<String> = all.iter().flat_map(|(_, _, r)| r.clone()).collect();
    assert_eq!(
        cited, known,
        "the cases cite exactly the rules of rules.yaml"
    );

    let (line, program) = (
        pack_key("submissions", "build"),
        pack_key("submissions", "program"),
    );
    for s in &SUBMISSIONS {
        let from = pack().join("submissions").join(s.student);
        let bin = build(&from, dir.path(), s.student, &line, &program);
        let (code, results) = replay(&bin, &dir.path().join(format!("{}.json", s.student)));
        assert_eq!(code, Some(1), "{} fails: {results}", s.student);
        let failed: Vec<_> = cases(&results)
            .into_iter()
            .filter(|(_, verdict, _)| verdict == "failed")
            .collect();
        for name in s.fails {
            let case = failed.iter().find(|(n, _, _)| n == name);
            let Some((_, _, rules)) = case else {
                panic!("{}: {name} should fail: {failed:?}", s.student)
            };
            assert!(
                rules.iter().any(|r| r == s.rule),
                "{}: {name} cites {}",
                s.student,
                s.rule
            );
        }
        if s.only {
            let names: Vec<&str> = failed.iter().map(|(n, _, _)| n.as_str()).collect();
            assert_eq!(names, s.fails, "{}: only these fail", s.student);
        }
    }
}

#[test]
fn explore_yaml_is_a_grammar_citing_only_known_rules() {
    use boxes_harness::engine::diff::explore::Explorer;
    use boxes_harness::engine::diff::grammar::{Grammar, GrammarExplorer};

    let text = std::fs::read(pack().join("explore.yaml")).expect("explore.yaml");
    let grammar = Grammar::parse("examples/hanoi/explore.yaml", &text).expect("parses");
    let known = rule_ids();
    let explorer = GrammarExplorer::new(grammar, "args");
    let mut drawn = BTreeSet::new();
    for index in 0..300 {
        let session = explorer.generate(1, index, true);
        let class = explorer.classify(&session, 0);
        assert_eq!(class.category, "moves");
        for rule in &class.rules {
            assert!(known.contains(rule), "{rule} is not in rules.yaml");
        }
        drawn.extend(class.rules);
    }
    assert!(
        drawn.len() >= 15,
        "the sessions reach most rules: {drawn:?}"
    );
}

/// The rule IDs of the example's `rules.yaml`.
fn rule_ids() -> BTreeSet<String> {
    let rules_text = std::fs::read_to_string(pack().join("rules.yaml")).expect("rules.yaml");
    let rules: yaml_serde::Value = yaml_serde::from_str(&rules_text).expect("rules.yaml parses");
    rules["rules"]
        .as_sequence()
        .expect("a rule list")
        .iter()
        .filter_map(|r| r["id"].as_str().map(str::to_owned))
        .collect()
}

/// A session of the model: arguments, stdin, files.
struct Session {
    args: &'static [&'static str],
    stdin: &'static str,
    files: &'static [(&'static str, &'static str)],
}

impl Session {
    /// Runs `program` on the session in a new folder `run` (traced into
    /// `run/record` when `traced`).
    fn run(&self, program: &Path, run: &Path, traced: bool) -> std::process::Output {
        std::fs::create_dir(run).expect("a run folder");
        for (path, text) in self.files {
            std::fs::write(run.join(path), text).expect("an input file");
        }
        let mut cmd = std::process::Command::new(program);
        cmd.args(self.args)
            .current_dir(run)
            .env_remove(reference_kit::trace::ENV)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        if traced {
            cmd.env(reference_kit::trace::ENV, "record");
        }
        let mut child = cmd.spawn().expect("the program runs");
        std::io::Write::write_all(
            &mut child.stdin.take().expect("stdin"),
            self.stdin.as_bytes(),
        )
        .expect("stdin written");
        child.wait_with_output().expect("the program ends")
    }
}

/// What the model's record says of a session: (rule, kind) of each ruling.
const MARKED: [(Session, &[(&str, &str)]); 5] = [
    (
        Session {
            args: &["2"],
            stdin: "1 2\n1 3\n2 3\n",
            files: &[],
        },
        &[],
    ),
    (
        Session {
            args: &["3"],
            stdin: "4 1\n1 3x\n2 3\n1 3\n1 3\nsave \n",
            files: &[],
        },
        &[
            ("MOVE-2", "range"),
            ("MOVE-2", "form"),
            ("MOVE-3", "empty-peg"),
            ("MOVE-3", "larger-on-smaller"),
            ("SAVE-4", "save-open"),
            ("EOF-1", "end-of-input"),
        ],
    ),
    (
        Session {
            args: &["3", "game"],
            stdin: "",
            files: &[("game", "0\n3 1 2\n\n\n")],
        },
        &[("FILE-4", "larger-on-smaller")],
    ),
    (
        Session {
            args: &["10"],
            stdin: "",
            files: &[],
        },
        &[("ARGS-2", "disc-count")],
    ),
    (
        Session {
            args: &["2", "game"],
            stdin: "",
            files: &[("game", "4\n\n\n2 1\n")],
        },
        &[],
    ),
];

#[test]
fn the_model_marks_every_byte_of_its_stdout_and_every_refusal() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let model = model(dir.path());
    for (i, (session, rulings)) in MARKED.iter().enumerate() {
        let run = dir.path().join(format!("run-{i}"));
        let out = session.run(&model, &run, true);
        let text = std::fs::read_to_string(run.join("record")).expect("a record");
        let record = reference_kit::trace::parse_record(&text);
        // The spans tile stdout from its first byte to its last.
        let mut at = 0;
        for span in &record.spans {
            assert_eq!(span.start, at, "session {i}: a gap before {span:?}");
            assert!(!span.rules.is_empty(), "session {i}: {span:?} names rules");
            at = span.end;
        }
        assert_eq!(at, out.stdout.len() as u64, "session {i}: every byte");
        let got: Vec<(&str, &str)> = record
            .rulings
            .iter()
            .map(|r| (r.rule.as_str(), r.kind.as_str()))
            .collect();
        assert_eq!(got, *rulings, "session {i}:\n{text}");
    }
}

/// A session on which a submission fails, and what the cause the engine
/// names from the model's record must say.
const CAUSES: [(&str, Session, &str); 5] = [
    (
        "alice",
        Session {
            args: &["9"],
            stdin: "",
            files: &[],
        },
        "stdout, in the board at the start (DISP-1, DISP-2): the output stops here",
    ),
    (
        "bob",
        Session {
            args: &["3"],
            stdin: "",
            files: &[],
        },
        "status: exits 0 where the reference stops with an error (EOF-1)",
    ),
    (
        "carol",
        Session {
            args: &["3", "game"],
            stdin: "",
            files: &[("game", "1\n3 1 2\n\n\n")],
        },
        "stdout: goes on where the reference stops: FILE-4, a larger disc on a smaller one",
    ),
    (
        "dave",
        Session {
            args: &["3"],
            stdin: "",
            files: &[],
        },
        "stdout, in the board at the start (DISP-1, DISP-2): a line differs only in spaces",
    ),
    (
        "erin",
        Session {
            args: &["3"],
            stdin: "1 3\n1 3\n1 2\n",
            files: &[],
        },
        "stdout: accepts what the reference rejects: MOVE-3, a larger disc onto a smaller one",
    ),
];

/// The engine's mismatches of two runs, in its order: ending, stdout,
/// stderr.
fn mismatches(expected: &std::process::Output, actual: &std::process::Output) -> Vec<Mismatch> {
    let mut out = Vec::new();
    if expected.status.code() != actual.status.code() {
        let ending = |o: &std::process::Output| Ending::Exited(o.status.code().unwrap_or(-1));
        out.push(Mismatch::Ending {
            expected: ending(expected),
            actual: ending(actual),
        });
    }
    for (stream, e, a) in [
        (Stream::Stdout, &expected.stdout, &actual.stdout),
        (Stream::Stderr, &expected.stderr, &actual.stderr),
    ] {
        if e != a {
            out.push(Mismatch::Stream {
                stream,
                expected: e.clone(),
                actual: a.clone(),
                dropped: 0,
            });
        }
    }
    out
}

#[test]
fn the_models_record_names_each_submissions_bug_by_rule() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let model = model(dir.path());
    let line = pack_key("submissions", "build");
    let program = pack_key("submissions", "program");
    for (student, session, says) in &CAUSES {
        let from = pack().join("submissions").join(student);
        let bin = build(&from, dir.path(), student, &line, &program);
        let expected = session.run(&model, &dir.path().join(format!("{student}-model")), true);
        let actual = session.run(&bin, &dir.path().join(format!("{student}-run")), false);
        let text = std::fs::read_to_string(dir.path().join(format!("{student}-model/record")))
            .expect("the model's record");
        let record = reference_kit::trace::parse_record(&text);
        let note = input_note(
            session.stdin.as_bytes(),
            &expected.stdout,
            &actual.stdout,
            b"> ",
        );
        let answered = note
            .line
            .checked_sub(1)
            .and_then(|i| session.stdin.as_bytes().split(|&b| b == b'\n').nth(i));
        let mismatches = mismatches(&expected, &actual);
        let (cause, label) = Cause::labelled(&mismatches, Some(&record), answered);
        let told = format!("{cause} | {}", label.unwrap_or_default());
        assert!(told.contains(says), "{student}: {told}");
    }
}

/// The rule that names each student's first cause in the class view: the
/// rule of their bug, except alice's, whose program refuses 9 discs where
/// the model draws its board, so her output stops in the board (DISP-1).
const CLASS_CAUSES: [(&str, &str); 5] = [
    ("alice", "DISP-1"),
    ("bob", "EOF-1"),
    ("carol", "FILE-4"),
    ("dave", "DISP-1"),
    ("erin", "MOVE-3"),
];

#[test]
fn the_five_marked_as_a_class_are_named_by_rule() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let out = dir.path().join("marks");
    let run = Command::cargo_bin("boxes-harness")
        .expect("the harness")
        .args(["mark", "--spec"])
        .arg(pack())
        .arg(pack().join("submissions"))
        .arg("--out")
        .arg(&out)
        .env("CONFORMANCE_ALLOW_READ", env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("mark runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    let cohort: Value =
        serde_json::from_slice(&std::fs::read(out.join("cohort.json")).expect("cohort.json"))
            .expect("cohort.json parses");
    let rows = cohort["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), CLASS_CAUSES.len(), "{cohort}");
    for (student, rule) in CLASS_CAUSES {
        let row = rows
            .iter()
            .find(|r| r["id"] == student)
            .unwrap_or_else(|| panic!("{student} is marked: {cohort}"));
        assert_eq!(row["build"], "ok", "{row}");
        let total = row["total"].as_f64().expect("a total");
        assert!(total < 20.0, "{student} loses marks: {row}");
        let cause = row["first_cause"].as_str().expect("a first cause");
        assert!(
            cause.contains(rule),
            "{student}'s cause names {rule}: {cause}"
        );
    }
    // The checks the class misses, by rule, with who misses them.
    let missing = cohort["missing_checks"].as_array().expect("missing checks");
    for (rule, student) in [("FILE-4", "carol"), ("MOVE-3", "erin")] {
        assert!(
            missing
                .iter()
                .any(|m| m["rule"] == rule && m["submissions"][0] == student),
            "{rule} missed by {student}: {missing:?}"
        );
    }
    let page = std::fs::read_to_string(out.join("index.html")).expect("index.html");
    for (student, rule) in CLASS_CAUSES {
        assert!(
            page.contains(student) && page.contains(rule),
            "{student} {rule}"
        );
    }
}
