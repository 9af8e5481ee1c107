//! The grouped report on hand-made failures: groups, their order, their
//! worked examples and causes merged where the same runs failed.

use super::*;
use crate::exec::run::{Ending, Stream};
use crate::judge::{compare::Mismatch, failure::Notes};
use std::time::Duration;

fn result(name: &str, mismatches: &[Mismatch]) -> CaseResult {
    let failure = CaseFailure::new(mismatches, b"", Notes::default());
    CaseResult::new(name, Verdict::Failed(Box::new(failure)))
}

fn extra(grid: &[u8], n: u8) -> Mismatch {
    let mut actual = grid.to_vec();
    actual.extend(format!("debug {n}\n").bytes());
    actual.extend(b"A> ");
    let mut expected = grid.to_vec();
    expected.extend(b"A> ");
    Mismatch::Stream {
        stream: Stream::Stdout,
        expected,
        actual,
        dropped: 0,
    }
}

#[test]
fn same_shaped_failures_make_one_group_with_one_example() {
    let status = Mismatch::Ending {
        expected: Ending::Exited(0),
        actual: Ending::Exited(5),
    };
    let results: Vec<CaseResult> = (0..20)
        .map(|i| result(&format!("c/{i:02}"), &[extra(b"+ +\n", i)]))
        .chain([result("d/status", &[status])])
        .collect();
    let g = groups(&results);
    assert_eq!(g.len(), 2);
    assert_eq!(g[0].cases.len(), 20);
    let text = render(&results, Style { colour: false });
    assert!(text.contains("21 failed case(s), 2 cause(s)"), "{text}");
    assert!(text.contains("cause 1 of 2: 20 case(s): stdout: extra output `debug #\\n`"));
    assert!(text.contains("and 8 more"));
    assert_eq!(text.matches("case: ").count(), 2, "one example per cause");
}

#[test]
fn at_equal_count_a_crash_or_a_hang_comes_before_wrong_bytes() {
    let ending = |actual| Mismatch::Ending {
        expected: Ending::Exited(0),
        actual,
    };
    let results = vec![
        result("a/bytes", &[extra(b"+ +\n", 1)]),
        result("b/status", &[ending(Ending::Exited(3))]),
        result(
            "c/hang",
            &[ending(Ending::TimedOut {
                after: Duration::from_secs(1),
                awaiting_prompt: None,
            })],
        ),
        result("d/crash", &[ending(Ending::Signaled(11))]),
    ];
    let order: Vec<&str> = groups(&results).iter().map(|g| g.cases[0].0).collect();
    assert_eq!(order, ["c/hang", "d/crash", "a/bytes", "b/status"]);
}

#[test]
fn the_worked_example_is_the_shortest_unambiguous_case() {
    let mismatch = |n| extra(b"+ +\n", n);
    let with_stdin = |name: &str, stdin: &[u8], ambiguous: bool| {
        let mut r = result(name, &[mismatch(1)]);
        r.ambiguous = ambiguous;
        r.verdict = Verdict::Failed(Box::new(CaseFailure::new(
            &[mismatch(1)],
            stdin,
            Notes::default(),
        )));
        r
    };
    let results = vec![
        with_stdin("a/long", b"1\n2\n3\n", false),
        with_stdin("b/short-but-ambiguous", b"1\n", true),
        with_stdin("c/short", b"1\n2\n", false),
        with_stdin("d/short-too", b"1\n2\n", false),
    ];
    let g = groups(&results);
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].example.0, "c/short");
}

#[test]
fn the_worked_example_is_the_lightest_case_and_its_hint_the_causes() {
    let with = |name: &str, weight: usize, hint: &str| {
        let mut r = result(name, &[extra(b"+ +\n", 1)]);
        let notes = Notes {
            hint: Some(hint.to_owned()),
            weight,
            ..Notes::default()
        };
        r.verdict = Verdict::Failed(Box::new(CaseFailure::new(
            &[extra(b"+ +\n", 1)],
            b"",
            notes,
        )));
        r
    };
    let results = vec![with("a/heavy", 9000, "one"), with("b/light", 3, "two")];
    let g = groups(&results);
    assert_eq!(g[0].example.0, "b/light");
    // The cases' hints differ: the worked example's heads the cause,
    // the other case's is shown with it.
    assert_eq!(g[0].hint().as_deref(), Some("two"));
    assert_eq!(g[0].other_hints(), [("a/heavy", "one")]);
    let same = vec![with("a/heavy", 9000, "one"), with("b/light", 3, "one")];
    assert_eq!(groups(&same)[0].hint().as_deref(), Some("one"));
}

