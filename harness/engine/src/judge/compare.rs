//! Comparison of what a run did against what was expected: exit status,
//! stdout, stderr, output files and absent files, byte-exact ([`compare`])
//! or under the tolerances the case's `match:` declares ([`judge_owned`]:
//! bytes that are equal never reach a tolerance). Every difference left is
//! a [`Mismatch`], every one a tolerance forgave a [`Forgiven`]; rendering
//! them for people is [`crate::judge::failure`]'s job.
//!
//! Past 600 lines: the exact comparison and the same comparison under
//! tolerances (by part, by span, the status) share their walk over the
//! parts; a third of the file is their tests.

use std::fmt;

use crate::exec::run::{Ending, Outcome, Stream};
use crate::judge::provenance::Span;
use crate::judge::tolerance::{self, Segment};
use crate::model::case::Expectation;
use crate::model::matching::{Charge, Judging, Origin, StatusMatch, Tolerance};

/// A departure a tolerance forgave: the case passes on it, `--strict`
/// lists it, a `deduct:` charges it.
#[derive(Debug, Clone, PartialEq)]
pub struct Forgiven {
    /// The part: `stdout`, `stderr`, `status` or `file PATH`.
    pub part: String,
    /// How it was compared: `ignoring spacing (IO-1)`.
    pub how: String,
    /// What forgiving it costs.
    pub charges: Vec<Charge>,
}

/// What judging one run found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Judgement {
    /// The departures no tolerance forgave.
    pub mismatches: Vec<Mismatch>,
    /// The departures a tolerance forgave.
    pub forgiven: Vec<Forgiven>,
    /// For each part that failed under a tolerance, how it was compared
    /// (`stdout compared ignoring spacing (IO-1)`), and a checker's
    /// reason.
    pub judged: Vec<String>,
}

/// What judging needs beyond the two runs' bytes: the reference's spans
/// of stdout (which rule produced which bytes) and checker programs.
pub trait Oracle {
    /// The spans of the expected stdout, when the reference marks them.
    fn spans(&self) -> Option<Vec<Span>>;

    /// Runs the checker `command` on one part (`stdout`, `stderr`,
    /// `file:PATH`): `Ok(None)` accepts, `Ok(Some(reason))` rejects, `Err`
    /// is a fault of the checker (never the program's).
    fn check(
        &self,
        command: &str,
        part: &str,
        expected: &[u8],
        actual: &[u8],
    ) -> Result<Option<String>, String>;
}

/// An oracle with no spans that runs no checker: a checker declared where
/// it is used is a fault.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoOracle;

impl Oracle for NoOracle {
    fn spans(&self) -> Option<Vec<Span>> {
        None
    }

    fn check(&self, command: &str, _: &str, _: &[u8], _: &[u8]) -> Result<Option<String>, String> {
        Err(format!(
            "checker `{command}`: checkers run only under a case run"
        ))
    }
}

/// One way the run differs from the expectation.
#[derive(Debug, Clone, PartialEq)]
pub enum Mismatch {
    /// It ended otherwise (status, signal, timeout, cap).
    Ending {
        /// Expected.
        expected: Ending,
        /// Actual.
        actual: Ending,
    },
    /// It exited but left a process holding its output open.
    LeftProcess {
        /// The processes killed when the case ended, named when known
        /// (containment by namespaces).
        killed: Vec<String>,
    },
    /// A stream's bytes differ.
    Stream {
        /// Which.
        stream: Stream,
        /// Expected bytes.
        expected: Vec<u8>,
        /// Actual bytes (those kept: see `dropped`).
        actual: Vec<u8>,
        /// Actual bytes read after those kept and not kept
        /// ([`crate::exec::run::Outcome::dropped`]).
        dropped: u64,
    },
    /// An expected file is missing.
    FileMissing {
        /// Sandbox path.
        path: String,
    },
    /// An expected file's bytes differ.
    FileDiffers {
        /// Sandbox path.
        path: String,
        /// Expected bytes.
        expected: Vec<u8>,
        /// Actual bytes.
        actual: Vec<u8>,
    },
    /// A file exists that must not (or, comparing two runs, was written by
    /// the actual side only).
    FileUnexpected {
        /// Sandbox path.
        path: String,
    },
    /// In a conversation (a case with a `script`), an answer broke a rule.
    Exchange(crate::exec::driver::Exchange),
    /// Under `--memcheck`, a sanitizer or valgrind reported a memory
    /// error (the first one counted: [`crate::judge::memory::Report::first`]).
    Memory {
        /// The error.
        error: crate::judge::memory::MemoryError,
        /// The report's first lines.
        quoted: Vec<String>,
    },
}

