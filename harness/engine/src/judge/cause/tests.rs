//! The causes of failures, on hand-made mismatches and records.

use super::text::*;
use super::*;
use crate::exec::run::{Ending, Stream};
use crate::judge::compare::Mismatch;
use crate::judge::provenance::{Record, Ruling, Span, Verdict};

fn stdout(expected: &[u8], actual: &[u8]) -> Cause {
    Cause::located(
        &[Mismatch::Stream {
            stream: Stream::Stdout,
            expected: expected.to_vec(),
            actual: actual.to_vec(),
            dropped: 0,
        }],
        None,
        None,
    )
}

#[test]
fn a_memory_error_is_the_cause_alone_keyed_by_kind_and_place() {
    let error = |what: &str| crate::judge::memory::MemoryError {
        kind: "heap-buffer-overflow".into(),
        what: what.into(),
        frame: Some(crate::judge::memory::Frame {
            function: "shout".into(),
            file: Some("shout.c".into()),
            line: Some(11),
        }),
        tool: crate::judge::memory::Tool::Sanitizer,
        lines: Vec::new(),
    };
    let failed = |what: &str, out: &[u8]| {
        Cause::labelled(
            &[
                Mismatch::Ending {
                    expected: Ending::Exited(0),
                    actual: Ending::Exited(1),
                },
                Mismatch::Stream {
                    stream: Stream::Stdout,
                    expected: b"HI\n".to_vec(),
                    actual: out.to_vec(),
                    dropped: 0,
                },
                Mismatch::Memory {
                    error: error(what),
                    quoted: Vec::new(),
                },
            ],
            None,
            None,
        )
    };
    let (short, label) = failed("a write of 1 byte past a 2-byte block", b"");
    let (long, _) = failed("a write of 1 byte past a 5-byte block", b"HEL");
    assert_eq!(short, long);
    assert_eq!(
        short.to_string(),
        "memory: heap-buffer-overflow in `shout` (shout.c:11)"
    );
    assert_eq!(
        label.as_deref(),
        Some("heap-buffer-overflow: a write of 1 byte past a 2-byte block in `shout` (shout.c:11)")
    );
    assert_eq!(short.severity(), 0);
    assert_eq!(
        memory_error_of(&short.to_string()),
        Some(("heap-buffer-overflow", "`shout` (shout.c:11)"))
    );
    assert_eq!(memory_error_of("stdout: a line differs"), None);
}

#[test]
fn digits_become_hashes_and_long_lines_are_cut() {
    assert_eq!(normalise(b"move 12 3 h\n"), "move # # h\\n");
    assert_eq!(normalise(b"\xff\t7"), "\\xff\\t#");
    let long = normalise(&[b'x'; 500]);
    assert_eq!(long.chars().count(), LINE_CHARS + 1);
    assert!(long.ends_with('…'));
}

#[test]
fn an_extra_line_after_a_move_is_one_cause_in_any_grid() {
    let a = stdout(
        b"+ +\nA> +-+\n| |\nB> ",
        b"+ +\nA> debug: move 0 0\n+-+\n| |\nB> ",
    );
    let b = stdout(
        b"+ + +\n\nA> +-+ +\nB> ",
        b"+ + +\n\nA> debug: move 13 2\n+-+ +\nB> ",
    );
    assert_eq!(a, b);
    assert_eq!(a.to_string(), "stdout: extra output `debug: move # #\\n`");
}

#[test]
fn missing_changed_and_endings_are_told_apart() {
    let missing = stdout(b"+ +\nA> ", b"+ +\n");
    assert_eq!(missing.parts[0].edit, Edit::Missing(vec!["A> ".into()]));
    let changed = stdout(b"+-+ \n| |\n", b"+-+\n|x|\n");
    assert_eq!(
        changed.parts[0].edit,
        Edit::Changed {
            expected: "+-+ \\n".into(),
            actual: "+-+\\n".into()
        }
    );
    // A changed message is quoted whole, not from its first
    // differing byte.
    let words = stdout(b"Error reading grid contents\n", b"End of user input\n");
    assert_eq!(
        words.to_string(),
        "stdout: `End of user input\\n` where `Error reading grid contents\\n` was expected"
    );
    let status = Cause::located(
        &[Mismatch::Ending {
            expected: Ending::Exited(0),
            actual: Ending::Exited(5),
        }],
        None,
        None,
    );
    assert_eq!(
        status.to_string(),
        "status: status 5 where status 0 was expected"
    );
    let other = Cause::located(
        &[Mismatch::Ending {
            expected: Ending::Exited(0),
            actual: Ending::Exited(6),
        }],
        None,
        None,
    );
    assert_ne!(status, other);
    let numbers = stdout(b"1\n", b"2\n");
    assert_eq!(
        numbers.to_string(),
        "stdout: `2\\n` where `1\\n` was expected"
    );
}

