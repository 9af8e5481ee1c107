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
//! A folder pack's model is traced once, by `bless`, and its record kept
//! beside the case (`trace: NAME.trace`, or `trace: none` for a model that
//! writes none: [`kept`]): `run` and `mark` then name failures without
//! running the model. A case blessed before traces were kept, or whose
//! stdout changed since, is traced on demand as above.
//!
//! A case that counts reads asks the reference how many stdin lines it
//! reads ([`reads_of_case`]) when `bless` kept no count.
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

/// A case's `trace:` value for a model that writes no record.
pub const NO_TRACE: &str = "none";

/// The first line of a kept trace: the stdout it was taken on, by its
/// SHA-256, so that a stdout edited since is never read with another's
/// spans.
const KEPT_HEAD: &str = "# the model's trace of this case's stdout, kept by bless; stdout sha256 ";

/// What `bless` kept of the model's trace of a case.
#[derive(Debug, Clone, PartialEq)]
pub enum Kept {
    /// Nothing usable: the case was blessed before traces were kept, or
    /// its stdout changed since. The model is traced when needed.
    Unknown,
    /// The model writes no trace: a failure is told by its bytes.
    NoTrace,
    /// The record, for the case's expected stdout.
    Record(Record),
}

/// The sidecar text `bless` keeps for `record` (the bytes the traced model
/// wrote) taken on `stdout`.
pub fn kept_text(record: &[u8], stdout: &[u8]) -> Vec<u8> {
    let mut text = format!("{KEPT_HEAD}{}\n", sha256_hex(stdout)).into_bytes();
    text.extend_from_slice(record);
    text
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes)
        .iter()
        .fold(String::with_capacity(64), |mut hex, b| {
            use std::fmt::Write as _;
            let _ = write!(hex, "{b:02x}");
            hex
        })
}

/// What `bless` kept of the model's trace of `case` (in `file`), whose
/// expected stdout is `stdout`. `Err`: the sidecar the case names cannot
/// be read (a fault of the suite).
pub fn kept(
    case: &crate::model::schema::Case,
    file: &crate::model::suite::CaseFile,
    stdout: &[u8],
) -> Result<Kept, String> {
    let Some(name) = case.trace.as_deref() else {
        return Ok(Kept::Unknown);
    };
    if name == NO_TRACE {
        return Ok(Kept::NoTrace);
    }
    let bytes = file
        .sidecar_in_tree(name)
        .and_then(|rel| file.root.read(&rel))
        .map_err(|e| {
            format!(
                "{}: `trace: {name}`: cannot read the sidecar: {e}",
                file.display()
            )
        })?;
    Ok(kept_record(&bytes, stdout))
}

/// A kept trace's record, if it was taken on `stdout`.
fn kept_record(bytes: &[u8], stdout: &[u8]) -> Kept {
    let text = String::from_utf8_lossy(bytes);
    let (head, record) = text.split_once('\n').unwrap_or((&text, ""));
    match head.strip_prefix(KEPT_HEAD) {
        Some(hash) if hash == sha256_hex(stdout) => Kept::Record(parse_record(record)),
        _ => Kept::Unknown,
    }
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
    fn a_kept_trace_is_read_only_for_the_stdout_it_was_taken_on() {
        let kept = kept_text(b"0 4 X-1\tgrid\n", b"+ +\n");
        let Kept::Record(record) = kept_record(&kept, b"+ +\n") else {
            panic!("the record of its own stdout");
        };
        assert_eq!(record.spans, [span(0, 4, "grid")]);
        assert_eq!(kept_record(&kept, b"+-+\n"), Kept::Unknown);
        assert_eq!(kept_record(b"0 4 X-1\tgrid\n", b"+ +\n"), Kept::Unknown);
        // An empty record is a record: the model wrote nothing on stdout.
        let empty = kept_text(b"", b"");
        assert_eq!(kept_record(&empty, b""), Kept::Record(Record::default()));
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
