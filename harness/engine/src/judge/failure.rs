//! How a case failed, kept structured and bounded: every difference with
//! its location, one-line excerpts and a capped unified diff (long lines
//! cut around the first difference with the count of bytes left out),
//! the failure's [`Cause`], the stdin line being answered, and the texts
//! around it. Whatever the program printed, a failure holds a few dozen
//! KiB at most and its report ([`CaseFailure::render`]) stays under
//! [`MAX_REPORT`]; the run's full outputs are dropped once it is built.
//!
//! Past 600 lines: a failure's structure and its bounded rendering share the diff helpers; the split is planned with issue 30's layers.

use std::fmt::{self, Write as _};
use std::time::{Duration, Instant};

use similar::{Algorithm, DiffTag};

use crate::bytes::visible::{self, LEGEND, Location, Style};
use crate::exec::run::Stream;
use crate::exec::terminal::PROMPT;
use crate::judge::cause::Cause;
use crate::judge::compare::Mismatch;

/// The most one failure's report takes, bytes.
pub const MAX_REPORT: usize = 64 * 1024;

/// Diff lines kept per differing part.
const MAX_DIFF_LINES: usize = 80;

/// Bytes of one diff line shown; the rest is counted.
const MAX_LINE: usize = 200;

/// Lines of each side, from a few before the first difference, that the
/// diff is computed on: a flood past them is not diffed.
const DIFF_WINDOW_LINES: usize = 2000;

/// Bytes of each side the diff is computed on.
const DIFF_WINDOW_BYTES: usize = 1 << 20;

/// Bytes of a conversation's request or answer shown.
const MAX_EXCHANGE: usize = 4096;

/// A run of lines on one side longer than this is cut to [`RUN_SHOWN`].
const RUN_MAX: usize = 12;

/// Lines of a cut run shown.
const RUN_SHOWN: usize = 8;

/// Lines of context before the first difference.
const CONTEXT: usize = 3;

/// Which bytes differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BytesPart {
    /// A stream.
    Stream(Stream),
    /// A file, by sandbox path.
    File(String),
}

impl fmt::Display for BytesPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Stream(s) => f.write_str(s.name()),
            Self::File(path) => write!(
                f,
                "file `{}`",
                crate::bytes::visible::escape(path.as_bytes())
            ),
        }
    }
}

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
}

/// The stdin line the program had just read when its output departed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputNote {
    /// 1-based stdin line (0: before reading any).
    pub line: usize,
    /// The line's bytes, escaped, without its newline.
    pub text: String,
    /// The first line of what the expected side printed in answer, from
    /// the first difference on.
    pub expected: String,
    /// The same of the actual side.
    pub actual: String,
    /// Whether what the expected side printed there is a prompt and
    /// nothing else: it was waiting for the next line.
    pub expected_prompt: bool,
}

/// How a case failed: what every reporter renders from.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseFailure {
    /// Every difference, bounded.
    pub differences: Vec<Difference>,
    /// What identifies the failure's kind across cases.
    pub cause: Cause,
    /// The failure's first edits with their lines exact: what a cause
    /// header quotes from its worked example when [`Self::cause`] names
    /// only the place and the shape.
    pub quoted: Cause,
    /// The stdin line being answered when stdout departed, if any.
    pub input: Option<InputNote>,
    /// The case's summary.
    pub summary: String,
    /// The rules it cites.
    pub rules: Vec<String>,
    /// Its hint.
    pub hint: Option<String>,
    /// How to reproduce it (bounded).
    pub reproduce: String,
    /// What to do when the expectation may be wrong, and the command.
    pub rebless: Option<(String, String)>,
    /// Lines of stdin the case feeds.
    pub stdin_lines: usize,
    /// Bytes of the case's input (stdin, files, arguments) and expected
    /// output: the fewer, the better a worked example of its cause.
    pub weight: usize,
    /// The sentence naming the check the program misses, with this case's
    /// values (`accepts `3 14 h`: TURN-3 rejects it (…)`): its cause's
    /// label when this case is the worked example.
    pub label: Option<String>,
    /// Departures after a first one confined to one line, each a cause
    /// of its own ([`crate::judge::cause::later`]).
    pub later: Vec<crate::judge::cause::Later>,
    /// The difference each of [`Self::later`] shows as a worked example:
    /// the stdout compared past the departures before it.
    pub later_differences: Vec<Difference>,
}