fn span(start: u64, end: u64, what: &str, rules: &[&str]) -> Span {
    Span {
        start,
        end,
        rules: rules.iter().map(|r| (*r).to_owned()).collect(),
        what: what.to_owned(),
    }
}

fn record(spans: Vec<Span>) -> Record {
    Record {
        asides: Vec::new(),
        spans,
        rulings: Vec::new(),
    }
}

/// `+-+ \n` (a grid) then `A> ` (a prompt).
fn spans() -> Vec<Span> {
    vec![
        span(0, 5, "the grid", &["DISP-1"]),
        span(5, 8, "the prompt", &["TURN-1"]),
    ]
}

fn located(expected: &[u8], actual: &[u8], answered: Option<&[u8]>) -> Cause {
    let m = [Mismatch::Stream {
        stream: Stream::Stdout,
        expected: expected.to_vec(),
        actual: actual.to_vec(),
        dropped: 0,
    }];
    Cause::located(&m, Some(&record(spans())), answered)
}

#[test]
fn with_provenance_a_cause_is_the_place_and_the_shape_never_the_bytes() {
    let trimmed = located(b"+-+ \nA> ", b"+-+\nA> ", None);
    assert_eq!(
        trimmed.to_string(),
        "stdout, in the grid (DISP-1): a line differs only in spaces or tabs"
    );
    // Other bytes, same shape at the same place: the same cause.
    assert_eq!(trimmed, located(b"+-+ \nA> ", b"+-+\t\nA> ", None));
    let number = located(b"+-+ \nA> ", b"+-+ \nB> ", None);
    assert_eq!(
        number.to_string(),
        "stdout, in the prompt (TURN-1): a line differs"
    );
    let extra = located(b"+-+ \nA> ", b"+-+ \ndebug 3\nA> ", None);
    assert_eq!(
        extra.to_string(),
        "stdout, before the prompt (TURN-1): an extra line"
    );
    let echo = located(b"+-+ \nA> ", b"+-+ \n0 0 h\nA> ", Some(b"0 0 h"));
    assert_eq!(
        echo.to_string(),
        "stdout: the program echoes the input line it just read"
    );
    let stops = located(b"+-+ \nA> ", b"+-+ \n", None);
    assert_eq!(
        stops.to_string(),
        "stdout, in the prompt (TURN-1): the output stops here"
    );
    let case = located(b"+-+ \nA> ", b"+-+ \na> ", None);
    assert_eq!(
        case.to_string(),
        "stdout, in the prompt (TURN-1): a line differs in letter case"
    );
}

#[test]
fn with_provenance_the_primary_part_alone_is_the_cause() {
    let stream = Mismatch::Stream {
        stream: Stream::Stdout,
        expected: b"+-+ \nA> ".to_vec(),
        actual: b"+-+ \n".to_vec(),
        dropped: 0,
    };
    let status = Mismatch::Ending {
        expected: Ending::Exited(6),
        actual: Ending::Exited(0),
    };
    let both = Cause::located(
        &[status.clone(), stream.clone()],
        Some(&record(spans())),
        None,
    );
    assert_eq!(
        both,
        Cause::located(&[stream], Some(&record(spans())), None)
    );
    let crashed = Mismatch::Ending {
        expected: Ending::Exited(0),
        actual: Ending::Signaled(11),
    };
    let stream = Mismatch::Stream {
        stream: Stream::Stdout,
        expected: b"+-+ \nA> ".to_vec(),
        actual: b"+".to_vec(),
        dropped: 0,
    };
    let crash = Cause::located(&[crashed, stream], Some(&record(spans())), None);
    assert_eq!(crash.parts.len(), 1);
    assert_eq!(crash.parts[0].part, "status");
    assert_eq!(crash.severity(), 0);
    // Without provenance every part counts, by its bytes.
    assert_eq!(Cause::located(&[status], None, None).parts.len(), 1);
}

