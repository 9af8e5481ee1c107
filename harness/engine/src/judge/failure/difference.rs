//! One difference of a failure ([`Difference`]): an ending, an exchange
//! of a conversation, or two byte streams with their location, one-line
//! excerpts and a capped unified diff, long lines cut around the first
//! difference.
//!
//! One piece: a `Difference` of each kind (an ending, an exchange, two
//! byte streams) with its rendering; the bounds of the diff (lines,
//! window, context) are shared by the kinds' rendering.

use std::fmt::{self, Write as _};
use std::time::{Duration, Instant};

use similar::{Algorithm, DiffTag};

use super::excerpt::{cut_escaped, cut_rest, visible_cut, visible_kept};
use crate::bytes::visible::{self, LEGEND, Location, Style};
use crate::judge::compare::Mismatch;

/// Diff lines kept per differing part.
pub(super) const MAX_DIFF_LINES: usize = 80;

/// Lines of each side, from a few before the first difference, that the
/// diff is computed on: a flood past them is not diffed.
pub(super) const DIFF_WINDOW_LINES: usize = 2000;

/// Bytes of each side the diff is computed on.
pub(super) const DIFF_WINDOW_BYTES: usize = 1 << 20;

/// Bytes of a conversation's request or answer shown.
pub(super) const MAX_EXCHANGE: usize = 4096;

/// A run of lines on one side longer than this is cut to [`RUN_SHOWN`].
pub(super) const RUN_MAX: usize = 12;

/// Lines of a cut run shown.
pub(super) const RUN_SHOWN: usize = 8;

/// Lines of context before the first difference.
pub(super) const CONTEXT: usize = 3;

/// Which bytes differ: the part a decision is about, one type for both.
pub use crate::judge::decided::Part as BytesPart;

/// One line of a bounded diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffLine {
    /// A hunk header (`@@ -a,b +c,d @@`).
    Hunk(String),
    /// A line both sides have.
    Same(String),
    /// An expected line the program did not print.
    Expected(String),
    /// A line the program printed instead.
    Actual(String),
}

/// One difference, bounded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// The run ended otherwise.
    Ending {
        /// Expected, as text.
        expected: String,
        /// Actual, as text.
        actual: String,
    },
    /// A process it started kept its output open.
    LeftProcess {
        /// The processes killed when the case ended, named when known
        /// (containment by namespaces).
        killed: Vec<String>,
    },
    /// Bytes differ.
    Bytes(Box<BytesDifference>),
    /// An expected file is missing.
    FileMissing {
        /// Sandbox path.
        path: String,
    },
    /// A file exists that must not.
    FileUnexpected {
        /// Sandbox path.
        path: String,
    },
    /// In a conversation, an answer broke a rule.
    Exchange(Box<ExchangeDifference>),
    /// A sanitizer or valgrind reported a memory error (`--memcheck`).
    Memory {
        /// The error in one line (`heap-buffer-overflow: a write of 1 byte
        /// past a 5-byte block in `shout` (shout.c:11)`).
        error: String,
        /// The report's first lines, each cut.
        quoted: Vec<String>,
    },
    /// It read another number of stdin lines than the model (one line:
    /// how many each read, and the line where they part).
    Reads {
        /// What differs, one line.
        message: String,
    },
    /// The case was not run: the run's budget ([`crate::judge::budget`]) gave its
    /// verdict before it started.
    NotRun {
        /// Why, and how to run it anyway.
        reason: String,
    },
}

/// A broken rule of a conversation, its request and answer escaped and cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExchangeDifference {
    /// The rule ID broken.
    pub rule: String,
    /// What was wrong, one line.
    pub message: String,
    /// The 1-based number of the request.
    pub number: u32,
    /// The request as sent, escaped ([`visible::escape`]) and cut.
    pub request: String,
    /// The answer as received, escaped and cut (empty: nothing came).
    pub answer: String,
}