#[test]
fn one_run_refused_by_several_categories_checkers_is_one_cause() {
    let checked = |name: &str, reason: &str, reproduce: &str| {
        let mut r = result(name, &[]);
        let m = [Mismatch::Stream {
            stream: Stream::Stdout,
            expected: b"Sum: 5\nCount: 2\n".to_vec(),
            actual: b"Sum: 8\nCount: 1\n".to_vec(),
            dropped: 0,
        }];
        let notes = Notes {
            decided: vec![crate::judge::decided::Decided::checker(
                crate::judge::decided::Part::Stream(Stream::Stdout),
                "python3 check.py",
                reason,
                vec!["OUT-1".to_owned()],
            )],
            reproduce: reproduce.to_owned(),
            ..Notes::default()
        };
        r.verdict = Verdict::Failed(Box::new(CaseFailure::new(&m, b"3\n-4\n-1\n", notes)));
        r
    };
    let results = vec![
        checked("sum/negatives", "the sum: expected 5, got 8", "(run 3 -4)"),
        checked(
            "count/negatives",
            "the count: expected 2, got 1",
            "(run 3 -4)",
        ),
        checked("count/other", "the count: expected 2, got 1", "(run 7 -8)"),
        checked("sum/alone", "the sum is missing", "(run 9)"),
    ];
    let g = groups(&results);
    // The count's cause (2 cases) takes the sum's run in; the sum
    // missing elsewhere is another run, another cause.
    assert_eq!(g.len(), 2, "{g:?}");
    let names: Vec<&str> = g[0].cases.iter().map(|c| c.0).collect();
    assert_eq!(names, ["count/negatives", "count/other", "sum/negatives"]);
    assert_eq!(g[0].also.len(), 1);
    let text = render(&results, Style { colour: false });
    // The cause merged in is told with its own run's values, never its
    // key's `#`.
    assert!(
        text.contains(
            "the same runs (same input, same output) fail another check too: stdout: the sum: \
             expected 5, got 8 (by checker `python3 check.py`, OUT-1)"
        ),
        "{text}"
    );
    assert!(text.contains("2 cause(s)"), "{text}");
}

#[test]
fn a_read_count_merged_into_a_cause_is_told_with_the_counts_not_hashes() {
    let run = |name: &str, m: &[Mismatch]| {
        let mut r = result(name, &[]);
        let notes = Notes {
            decided: vec![crate::judge::decided::Decided::checker(
                crate::judge::decided::Part::Stream(Stream::Stdout),
                "python3 check.py",
                "the sum: expected 5, got 8",
                vec!["OUT-1".to_owned()],
            )],
            reproduce: "(run 3 -4)".to_owned(),
            ..Notes::default()
        };
        r.verdict = Verdict::Failed(Box::new(CaseFailure::new(m, b"3\n-4\n-1\n", notes)));
        r
    };
    let stdout = || Mismatch::Stream {
        stream: Stream::Stdout,
        expected: b"Sum: 5\n".to_vec(),
        actual: b"Sum: 8\n".to_vec(),
        dropped: 0,
    };
    let reads = Mismatch::Reads(crate::judge::compare::ReadCount {
        expected: 0,
        actual: 4,
        line: None,
        ruling: None,
    });
    let results = vec![
        run("sum/a", &[stdout()]),
        run("sum/b", &[stdout()]),
        run("reads/a", &[reads, stdout()]),
    ];
    let g = groups(&results);
    assert_eq!((g.len(), g[0].also.len()), (1, 1), "{g:?}");
    let text = render(&results, Style { colour: false });
    assert!(
        text.contains("fail another check too: stdin: reads 4 stdin line(s) where 0 was expected"),
        "{text}"
    );
    assert!(!text.contains("reads #"), "{text}");
}