fn ruling(verdict: Verdict, at: u64, rule: &str, kind: &str, detail: &str) -> Ruling {
    Ruling {
        verdict,
        at,
        rule: rule.to_owned(),
        kind: kind.to_owned(),
        says: format!("{kind} in words"),
        detail: detail.to_owned(),
        line: b"3 14 h".to_vec(),
        exit_rule: if verdict == Verdict::Stopped {
            "FILE-6".to_owned()
        } else {
            String::new()
        },
    }
}

/// The grid, a prompt, a line rejected at 8 and the prompt again.
fn rejecting() -> Record {
    Record {
        asides: Vec::new(),
        spans: vec![
            span(0, 5, "the grid", &["DISP-1"]),
            span(5, 8, "the first prompt", &["TURN-1"]),
            span(8, 11, "the prompt after a rejected line", &["TURN-3"]),
        ],
        rulings: vec![ruling(
            Verdict::Rejected,
            8,
            "TURN-3",
            "h-row",
            "TURN-3 rejects it (row 3 is outside a 2-row grid)",
        )],
    }
}

fn stdout_of(expected: &[u8], actual: &[u8]) -> Mismatch {
    Mismatch::Stream {
        stream: Stream::Stdout,
        expected: expected.to_vec(),
        actual: actual.to_vec(),
        dropped: 0,
    }
}

#[test]
fn a_line_answered_where_the_reference_rejected_it_is_the_missed_check() {
    let record = rejecting();
    let played = stdout_of(b"+-+ \nA> A> ", b"+-+ \nA> +-+-\nB> ");
    let (cause, label) = Cause::labelled(&[played], Some(&record), None);
    assert_eq!(
        cause.to_string(),
        "stdout: accepts what the reference rejects: TURN-3, h-row in words"
    );
    assert_eq!(
        label.as_deref(),
        Some("accepts `3 14 h`: TURN-3 rejects it (row 3 is outside a 2-row grid)")
    );
    // Another line, another grid: the same check, the same cause.
    let other = stdout_of(b"+-+ \nA> A> ", b"+-+ \nA> +-+ \n|  \nB> ");
    assert_eq!(Cause::located(&[other], Some(&record), None), cause);
    // A message before the same prompt is not acceptance.
    let message = stdout_of(b"+-+ \nA> A> ", b"+-+ \nA> Invalid move\nA> ");
    let (cause, label) = Cause::labelled(&[message], Some(&record), None);
    assert!(label.is_none());
    assert!(!cause.to_string().contains("accepts"), "{cause}");
}

#[test]
fn the_prompt_again_without_the_message_is_a_missing_message() {
    // The reference answers the rejected line with a message, then
    // prompts again; the program prompts again at once.
    let mut record = rejecting();
    record.spans = vec![
        span(0, 5, "the grid", &["DISP-1"]),
        span(5, 8, "the first prompt", &["TURN-1"]),
        span(8, 12, "the message", &["TURN-3"]),
        span(12, 15, "the prompt again", &["TURN-1"]),
    ];
    let silent = stdout_of(b"+-+ \nA> No.\nA> ", b"+-+ \nA> A> ");
    let (cause, label) = Cause::labelled(&[silent], Some(&record), None);
    assert_eq!(
        cause.to_string(),
        "stdout: rejects without the message the reference prints: TURN-3, h-row in words"
    );
    assert_eq!(
        label.as_deref(),
        Some("no message for `3 14 h`: TURN-3 rejects it (row 3 is outside a 2-row grid)")
    );
    // Answering as if valid is still acceptance.
    let played = stdout_of(b"+-+ \nA> No.\nA> ", b"+-+ \nA> +-+-\nB> ");
    let (cause, _) = Cause::labelled(&[played], Some(&record), None);
    assert!(cause.to_string().contains("accepts"), "{cause}");
}

