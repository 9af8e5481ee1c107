//! Tests of `cohort`, beside it.

use super::*;

use crate::marking::record::{CaseMark, CategoryMark};
use crate::output::results::CauseRecord;

pub(in crate::marking) fn suite() -> SuiteInfo {
    SuiteInfo {
        spec: "toy".into(),
        suite: "toy 1".into(),
        content_hash: "abc".into(),
        categories: vec![Category {
            name: "all".into(),
            title: String::new(),
            marks: 10.0,
        }],
        build: "cc *.c".into(),
        marks: None,
    }
}

/// A built submission with `total` marks that failed `failed` (of
/// cases `a`, `b`) for `cause`.
pub(in crate::marking) fn sub(
    id: &str,
    total: f64,
    failed: &[&str],
    cause: Option<&str>,
) -> SubmissionMark {
    SubmissionMark {
        format: crate::marking::record::FORMAT.into(),
        id: id.into(),
        slug: id.into(),
        students: Vec::new(),
        build: BuildStatus::Ok,
        reason: None,
        warnings: 0,
        inputs: String::new(),
        depends: std::collections::BTreeMap::new(),
        environment: Vec::new(),
        unjudged: Vec::new(),
        categories: vec![CategoryMark {
            name: "all".into(),
            earned: total,
            marks: 10.0,
        }],
        total,
        max: 10.0,
        passed: 2 - failed.len(),
        failed: failed.len(),
        errors: 0,
        cases: ["a", "b"]
            .iter()
            .map(|&n| CaseMark {
                name: n.into(),
                category: Some("all".into()),
                ambiguous: false,
                rules: vec![format!("R-{n}")],
                verdict: if failed.contains(&n) {
                    VerdictKind::Failed
                } else {
                    VerdictKind::Passed
                },
            })
            .collect(),
        causes: cause
            .map(|c| CauseRecord {
                cause: c.into(),
                cases: failed.iter().map(|&f| f.to_owned()).collect(),
                example: String::new(),
            })
            .into_iter()
            .collect(),
        memory_warnings: Vec::new(),
        seconds: 1.0,
        usage: None,
        deductions: Vec::new(),
    }
}

#[test]
fn the_class_view_counts_flags_and_shares() {
    let mut failed_build = sub("d", 0.0, &[], None);
    failed_build.build = BuildStatus::Failed;
    failed_build.cases.clear();
    failed_build.passed = 0;
    let marks = [
        sub("a", 10.0, &[], None),
        sub("b", 5.0, &["a"], Some("stdout: x")),
        sub("c", 5.0, &["a"], Some("stdout: x")),
        failed_build,
    ];
    let view = build(&suite(), &marks);
    assert_eq!((view.submissions, view.built), (4, 3));
    // 0, 5, 5, 10 of 10: bars 0, 5, 5 and the last.
    assert_eq!(view.histogram, [1, 0, 0, 0, 0, 2, 0, 0, 0, 1]);
    assert_eq!((view.mean, view.median), (Some(5.0), Some(5.0)));
    // Case a: failed by 2 of the 3 that built, flagged; b by none.
    assert_eq!(view.cases[0].name, "a");
    assert_eq!((view.cases[0].failed, view.cases[0].judged), (2, 3));
    assert!(view.cases[0].flagged && !view.cases[1].flagged);
    assert_eq!(
        view.flagged_rules,
        [FlaggedRule {
            rule: "R-a".into(),
            cases: 1
        }]
    );
    assert_eq!(view.shared_causes.len(), 1);
    assert_eq!(view.shared_causes[0].submissions, ["b", "c"]);
    // The same marks in another order give the same view.
    let mut shuffled = marks.to_vec();
    shuffled.reverse();
    shuffled.sort_by(|x, y| x.id.cmp(&y.id));
    assert_eq!(build(&suite(), &shuffled), view);
    let table = csv(&suite(), &marks);
    assert_eq!(
        table.lines().next(),
        Some(
            "id,name,email,sid,build,warnings,all,total,passed,failed,errors,first cause,\
                 deductions,memory warnings"
        )
    );
    assert_eq!(
        table.lines().nth(2),
        Some("b,,,,ok,0,5,5,1,1,0,stdout: x,,")
    );
    assert_eq!(table.lines().nth(4), Some("d,,,,failed,0,0,0,0,0,0,,,"));
    // Memory errors only warned about: the last column, marks untouched.
    let mut warned = sub("e", 10.0, &[], None);
    warned.memory_warnings = vec![
        CauseRecord {
            cause: "memory: heap-buffer-overflow in `f` (a.c:#)".into(),
            cases: vec!["a".into()],
            example: String::new(),
        },
        CauseRecord {
            cause: "memory: leak in `g` (a.c:#)".into(),
            cases: vec!["b".into()],
            example: String::new(),
        },
    ];
    assert_eq!(
        csv(&suite(), &[warned]).lines().nth(1),
        Some(
            "e,,,,ok,0,10,10,2,0,0,,,memory: heap-buffer-overflow in `f` (a.c:#); \
                 memory: leak in `g` (a.c:#)"
        )
    );
}