/// The texts of a failure besides its differences.
#[derive(Debug, Clone, Default)]
pub struct Notes {
    /// The case's summary.
    pub summary: String,
    /// The rules it cites.
    pub rules: Vec<String>,
    /// Its hint.
    pub hint: Option<String>,
    /// How to reproduce it.
    pub reproduce: String,
    /// The re-bless heading and command.
    pub rebless: Option<(String, String)>,
    /// What the program's prompts end with, when not [`PROMPT`].
    pub prompt: Option<Vec<u8>>,
    /// The reference's provenance of the expected stdout, when known.
    pub provenance: Option<crate::judge::provenance::Record>,
    /// Bytes of the case's input besides stdin (files, arguments) and of
    /// its expected output.
    pub weight: usize,
}

impl CaseFailure {
    /// Builds the bounded failure of `mismatches`; `stdin` is what the
    /// program was fed (for [`InputNote`]).
    pub fn new(mismatches: &[Mismatch], stdin: &[u8], notes: Notes) -> Self {
        let input = mismatches.iter().find_map(|m| match m {
            Mismatch::Stream {
                stream: Stream::Stdout,
                expected,
                actual,
                ..
            } if !stdin.is_empty() => Some(input_note(
                stdin,
                expected,
                actual,
                notes.prompt.as_deref().unwrap_or(PROMPT),
            )),
            _ => None,
        });
        let killed = mismatches.iter().any(|m| {
            matches!(
                m,
                Mismatch::Ending {
                    actual: crate::exec::run::Ending::TimedOut { .. },
                    ..
                }
            )
        });
        let mut differences: Vec<Difference> = mismatches.iter().map(Difference::of).collect();
        for d in &mut differences {
            if let Difference::Bytes(b) = d {
                b.killed = killed;
            }
        }
        // The stdin line the program had just read, for an echo.
        let answered = input.as_ref().and_then(|note| {
            let index = note.line.checked_sub(1)?;
            stdin.split(|&b| b == b'\n').nth(index)
        });
        let (cause, label) = Cause::labelled(mismatches, notes.provenance.as_ref(), answered);
        // Only a departure before any input is read can be text alone.
        let mut later = if input.as_ref().is_none_or(|note| note.line == 0) {
            crate::judge::cause::later(mismatches, notes.provenance.as_ref(), &cause)
        } else {
            Vec::new()
        };
        // Each later cause's example shows its own departure, not the
        // first line again; the compared bytes are not kept past this.
        let later_differences = later
            .iter_mut()
            .filter_map(|l| l.stdout.take().map(|m| Difference::of(&m)))
            .collect();
        Self {
            later,
            later_differences,
            differences,
            cause,
            label,
            weight: notes.weight.saturating_add(stdin.len()),
            quoted: Cause::quote(mismatches),
            input,
            summary: notes.summary,
            rules: notes.rules,
            hint: notes.hint,
            reproduce: notes.reproduce,
            rebless: notes.rebless,
            stdin_lines: stdin.split_inclusive(|&b| b == b'\n').count(),
        }
    }

    /// The one-line form: the first difference.
    pub fn headline(&self) -> String {
        self.differences
            .first()
            .map_or_else(|| "failed".to_owned(), ToString::to_string)
    }

    /// The full report for people, at most [`MAX_REPORT`] bytes.
    pub fn render(&self, style: Style) -> String {
        self.render_hinted(style, self.hint.as_deref())
    }

    /// [`Self::render`] with `hint` in place of the case's own: a worked
    /// example shows the hint of its whole cause.
    pub fn render_hinted(&self, style: Style, hint: Option<&str>) -> String {
        self.render_example(style, hint, 0)
    }

