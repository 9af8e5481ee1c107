//! Tests of `compare`, beside it.

use super::*;
use crate::exec::run::{Ending, Outcome, Stream};
use crate::model::case::Expectation;

fn outcome(code: i32, stdout: &[u8]) -> Outcome {
    Outcome {
        ending: Ending::Exited(code),
        ..Outcome::exited_with(stdout)
    }
}

fn expect(code: i32, stdout: &[u8]) -> Expectation {
    Expectation::exactly(Ending::Exited(code), stdout.to_vec())
}

#[test]
fn another_reading_passes_what_it_expects_and_only_that() {
    let mut e = expect(1, b"not a number\n");
    e.alternatives.push(crate::model::case::Alternative {
        reading: "lenient".into(),
        rules: vec!["IO-6".into()],
        ending: Ending::Exited(0),
        stdout: b"212.0\n".to_vec(),
        stderr: Vec::new(),
    });
    let under = |o: &Outcome, strict| {
        other_reading(&e, o, &NoOracle, strict)
            .unwrap()
            .map(|a| a.reading.clone())
    };
    assert_eq!(
        under(&outcome(0, b"212.0\n"), false),
        Some("lenient".into())
    );
    assert_eq!(under(&outcome(0, b"212.0\n"), true), Some("lenient".into()));
    // Its status and its bytes both: neither half of each reading.
    assert_eq!(under(&outcome(1, b"212.0\n"), false), None);
    assert_eq!(under(&outcome(0, b"41.0\n"), false), None);
    // A hang fails every reading.
    let hung = Outcome {
        ending: Ending::TimedOut {
            after: std::time::Duration::from_secs(1),
            awaiting_prompt: None,
        },
        ..outcome(0, b"212.0\n")
    };
    assert_eq!(under(&hung, false), None);
}

#[test]
fn moving_the_streams_finds_the_same_mismatches() {
    let mut e = expect(0, b"x\n");
    e.stderr = b"e\n".to_vec();
    e.output_files.insert("s".into(), b"1\n".to_vec());
    e.absent_files.push("t".into());
    for (code, stdout, stderr) in [
        (0, &b"x\n"[..], &b"e\n"[..]),
        (3, b"y\n", b""),
        (0, b"", b"e\n"),
    ] {
        let mut o = outcome(code, stdout);
        o.stderr = stderr.to_vec();
        o.files.insert("t".into(), Vec::new());
        assert_eq!(compare(&e, &o), compare_owned(&e, o.clone()));
    }
}

#[test]
fn bytes_not_kept_make_a_stream_longer() {
    let mut o = outcome(0, b"x\n");
    o.dropped.stdout = 5;
    let m = compare(&expect(0, b"x\n"), &o);
    assert!(
        matches!(&m[..], [Mismatch::Stream { dropped: 5, .. }]),
        "{m:?}"
    );
}

#[test]
fn equal_runs_match() {
    assert!(compare(&expect(0, b"x \n"), &outcome(0, b"x \n")).is_empty());
}

#[test]
fn a_trailing_space_is_a_difference() {
    let m = compare(&expect(0, b"x \n"), &outcome(0, b"x\n"));
    assert_eq!(m.len(), 1);
    assert!(matches!(
        m[0],
        Mismatch::Stream {
            stream: Stream::Stdout,
            ..
        }
    ));
    assert_eq!(
        m[0].to_string(),
        "stdout differs: first difference at line 1, column 2 (byte 1)"
    );
}

#[test]
fn status_and_files() {
    let mut e = expect(0, b"");
    e.output_files.insert("s".into(), b"1\n".to_vec());
    e.absent_files.push("t".into());
    let mut b = outcome(1, b"");
    b.files.insert("t".into(), b"1\n".to_vec());
    let m = compare(&e, &b);
    assert!(m.contains(&Mismatch::FileMissing { path: "s".into() }));
    assert!(m.contains(&Mismatch::FileUnexpected { path: "t".into() }));
    assert!(matches!(m[0], Mismatch::Ending { .. }));
}

