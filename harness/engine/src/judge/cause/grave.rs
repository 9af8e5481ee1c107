//! Crashes and hangs placed by where the program was: a run killed by a
//! signal or at its time limit is keyed by what the reference does at the
//! point where the program's stdout stops matching it (the span of output
//! it writes in answer to the input line being handled; past its last
//! byte, the stop it ends on), so crashes after different inputs are
//! different causes, each named by a rule. Its label quotes the input line
//! (or the stop) of its worked example.

use super::signature::{Edit, PartCause, Place};
use super::text::{ending, exact, stdout_of};
use crate::exec::run::Ending;
use crate::judge::compare::Mismatch;
use crate::judge::provenance::{self, Record, Verdict};

/// What a stop is called as a place.
const STOP: &str = "the message of its stop";

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
    let what = match ended {
        Ending::Signaled(sig) => {
            // `SIGSEGV`, without the number the status line gives.
            let name = crate::exec::run::signal_name(*sig);
            format!("crashes ({})", name.split(" (").next().unwrap_or(&name))
        }
        _ => "hangs (timed out)".to_owned(),
    };
    let stop = record
        .rulings
        .iter()
        .rev()
        .find(|r| r.verdict == Verdict::Stopped && !r.exit_rule.is_empty());
    let reached = |offset: u64| u64::try_from(at).is_ok_and(|at| at >= offset);
    let (place, label) = match stop {
        // It wrote all the reference writes before its stop: it failed
        // where the reference stops (a loader's refusal, end of input).
        Some(stop) if reached(stop.at) && reached(end) => (
            Place {
                what: STOP.to_owned(),
                rules: vec![stop.exit_rule.clone()],
            },
            format!(
                "{what} where the reference stops ({}): {}",
                stop.exit_rule, stop.detail
            ),
        ),
        _ => {
            let span = provenance::at(&record.spans, at)
                .or_else(|| provenance::before(&record.spans, at))?;
            let place = Place::of(span);
            let input = match answered {
                Some(line) => format!("on the input line `{}`", exact(line)),
                None if at == 0 => "before any output".to_owned(),
                None => "before reading a line of input".to_owned(),
            };
            let label = format!("{what} {input}, where the reference writes {place}");
            (place, label)
        }
    };
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