impl fmt::Display for Mismatch {
    /// One line naming the difference and, for bytes, where it starts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = |e: &[u8], a: &[u8]| {
            let l = crate::bytes::visible::locate(e, a);
            format!(
                "first difference at line {}, column {} (byte {})",
                l.line, l.column, l.byte
            )
        };
        match self {
            Self::Ending { expected, actual } => {
                write!(f, "ending: expected {expected}, got {actual}")
            }
            Self::LeftProcess { killed } if killed.is_empty() => write!(
                f,
                "a process it started still held its output open after it exited"
            ),
            Self::LeftProcess { killed } => write!(
                f,
                "a process it started still held its output open after it exited: {}",
                killed.join(", ")
            ),
            Self::Stream {
                stream,
                expected,
                actual,
                ..
            } => write!(f, "{} differs: {}", stream.name(), at(expected, actual)),
            Self::FileMissing { path } => write!(f, "file `{path}` is missing"),
            Self::FileDiffers {
                path,
                expected,
                actual,
            } => write!(f, "file `{path}` differs: {}", at(expected, actual)),
            Self::FileUnexpected { path } => write!(f, "file `{path}` must not exist"),
            Self::Exchange(x) => write!(f, "request {}: {}: {}", x.number, x.rule, x.message),
            Self::Memory { error, .. } => write!(f, "memory error: {error}"),
        }
    }
}

fn same_ending(expected: &Ending, actual: &Ending) -> bool {
    match (expected, actual) {
        // Two runs that both timed out (or both passed the cap) agree
        // whatever prompt they waited for.
        (Ending::TimedOut { .. }, Ending::TimedOut { .. }) => true,
        _ => expected == actual,
    }
}

/// Compares a run against a case's expectation: every file listed must
/// exist with its bytes, every absent file must not exist; other files the
/// program wrote are its business.
pub fn compare(expected: &Expectation, actual: &Outcome) -> Vec<Mismatch> {
    let mut out = ending(expected, actual);
    streams(
        expected,
        [
            (
                Stream::Stdout,
                actual.stdout.as_slice().into(),
                actual.dropped.stdout,
            ),
            (
                Stream::Stderr,
                actual.stderr.as_slice().into(),
                actual.dropped.stderr,
            ),
        ],
        &mut out,
    );
    files(expected, actual, &mut out);
    out
}

/// [`compare`], moving the run's streams into the mismatches instead of
/// copying them: a flood's capped output is held once, not twice, while
/// its failure is built.
pub fn compare_owned(expected: &Expectation, mut actual: Outcome) -> Vec<Mismatch> {
    let mut out = ending(expected, &actual);
    let stdout = std::mem::take(&mut actual.stdout);
    let stderr = std::mem::take(&mut actual.stderr);
    streams(
        expected,
        [
            (Stream::Stdout, stdout.into(), actual.dropped.stdout),
            (Stream::Stderr, stderr.into(), actual.dropped.stderr),
        ],
        &mut out,
    );
    files(expected, &actual, &mut out);
    out
}

/// Judges a run under the expectation's tolerances ([`Expectation::matching`]):
/// what is equal passes at once, what differs is compared as declared.
/// `Err` is a fault of the suite or of a checker, never of the program.
pub fn judge_owned(
    expected: &Expectation,
    mut actual: Outcome,
    oracle: &dyn Oracle,
) -> Result<Judgement, String> {
    let mut out = Judgement {
        mismatches: ending(expected, &actual),
        ..Judgement::default()
    };
    status(expected, &actual, &mut out);
    let stdout = std::mem::take(&mut actual.stdout);
    let stderr = std::mem::take(&mut actual.stderr);
    for (stream, act, dropped) in [
        (Stream::Stdout, stdout, actual.dropped.stdout),
        (Stream::Stderr, stderr, actual.dropped.stderr),
    ] {
        let (exp, judging) = match stream {
            Stream::Stdout => (&expected.stdout, &expected.matching.stdout),
            Stream::Stderr => (&expected.stderr, &expected.matching.stderr),
        };
        if exp.as_slice() == act.as_slice() && dropped == 0 {
            continue;
        }
        let verdict = if stream == Stream::Stdout && !expected.matching.by_rule.is_empty() {
            match oracle.spans() {
                Some(spans) => by_span(expected, &spans, &act)?,
                None => tolerate(judging, stream.name(), exp, &act, dropped, oracle)?,
            }
        } else {
            tolerate(judging, stream.name(), exp, &act, dropped, oracle)?
        };
        settle(verdict, stream.name(), &mut out, || Mismatch::Stream {
            stream,
            expected: exp.clone(),
            actual: act,
            dropped,
        });
    }
    for (path, bytes) in &expected.output_files {
        match (actual.files.get(path), expected.matching.files.get(path)) {
            (_, Some(j)) if j.tolerance == Tolerance::Any => {}
            (None, _) => out
                .mismatches
                .push(Mismatch::FileMissing { path: path.clone() }),
            (Some(got), _) if got == bytes => {}
            (Some(got), judging) => {
                let part = format!("file:{path}");
                let verdict = match judging {
                    Some(j) => tolerate(j, &part, bytes, got, 0, oracle)?,
                    None => Tolerated::Exact,
                };
                settle(verdict, &format!("file `{path}`"), &mut out, || {
                    Mismatch::FileDiffers {
                        path: path.clone(),
                        expected: bytes.clone(),
                        actual: got.clone(),
                    }
                });
            }
        }
    }
    absent(expected, &actual, &mut out.mismatches);
    Ok(out)
}

