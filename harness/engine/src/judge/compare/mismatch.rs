//! [`Mismatch`]: one way a run differs from its expectation, with the
//! count of stdin lines read ([`ReadCount`]) and where the reads sit in
//! the output ([`place_reads`]).

use std::fmt;

use crate::exec::run::{Ending, Stream};

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
            Self::Exchange(x) if x.number == 0 => f.write_str(&x.message),
            Self::Exchange(x) => write!(f, "request {}: {}: {}", x.number, x.rule, x.message),
            Self::Memory { error, .. } => write!(f, "memory error: {error}"),
            Self::Reads(r) => write!(f, "{r}"),
        }
    }
}

/// Whether stdout, stderr, the status or an output file is among the
/// parts that differ: only then is the reference's provenance (where its
/// output and its rulings fall, what writes its files) worth a run.
pub fn ruled(mismatches: &[Mismatch]) -> bool {
    mismatches.iter().any(|m| {
        matches!(
            m,
            Mismatch::Stream { .. }
                | Mismatch::Ending { .. }
                | Mismatch::Reads(_)
                | Mismatch::FileMissing { .. }
                | Mismatch::FileDiffers { .. }
        )
    })
}