#[test]
fn any_status_accepts_every_exit_but_not_a_signal() {
    let mut e = expect(0, b"");
    e.any_status = true;
    let mut o = outcome(3, b"");
    assert!(compare(&e, &o).is_empty());
    o.ending = Ending::Signaled(11);
    assert!(matches!(compare(&e, &o)[0], Mismatch::Ending { .. }));
}

/// An expectation that counts reads, the model reading `model` lines,
/// and a run that read `read`.
fn counted(model: usize, read: usize) -> (Expectation, Outcome) {
    let mut e = expect(0, b"Fahrenheit? 212\n");
    e.count_reads = true;
    e.reads = Some(model);
    let mut o = outcome(0, b"Fahrenheit? 212\n");
    o.reads = Some(crate::exec::run::Reads {
        stdout_at: vec![0; read],
        uncertain: false,
    });
    (e, o)
}

#[test]
fn a_case_that_counts_reads_fails_another_count_whatever_the_bytes() {
    let (e, o) = counted(2, 2);
    assert!(compare(&e, &o).is_empty());
    let (e, o) = counted(2, 1);
    let m = compare(&e, &o);
    assert_eq!(
        m,
        [Mismatch::Reads(ReadCount {
            expected: 2,
            actual: 1,
            line: None,
            ruling: None
        })]
    );
    assert_eq!(compare_owned(&e, o), m);
    // Not counted unless the case asks, nor for a run that did not
    // exit: its ending is the failure.
    let (mut e, o) = counted(2, 1);
    e.count_reads = false;
    assert!(compare(&e, &o).is_empty());
    // Nor a count the harness could not be certain of.
    let (e, mut o) = counted(2, 1);
    if let Some(reads) = &mut o.reads {
        reads.uncertain = true;
    }
    assert!(compare(&e, &o).is_empty());
    let (e, mut o) = counted(2, 1);
    o.ending = Ending::Signaled(11);
    assert!(
        !compare(&e, &o)
            .iter()
            .any(|m| matches!(m, Mismatch::Reads(_)))
    );
}

fn ruling(line: &[u8], rule: &str) -> crate::judge::provenance::Ruling {
    crate::judge::provenance::Ruling {
        verdict: crate::judge::provenance::Verdict::Rejected,
        at: 12,
        rule: rule.to_owned(),
        kind: "not-a-number".to_owned(),
        says: "a temperature that is not a number".to_owned(),
        detail: format!("{rule} rejects it (not a number)"),
        line: line.to_vec(),
        exit_rule: String::new(),
    }
}

#[test]
fn a_read_count_is_named_by_the_line_accepted_and_its_rule() {
    let record = crate::judge::provenance::Record {
        asides: Vec::new(),
        spans: Vec::new(),
        rulings: vec![ruling(b"abc", "TEMP-2"), ruling(b"zz", "TEMP-3")],
    };
    let (e, o) = counted(2, 1);
    let mut m = compare(&e, &o);
    place_reads(&mut m, b"abc\n212\n", Some(&record));
    let Mismatch::Reads(r) = &m[0] else {
        panic!("{m:?}")
    };
    assert_eq!(r.line, Some((1, b"abc".to_vec())));
    assert_eq!(r.ruling.as_ref().map(|r| r.rule.as_str()), Some("TEMP-2"));
    assert_eq!(
        m[0].to_string(),
        "reads 1 stdin line(s) before it ends where the model reads 2: it accepted line 1 \
             `abc` (TEMP-2 rejects it (not a number))"
    );
    // Read more than the model: the line after which it asked again.
    let (e, o) = counted(1, 2);
    let mut m = compare(&e, &o);
    place_reads(&mut m, b"212\nabc\n", Some(&record));
    assert_eq!(
        m[0].to_string(),
        "reads 2 stdin line(s) before it ends where the model reads 1: it asked again after \
             line 1 `212`, which the model accepts"
    );
    // Without a record: the line, no rule.
    let (e, o) = counted(2, 1);
    let mut m = compare(&e, &o);
    place_reads(&mut m, b"abc\n212\n", None);
    assert!(matches!(&m[0], Mismatch::Reads(r) if r.ruling.is_none() && r.line.is_some()));
}