#[test]
fn fewer_reads_ending_on_a_line_the_reference_rejects_is_the_missed_check() {
    // Free text: stdout is not compared, only the reads (counted apart
    // and placed on the line the program accepted).
    let record = rejecting();
    let reads = |actual: usize| {
        let mut m = [Mismatch::Reads(crate::judge::compare::ReadCount {
            expected: 2,
            actual,
            line: None,
            ruling: None,
        })];
        crate::judge::compare::place_reads(&mut m, b"3 14 h\n0 0 h\n", Some(&record));
        m
    };
    let (cause, label) = Cause::labelled(&reads(1), Some(&record), None);
    assert_eq!(
        cause.to_string(),
        "stdin: accepts what the reference rejects: TURN-3, h-row in words"
    );
    assert_eq!(
        label.as_deref(),
        Some(
            "accepts `3 14 h`: TURN-3 rejects it (row 3 is outside a 2-row grid) (it reads 1 \
             stdin line(s) where the reference reads 2)"
        )
    );
    // More reads than the reference: named by the counts, numbers as `#`.
    let (cause, label) = Cause::labelled(&reads(3), Some(&record), None);
    assert!(label.is_none());
    assert_eq!(
        cause.to_string(),
        "stdin: reads # stdin line(s) where # was expected"
    );
}

#[test]
fn under_a_tolerance_the_line_read_last_names_the_check_not_a_forgiven_message() {
    // celsius's fay: `abc` is answered in her own words (forgiven),
    // `-500` converted and she ends. Her stdout first differs at the
    // answer to `abc`; her reads end on `-500`, the real bug.
    let word = |v, at, rule: &str, line: &[u8]| Ruling {
        line: line.to_vec(),
        ..ruling(v, at, rule, "k", &format!("{rule} rejects it"))
    };
    let record = Record {
        asides: Vec::new(),
        spans: vec![
            span(0, 9, "prompt", &["IO-1"]),
            span(9, 14, "a word", &["IO-2"]),
            span(14, 23, "prompt", &["IO-1"]),
            span(23, 29, "below zero", &["IO-3"]),
        ],
        rulings: vec![
            word(Verdict::Rejected, 9, "IO-2", b"abc"),
            word(Verdict::Rejected, 23, "IO-3", b"-500"),
        ],
    };
    let mut m = [
        stdout_of(
            b"Celsius: word\nCelsius: cold\nCelsius: ",
            b"Celsius: Not a number.\nCelsius: F: -868.0\n",
        ),
        Mismatch::Reads(crate::judge::compare::ReadCount {
            expected: 3,
            actual: 2,
            line: None,
            ruling: None,
        }),
    ];
    crate::judge::compare::place_reads(&mut m, b"abc\n-500\n37\n", Some(&record));
    let (cause, label) = Cause::labelled(&m, Some(&record), None);
    assert!(cause.to_string().contains("IO-3"), "{cause}");
    assert!(
        label
            .as_deref()
            .is_some_and(|l| l.starts_with("accepts `-500`: IO-3")),
        "{label:?}"
    );
}

#[test]
fn going_on_where_the_reference_stops_is_keyed_by_its_check() {
    let record = Record {
        asides: Vec::new(),
        spans: Vec::new(),
        rulings: vec![ruling(
            Verdict::Stopped,
            0,
            "FILE-2",
            "next-player-range",
            "a grid file whose next player is 0: FILE-2 wants 1..P",
        )],
    };
    let on = stdout_of(b"", b"+ +\nA> ");
    let status = Mismatch::Ending {
        expected: Ending::Exited(5),
        actual: Ending::Exited(6),
    };
    let (cause, label) = Cause::labelled(&[status.clone(), on], Some(&record), None);
    assert_eq!(
        cause.to_string(),
        "stdout: goes on where the reference stops: FILE-2, next-player-range in words"
    );
    assert_eq!(
        label.as_deref(),
        Some("goes on after a grid file whose next player is 0: FILE-2 wants 1..P")
    );
    assert_eq!(
        missed_check_of(&cause.to_string()),
        Some((
            "FILE-2",
            "goes on where the reference stops: next-player-range in words".to_owned()
        ))
    );
    // Stdout right, the status wrong: keyed by the stop's exit rule.
    let (cause, _) = Cause::labelled(&[status], Some(&record), None);
    assert_eq!(
        cause.to_string(),
        "status: stops otherwise where the reference stops (FILE-6)"
    );
    // A crash is a crash, placed where the reference stops.
    let crash = Mismatch::Ending {
        expected: Ending::Exited(5),
        actual: Ending::Signaled(11),
    };
    let (cause, label) = Cause::labelled(&[crash], Some(&record), None);
    assert_eq!(
        label.as_deref(),
        Some(
            "crashes (SIGSEGV) where the reference stops (FILE-6): a grid file whose next \
             player is 0: FILE-2 wants 1..P"
        )
    );
    assert_eq!(cause.severity(), 0);
}