#[test]
fn csv_fields_are_quoted_and_formulas_defused() {
    assert_eq!(field("plain"), "plain");
    assert_eq!(field("a,b"), "\"a,b\"");
    assert_eq!(field("say \"x\""), "\"say \"\"x\"\"\"");
    assert_eq!(field("=1+1"), "'=1+1");
}

#[test]
fn marks_csv_shows_the_first_cause_as_its_worked_example_tells_it() {
    let mut masked = sub(
        "b",
        5.0,
        &["a"],
        Some("stdout: `Sum: #` where `Sum: #` is expected"),
    );
    masked.causes[0].example = "stdout: `Sum: 8` where `Sum: 5` is expected".into();
    let table = csv(&suite(), &[masked.clone()]);
    assert!(
        table.contains("stdout: `Sum: 8` where `Sum: 5` is expected"),
        "{table}"
    );
    // A key named by place and shape hides no bytes, and has no values
    // either: the row carries its worked example's beside it.
    let mut placed = sub(
        "i",
        2.0,
        &["a"],
        Some("stdout, in the temperature in Fahrenheit (IO-4): a line differs"),
    );
    placed.causes[0].example =
        "stdout: `Fahrenheit: 32\\n` where `Fahrenheit: 32.0\\n` was expected".into();
    let row = csv(&suite(), &[placed]);
    assert!(
        row.contains(
            "(IO-4): a line differs; for example stdout: `Fahrenheit: 32\\n` where \
             `Fahrenheit: 32.0\\n` was expected"
        ),
        "{row}"
    );
    // The key, masked, still groups the class's causes.
    let mut other = masked.clone();
    other.id = "c".into();
    other.slug = "c".into();
    other.causes[0].example = "stdout: `Sum: 1` where `Sum: 2` is expected".into();
    let view = build(&suite(), &[masked, other]);
    assert_eq!(
        view.shared_causes[0].cause,
        "stdout: `Sum: #` where `Sum: #` is expected"
    );
}

#[test]
fn a_pack_fault_counts_its_cases_and_no_row_judged_gives_no_mean() {
    let fault = crate::marking::record::pack_fault(
        "checker `python3 check.py` on stdout: ended with status 1 with a traceback:\n  x\n",
    );
    assert_eq!(
        fault,
        "a fault of the pack, not of the program: checker `python3 check.py` on stdout: ended \
         with status 1 with a traceback"
    );
    // Both cases struck by the pack: no total, no mean.
    let mut struck = sub("a", 0.0, &[], None);
    for c in &mut struck.cases {
        c.verdict = VerdictKind::Error;
    }
    (struck.passed, struck.errors) = (0, 2);
    struck.unjudged = vec!["all".into()];
    struck.environment = vec![fault.clone()];
    let view = build(&suite(), &[struck]);
    assert_eq!((view.mean, view.median), (None, None));
    assert_eq!(view.categories[0].mean, None);
    assert_eq!(
        crate::marking::struck::mean_said(view.mean, view.max),
        "no row judged (of 10 marks): no mean"
    );
    assert_eq!(view.environment.len(), 1);
    assert_eq!(view.environment[0].cause, fault);
    assert_eq!(view.environment[0].cases, 2);
    let json = serde_json::to_string(&view).unwrap_or_default();
    assert!(json.contains("\"mean\":null"), "{json}");
    let index = crate::marking::html::index(&view);
    assert!(!index.contains("traceback::"), "{index}");
    assert!(
        index.contains(
            "failed for a fault of the pack, not for their own bugs. A fault of the pack"
        ),
        "{index}"
    );
    assert!(!index.contains("Install what is missing"), "{index}");
    assert!(
        index.contains("no row judged (of 10 marks): no mean"),
        "{index}"
    );
}

#[test]
fn a_pack_fault_says_fix_the_pack_not_install_what_is_missing() {
    let mut a = sub("a", 0.0, &[], None);
    a.environment = vec![crate::marking::record::pack_fault("checker crashed:")];
    let text = crate::marking::struck::said(&[a.clone()], &["a"]);
    assert!(
        text.contains("failed for a fault of the pack")
            && text.contains("fix the pack, `bless` it and mark again"),
        "{text}"
    );
    assert!(!text.contains("install"), "{text}");
    let mut b = sub("b", 0.0, &[], None);
    b.environment = vec!["cannot import `x`: not installed where the marks run".into()];
    let text = crate::marking::struck::said(&[b.clone()], &["b"]);
    assert!(
        text.contains("failed for what this machine lacks"),
        "{text}"
    );
    assert!(
        text.contains("install what is missing where the marks run and mark again"),
        "{text}"
    );
    let text = crate::marking::struck::said(&[a, b], &["a", "b"]);
    assert!(
        text.contains("fix the pack, `bless` it, install what is missing"),
        "{text}"
    );
}
