//! Missed checks: a program that accepts what the reference rejects, or
//! goes on where the reference stops, is named by the check it misses
//! rather than by the bytes that follow; one that stops after input the
//! reference accepts (a value the rulings leave unbounded) is named by
//! the rule that accepts it.

use super::edit::first_edit;
use super::signature::{Cause, Edit, Missed, PartCause};
use super::text::{echoes, ending, is_grave, last_line, past_one_line, stdout_of};
use crate::exec::run::{Ending, Stream};
use crate::judge::compare::Mismatch;
use crate::judge::provenance::{Record, Ruling, Verdict};

/// The check a program misses, when the reference's record says it
/// rejected a line or stopped where the program departs: its cause part
/// and its label. A crash, hang or flood is never one; an echo neither.
pub(super) fn missed_check(
    mismatches: &[Mismatch],
    record: &Record,
    answered: Option<&[u8]>,
) -> Option<(PartCause, String)> {
    let grave = mismatches
        .iter()
        .any(|m| matches!(m, Mismatch::Ending { actual, .. } if is_grave(&ending(actual))));
    if grave || record.rulings.is_empty() {
        return None;
    }
    let stop = record
        .rulings
        .iter()
        .rev()
        .find(|r| r.verdict == Verdict::Stopped);
    let stdout = stdout_of(mismatches);
    let missed = |shape: Missed, r: &Ruling| PartCause {
        part: "stdout".to_owned(),
        place: None,
        edit: Edit::Missed {
            shape,
            rule: r.rule.clone(),
            kind: r.kind.clone(),
            says: r.says.clone(),
        },
    };
    let Some((expected, actual)) = stdout else {
        // Stdout is right: the status or the message of the stop is not.
        let stop = stop?;
        // The stop's message is the last line of stderr: a difference
        // that leaves it whole at the end is another bug's.
        let parts: Vec<&str> = mismatches
            .iter()
            .filter_map(|m| match m {
                Mismatch::Ending { .. } => Some("status"),
                Mismatch::Stream {
                    stream: Stream::Stderr,
                    expected,
                    actual,
                    ..
                } if !actual.ends_with(last_line(expected)) => Some("stderr"),
                _ => None,
            })
            .collect();
        if parts.is_empty() {
            return None;
        }
        // Exit 0 where the reference stops with an error: whatever it
        // printed (a tolerance may have accepted it as the message), the
        // check is missed.
        if let Some(n) = exits_zero(mismatches) {
            return Some((zero(stop, "status"), zero_label(mismatches, stop, n)));
        }
        let part = PartCause {
            part: parts.join(" and "),
            place: None,
            edit: Edit::Missed {
                shape: Missed::StopsOtherwise,
                rule: stop.exit_rule.clone(),
                kind: String::new(),
                says: String::new(),
            },
        };
        let label = format!(
            "stops otherwise after {}: {}",
            stop.detail,
            Cause::quote(mismatches)
        );
        return Some((part, label));
    };
    if let Some(accepted) = refused(mismatches, record, expected, actual) {
        let label = format!("stops after {}", accepted.detail);
        return Some((missed(Missed::Refuses, accepted), label));
    }
    let first = first_edit(expected, actual, true);
    if echoes(actual, first.at, answered) {
        return None;
    }
    let at = u64::try_from(first.at).ok()?;
    if let Some(stop) = stop
        && at >= stop.at
        && actual.len() > first.at
    {
        // A message and exit 0 is not going on: say exactly that.
        if let Some(found) = message_and_zero(mismatches, stop, &actual[first.at..]) {
            return Some(found);
        }
        let label = format!("goes on after {}", stop.detail);
        return Some((missed(Missed::GoesOn, stop), label));
    }
    let rejected = accepted(record, expected, actual, first.at)?;
    let line = crate::bytes::visible::escape(&rejected.line);
    if silent(record, rejected, expected, actual, first.at) {
        let label = format!("no message for `{line}`: {}", rejected.detail);
        return Some((missed(Missed::Silent, rejected), label));
    }
    let label = format!("accepts `{line}`: {}", rejected.detail);
    Some((missed(Missed::Accepts, rejected), label))
}