#[test]
fn crashes_and_hangs_are_placed_where_the_program_was() {
    let record = rejecting();
    let crash = |actual: &[u8]| {
        Cause::labelled(
            &[
                Mismatch::Ending {
                    expected: Ending::Exited(6),
                    actual: Ending::Signaled(11),
                },
                stdout_of(b"+-+ \nA> A> ", actual),
            ],
            Some(&record),
            Some(b"3 14 h"),
        )
    };
    // In the grid, and at the prompt after the rejected line: two
    // causes, each named by its rule.
    let (early, _) = crash(b"+-");
    let (late, label) = crash(b"+-+ \nA> ");
    assert_ne!(early, late);
    assert_eq!(
        late.to_string(),
        "status: killed by signal SIGSEGV (11), where the reference writes the prompt \
         after a rejected line (TURN-3)"
    );
    assert_eq!(
        label.as_deref(),
        Some(
            "crashes (SIGSEGV) on the input line `3 14 h`, where the reference writes the \
             prompt after a rejected line (TURN-3)"
        )
    );
    assert!(early.to_string().contains("the grid (DISP-1)"), "{early}");
    assert_eq!(late.severity(), 0);
    // Another input line, the same place: the same cause.
    assert_eq!(crash(b"+-+ \nA> ").0, late);

    // A hang where the reference stops is keyed by the stop's rule.
    let stops = Record {
        asides: Vec::new(),
        spans: Vec::new(),
        rulings: vec![ruling(
            Verdict::Stopped,
            0,
            "FILE-4",
            "long-line",
            "a grid line too long: FILE-4 rejects it",
        )],
    };
    let (hang, label) = Cause::labelled(
        &[Mismatch::Ending {
            expected: Ending::Exited(5),
            actual: Ending::TimedOut {
                after: std::time::Duration::from_secs(1),
                awaiting_prompt: None,
            },
        }],
        Some(&stops),
        None,
    );
    assert_eq!(
        hang.to_string(),
        "status: timed out, where the reference writes what it ends with (FILE-6)"
    );
    assert_eq!(
        label.as_deref(),
        Some(
            "hangs (timed out) where the reference stops (FILE-6): a grid line too long: \
             FILE-4 rejects it"
        )
    );
}

#[test]
fn stopping_after_what_the_reference_accepts_names_the_rule_that_accepts_it() {
    let mut accepted = ruling(
        Verdict::Accepted,
        0,
        "FILE-3",
        "move-number-unbounded",
        "a save file the reference loads: FILE-3 sets no bound on move numbers (mO is 11)",
    );
    accepted.line = Vec::new();
    accepted.exit_rule = String::new();
    let record = Record {
        asides: Vec::new(),
        spans: spans(),
        rulings: vec![accepted],
    };
    let status = Mismatch::Ending {
        expected: Ending::Exited(6),
        actual: Ending::Exited(5),
    };
    let (cause, label) =
        Cause::labelled(&[status, stdout_of(b"+-+ \nA> ", b"")], Some(&record), None);
    assert_eq!(
        cause.to_string(),
        "stdout: refuses what the reference accepts: FILE-3, move-number-unbounded in words"
    );
    assert_eq!(
        label.as_deref(),
        Some(
            "stops after a save file the reference loads: FILE-3 sets no bound on move \
             numbers (mO is 11)"
        )
    );
    assert_eq!(
        missed_check_of(&cause.to_string()).map(|(rule, _)| rule),
        Some("FILE-3")
    );
}
