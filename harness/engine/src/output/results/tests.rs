//! A case the environment struck (a runtime that never started) in every
//! machine output: its own verdict in `--results` with its reason, an
//! `<error>` in JUnit, no Gradescope mark, not gradable on PrairieLearn,
//! an `error` test on GitHub Classroom; and never counted by a grader.

use super::*;
use crate::exec::run::NoStart;
use crate::judge::environment::{Lack, failure};
use crate::judge::failure::{CaseFailure, Notes};
use crate::model::schema::{Suite, parse};
use crate::output::report::score;

fn suite() -> Suite {
    parse(
        "suite.yaml",
        b"name: t\ncategories:\n  - {name: io, marks: 4}\n  - {name: calc, marks: 6}\n",
    )
    .unwrap()
}

const JVM: &str = "`Error occurred during initialization of VM`";

fn case(name: &str, verdict: Verdict) -> CaseResult {
    CaseResult {
        category: name.split('/').next().map(str::to_owned),
        ..CaseResult::new(name, verdict)
    }
}

fn passed(name: &str) -> CaseResult {
    case(name, Verdict::Passed)
}

fn failed(name: &str) -> CaseResult {
    let f = CaseFailure::new(&[], b"", Notes::default());
    case(name, Verdict::Failed(Box::new(f)))
}

/// A case whose program's runtime never started, run three times.
fn struck(name: &str) -> CaseResult {
    let lack = Lack::Start(NoStart {
        said: JVM.to_owned(),
        tries: 3,
    });
    case(
        name,
        Verdict::Failed(Box::new(failure(&lack, b"", Notes::default()))),
    )
}

fn doc(results: &[CaseResult]) -> Results {
    let info = RunInfo {
        spec: "t",
        program: "./prog",
        suite: "t 1",
        content_hash: "0",
    };
    build(&info, results, &score(&suite(), results, false), None)
}

#[test]
fn a_struck_case_is_its_own_verdict_with_its_reason() {
    let d = doc(&[struck("io/a"), failed("io/b"), passed("calc/c")]);
    // Sorted by name: calc/c, io/a, io/b.
    let a = &d.cases[1];
    assert_eq!(a.verdict, VerdictKind::Environment);
    assert!(!a.verdict.judged());
    assert_eq!(
        a.environment.as_deref(),
        Some(
            "the program's runtime could not start where the marks run (3 runs): `Error \
             occurred during initialization of VM`"
        )
    );
    assert_eq!(d.cases[2].verdict, VerdictKind::Failed);
    assert_eq!(d.cases[2].environment, None);
    let json = serde_json::to_value(&d).unwrap();
    assert_eq!(json["cases"][1]["verdict"], "environment");
    assert!(json["cases"][2].get("environment").is_none(), "{json}");
    // The document reads back (the schema's `deny_unknown_fields`).
    let back: Results = serde_json::from_value(json).unwrap();
    assert_eq!(back.cases[1].verdict, VerdictKind::Environment);
    // Not judged: io is the failed case's alone, 0 of 1.
    let io = &d.score.categories[0];
    assert_eq!((io.passed, io.total, io.errors), (0, 1, 1));
}

#[test]
fn a_run_with_a_case_not_judged_gets_no_gradescope_mark() {
    let clean = doc(&[passed("io/a"), failed("io/b"), passed("calc/c")]);
    let grade = gradescope(&clean, &[], &[], 1.0).unwrap();
    assert!((grade.score - 8.0).abs() < 1e-9, "{grade:?}");
    assert_eq!(not_gradable(&clean), None);

    // One struck case of 35 or a whole category: no mark either way
    // (a 0 for the category, or a mark over the others, could be wrong).
    for results in [
        vec![struck("io/a"), passed("io/b"), passed("calc/c")],
        vec![struck("io/a"), struck("io/b"), passed("calc/c")],
    ] {
        let why = gradescope(&doc(&results), &[], &[], 1.0).unwrap_err();
        assert!(why.contains("case(s) not judged (environment: the program's runtime could not start where the marks run (3 runs)"), "{why}");
    }
    // A case the harness could not run is no mark either.
    let error = doc(&[case("io/a", Verdict::Error("bad case file".into()))]);
    let why = not_gradable(&error).unwrap();
    assert!(
        why.starts_with(
            "1 case(s) not judged (the harness or the suite could not run it: bad case file)"
        ),
        "{why}"
    );
}

#[test]
fn prairielearn_does_not_grade_a_struck_run_and_classroom_says_error() {
    let results = [struck("io/a"), passed("io/b"), failed("calc/c")];
    let d = doc(&results);
    let pl = crate::output::prairielearn::grade(&d, &[], &[], "report");
    assert!(!pl.gradable, "{pl:?}");
    assert!(pl.message.contains("runtime could not start"), "{pl:?}");
    assert_eq!(pl.output, "report");

    let classroom = crate::output::github::classroom(&d, &results, &[]);
    assert_eq!(classroom.status, "error");
    let status: Vec<&str> = classroom.tests.iter().map(|t| t.status.as_str()).collect();
    assert_eq!(status, ["error", "fail"]);
}

#[test]
fn junit_says_a_struck_case_is_an_error_not_a_failure() {
    let xml = crate::output::report::junit("./prog", &[struck("io/a"), failed("io/b")]);
    let a = xml
        .split("<testcase")
        .find(|t| t.contains("name=\"io/a\""))
        .unwrap();
    assert!(a.contains("<error") && !a.contains("<failure"), "{a}");
    assert!(
        a.contains("message=\"not judged: environment: the program")
            && a.contains("runtime could not start where the marks run (3 runs)"),
        "{a}"
    );
    assert!(a.contains("type=\"environment\""), "{a}");
    let b = xml
        .split("<testcase")
        .find(|t| t.contains("name=\"io/b\""))
        .unwrap();
    assert!(b.contains("<failure") && !b.contains("<error"), "{b}");
}

#[test]
fn a_grader_counts_no_struck_case() {
    let s = parse(
        "suite.yaml",
        b"name: t\ncategories:\n  - {name: io, marks: 30, grader: {score: min, accept-score: 30}}\n",
    )
    .unwrap();
    // All or nothing over the judged cases: the struck one is not a miss.
    let results = [passed("io/a"), struck("io/b")];
    let rows = score(&s, &results, false);
    assert_eq!(rows[0].earned, Some(30.0));
    assert_eq!((rows[0].total, rows[0].errors), (1, 1));
}