    /// [`Self::render_hinted`] as the worked example of the case's cause
    /// `slot`: 0 its first departure, `k` the `k`th of [`Self::later`],
    /// whose difference is shown in place of the first one's.
    pub fn render_example(&self, style: Style, hint: Option<&str>, slot: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} {} [{}]",
            style.paint("1", "case:"),
            self.summary,
            self.rules.join(", ")
        );
        let later = slot
            .checked_sub(1)
            .and_then(|i| self.later_differences.get(i));
        // The input note places the first departure, not a later one.
        if let Some(note) = self.input.as_ref().filter(|_| later.is_none()) {
            let _ = writeln!(out, "{} {note}", style.paint("1", "input:"));
        }
        match later {
            Some(d) => {
                let _ = writeln!(
                    out,
                    "{} the output compared past its earlier difference(s):",
                    style.paint("1", "later:")
                );
                d.render(&mut out, style);
            }
            None => {
                for d in &self.differences {
                    d.render(&mut out, style);
                }
            }
        }
        if let Some(hint) = hint {
            let _ = writeln!(out, "{} {hint}", style.paint("33;1", "hint:"));
        }
        let _ = writeln!(
            out,
            "{}\n  {}",
            style.paint("1", "reproduce:"),
            self.reproduce
        );
        if let Some((label, command)) = &self.rebless {
            let _ = writeln!(out, "{}\n  {command}", style.paint("1", label));
        }
        bound(out, MAX_REPORT)
    }
}

/// `text` cut to at most `max` bytes (on a character boundary) with a
/// note of what was left out.
pub fn bound(mut text: String, max: usize) -> String {
    if text.len() <= max {
        return text;
    }
    let mut cut = max.saturating_sub(80);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let left = text.len() - cut;
    text.truncate(cut);
    let _ = writeln!(text, "\n… report cut: {left} more bytes not shown");
    text
}

impl fmt::Display for InputNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "before reading any stdin: ")?;
        } else {
            write!(f, "after stdin line {} `{}`: ", self.line, self.text)?;
        }
        // A prompt and nothing else: the expected side was waiting for the
        // next line.
        if self.expected_prompt {
            write!(f, "expected the prompt `{}`", self.expected)?;
        } else {
            write!(f, "expected `{}`", self.expected)?;
        }
        write!(f, ", got `{}`", self.actual)
    }
}

/// The stdin line answered at the first difference: as many lines were
/// read as prompts (`prompt`, [`PROMPT`] for most packs) the expected side
/// printed before it.
pub fn input_note(stdin: &[u8], expected: &[u8], actual: &[u8], prompt: &[u8]) -> InputNote {
    let at = visible::locate(expected, actual).byte;
    let line = if prompt.is_empty() {
        0
    } else {
        expected[..at]
            .windows(prompt.len())
            .filter(|w| *w == prompt)
            .count()
    };
    let text = match line.checked_sub(1) {
        Some(i) => stdin.split_inclusive(|&b| b == b'\n').nth(i).map_or_else(
            || "(past the end of stdin)".to_owned(),
            |l| cut_escaped(l.strip_suffix(b"\n").unwrap_or(l)),
        ),
        None => String::new(),
    };
    let expected_rest = visible::rest_of_line(expected, at);
    InputNote {
        line,
        text,
        expected: answer(expected, at),
        actual: answer(actual, at),
        expected_prompt: !prompt.is_empty()
            && expected_rest.ends_with(prompt)
            && !expected_rest.contains(&b'\n'),
    }
}

/// The rest of the line from `at`, escaped and cut; `(nothing)` at the end.
fn answer(bytes: &[u8], at: usize) -> String {
    let rest = visible::rest_of_line(bytes, at);
    if rest.is_empty() {
        "(nothing: the output ends here)".to_owned()
    } else {
        cut_escaped(rest)
    }
}

/// Bytes escaped for one line, cut to [`MAX_LINE`] with the count left out.
fn cut_escaped(bytes: &[u8]) -> String {
    if bytes.len() <= MAX_LINE {
        return visible::escape(bytes);
    }
    format!(
        "{}…[{} more bytes]",
        visible::escape(&bytes[..MAX_LINE]),
        bytes.len() - MAX_LINE
    )
}

/// The actual rest of the line, as [`cut_escaped`]; when it runs to the
/// end of the bytes kept, those not kept count among the bytes left out.
fn cut_rest(rest: &[u8], dropped: usize) -> String {
    // A rest without its newline runs to the end of what was kept.
    if dropped == 0 || rest.last() == Some(&b'\n') {
        return cut_escaped(rest);
    }
    let shown = &rest[..rest.len().min(MAX_LINE)];
    format!(
        "{}{}",
        visible::escape(shown),
        not_kept((rest.len() - shown.len()).saturating_add(dropped))
    )
}

