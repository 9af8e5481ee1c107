//! Crashes and hangs placed by where the program was: a run killed by a
//! signal or at its time limit is keyed by what the reference does at the
//! point where the program's stdout stops matching it (the span of output
//! it writes in answer to the input line being handled; past its last
//! byte, the stop it ends on), so crashes after different inputs are
//! different causes, each named by a rule. Its label quotes the input line
//! (or the stop) of its worked example.

use super::signature::{Edit, PartCause, Place, REJECTS, STOP};
use super::text::{ending, exact, stdout_of};
use crate::exec::run::Ending;
use crate::judge::compare::Mismatch;
use crate::judge::provenance::{self, Record, Verdict};

/// Where a run that ended early (`what`: `crashes (SIGSEGV)`) was, by the
/// reference's record: its stop, when the program wrote all the reference
/// writes before it; with `rejections`, the reference's answer to a line
/// it rejects, when the output stops there; else the span the output
/// stops in. The place and the sentence telling it.
pub(super) fn placed(
    mismatches: &[Mismatch],
    record: &Record,
    answered: Option<&[u8]>,
    what: &str,
    rejections: bool,
) -> Option<(Place, String)> {
    let end = record.spans.last().map_or(0, |s| s.end);
    // The matching point: where its stdout stops being the reference's;
    // all of it when stdout is right.
    let at = match stdout_of(mismatches) {
        Some((expected, actual)) => expected
            .iter()
            .zip(actual.iter())
            .take_while(|(e, a)| e == a)
            .count(),
        None => usize::try_from(end).ok()?,
    };
    let stop = record
        .rulings
        .iter()
        .rev()
        .find(|r| r.verdict == Verdict::Stopped && !r.exit_rule.is_empty());
    let reached = |offset: u64| u64::try_from(at).is_ok_and(|at| at >= offset);
    if let Some(stop) = stop
        && reached(stop.at)
        && reached(end)
    {
        // It wrote all the reference writes before its stop: it failed
        // where the reference stops (a loader's refusal, end of input).
        return Some((
            Place {
                what: STOP.to_owned(),
                rules: vec![stop.exit_rule.clone()],
            },
            format!(
                "{what} where the reference stops ({}): {}",
                stop.exit_rule, stop.detail
            ),
        ));
    }
    let input = match answered {
        Some(line) => format!("on the input line `{}`", exact(line)),
        None if at == 0 => "before any output".to_owned(),
        // No line counted (a program reading all its input first):
        // nothing is said of what it read.
        None => "partway through its output".to_owned(),
    };
    let rejected = rejections
        .then(|| {
            let at = u64::try_from(at).ok()?;
            let r = record
                .rulings
                .iter()
                .rfind(|r| r.verdict == Verdict::Rejected && r.at <= at)?;
            let span = provenance::at(&record.spans, usize::try_from(r.at).ok()?)?;
            (at < span.end.max(r.at + 1)).then_some(r)
        })
        .flatten();
    if let Some(r) = rejected {
        return Some((
            Place {
                what: REJECTS.to_owned(),
                rules: vec![r.rule.clone()],
            },
            format!(
                "{what} {input}, where the reference rejects it: {}",
                r.detail
            ),
        ));
    }
    let span =
        provenance::at(&record.spans, at).or_else(|| provenance::before(&record.spans, at))?;
    let place = Place::of(span);
    let label = format!("{what} {input}, where the reference writes {place}");
    Some((place, label))
}

/// The cause part and label of a crash (by signal) or a hang, when the
/// reference's record places it; `None` for any other failure.
pub(super) fn grave_place(
    mismatches: &[Mismatch],
    record: &Record,
    answered: Option<&[u8]>,
) -> Option<(PartCause, String)> {
    let ended = mismatches.iter().find_map(|m| match m {
        Mismatch::Ending { actual, .. }
            if matches!(actual, Ending::Signaled(_) | Ending::TimedOut { .. }) =>
        {
            Some(actual)
        }
        _ => None,
    })?;
    let what = match ended {
        Ending::Signaled(sig) => {
            // `SIGSEGV`, without the number the status line gives.
            let name = crate::exec::run::signal_name(*sig);
            format!("crashes ({})", name.split(" (").next().unwrap_or(&name))
        }
        _ => "hangs (timed out)".to_owned(),
    };
    let (place, label) = placed(mismatches, record, answered, &what, false)?;
    Some((
        PartCause {
            part: "status".to_owned(),
            place: Some(place),
            edit: Edit::Ending {
                expected: String::new(),
                actual: ending(ended),
            },
        },
        label,
    ))
}
