//! Byte-exact comparison of what a run did against what was expected: exit
//! status, stdout, stderr, output files and absent files. Every difference is
//! a [`Mismatch`]; rendering them for people is [`crate::judge::failure`]'s job.

use std::fmt;

use crate::exec::run::{Ending, Outcome, Stream};
use crate::model::case::Expectation;

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