/// Where and how two byte strings differ, bounded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BytesDifference {
    /// Which.
    pub part: BytesPart,
    /// Expected length.
    pub expected_len: usize,
    /// Actual length.
    pub actual_len: usize,
    /// The first differing byte.
    pub at: Location,
    /// The expected bytes from there to the end of their line, escaped
    /// ([`visible::escape`]) and cut.
    pub expected_rest: String,
    /// The actual bytes likewise.
    pub actual_rest: String,
    /// The diff, at most [`MAX_DIFF_LINES`] lines.
    pub diff: Vec<DiffLine>,
    /// Differing lines left out of [`BytesDifference::diff`].
    pub hidden: usize,
    /// The program was killed at its time limit: what it had not flushed
    /// never reached the harness, so "nothing" may be a full buffer.
    pub killed: bool,
    /// Where a rule frees the words (`nonempty`, a checker on stderr):
    /// what was judged instead (`a message of the program's own words
    /// (ERR-1)`). The model's words are then no target: only the
    /// program's bytes are shown.
    pub free: Option<String>,
}

impl Difference {
    /// The bounded form of one mismatch.
    pub fn of(m: &Mismatch) -> Self {
        match m {
            Mismatch::Ending { expected, actual } => Self::Ending {
                expected: expected.to_string(),
                actual: actual.to_string(),
            },
            Mismatch::LeftProcess { killed } => Self::LeftProcess {
                killed: killed.clone(),
            },
            Mismatch::Stream {
                stream,
                expected,
                actual,
                dropped,
            } => Self::Bytes(Box::new(bytes_difference(
                BytesPart::Stream(*stream),
                expected,
                actual,
                *dropped,
            ))),
            Mismatch::FileDiffers {
                path,
                expected,
                actual,
            } => Self::Bytes(Box::new(bytes_difference(
                BytesPart::File(path.clone()),
                expected,
                actual,
                0,
            ))),
            Mismatch::FileMissing { path } => Self::FileMissing { path: path.clone() },
            Mismatch::FileUnexpected { path } => Self::FileUnexpected { path: path.clone() },
            Mismatch::Memory { error, quoted } => Self::Memory {
                error: error.to_string(),
                quoted: quoted.clone(),
            },
            Mismatch::Exchange(x) => Self::Exchange(Box::new(ExchangeDifference {
                rule: x.rule.clone(),
                message: x.message.clone(),
                number: x.number,
                request: cut_exchange(&x.request),
                answer: cut_exchange(&x.answer),
            })),
            Mismatch::Reads(r) => Self::Reads {
                message: r.to_string(),
            },
        }
    }

    pub(super) fn render(&self, out: &mut String, style: Style) {
        match self {
            Self::Ending { expected, actual } => {
                let _ = writeln!(
                    out,
                    "{} expected {expected}, got {actual}",
                    style.paint("1", "ending:")
                );
            }
            Self::LeftProcess { killed } => {
                let what = if killed.is_empty() {
                    "; the harness killed the program's process group (a process that left \
                     the group, with setsid, is beyond its reach)"
                        .to_owned()
                } else {
                    format!(
                        ": {}; killed with the sandbox when the case ended",
                        killed.join(", ")
                    )
                };
                let _ = writeln!(
                    out,
                    "{} the program exited but left a process running that kept its output \
                     open{what}",
                    style.paint("1", "left a process:")
                );
            }
            Self::FileMissing { path } => {
                let _ = writeln!(
                    out,
                    "{} `{}` should exist after the run but does not",
                    style.paint("1", "file:"),
                    crate::bytes::visible::escape(path.as_bytes())
                );
            }
            Self::FileUnexpected { path } => {
                let _ = writeln!(
                    out,
                    "{} `{}` should not exist after the run but does",
                    style.paint("1", "file:"),
                    crate::bytes::visible::escape(path.as_bytes())
                );
            }
            Self::Bytes(b) => b.render(out, style),
            // The whole conversation judged at its end (request 0): the
            // verdict, no request to show.
            Self::Exchange(x) if x.number == 0 => {
                let _ = writeln!(out, "{} {}", style.paint("1", "conversation:"), x.message);
            }
            Self::Exchange(x) => {
                let _ = writeln!(
                    out,
                    "{} request {} broke {}: {}",
                    style.paint("1", "answer:"),
                    x.number,
                    x.rule,
                    x.message
                );
                let _ = writeln!(out, "  sent:     {}", x.request);
                let received = if x.answer.is_empty() {
                    "(nothing)"
                } else {
                    x.answer.as_str()
                };
                let _ = writeln!(out, "  received: {received}");
            }
            Self::NotRun { reason } => {
                let _ = writeln!(out, "{} {reason}", style.paint("1", "not run:"));
            }
            Self::Memory { error, quoted } => {
                let _ = writeln!(out, "{} {error}", style.paint("1", "memory error:"));
                if !quoted.is_empty() {
                    let _ = writeln!(out, "the report's first lines on stderr:");
                }
                for line in quoted {
                    let _ = writeln!(out, "  | {line}");
                }
            }
            Self::Reads { message } => {
                let _ = writeln!(
                    out,
                    "{} it {message} (stdin fed a line at a time as it reads)",
                    style.paint("1", "stdin:")
                );
            }
        }
    }
}

