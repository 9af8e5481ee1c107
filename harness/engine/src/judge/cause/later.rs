//! Later departures: after the first, the next few places where the
//! program departs again, so that a report can say the first bug is not
//! the only one.

use super::edit::first_edit;
use super::signature::{Cause, Departure};
use super::text::{past_one_line, stdout_of};
use crate::exec::run::Stream;
use crate::judge::compare::Mismatch;
use crate::judge::provenance::Record;

/// Most later departures filed for one case.
pub(super) const LATER: usize = 3;

/// Most lines compared past, one at a time, for one case: each step
/// compares the whole output again, and a bug repeated on every line (a
/// trailing space trimmed) would otherwise be walked line by line through
/// a whole game (250 such cases took 20 s).
pub(super) const LATER_STEPS: usize = 8;

/// A departure after a case's first one, filed as a cause of its own.
#[derive(Debug, Clone, PartialEq)]
pub struct Later {
    /// Its cause.
    pub cause: Cause,
    /// Its lines exact, as a header quotes them.
    pub quoted: Cause,
    /// Its sentence, for a missed check.
    pub label: Option<String>,
    /// Stdout as compared past the departures before it: what its worked
    /// example shows (taken, and dropped, when the failure is made).
    pub stdout: Option<Mismatch>,
}

/// The departures of stdout after a first one confined to one line (one
/// line replaced by one, the line after it alike) that changes only text
/// (a number, spacing, letter case: `(2..9)` for `(2..8)`) before the
/// program has read any input: compared on past it, each later departure
/// is a cause of its own, so a wrong prompt does not hide a wrong grid. A
/// departure after input may be the game going another way (another move,
/// another player), whose consequences are the same bug: never compared
/// on. Without provenance, none.
pub fn later(mismatches: &[Mismatch], record: Option<&Record>, first: &Cause) -> Vec<Later> {
    let Some(record) = record else {
        return Vec::new();
    };
    let Some((expected, actual)) = stdout_of(mismatches) else {
        return Vec::new();
    };
    let mut found: Vec<Later> = Vec::new();
    let mut actual = actual.clone();
    for _ in 0..LATER_STEPS {
        if found.len() == LATER {
            break;
        }
        let textual = matches!(
            first_edit(expected, &actual, true).shape,
            Departure::Number | Departure::Spacing | Departure::LetterCase
        );
        let Some(patched) = past_one_line(expected, &actual).filter(|_| textual) else {
            break;
        };
        if patched == *expected {
            break;
        }
        let stdout = [Mismatch::Stream {
            stream: Stream::Stdout,
            expected: expected.clone(),
            actual: patched.clone(),
            dropped: 0,
        }];
        let (cause, label) = Cause::labelled(&stdout, Some(record), None);
        if cause != *first && found.iter().all(|l| l.cause != cause) {
            let quoted = Cause::quote(&stdout);
            let [stdout] = stdout;
            found.push(Later {
                quoted,
                cause,
                label,
                stdout: Some(stdout),
            });
        }
        actual = patched;
    }
    found
}
