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
    /// It read another number of stdin lines than the model before it
    /// ended ([`Expectation::count_reads`]).
    Reads(ReadCount),
}

/// How many stdin lines the model and the program read, and where they
/// part.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadCount {
    /// Lines the model reads.
    pub expected: usize,
    /// Lines the program read.
    pub actual: usize,
    /// The stdin line where they part (1-based, and its bytes without the
    /// newline): for a program that read fewer, the last line it read,
    /// which it accepted where the model asked again; for one that read
    /// more, the model's last line, after which it asked again. Filled by
    /// [`place_reads`].
    pub line: Option<(usize, Vec<u8>)>,
    /// The reference's ruling on that line, when its record has one (the
    /// rule of the line the program accepted).
    pub ruling: Option<crate::judge::provenance::Ruling>,
}

impl fmt::Display for ReadCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "reads {} stdin line(s) before it ends where the model reads {}",
            self.actual, self.expected
        )?;
        let Some((n, line)) = &self.line else {
            return Ok(());
        };
        let line = crate::bytes::visible::escape(line);
        if self.actual < self.expected {
            write!(f, ": it accepted line {n} `{line}`")?;
            if let Some(r) = &self.ruling {
                write!(f, " ({})", r.detail)?;
            }
            Ok(())
        } else {
            write!(
                f,
                ": it asked again after line {n} `{line}`, which the model accepts"
            )
        }
    }
}

/// Fills each [`Mismatch::Reads`]'s line from the case's `stdin` and its
/// ruling from the reference's `record` (the rejection of that line).
pub fn place_reads(
    mismatches: &mut [Mismatch],
    stdin: &[u8],
    record: Option<&crate::judge::provenance::Record>,
) {
    for m in mismatches {
        let Mismatch::Reads(r) = m else { continue };
        let number = r.actual.min(r.expected);
        let Some(line) = number
            .checked_sub(1)
            .and_then(|i| stdin.split_inclusive(|&b| b == b'\n').nth(i))
        else {
            continue;
        };
        let line = line.strip_suffix(b"\n").unwrap_or(line).to_vec();
        if r.actual < r.expected {
            r.ruling = record.and_then(|rec| {
                rec.rulings
                    .iter()
                    .find(|x| {
                        x.verdict == crate::judge::provenance::Verdict::Rejected
                            && x.line.strip_suffix(b"\n").unwrap_or(&x.line) == line.as_slice()
                    })
                    .cloned()
            });
        }
        r.line = Some((number, line));
    }
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
            Self::Reads(r) => write!(f, "{r}"),
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
    reads(expected, actual, &mut out);
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
    reads(expected, &actual, &mut out);
    out
}

/// The number of stdin lines read, where the case counts them and both
/// sides were measured. A run that did not exit (a crash, a hang, the cap)
/// fails by its ending: the reads it made before say nothing more.
fn reads(expected: &Expectation, actual: &Outcome, out: &mut Vec<Mismatch>) {
    if !expected.count_reads || !matches!(actual.ending, Ending::Exited(_)) {
        return;
    }
    let (Some(model), Some(seen)) = (expected.reads, actual.reads.as_ref()) else {
        return;
    };
    if seen.count() != model {
        out.push(Mismatch::Reads(ReadCount {
            expected: model,
            actual: seen.count(),
            line: None,
            ruling: None,
        }));
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
            count_reads: false,
            reads: None,
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

    /// An expectation that counts reads, the model reading `model` lines,
    /// and a run that read `read`.
    fn counted(model: usize, read: usize) -> (Expectation, Outcome) {
        let mut e = expect(0, b"Fahrenheit? 212\n");
        e.count_reads = true;
        e.reads = Some(model);
        let mut o = outcome(0, b"Fahrenheit? 212\n");
        o.reads = Some(crate::exec::run::Reads {
            stdout_at: vec![0; read],
        });
        (e, o)
    }

    #[test]
    fn a_case_that_counts_reads_fails_another_count_whatever_the_bytes() {
        let (e, o) = counted(2, 2);
        assert!(compare(&e, &o).is_empty());
        let (e, o) = counted(2, 1);
        let m = compare(&e, &o);
        assert_eq!(
            m,
            [Mismatch::Reads(ReadCount {
                expected: 2,
                actual: 1,
                line: None,
                ruling: None
            })]
        );
        assert_eq!(compare_owned(&e, o), m);
        // Not counted unless the case asks, nor for a run that did not
        // exit: its ending is the failure.
        let (mut e, o) = counted(2, 1);
        e.count_reads = false;
        assert!(compare(&e, &o).is_empty());
        let (e, mut o) = counted(2, 1);
        o.ending = Ending::Signaled(11);
        assert!(
            !compare(&e, &o)
                .iter()
                .any(|m| matches!(m, Mismatch::Reads(_)))
        );
    }

    fn ruling(line: &[u8], rule: &str) -> crate::judge::provenance::Ruling {
        crate::judge::provenance::Ruling {
            verdict: crate::judge::provenance::Verdict::Rejected,
            at: 12,
            rule: rule.to_owned(),
            kind: "not-a-number".to_owned(),
            says: "a temperature that is not a number".to_owned(),
            detail: format!("{rule} rejects it (not a number)"),
            line: line.to_vec(),
            exit_rule: String::new(),
        }
    }

    #[test]
    fn a_read_count_is_named_by_the_line_accepted_and_its_rule() {
        let record = crate::judge::provenance::Record {
            spans: Vec::new(),
            rulings: vec![ruling(b"abc", "TEMP-2"), ruling(b"zz", "TEMP-3")],
        };
        let (e, o) = counted(2, 1);
        let mut m = compare(&e, &o);
        place_reads(&mut m, b"abc\n212\n", Some(&record));
        let Mismatch::Reads(r) = &m[0] else {
            panic!("{m:?}")
        };
        assert_eq!(r.line, Some((1, b"abc".to_vec())));
        assert_eq!(r.ruling.as_ref().map(|r| r.rule.as_str()), Some("TEMP-2"));
        assert_eq!(
            m[0].to_string(),
            "reads 1 stdin line(s) before it ends where the model reads 2: it accepted line 1 \
             `abc` (TEMP-2 rejects it (not a number))"
        );
        // Read more than the model: the line after which it asked again.
        let (e, o) = counted(1, 2);
        let mut m = compare(&e, &o);
        place_reads(&mut m, b"212\nabc\n", Some(&record));
        assert_eq!(
            m[0].to_string(),
            "reads 2 stdin line(s) before it ends where the model reads 1: it asked again after \
             line 1 `212`, which the model accepts"
        );
        // Without a record: the line, no rule.
        let (e, o) = counted(2, 1);
        let mut m = compare(&e, &o);
        place_reads(&mut m, b"abc\n212\n", None);
        assert!(matches!(&m[0], Mismatch::Reads(r) if r.ruling.is_none() && r.line.is_some()));
    }
}