/// One diff line made visible, cut around `focus` (the byte where the
/// first difference falls, if on this line) with the bytes left out
/// counted.
fn visible_cut(line: &[u8], focus: Option<usize>) -> String {
    if line.len() <= MAX_LINE {
        return visible::visible_line(line);
    }
    let start = focus.map_or(0, |f| f.saturating_sub(MAX_LINE / 3));
    let start = start.min(line.len());
    let end = (start + MAX_LINE).min(line.len());
    let mut out = String::new();
    if start > 0 {
        let _ = write!(out, "…[{start} bytes]");
    }
    let body = &line[start..end];
    let shown = visible::visible_line(body);
    out.push_str(shown.strip_suffix('⊘').unwrap_or(&shown));
    if end < line.len() {
        let _ = write!(out, "…[{} bytes]", line.len() - end);
    }
    out
}

/// [`visible_cut`] for an actual line; the last line kept, when bytes were
/// read after it and not kept, is shown cut with the count of everything
/// after what is shown.
fn visible_kept(line: &[u8], focus: Option<usize>, dropped: usize) -> String {
    // Only the last line of the bytes kept can lack its newline.
    if dropped == 0 || line.last() == Some(&b'\n') {
        return visible_cut(line, focus);
    }
    let start = focus.map_or(0, |f| f.saturating_sub(MAX_LINE / 3));
    let start = start.min(line.len());
    let end = (start + MAX_LINE).min(line.len());
    let mut out = String::new();
    if start > 0 {
        let _ = write!(out, "…[{start} bytes]");
    }
    let shown = visible::visible_line(&line[start..end]);
    out.push_str(shown.strip_suffix('⊘').unwrap_or(&shown));
    let _ = write!(
        out,
        "{}",
        not_kept((line.len() - end).saturating_add(dropped))
    );
    out
}

/// The note closing a line cut at the end of the bytes kept.
fn not_kept(bytes: usize) -> String {
    format!("…[{bytes} more bytes: the rest of the output, not kept]")
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
            Mismatch::Exchange(x) => Self::Exchange(Box::new(ExchangeDifference {
                rule: x.rule.clone(),
                message: x.message.clone(),
                number: x.number,
                request: cut_exchange(&x.request),
                answer: cut_exchange(&x.answer),
            })),
        }
    }

    fn render(&self, out: &mut String, style: Style) {
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
        }
    }
}

/// `bytes` escaped, at most [`MAX_EXCHANGE`] bytes of them, with the count
/// of bytes left out.
fn cut_exchange(bytes: &[u8]) -> String {
    let shown = &bytes[..bytes.len().min(MAX_EXCHANGE)];
    let mut text = visible::escape(shown);
    if bytes.len() > shown.len() {
        let _ = write!(text, "…[{} bytes]", bytes.len() - shown.len());
    }
    text
}

impl BytesDifference {
    fn render(&self, out: &mut String, style: Style) {
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
            Self::Exchange(x) => write!(f, "request {}: {}: {}", x.number, x.rule, x.message),
            Self::NotRun { reason } => f.write_str(reason),
        }
    }
}