/// What a tolerance made of a part that differs.
enum Tolerated {
    /// No tolerance: a mismatch.
    Exact,
    /// Forgiven, compared as said.
    Forgiven { how: String, charges: Vec<Charge> },
    /// Still a departure, compared as said (and why, from a checker).
    Failed(String),
}

fn settle(
    verdict: Tolerated,
    part: &str,
    out: &mut Judgement,
    mismatch: impl FnOnce() -> Mismatch,
) {
    match verdict {
        Tolerated::Exact => out.mismatches.push(mismatch()),
        Tolerated::Forgiven { how, charges } => out.forgiven.push(Forgiven {
            part: part.to_owned(),
            how,
            charges,
        }),
        Tolerated::Failed(how) => {
            out.judged.push(format!("{part} compared {how}"));
            out.mismatches.push(mismatch());
        }
    }
}

/// One whole part under its tolerance.
fn tolerate(
    judging: &Judging,
    part: &str,
    expected: &[u8],
    actual: &[u8],
    dropped: u64,
    oracle: &dyn Oracle,
) -> Result<Tolerated, String> {
    let accepted = match &judging.tolerance {
        Tolerance::Exact => return Ok(Tolerated::Exact),
        Tolerance::Any => true,
        // Bytes not kept are a flood past what any comparison reads.
        _ if dropped > 0 => false,
        Tolerance::Checker(command) => {
            if let Some(reason) = oracle.check(command, part, expected, actual)? {
                return Ok(Tolerated::Failed(format!(
                    "{}: {reason}",
                    judging.describe()
                )));
            }
            true
        }
        t => tolerance::accepts(t, expected, actual)?,
    };
    Ok(if accepted {
        Tolerated::Forgiven {
            how: judging.describe(),
            charges: judging.charges.clone(),
        }
    } else {
        Tolerated::Failed(judging.describe())
    })
}

/// Stdout by span: each rule's tolerance on the bytes its spans produced,
/// the suite's (or exact) on the rest. A span citing several rules takes
/// their tolerance when those declaring one agree, else compares exactly.
fn by_span(expected: &Expectation, spans: &[Span], actual: &[u8]) -> Result<Tolerated, String> {
    let m = &expected.matching;
    let exact = Judging::default();
    let bytes = &expected.stdout;
    let mut parts: Vec<Part<'_>> = Vec::new();
    let mut at = 0usize;
    let mut sorted: Vec<&Span> = spans.iter().collect();
    sorted.sort_by_key(|s| s.start);
    for span in sorted {
        let start = usize::try_from(span.start)
            .unwrap_or(usize::MAX)
            .min(bytes.len());
        let end = usize::try_from(span.end)
            .unwrap_or(usize::MAX)
            .min(bytes.len());
        if start < at {
            continue;
        }
        add(&m.span_default, at..start, &mut parts);
        let declaring: Vec<&Judging> = span.rules.iter().filter_map(|r| m.by_rule.get(r)).collect();
        let j = match declaring.first() {
            None => &m.span_default,
            Some(first) if declaring.iter().all(|d| d.tolerance == first.tolerance) => first,
            Some(_) => &exact,
        };
        add(j, start..end, &mut parts);
        at = end.max(at);
    }
    add(&m.span_default, at..bytes.len(), &mut parts);
    if parts.iter().all(|p| p.judging.tolerance.is_exact()) {
        return Ok(Tolerated::Exact);
    }
    let segments: Vec<Segment<'_>> = parts
        .iter()
        .map(|p| Segment {
            tolerance: &p.judging.tolerance,
            expected: bytes.get(p.range.clone()).unwrap_or_default(),
        })
        .collect();
    let loose: Vec<&Judging> = parts
        .iter()
        .map(|p| p.judging)
        .filter(|j| !j.tolerance.is_exact())
        .collect();
    let mut how: Vec<String> = Vec::new();
    let mut charges: Vec<Charge> = Vec::new();
    for j in &loose {
        let d = j.describe();
        if !how.contains(&d) {
            how.push(d);
            charges.extend(j.charges.iter().cloned());
        }
    }
    let how = format!("by span: {}, the rest exactly", how.join("; "));
    Ok(if tolerance::accepts_segments(&segments, actual)? {
        Tolerated::Forgiven { how, charges }
    } else {
        Tolerated::Failed(how)
    })
}

