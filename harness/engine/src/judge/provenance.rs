//! Where in the expected stdout a difference falls, as the reference knows
//! it: a traced reference run (`reference_kit::trace`) records which rule
//! each span of its stdout obeys, so a failure is named by the rule whose
//! output differs ("in the grid drawn after loading the file (DISP-1,
//! FILE-7)") and causes are keyed by it, never by the bytes.
//!
//! The record is computed on demand, once per failed case, by running the
//! pack's reference on the case again in its own sandbox with
//! `CONFORMANCE_PROVENANCE` naming a file there. It is advice for the
//! report: a pack whose reference writes no record, a run that fails, or a
//! record whose stdout is not the case's expectation gives none, and the
//! failure is reported by its bytes as before.
//!
//! A case that counts reads asks the reference how many stdin lines it
//! reads ([`reads_of_case`]).
//!
//! The record also holds the reference's rulings: each input line it
//! rejected and the check it stopped on, by rule and reason kind, so a
//! program that accepts what the reference rejects is told which check it
//! misses ([`crate::judge::cause`]).

use std::ffi::OsString;

pub use reference_kit::trace::{Aside, Channel, Record, Ruling, Span, Verdict};
use reference_kit::trace::{ENV, parse_record};

use crate::exec::run::{Invocation, Mode, Target};

/// The record's name in the reference's sandbox.
const FILE: &str = ".conformance-provenance";

/// The record of the reference's run on `inv` (run as `reference`: a
/// built-in reference or a folder pack's model), when its stdout is
/// `expected`.
pub fn of_case(reference: &Target, inv: &Invocation, expected: &[u8]) -> Option<Record> {
    let mut inv = inv.clone();
    inv.target = reference.clone();
    // The same bytes come out of a pipe as at a terminal, and a pipe needs
    // no typist.
    if inv.mode == Mode::Interactive {
        inv.mode = Mode::Pipe;
    }
    inv.env.push((OsString::from(ENV), OsString::from(FILE)));
    inv.keep.stdout = inv.keep.stdout.max(u64::try_from(expected.len()).ok()?);
    let outcome = crate::exec::run::run(&inv).ok()?;
    if outcome.stdout != expected {
        return None;
    }
    // An empty record is a record: the reference wrote nothing on stdout,
    // so any output is extra.
    let record = outcome.files.get(FILE)?;
    Some(parse_record(&String::from_utf8_lossy(record)))
}

/// Why the reference's reads could not be counted.
#[derive(Debug)]
pub enum Uncounted {
    /// A fault of the harness or the suite.
    Fault(String),
    /// The reference's runtime never started (run again, still not): the
    /// machine's failure, never a program's.
    NoStart(crate::exec::run::NoStart),
}

/// How many stdin lines the reference reads on `inv` (run as `reference`)
/// before it ends, stdin fed a line at a time: what a case that counts
/// reads compares a program's count with
/// ([`crate::model::case::Expectation::count_reads`]). `bless` records
/// a folder pack's count from several runs; a case without one is
/// measured here when it runs. `None`: the count was uncertain (not
/// judged); `Err` says why it cannot be measured (a fault of the harness
/// or the suite).
pub fn reads_of_case(reference: &Target, inv: &Invocation) -> Result<Option<usize>, Uncounted> {
    let mut inv = inv.clone();
    inv.target = reference.clone();
    inv.count_reads = true;
    inv.keep = crate::exec::run::Keep {
        stdout: 0,
        stderr: 0,
    };
    let outcome = crate::exec::run::run(&inv)
        .map_err(|e| Uncounted::Fault(format!("cannot count the reference's reads: {e}")))?;
    if let Some(no_start) = outcome.no_start {
        return Err(Uncounted::NoStart(no_start));
    }
    match (&outcome.ending, outcome.reads) {
        (crate::exec::run::Ending::Exited(_), Some(reads)) => {
            Ok((!reads.uncertain).then(|| reads.count()))
        }
        (ending, _) => Err(Uncounted::Fault(format!(
            "cannot count the reference's reads: it did not exit ({ending})"
        ))),
    }
}

/// The span holding byte `at` of stdout; at the very end, the last span.
pub fn at(spans: &[Span], at: usize) -> Option<&Span> {
    let at = u64::try_from(at).ok()?;
    spans
        .iter()
        .find(|s| s.start <= at && at < s.end)
        .or_else(|| spans.last().filter(|s| s.end == at))
}

/// The span holding the byte before `at`: what the program had just
/// written when it departed.
pub fn before(spans: &[Span], at: usize) -> Option<&Span> {
    at.checked_sub(1).and_then(|b| self::at(spans, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: u64, end: u64, what: &str) -> Span {
        Span {
            start,
            end,
            rules: vec!["X-1".to_owned()],
            what: what.to_owned(),
        }
    }

    #[test]
    fn a_byte_falls_in_one_span_and_the_end_in_the_last() {
        let spans = [span(0, 4, "grid"), span(4, 7, "prompt")];
        assert_eq!(at(&spans, 0).map(|s| s.what.as_str()), Some("grid"));
        assert_eq!(at(&spans, 4).map(|s| s.what.as_str()), Some("prompt"));
        assert_eq!(at(&spans, 7).map(|s| s.what.as_str()), Some("prompt"));
        assert_eq!(at(&spans, 8), None);
        assert_eq!(before(&spans, 4).map(|s| s.what.as_str()), Some("grid"));
        assert_eq!(before(&spans, 0), None);
    }
}