/// `bytes` escaped, at most [`MAX_EXCHANGE`] bytes of them, with the count
/// of bytes left out.
pub(super) fn cut_exchange(bytes: &[u8]) -> String {
    let shown = &bytes[..bytes.len().min(MAX_EXCHANGE)];
    let mut text = visible::escape(shown);
    if bytes.len() > shown.len() {
        let _ = write!(text, "…[{} bytes]", bytes.len() - shown.len());
    }
    text
}

impl BytesDifference {
    /// A part whose words are free: what was judged, then the program's
    /// own lines, never the model's words as a target.
    fn render_free(&self, judged: &str, out: &mut String, style: Style) {
        let label = style.paint("1", &self.part.to_string());
        let got = if self.actual_len == 0 {
            "got nothing".to_owned()
        } else {
            format!("got {} bytes, not taken as a message:", self.actual_len)
        };
        let _ = writeln!(
            out,
            "{label}: the words are free (the model's are not a target); judged: {judged}; {got}"
        );
        for line in &self.diff {
            if let DiffLine::Actual(t) = line {
                let _ = writeln!(out, "{}", style.paint("32", &format!("+{t}")));
            }
        }
    }

    pub(super) fn render(&self, out: &mut String, style: Style) {
        if let Some(judged) = &self.free {
            self.render_free(judged, out, style);
            return;
        }
        let at = self.at;
        let label = match &self.part {
            BytesPart::Stream(s) => style.paint("1", s.name()),
            BytesPart::File(path) => format!(
                "{} `{}`",
                style.paint("1", "file:"),
                crate::bytes::visible::escape(path.as_bytes())
            ),
        };
        let _ = writeln!(
            out,
            "{label} differs (- expected {} bytes, + actual {} bytes; first difference at line {}, \
             column {}, byte {}; {LEGEND}):",
            self.expected_len, self.actual_len, at.line, at.column, at.byte
        );
        if self.expected_len == 0 {
            let _ = writeln!(out, "(expected nothing on {})", self.part);
        }
        if self.actual_len == 0 {
            let _ = writeln!(
                out,
                "(got nothing on {}{})",
                self.part,
                if self.killed {
                    " before it was killed: any output it had not flushed is lost"
                } else {
                    ""
                }
            );
        }
        for line in &self.diff {
            let _ = match line {
                DiffLine::Hunk(h) => writeln!(out, "{}", style.paint("36", h)),
                DiffLine::Same(t) => writeln!(out, " {t}"),
                DiffLine::Expected(t) => writeln!(out, "{}", style.paint("31", &format!("-{t}"))),
                DiffLine::Actual(t) => writeln!(out, "{}", style.paint("32", &format!("+{t}"))),
            };
        }
        if self.hidden > 0 {
            let _ = writeln!(out, "… {} more differing lines not shown", self.hidden);
        }
    }
}

impl fmt::Display for Difference {
    /// One line naming the difference and, for bytes, where it starts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Ending { expected, actual } => {
                write!(f, "ending: expected {expected}, got {actual}")
            }
            Self::LeftProcess { .. } => write!(
                f,
                "a process it started still held its output open after it exited"
            ),
            Self::Bytes(b) => write!(
                f,
                "{} differs: first difference at line {}, column {} (byte {})",
                b.part, b.at.line, b.at.column, b.at.byte
            ),
            Self::FileMissing { path } => write!(
                f,
                "file `{}` is missing",
                crate::bytes::visible::escape(path.as_bytes())
            ),
            Self::FileUnexpected { path } => write!(
                f,
                "file `{}` must not exist",
                crate::bytes::visible::escape(path.as_bytes())
            ),
            Self::Exchange(x) if x.number == 0 => f.write_str(&x.message),
            Self::Exchange(x) => write!(f, "request {}: {}: {}", x.number, x.rule, x.message),
            Self::NotRun { reason } => f.write_str(reason),
            Self::Memory { error, .. } => write!(f, "memory error: {error}"),
            Self::Reads { message } => write!(f, "stdin: {message}"),
        }
    }
}