/// A message (at most one line from where it departs) and exit 0 where
/// the reference stops with an error: its cause part and label.
fn message_and_zero(
    mismatches: &[Mismatch],
    stop: &Ruling,
    rest: &[u8],
) -> Option<(PartCause, String)> {
    let lines = rest
        .split_inclusive(|&b| b == b'\n')
        .filter(|l| l.ends_with(b"\n"))
        .count();
    let n = exits_zero(mismatches).filter(|_| lines <= 1)?;
    let label = format!(
        "prints a message and exits 0 where the reference exits {n} ({}): {}",
        stop_rule(stop),
        stop.detail
    );
    Some((zero(stop, "stdout"), label))
}

/// The label of exiting 0 where the reference exits `n`, its stdout
/// passed: what it printed said. Its stderr passed too unless it
/// differs, so it printed the message (or one a tolerance accepts)
/// unless its stderr is empty where the reference's is not.
fn zero_label(mismatches: &[Mismatch], stop: &Ruling, n: i32) -> String {
    let silent = mismatches.iter().any(|m| {
        matches!(m, Mismatch::Stream { stream: Stream::Stderr, actual, .. } if actual.is_empty())
    });
    let what = if silent {
        "exits 0 without a message"
    } else {
        "prints a message and exits 0"
    };
    format!(
        "{what} where the reference exits {n} ({}): {}",
        stop_rule(stop),
        stop.detail
    )
}

/// The reference's status, when the run exited 0 where it exits another.
fn exits_zero(mismatches: &[Mismatch]) -> Option<i32> {
    mismatches.iter().find_map(|m| match m {
        Mismatch::Ending {
            expected: Ending::Exited(n),
            actual: Ending::Exited(0),
        } if *n != 0 => Some(*n),
        _ => None,
    })
}

/// The rule of a stop's status and message, else of its check.
fn stop_rule(stop: &Ruling) -> &str {
    if stop.exit_rule.is_empty() {
        &stop.rule
    } else {
        &stop.exit_rule
    }
}

/// The cause part of exiting 0 at the reference's stop.
fn zero(stop: &Ruling, part: &str) -> PartCause {
    PartCause {
        part: part.to_owned(),
        place: None,
        edit: Edit::Missed {
            shape: Missed::ExitsZero,
            rule: stop_rule(stop).to_owned(),
            kind: stop.kind.clone(),
            says: stop.says.clone(),
        },
    }
}

/// Whether the program skipped the reference's answer to `ruling` (a
/// message: whole lines) and went on as the reference does after it: from `at` its
/// output is what follows the answer in the reference's (the prompt
/// again), not an answer of its own.
fn silent(record: &Record, ruling: &Ruling, expected: &[u8], actual: &[u8], at: usize) -> bool {
    let Ok(start) = usize::try_from(ruling.at) else {
        return false;
    };
    if at != start {
        return false;
    }
    let Some(end) = crate::judge::provenance::at(&record.spans, start)
        .and_then(|s| usize::try_from(s.end).ok())
        .filter(|&e| e > start && e <= expected.len())
    else {
        return false;
    };
    // A message is whole lines; an answer that is the prompt again (no
    // newline: the program reads after it) skipped is acceptance.
    if !expected[start..end].ends_with(b"\n") {
        return false;
    }
    // Up to the next ruling: the prompt again, not the answer after it.
    let next = record
        .rulings
        .iter()
        .map(|r| r.at)
        .find(|&a| a > ruling.at)
        .and_then(|a| usize::try_from(a).ok())
        .map_or(expected.len(), |a| a.clamp(end, expected.len()));
    let after = &expected[end..next];
    let rest = actual.get(at..).unwrap_or_default();
    let shown = after.len().min(rest.len());
    shown > 0 && rest.get(..shown) == after.get(..shown)
}

/// What the reference accepted before the point where the program's
/// output stops, when it stops (its stdout a strict prefix of the
/// reference's, and it ended otherwise): the input it most likely refused.
fn refused<'r>(
    mismatches: &[Mismatch],
    record: &'r Record,
    expected: &[u8],
    actual: &[u8],
) -> Option<&'r Ruling> {
    let stops = actual.len() < expected.len() && expected.starts_with(actual);
    let ended = mismatches
        .iter()
        .any(|m| matches!(m, Mismatch::Ending { .. }));
    if !stops || !ended {
        return None;
    }
    let at = u64::try_from(actual.len()).ok()?;
    record
        .rulings
        .iter()
        .rfind(|r| r.verdict == Verdict::Accepted && r.at <= at)
}

