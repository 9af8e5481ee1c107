//! The class view's and a submission's pages, checked on cohorts built in
//! memory.

use super::*;
use crate::marking::cohort::build;
use crate::marking::cohort::tests::{sub, suite};

#[test]
fn missing_checks_are_listed_once_by_rule_with_their_submissions() {
    let wrap = "stdout: accepts what the reference rejects: TURN-3, a number past a C int";
    let file = "stdout: goes on where the reference stops: FILE-2, a next player outside 1..P";
    let marks = vec![
        sub("a", 5.0, &["a"], Some(wrap)),
        sub("b", 5.0, &["b"], Some(file)),
        sub("c", 0.0, &["a", "b"], Some(wrap)),
        sub(
            "d",
            10.0,
            &[],
            Some("stdout, in the grid (DISP-1): a line differs"),
        ),
    ];
    let view = build(&suite(), &marks);
    let listed: Vec<(&str, &str, Vec<&str>, usize)> = view
        .missing_checks
        .iter()
        .map(|m| {
            let subs = m.submissions.iter().map(String::as_str).collect();
            (m.rule.as_str(), m.check.as_str(), subs, m.cases)
        })
        .collect();
    assert_eq!(
        listed,
        [
            (
                "TURN-3",
                "accepts what the reference rejects: a number past a C int",
                vec!["a", "c"],
                3
            ),
            (
                "FILE-2",
                "goes on where the reference stops: a next player outside 1..P",
                vec!["b"],
                1
            ),
        ]
    );
    let page = index(&view);
    let section = page
        .split_once("<h2>Checks the class misses</h2>")
        .and_then(|(_, rest)| rest.split("<h2>").next())
        .unwrap_or_default();
    assert_eq!(
        section.matches("a number past a C int").count(),
        1,
        "{section}"
    );
    assert!(section.contains("<td>a, c</td>"), "{section}");
}

#[test]
fn memory_errors_are_listed_by_kind_and_place_with_their_submissions() {
    let overflow = "memory: heap-buffer-overflow in `shout` (shout.c:11)";
    let marks = vec![
        sub("a", 5.0, &["a"], Some(overflow)),
        sub("b", 5.0, &["a", "b"], Some(overflow)),
        sub(
            "c",
            5.0,
            &["b"],
            Some("memory: double-free in `release` (x.c:7)"),
        ),
        sub("d", 10.0, &[], None),
    ];
    let view = build(&suite(), &marks);
    let listed: Vec<(&str, &str, Vec<&str>)> = view
        .memory_errors
        .iter()
        .map(|m| {
            let subs = m.submissions.iter().map(String::as_str).collect();
            (m.kind.as_str(), m.place.as_str(), subs)
        })
        .collect();
    assert_eq!(
        listed,
        [
            (
                "heap-buffer-overflow",
                "`shout` (shout.c:11)",
                vec!["a", "b"]
            ),
            ("double-free", "`release` (x.c:7)", vec!["c"]),
        ]
    );
    let page = index(&view);
    assert!(page.contains("<h2>Memory errors</h2>"), "{page}");
    assert!(page.contains("<td>a, b</td>"), "{page}");
    // Without --memcheck no memory table at all.
    assert!(!index(&build(&suite(), &marks[3..])).contains("Memory errors"));
}

#[test]
fn the_class_page_puts_the_students_first_and_folds_the_cases() {
    let marks = [
        sub("a", 10.0, &[], None),
        sub("b", 5.0, &["a"], Some("stdout: x")),
        sub("c", 5.0, &["a"], Some("stdout: x")),
    ];
    let page = index(&build(&suite(), &marks));
    let at = |needle: &str| page.find(needle).expect(needle);
    assert!(at("id=\"header\"") < at("id=\"submissions\""));
    assert!(at("href=\"submissions/a/report.html\"") < at("id=\"causes\""));
    assert!(at("id=\"causes\"") < at("id=\"cases\""));
    assert!(
        at("id=\"cases\"")
            < at("<details><summary>all — 2 case(s), 1 failed by someone, 1 flagged")
    );
    assert!(page.contains("(content <code>abc</code>); built with <code>cc *.c</code>"));
    // Here a cause is shared and no check is missed: an empty table
    // says so rather than showing a bare header.
    assert!(!page.contains("no cause is shared"));
    assert!(page.contains("none: no submission lets through what a rule rejects"));
    let alone = index(&build(&suite(), &marks[..2]));
    assert!(alone.contains("none: no cause is shared by two submissions"));
}

#[test]
fn text_is_escaped() {
    assert_eq!(
        esc("<a href='x'>&\"</a>"),
        "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;"
    );
    assert_eq!(href("a%20b"), "a%2520b");
}