/// Lines of `bytes` from line index `first` on, within the diff window.
fn window(bytes: &[u8], first: usize) -> Vec<&[u8]> {
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
fn bytes_difference(
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stdout(expected: &[u8], actual: &[u8]) -> Mismatch {
        Mismatch::Stream {
            stream: Stream::Stdout,
            expected: expected.to_vec(),
            actual: actual.to_vec(),
            dropped: 0,
        }
    }

    fn plain(f: &CaseFailure) -> String {
        f.render(Style { colour: false })
    }

    #[test]
    fn a_flood_gives_a_bounded_report_that_shows_the_first_difference() {
        let expected = b"+ +\nA> ".to_vec();
        let mut actual = b"+ +\nA> ".to_vec();
        actual.extend(b"A> ".repeat(5 << 20));
        let lines: Vec<u8> = b"A> \n".repeat(1 << 20);
        let mismatches = [
            stdout(&expected, &actual),
            Mismatch::Stream {
                stream: Stream::Stderr,
                expected: Vec::new(),
                actual: lines,
                dropped: 0,
            },
        ];
        let f = CaseFailure::new(&mismatches, b"0 0 h\n", Notes::default());
        let text = plain(&f);
        assert!(text.len() < MAX_REPORT, "{}", text.len());
        assert!(text.contains("first difference at line 2, column 4, byte 7"));
        assert!(text.contains("bytes]"), "long line cut with a count");
        assert!(text.contains("more differing lines not shown"));
        assert_eq!(f.input.as_ref().map(|n| n.line), Some(1));
    }

    #[test]
    fn bytes_not_kept_count_in_the_lengths_shown() {
        let mismatch = Mismatch::Stream {
            stream: Stream::Stdout,
            expected: b"A> ".to_vec(),
            actual: b"A> A> A> ".to_vec(),
            dropped: 1000,
        };
        let text = plain(&CaseFailure::new(&[mismatch], b"", Notes::default()));
        assert!(text.contains("+ actual 1009 bytes"), "{text}");
        let Difference::Bytes(d) = Difference::of(&Mismatch::Stream {
            stream: Stream::Stdout,
            expected: b"A> \n".to_vec(),
            actual: b"A> A> A> ".to_vec(),
            dropped: 1000,
        }) else {
            panic!("not a bytes difference");
        };
        assert_eq!(
            d.actual_rest,
            "A> A> …[1000 more bytes: the rest of the output, not kept]"
        );
        assert!(
            d.diff.contains(&DiffLine::Actual(
                "A> A> A>·…[1000 more bytes: the rest of the output, not kept]".to_owned()
            )),
            "{:?}",
            d.diff
        );
    }

    #[test]
    fn a_long_line_is_cut_around_its_first_difference() {
        let mut e = vec![b'x'; 10_000];
        let mut a = e.clone();
        a[9_000] = b'y';
        e.push(b'\n');
        a.push(b'\n');
        let cut = visible_cut(&a, Some(9_000));
        assert!(cut.starts_with(&format!("…[{} bytes]", 9_000 - MAX_LINE / 3)));
        assert!(cut.contains('y'));
        assert!(cut.len() < 2 * MAX_LINE);
    }

    #[test]
    fn the_input_line_is_named_by_counting_prompts() {
        let stdin = b"0 0 h\n-0 1 h\n";
        let note = input_note(
            stdin,
            b"grid\nA> grid\nB> B> ",
            b"grid\nA> grid\nB> grid\n",
            PROMPT,
        );
        assert_eq!(note.line, 2);
        assert_eq!(note.text, "-0 1 h");
        assert_eq!(note.expected, "B> ");
        assert_eq!(note.actual, "grid\\n");
        assert_eq!(
            note.to_string(),
            "after stdin line 2 `-0 1 h`: expected the prompt `B> `, got `grid\\n`"
        );
        let before = input_note(stdin, b"usage\n", b"", PROMPT);
        assert_eq!(before.line, 0);
        assert!(before.to_string().starts_with("before reading any stdin"));
    }

    #[test]
    fn bound_cuts_on_a_character_boundary() {
        let text = "é".repeat(100);
        let cut = bound(text, 51);
        assert!(cut.contains("report cut"));
    }

    #[test]
    fn file_names_are_escaped_everywhere() {
        let mismatches = [
            Mismatch::FileMissing {
                path: "out\r.txt".to_owned(),
            },
            Mismatch::FileDiffers {
                path: "save\tme".to_owned(),
                expected: b"1\n".to_vec(),
                actual: b"2\n".to_vec(),
            },
        ];
        let f = CaseFailure::new(&mismatches, b"", Notes::default());
        let text = plain(&f);
        assert!(text.contains("`out\\r.txt`"), "{text}");
        assert!(text.contains("`save\\tme`"), "{text}");
        assert!(!text.contains('\r') && !text.contains('\t'), "{text}");
        let quoted = f.quoted.to_string();
        assert!(
            quoted.contains("out\\r.txt") && quoted.contains("`2\\n` where `1\\n`"),
            "{quoted}"
        );
    }

    #[test]
    fn a_long_run_of_one_side_is_cut_to_the_first_difference() {
        let expected: Vec<u8> = (0..80)
            .flat_map(|i| format!("line {i}\n").into_bytes())
            .collect();
        let d = bytes_difference(BytesPart::Stream(Stream::Stdout), &expected, b"", 0);
        let shown = d
            .diff
            .iter()
            .filter(|l| matches!(l, DiffLine::Expected(_)))
            .count();
        assert_eq!(shown, RUN_SHOWN);
        assert_eq!(d.hidden, 80 - RUN_SHOWN);
        let short = bytes_difference(BytesPart::Stream(Stream::Stdout), b"a\nb\n", b"", 0);
        assert_eq!(short.hidden, 0);
    }
}