/// One run of expected stdout bytes judged by one tolerance.
struct Part<'a> {
    judging: &'a Judging,
    range: std::ops::Range<usize>,
}

/// Appends a part, joining it to the last when the same declaration
/// judges both (a line split over two spans is still one line).
fn add<'a>(judging: &'a Judging, range: std::ops::Range<usize>, parts: &mut Vec<Part<'a>>) {
    if range.is_empty() {
        return;
    }
    match parts.last_mut() {
        Some(last) if last.judging == judging => last.range.end = range.end,
        _ => parts.push(Part { judging, range }),
    }
}

/// The exit status under a `status:` tolerance.
fn status(expected: &Expectation, actual: &Outcome, out: &mut Judgement) {
    let s = &expected.matching.status;
    if s.status == StatusMatch::Exact {
        return;
    }
    let (Ending::Exited(want), Ending::Exited(got)) = (&expected.ending, &actual.ending) else {
        return;
    };
    if want == got || !s.status.accepts(*want, *got) {
        if want != got && !expected.any_status {
            out.judged.push(format!(
                "status compared as {}{}",
                s.status,
                origin(&s.origin)
            ));
        }
        return;
    }
    let before = out.mismatches.len();
    out.mismatches
        .retain(|m| !matches!(m, Mismatch::Ending { .. }));
    if out.mismatches.len() < before || expected.any_status {
        out.forgiven.push(Forgiven {
            part: "status".to_owned(),
            how: format!("as {}{}", s.status, origin(&s.origin)),
            charges: s.charges.clone(),
        });
    }
}

fn origin(o: &Origin) -> String {
    match o {
        Origin::Default => String::new(),
        o => format!(" ({o})"),
    }
}

fn files(expected: &Expectation, actual: &Outcome, out: &mut Vec<Mismatch>) {
    for (path, bytes) in &expected.output_files {
        match actual.files.get(path) {
            None => out.push(Mismatch::FileMissing { path: path.clone() }),
            Some(got) if got != bytes => out.push(Mismatch::FileDiffers {
                path: path.clone(),
                expected: bytes.clone(),
                actual: got.clone(),
            }),
            Some(_) => {}
        }
    }
    absent(expected, actual, out);
}

fn absent(expected: &Expectation, actual: &Outcome, out: &mut Vec<Mismatch>) {
    for path in &expected.absent_files {
        let p = crate::exec::run::normalize(path);
        if actual.files.contains_key(&p) || actual.dirs.contains(&p) {
            out.push(Mismatch::FileUnexpected { path: p });
        }
    }
}

/// The ending and a process left holding the output.
fn ending(expected: &Expectation, actual: &Outcome) -> Vec<Mismatch> {
    let mut out = Vec::new();
    let any_exit = expected.any_status
        && matches!(
            (&expected.ending, &actual.ending),
            (Ending::Exited(_), Ending::Exited(_))
        );
    if !any_exit && !same_ending(&expected.ending, &actual.ending) {
        out.push(Mismatch::Ending {
            expected: expected.ending.clone(),
            actual: actual.ending.clone(),
        });
    }
    if actual.left_process {
        out.push(Mismatch::LeftProcess {
            killed: actual
                .left_behind
                .iter()
                .filter(|l| l.held_output)
                .map(ToString::to_string)
                .collect(),
        });
    }
    out
}

/// Both streams, each borrowed or owned by the caller.
fn streams(
    expected: &Expectation,
    actual: [(Stream, std::borrow::Cow<'_, [u8]>, u64); 2],
    out: &mut Vec<Mismatch>,
) {
    for (stream, act, dropped) in actual {
        let exp = match stream {
            Stream::Stdout => &expected.stdout,
            Stream::Stderr => &expected.stderr,
        };
        // Bytes not kept make the stream longer than what was kept.
        if exp.as_slice() != act.as_ref() || dropped > 0 {
            out.push(Mismatch::Stream {
                stream,
                expected: exp.clone(),
                actual: act.into_owned(),
                dropped,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn outcome(code: i32, stdout: &[u8]) -> Outcome {
        Outcome {
            ending: Ending::Exited(code),
            ..Outcome::exited_with(stdout)
        }
    }

    fn expect(code: i32, stdout: &[u8]) -> Expectation {
        Expectation {
            ending: Ending::Exited(code),
            stdout: stdout.to_vec(),
            stderr: Vec::new(),
            output_files: BTreeMap::new(),
            absent_files: Vec::new(),
            any_status: false,
            matching: crate::model::matching::Matching::default(),
        }
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
}