/// The rejection whose answer holds the first difference at `at`, when
/// the program printed something else there than an extra line before
/// the same answer (a message is not acceptance) and did not stop.
pub(super) fn accepted<'r>(
    record: &'r Record,
    expected: &[u8],
    actual: &[u8],
    at: usize,
) -> Option<&'r Ruling> {
    let at64 = u64::try_from(at).ok()?;
    let (i, ruling) = record
        .rulings
        .iter()
        .enumerate()
        .rfind(|(_, r)| r.verdict == Verdict::Rejected && r.at <= at64)?;
    // The answer: from the rejection to the end of the span written then,
    // or to the next ruling.
    let next = record.rulings[i + 1..].first().map_or(u64::MAX, |r| r.at);
    let start = usize::try_from(ruling.at).ok()?;
    let end = crate::judge::provenance::at(&record.spans, start)
        .map_or(ruling.at, |s| s.end)
        .min(next)
        .max(ruling.at + 1);
    if at64 >= end || actual.len() <= at {
        return None;
    }
    // A few extra lines, then the reference's answer: a message (or an
    // echo cut short), not acceptance; so is the answer with one line of
    // it worded otherwise (`Sorry try again.`).
    let until = usize::try_from(end)
        .unwrap_or(usize::MAX)
        .min(expected.len());
    let e = expected.get(at..until).unwrap_or_default();
    let worded = e.contains(&b'\n')
        && past_one_line(expected, actual)
            .is_some_and(|p| p.get(at..).is_some_and(|rest| rest.starts_with(e)));
    if worded {
        return None;
    }
    let mut a = &actual[at..];
    for _ in 0..3 {
        let Some(nl) = a.iter().position(|&b| b == b'\n') else {
            break;
        };
        a = &a[nl + 1..];
        if a.starts_with(e) {
            return None;
        }
    }
    Some(ruling)
}

#[cfg(test)]
mod tests {
    use super::super::signature::missed_check_of;
    use super::*;

    fn stop() -> Record {
        Record {
            asides: Vec::new(),
            spans: Vec::new(),
            rulings: vec![Ruling {
                verdict: Verdict::Stopped,
                at: 0,
                rule: "KEY-3".to_owned(),
                kind: "repeated-letter".to_owned(),
                says: "a key with a letter twice".to_owned(),
                detail: "a key with a letter twice: KEY-3 exits 1 with a message".to_owned(),
                line: Vec::new(),
                exit_rule: "KEY-3".to_owned(),
            }],
        }
    }

    #[test]
    fn a_message_and_exit_0_where_the_reference_stops_misses_the_check() {
        let status = Mismatch::Ending {
            expected: Ending::Exited(1),
            actual: Ending::Exited(0),
        };
        // Its message forgiven (stdout: nonempty): the status tells, and
        // the label says what it did.
        let (cause, label) = Cause::labelled(std::slice::from_ref(&status), Some(&stop()), None);
        assert_eq!(
            label.as_deref(),
            Some(
                "prints a message and exits 0 where the reference exits 1 (KEY-3): a key with a letter twice: KEY-3 exits 1 with a message"
            )
        );
        // No message at all where the reference prints one on stderr.
        let mute = Mismatch::Stream {
            stream: Stream::Stderr,
            expected: b"Key has a repeated letter\n".to_vec(),
            actual: Vec::new(),
            dropped: 0,
        };
        let (_, label) = Cause::labelled(&[status.clone(), mute], Some(&stop()), None);
        assert!(
            label
                .as_deref()
                .is_some_and(|l| l
                    .starts_with("exits 0 without a message where the reference exits 1 (KEY-3)")),
            "{label:?}"
        );
        assert_eq!(
            missed_check_of(&cause.to_string()),
            Some((
                "KEY-3",
                "exits 0 where the reference stops with an error".to_owned()
            ))
        );
        // Its message compared: a message and exit 0, never "goes on".
        let out = Mismatch::Stream {
            stream: Stream::Stdout,
            expected: b"Key has a repeated letter\n".to_vec(),
            actual: b"Invalid key\n".to_vec(),
            dropped: 0,
        };
        let (cause, label) = Cause::labelled(&[status, out], Some(&stop()), None);
        assert!(
            label.as_deref().is_some_and(|l| l
                .starts_with("prints a message and exits 0 where the reference exits 1 (KEY-3)")),
            "{label:?}"
        );
        assert_eq!(
            missed_check_of(&cause.to_string()).map(|c| c.0),
            Some("KEY-3")
        );
    }
}