/// Lines of `bytes` from line index `first` on, within the diff window.
pub(super) fn window(bytes: &[u8], first: usize) -> Vec<&[u8]> {
    let mut lines = bytes.split_inclusive(|&b| b == b'\n').skip(first);
    let mut out = Vec::new();
    let mut taken = 0;
    while out.len() < DIFF_WINDOW_LINES && taken < DIFF_WINDOW_BYTES {
        let Some(l) = lines.next() else { break };
        taken += l.len();
        out.push(l);
    }
    out
}

/// `dropped`: actual bytes read after `actual` and not kept.
pub(super) fn bytes_difference(
    part: BytesPart,
    expected: &[u8],
    actual: &[u8],
    dropped: u64,
) -> BytesDifference {
    let dropped = usize::try_from(dropped).unwrap_or(usize::MAX);
    let at = visible::locate(expected, actual);
    // Both sides agree up to the first difference, so they share its
    // line index; the diff starts a few lines before it.
    let first = (at.line - 1).saturating_sub(CONTEXT);
    let old = window(expected, first);
    let new = window(actual, first);
    let focus_line = at.line - 1 - first;
    let deadline = Instant::now() + Duration::from_secs(1);
    let ops = similar::capture_diff_slices_deadline(Algorithm::Myers, &old, &new, Some(deadline));
    let mut diff = Vec::new();
    let mut shown = 0;
    let mut hidden = 0;
    let mut cut = 0;
    let focus = |i: usize| (i == focus_line).then_some(at.column - 1);
    for group in similar::group_diff_ops(ops, CONTEXT) {
        let (Some(head), Some(tail)) = (group.first(), group.last()) else {
            continue;
        };
        let (_, o1, n1) = head.as_tag_tuple();
        let (_, o2, n2) = tail.as_tag_tuple();
        if shown < MAX_DIFF_LINES {
            diff.push(DiffLine::Hunk(format!(
                "@@ -{},{} +{},{} @@",
                first + o1.start + 1,
                o2.end - o1.start,
                first + n1.start + 1,
                n2.end - n1.start
            )));
        }
        for op in &group {
            let (tag, o, n) = op.as_tag_tuple();
            let mut push = |line: DiffLine, differing: bool| {
                if shown >= MAX_DIFF_LINES {
                    hidden += usize::from(differing);
                } else {
                    shown += 1;
                    diff.push(line);
                }
            };
            match tag {
                DiffTag::Equal => {
                    for i in o {
                        push(DiffLine::Same(visible_cut(old[i], focus(i))), false);
                    }
                }
                DiffTag::Delete | DiffTag::Replace | DiffTag::Insert => {
                    // A long run of one side (80 expected lines against
                    // empty output) is cut to its start: the first
                    // difference's neighbourhood is what tells the bug.
                    let run = |len: usize| if len > RUN_MAX { RUN_SHOWN } else { len };
                    let (o_shown, n_shown) = (run(o.len()), run(n.len()));
                    cut += (o.len() - o_shown) + (n.len() - n_shown);
                    for i in o.take(o_shown) {
                        push(DiffLine::Expected(visible_cut(old[i], focus(i))), true);
                    }
                    for i in n.take(n_shown) {
                        push(
                            DiffLine::Actual(visible_kept(new[i], focus(i), dropped)),
                            true,
                        );
                    }
                }
            }
        }
    }
    BytesDifference {
        part,
        expected_len: expected.len(),
        actual_len: actual.len().saturating_add(dropped),
        at,
        expected_rest: cut_escaped(visible::rest_of_line(expected, at.byte)),
        actual_rest: cut_rest(visible::rest_of_line(actual, at.byte), dropped),
        diff,
        hidden: hidden + cut,
        killed: false,
        free: None,
    }
}
