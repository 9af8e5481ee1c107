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
use crate::judge::decided::By;
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
    /// What was forgiven, one line: the program's first differing line
    /// for the reference's (`` `a  b` for `a b` ``), escaped and cut;
    /// empty when there are no bytes to show.
    pub forgave: String,
}

/// Characters of a forgiven line shown at most.
const FORGAVE_SHOWN: usize = 60;

/// [`Forgiven::forgave`] of a departure: the first line where the bytes
/// differ, the program's then the reference's; for an ending, both.
pub fn forgave_text(m: &Mismatch) -> String {
    let line = |bytes: &[u8], at: usize| {
        let start = bytes
            .get(..at)
            .and_then(|b| b.iter().rposition(|&c| c == b'\n'))
            .map_or(0, |p| p + 1);
        let shown =
            crate::bytes::visible::visible_line(crate::bytes::visible::rest_of_line(bytes, start));
        let mut chars = shown.chars();
        let cut: String = chars.by_ref().take(FORGAVE_SHOWN).collect();
        if chars.next().is_some() {
            format!("{cut}…")
        } else {
            cut
        }
    };
    match m {
        Mismatch::Stream {
            expected, actual, ..
        }
        | Mismatch::FileDiffers {
            expected, actual, ..
        } => {
            let at = crate::bytes::visible::locate(expected, actual).byte;
            format!("`{}` for `{}`", line(actual, at), line(expected, at))
        }
        Mismatch::Ending { expected, actual } => format!("{actual} for {expected}"),
        _ => String::new(),
    }
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
    /// For each part that failed under a tolerance, what refused it: what
    /// its failure speaks of ([`crate::judge::decided`]).
    pub decided: Vec<crate::judge::decided::Decided>,
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

/// The first other reading of an ambiguous rule (`expected`'s
/// alternatives) the run passes under, when it failed the main one. Each
/// is judged with the case's tolerances on whole streams (exactly when
/// `strict`): the model's spans were traced under the main reading only.
pub fn other_reading<'e>(
    expected: &'e Expectation,
    actual: &Outcome,
    oracle: &dyn Oracle,
    strict: bool,
) -> Result<Option<&'e crate::model::case::Alternative>, String> {
    struct WholeStreams<'o>(&'o dyn Oracle);
    impl Oracle for WholeStreams<'_> {
        fn spans(&self) -> Option<Vec<Span>> {
            None
        }
        fn check(
            &self,
            command: &str,
            part: &str,
            expected: &[u8],
            actual: &[u8],
        ) -> Result<Option<String>, String> {
            self.0.check(command, part, expected, actual)
        }
    }
    for alternative in &expected.alternatives {
        let mut under = expected.under(alternative);
        if strict {
            under.matching = crate::model::matching::Matching::default();
        }
        let judged = judge_owned(&under, actual.clone(), &WholeStreams(oracle))?;
        if judged.mismatches.is_empty() {
            return Ok(Some(alternative));
        }
    }
    Ok(None)
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
            Self::Memory { error, .. } => write!(f, "memory error: {error}"),
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
        let which = crate::judge::decided::Part::Stream(stream);
        settle(verdict, stream.name(), which, &mut out, || {
            Mismatch::Stream {
                stream,
                expected: exp.clone(),
                actual: act,
                dropped,
            }
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
                let which = crate::judge::decided::Part::File(path.clone());
                settle(verdict, &format!("file `{path}`"), which, &mut out, || {
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
    reads(expected, &actual, &mut out.mismatches);
    Ok(out)
}

/// What a tolerance made of a part that differs.
enum Tolerated {
    /// No tolerance: a mismatch.
    Exact,
    /// Forgiven, compared as said.
    Forgiven { how: String, charges: Vec<Charge> },
    /// Still a departure, compared as said (and why, from a checker), and
    /// what refused it with the rules that declared it.
    Failed(String, Option<(By, Vec<String>)>),
}

fn settle(
    verdict: Tolerated,
    part: &str,
    which: crate::judge::decided::Part,
    out: &mut Judgement,
    mismatch: impl FnOnce() -> Mismatch,
) {
    match verdict {
        Tolerated::Exact => out.mismatches.push(mismatch()),
        Tolerated::Forgiven { how, charges } => out.forgiven.push(Forgiven {
            part: part.to_owned(),
            how,
            // Only a deduction shows it: no bytes copied for a free pass.
            forgave: if charges.is_empty() {
                String::new()
            } else {
                forgave_text(&mismatch())
            },
            charges,
        }),
        Tolerated::Failed(how, by) => {
            out.judged.push(format!("{part} compared {how}"));
            if let Some((by, rules)) = by {
                out.decided.push(crate::judge::decided::Decided {
                    part: which,
                    by,
                    rules,
                });
            }
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
                let d = crate::judge::decided::Decided::checker(
                    crate::judge::decided::Part::Stream(Stream::Stdout),
                    command,
                    &reason,
                    Vec::new(),
                );
                return Ok(Tolerated::Failed(
                    format!("{}: {reason}", judging.describe()),
                    Some((d.by, rules_of(judging))),
                ));
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
        Tolerated::Failed(
            judging.describe(),
            Some((By::Tolerance(judging.tolerance.clone()), rules_of(judging))),
        )
    })
}

/// The rules that declared a tolerance.
fn rules_of(judging: &Judging) -> Vec<String> {
    match &judging.origin {
        Origin::Rules(rules) => rules.clone(),
        _ => Vec::new(),
    }
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
        Tolerated::Failed(how, Some((By::Spans, Vec::new())))
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
        // An empty span judged `any` still frees what the program prints
        // there (the model printed nothing after the last prompt).
        if judging.tolerance == Tolerance::Any && parts.last().is_none_or(|l| l.judging != judging)
        {
            parts.push(Part { judging, range });
        }
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
            forgave: format!("status {got} for status {want}"),
        });
    }
}

fn origin(o: &Origin) -> String {
    match o {
        Origin::Default => String::new(),
        o => format!(" ({o})"),
    }
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
            count_reads: false,
            reads: None,
            alternatives: Vec::new(),
        }
    }

    #[test]
    fn another_reading_passes_what_it_expects_and_only_that() {
        let mut e = expect(1, b"not a number\n");
        e.alternatives.push(crate::model::case::Alternative {
            reading: "lenient".into(),
            rules: vec!["IO-6".into()],
            ending: Ending::Exited(0),
            stdout: b"212.0\n".to_vec(),
            stderr: Vec::new(),
        });
        let under = |o: &Outcome, strict| {
            other_reading(&e, o, &NoOracle, strict)
                .unwrap()
                .map(|a| a.reading.clone())
        };
        assert_eq!(
            under(&outcome(0, b"212.0\n"), false),
            Some("lenient".into())
        );
        assert_eq!(under(&outcome(0, b"212.0\n"), true), Some("lenient".into()));
        // Its status and its bytes both: neither half of each reading.
        assert_eq!(under(&outcome(1, b"212.0\n"), false), None);
        assert_eq!(under(&outcome(0, b"41.0\n"), false), None);
        // A hang fails every reading.
        let hung = Outcome {
            ending: Ending::TimedOut {
                after: std::time::Duration::from_secs(1),
                awaiting_prompt: None,
            },
            ..outcome(0, b"212.0\n")
        };
        assert_eq!(under(&hung, false), None);
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
