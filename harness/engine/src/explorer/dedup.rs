//! What makes two `diff` mismatches the same bug: the explorer's
//! classification of the session (marking category and rules) and the
//! [`Cause`] of its first difference (the part, the kind of edit and the
//! normalised lines), the signature the case report groups by. Keyed so,
//! `--max-failures` holds distinct bugs rather than one bug met on
//! different lines.

use super::compare::Part;
use super::exec::Trial;
use super::explore::Explorer;
use std::ffi::OsString;

use crate::exec::run::{Invocation, Outcome, Stream, Target};
use crate::judge::cause::{Cause, Edit, PartCause, bytes_edit};
use crate::judge::compare::Mismatch;

/// Shrinks in a row that only repeat known mismatches before new
/// mismatches in already-known parts are no longer shrunk.
pub const REPEATS_BEFORE_SKIPPING: usize = 20;

/// The identity of a mismatch. A key whose cause the reference's
/// provenance placed is identified by its part and cause alone (as the
/// suite's causes are): the session's classification, kept for the
/// report, differs from session to session of one bug.
#[derive(Debug, Clone)]
pub struct Key {
    /// The part of the first difference.
    pub part: Part,
    /// The classification's category, when the expected side exited.
    pub category: Option<String>,
    /// The classification's rules.
    pub rules: Vec<String>,
    /// The first difference's cause.
    pub cause: Cause,
    /// Whether the cause was placed by the reference's provenance.
    pub placed: bool,
}

impl Key {
    /// What two keys are compared by.
    fn identity(&self) -> (&Part, Option<&str>, &[String], &Cause) {
        if self.placed {
            (&self.part, None, &[], &self.cause)
        } else {
            (
                &self.part,
                self.category.as_deref(),
                &self.rules,
                &self.cause,
            )
        }
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.identity() == other.identity()
    }
}

impl Eq for Key {}

impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.identity().hash(state);
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.identity().cmp(&other.identity())
    }
}

/// The key of `trial`, a run of `session` that mismatches; `None` when it
/// does not. A stdout difference is placed by the provenance of the
/// reference when its stdout is the expected side's (as in a case's
/// report), so that one bug met on different lines is one key.
pub fn key<E: Explorer>(
    explorer: &E,
    reference: &Target,
    session: &E::Session,
    trial: &Trial,
) -> Option<Key> {
    let first = trial.first()?;
    let class = trial
        .expected
        .ending
        .status()
        .and_then(|s| u8::try_from(s).ok())
        .map(|s| explorer.classify(session, s));
    let category = class.as_ref().map(|c| c.category.clone());
    let rules = class
        .map(|c| c.rules.into_iter().collect())
        .unwrap_or_default();
    // Placed by the reference's provenance, a cause is keyed as the
    // suite's causes are ([`Key::identity`]); a memory error by its kind
    // and place.
    if let Some(cause) = (!matches!(first.part, Part::Memory { .. }))
        .then(|| placed(explorer, reference, session, trial))
        .flatten()
    {
        let part = match cause.parts.first().map(|p| p.part.as_str()) {
            Some("stdout") => Part::Stdout,
            Some("stderr") => Part::Stderr,
            _ => Part::Status,
        };
        return Some(Key {
            part,
            category,
            rules,
            cause,
            placed: true,
        });
    }
    Some(Key {
        part: first.part.clone(),
        category,
        rules,
        cause: cause(&first.part, &trial.expected, &trial.actual),
        placed: false,
    })
}

/// The cause of a difference placed by the reference's provenance (where
/// its stdout differs, the check it rejected a line or stopped on), when
/// there is one: the same key a case's report groups by.
fn placed<E: Explorer>(
    explorer: &E,
    reference: &Target,
    session: &E::Session,
    trial: &Trial,
) -> Option<Cause> {
    let differs = |part: Part| trial.differences.iter().any(|d| d.part == part);
    let mut mismatches = Vec::new();
    if differs(Part::Status) {
        mismatches.push(Mismatch::Ending {
            expected: trial.expected.ending.clone(),
            actual: trial.actual.ending.clone(),
        });
    }
    for (part, stream, expected, actual) in [
        (
            Part::Stdout,
            Stream::Stdout,
            &trial.expected.stdout,
            &trial.actual.stdout,
        ),
        (
            Part::Stderr,
            Stream::Stderr,
            &trial.expected.stderr,
            &trial.actual.stderr,
        ),
    ] {
        if differs(part) {
            mismatches.push(Mismatch::Stream {
                stream,
                expected: expected.clone(),
                actual: actual.clone(),
                dropped: 0,
            });
        }
    }
    if mismatches.is_empty() {
        return None;
    }
    let probe = explorer.probe(session);
    let mut inv = Invocation::new(
        reference.clone(),
        probe.args.iter().map(OsString::from).collect(),
        probe.stdin,
    );
    inv.files = probe.files;
    let record = crate::judge::provenance::of_case(reference, &inv, &trial.expected.stdout)?;
    Some(Cause::located(&mismatches, Some(&record), None))
}

/// The cause of the difference in `part` between two runs.
pub fn cause(part: &Part, expected: &Outcome, actual: &Outcome) -> Cause {
    let (name, edit) = match part {
        Part::Status => (
            "status".to_owned(),
            Edit::Ending {
                expected: crate::judge::cause::ending(&expected.ending),
                actual: crate::judge::cause::ending(&actual.ending),
            },
        ),
        Part::Stdout => (
            "stdout".to_owned(),
            bytes_edit(&expected.stdout, &actual.stdout),
        ),
        Part::Stderr => (
            "stderr".to_owned(),
            bytes_edit(&expected.stderr, &actual.stderr),
        ),
        Part::Memory { kind, place } => (
            "memory".to_owned(),
            Edit::Memory {
                kind: kind.clone(),
                place: place.clone(),
            },
        ),
        Part::File(path) => {
            let name = format!("file {}", crate::judge::cause::normalise(path.as_bytes()));
            match (expected.files.get(path), actual.files.get(path)) {
                (Some(e), Some(a)) => (name, bytes_edit(e, a)),
                (Some(_), None) => (name, Edit::Absent),
                _ => (name, Edit::Present),
            }
        }
    };
    Cause {
        parts: vec![PartCause {
            part: name,
            place: None,
            edit,
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(stdout: &[u8]) -> Outcome {
        Outcome::exited_with(stdout)
    }

    #[test]
    fn one_bug_on_different_lines_is_one_cause() {
        let a = cause(
            &Part::Stdout,
            &outcome(b"+ +\nA> B> "),
            &outcome(b"+ +\nA> moved 1 2\nB> "),
        );
        let b = cause(
            &Part::Stdout,
            &outcome(b"+ + +\n+ + +\nA> +-+ +\nB> "),
            &outcome(b"+ + +\n+ + +\nA> moved 3 0\n+-+ +\nB> "),
        );
        assert_eq!(a, b);
        let c = cause(&Part::Stdout, &outcome(b"A> "), &outcome(b"A> \n"));
        assert_ne!(a, c);
    }
}
