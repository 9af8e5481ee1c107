//! The cause of a failure: a structural signature of how a run departs from
//! what was expected, shared by every case (or `diff` session) that fails
//! the same way.
//!
//! When the reference's provenance is known ([`crate::judge::provenance`]), a
//! stream's cause is the rule context its first difference falls in (the
//! span of output the reference was writing: "the grid after a valid
//! move", DISP-1, DISP-3) and the kind of departure, named when it is a
//! common one ([`Departure`]: the program echoes the line it just read,
//! stops printing, changes spacing or a number). No byte of the
//! output enters such a key, so one bug is one cause, and the same program
//! gives the same causes run after run.
//!
//! Without provenance (a pack whose reference writes none, `diff`), two
//! failures have the same cause when the same parts differ by the same
//! kind of edit with the same lines once normalised: escaped, runs of
//! digits written `#`, cut short.
//!
//! Past 600 lines: one concept (what makes failures the same: shapes, missed checks, later departures) whose parts share private helpers; its split into a `cause/` folder is planned with issue 30's layers.

use std::fmt::{self, Write as _};
use std::time::{Duration, Instant};

use similar::{Algorithm, DiffTag};

use crate::exec::run::{Ending, Stream};
use crate::judge::compare::Mismatch;
use crate::judge::provenance::{Record, Ruling, Span, Verdict};

/// Characters of a normalised line kept in a signature.
const LINE_CHARS: usize = 60;

/// Lines of each side, after the first difference, looked at to tell an
/// added line from a changed one.
const WINDOW_LINES: usize = 48;

/// Bytes of each side, after the first difference, looked at.
const WINDOW_BYTES: usize = 16 * 1024;

/// Added or missing lines kept in a signature.
const EDIT_LINES: usize = 2;

/// Every part that differs, each with its edit: what makes failures "the
/// same".
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cause {
    /// The parts, in the order the comparison reports them.
    pub parts: Vec<PartCause>,
}

/// How one part differs.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PartCause {
    /// `status`, `stdout`, `stderr`, `file NAME` (digits normalised).
    pub part: String,
    /// The span of the reference's output the first difference falls in
    /// (for an extra line: the span the program had just written), when
    /// the reference's provenance is known.
    pub place: Option<Place>,
    /// The edit at its first difference.
    pub edit: Edit,
}

/// A span of the reference's output by what it is and the rules it obeys.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place {
    /// What the reference was writing (`the prompt`).
    pub what: String,
    /// The rule IDs.
    pub rules: Vec<String>,
}

impl Place {
    fn of(span: &Span) -> Self {
        Self {
            what: span.what.clone(),
            rules: span.rules.clone(),
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.what, self.rules.join(", "))
    }
}

/// A departure named by its shape, never by its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Departure {
    /// The extra line is the input line the program had just read.
    Echo,
    /// Lines the reference does not print.
    ExtraLine,
    /// Output after the reference's last byte.
    ExtraAtEnd,
    /// A line break inside a line the reference goes on writing.
    LineBreak,
    /// Output ends where the reference goes on.
    Stops,
    /// Lines the reference prints are left out, and output goes on.
    MissingLine,
    /// A line differs only in spaces or tabs (trailing ones included).
    Spacing,
    /// A line differs only in its numbers.
    Number,
    /// A line differs only in letter case.
    LetterCase,
    /// A line differs otherwise.
    OtherText,
}

impl fmt::Display for Departure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Echo => "the program echoes the input line it just read",
            Self::ExtraLine => "an extra line",
            Self::ExtraAtEnd => "extra output after the reference's last byte",
            Self::LineBreak => "an extra line break",
            Self::Stops => "the output stops here",
            Self::MissingLine => "a line is left out",
            Self::Spacing => "a line differs only in spaces or tabs",
            Self::Number => "a line differs in a number",
            Self::LetterCase => "a line differs in letter case",
            Self::OtherText => "a line differs",
        })
    }
}

/// The kind of difference at a part's first differing byte, with its
/// normalised lines.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Edit {
    /// The run ended otherwise (normalised endings).
    Ending {
        /// Expected.
        expected: String,
        /// Actual.
        actual: String,
    },
    /// The program printed these lines in addition.
    Extra(Vec<String>),
    /// The program left these lines out.
    Missing(Vec<String>),
    /// The program printed one line where another was expected.
    Changed {
        /// Expected line (from the first differing byte on).
        expected: String,
        /// Actual line.
        actual: String,
    },
    /// A file that should exist does not.
    Absent,
    /// A file that should not exist does.
    Present,
    /// A process it started kept its output open.
    LeftProcess,
    /// In a conversation, an answer broke a rule (the rule and what was
    /// wrong, numbers normalised).
    Broke {
        /// The rule ID.
        rule: String,
        /// What was wrong.
        message: String,
    },
    /// The case was not run (why, in a few words).
    NotRun(String),
    /// A departure named by its shape, at a known place.
    Departed(Departure),
    /// A check the program misses, named by the reference's ruling: its
    /// rule and reason kind, never the bytes of the line.
    Missed {
        /// How the program departs.
        shape: Missed,
        /// The rule of the check (for [`Missed::StopsOtherwise`], of the
        /// stop's message and status).
        rule: String,
        /// The reason kind (empty for [`Missed::StopsOtherwise`]).
        kind: String,
        /// The kind in words.
        says: String,
    },
}

/// How a cause's key names a line accepted that the reference rejects.
const ACCEPTS: &str = "accepts what the reference rejects";

/// How a cause's key names going on where the reference stops.
const GOES_ON: &str = "goes on where the reference stops";

/// The rule and the check of a cause's key ([`Cause`]'s one line) when it
/// names a missed check: (`TURN-3`, `accepts what the reference rejects:
/// a horizontal edge's row past H`). What `mark`'s class view lists.
pub fn missed_check_of(key: &str) -> Option<(&str, String)> {
    [ACCEPTS, GOES_ON].iter().find_map(|shape| {
        let (_, rest) = key.split_once(&format!("{shape}: "))?;
        let (rule, says) = rest.split_once(", ")?;
        Some((rule, format!("{shape}: {says}")))
    })
}

/// How a program departs where the reference rejects a line or stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Missed {
    /// It answers a line the reference rejected as if it were valid.
    Accepts,
    /// It goes on where the reference stops with an error.
    GoesOn,
    /// It stops there too, with another status or message.
    StopsOtherwise,
}

/// A line as a signature keeps it: escaped like [`crate::bytes::visible::escape`],
/// digit runs replaced by `#`, cut to a few dozen characters.
pub fn normalise(line: &[u8]) -> String {
    let escaped = crate::bytes::visible::escape(line);
    let mut out = String::new();
    let mut in_digits = false;
    for c in escaped.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('#');
            }
            in_digits = true;
            continue;
        }
        in_digits = false;
        out.push(c);
    }
    cut(out)
}

/// An ending as a signature keeps it: the exit status or signal exactly,
/// a timeout or a cap without its numbers.
pub fn ending(e: &Ending) -> String {
    match e {
        Ending::Exited(code) => format!("status {code}"),
        Ending::Signaled(_) => e.to_string(),
        Ending::TimedOut { .. } => "timed out".to_owned(),
        Ending::OutputCapExceeded { stream, .. } => format!("{} past the cap", stream.name()),
    }
}

/// The edit at the first difference of two byte strings: a line diff of
/// what follows the first differing byte on each side (a bounded window),
/// whose first non-equal operation says whether lines were added, left out
/// or changed.
pub fn bytes_edit(expected: &[u8], actual: &[u8]) -> Edit {
    first_edit(expected, actual, true).edit
}

/// A line as a quote shows it: escaped, cut, its numbers kept.
fn exact(line: &[u8]) -> String {
    cut(crate::bytes::visible::escape(line))
}

/// The first edit between two byte strings, where it starts in `expected`
/// and its shape.
struct FirstEdit {
    edit: Edit,
    /// The first differing byte.
    at: usize,
    offset: usize,
    shape: Departure,
}

/// `mask`: lines normalised for a key ([`normalise`]), else exact for a
/// quote.
fn first_edit(expected: &[u8], actual: &[u8], mask: bool) -> FirstEdit {
    let at = expected
        .iter()
        .zip(actual)
        .take_while(|(a, b)| a == b)
        .count();
    // A changed line is shown whole, from the start of its line: the
    // bytes both sides share before the difference belong to it (`End of
    // user input`, not `nd of user input`).
    let line_start = expected[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let shared = &expected[line_start..at];
    let whole = |line: &[u8]| [shared, line].concat();
    let old = window(&expected[at..]);
    let new = window(&actual[at..]);
    let deadline = Instant::now() + Duration::from_millis(200);
    let ops = similar::capture_diff_slices_deadline(Algorithm::Myers, &old, &new, Some(deadline));
    let lines = |side: &[&[u8]], range: std::ops::Range<usize>| -> Vec<String> {
        side[range]
            .iter()
            .take(EDIT_LINES)
            .map(|l| if mask { normalise(l) } else { exact(l) })
            .collect()
    };
    let offset = |side: &[&[u8]], i: usize| at + side[..i].iter().map(|l| l.len()).sum::<usize>();
    for op in ops {
        let (tag, o, n) = op.as_tag_tuple();
        let start = offset(&old, o.start);
        let found = |edit, shape| FirstEdit {
            edit,
            at,
            offset: start,
            shape,
        };
        match tag {
            DiffTag::Equal => {}
            DiffTag::Insert => {
                return found(Edit::Extra(lines(&new, n)), Departure::ExtraLine);
            }
            DiffTag::Delete => {
                // Nothing follows on the actual side: it stopped here.
                let stops = offset(&new, n.start) >= actual.len();
                // Unless it stopped inside a line: then that line changed
                // (`Player O>` for `Player O> `).
                if stops && o.start == 0 && !shared.is_empty() {
                    let (e, a) = (whole(old[0]), whole(b""));
                    return found(changed(&e, &a, mask), shape_of_change(&e, &a));
                }
                let shape = if stops {
                    Departure::Stops
                } else {
                    Departure::MissingLine
                };
                return found(Edit::Missing(lines(&old, o)), shape);
            }
            DiffTag::Replace if o.start == 0 && n.start == 0 => {
                let (e, a) = (whole(old[0]), whole(new[0]));
                return found(changed(&e, &a, mask), shape_of_change(&e, &a));
            }
            DiffTag::Replace => {
                let (e, a) = (old[o.start], new[n.start]);
                return found(changed(e, a, mask), shape_of_change(e, a));
            }
        }
    }
    // Only possible when the window hid the difference; name the bytes.
    let (e, a) = (
        whole(crate::bytes::visible::rest_of_line(expected, at)),
        whole(crate::bytes::visible::rest_of_line(actual, at)),
    );
    FirstEdit {
        edit: changed(&e, &a, mask),
        at,
        offset: at,
        shape: shape_of_change(&e, &a),
    }
}

/// How a changed line differs, by shape: the actual side ending early is
/// a stop; otherwise spacing, numbers, letter case, or anything.
fn shape_of_change(expected: &[u8], actual: &[u8]) -> Departure {
    let unspaced = |l: &[u8]| -> Vec<u8> {
        l.iter()
            .copied()
            .filter(|&b| b != b' ' && b != b'\t' && b != b'\n')
            .collect()
    };
    if actual.is_empty() {
        Departure::Stops
    } else if unspaced(expected) == unspaced(actual) {
        Departure::Spacing
    } else if normalise(expected) == normalise(actual) {
        Departure::Number
    } else if expected.eq_ignore_ascii_case(actual) {
        Departure::LetterCase
    } else {
        Departure::OtherText
    }
}

/// The cause of a stream's difference: at a known place, the place and
/// the departure's shape (an extra line that repeats `answered`, the input
/// line the program had just read, is an echo wherever it lands);
/// otherwise the edit with its normalised lines.
fn stream_cause(
    mask: bool,
    part: String,
    expected: &[u8],
    actual: &[u8],
    spans: Option<&[Span]>,
    answered: Option<&[u8]>,
) -> PartCause {
    let first = first_edit(expected, actual, mask);
    let Some(spans) = spans else {
        return PartCause {
            part,
            place: None,
            edit: first.edit,
        };
    };
    // The program printed the line it had just read (and a newline) where
    // the reference printed something else: an echo, wherever it lands.
    if echoes(actual, first.at, answered) {
        return PartCause {
            part,
            place: None,
            edit: Edit::Departed(Departure::Echo),
        };
    }
    if first.shape == Departure::ExtraLine && first.offset >= expected.len() {
        return PartCause {
            part,
            place: None,
            edit: Edit::Departed(Departure::ExtraAtEnd),
        };
    }
    // A line break inside a line (`A> ` then a newline where the reference
    // goes on) belongs to what was written before it: it ends that line
    // early, whatever was to follow.
    let at = first.at;
    let mid_line = at > 0 && expected.get(at - 1).is_some_and(|&b| b != b'\n');
    let breaks = actual[at..]
        .iter()
        .find(|&&b| b != b' ' && b != b'\t' && b != b'\r')
        == Some(&b'\n');
    // ... while the reference writes more than spacing on that line.
    let goes_on = crate::bytes::visible::rest_of_line(expected, at)
        .iter()
        .any(|&b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
    if mid_line
        && breaks
        && goes_on
        && let Some(span) = crate::judge::provenance::before(spans, at)
    {
        return PartCause {
            part,
            place: Some(Place::of(span)),
            edit: Edit::Departed(Departure::LineBreak),
        };
    }
    // An extra line is placed by what the reference writes next: a bug
    // departs at its first occasion, and what follows that occasion is the
    // same wherever it is (a debug line after every move comes before "the
    // grid after a valid move" whichever prompt took the move). At the very
    // end, by what was written last.
    let span = crate::judge::provenance::at(spans, first.offset);
    match span {
        Some(span) => PartCause {
            part,
            place: Some(Place::of(span)),
            edit: Edit::Departed(first.shape),
        },
        None => PartCause {
            part,
            place: None,
            edit: first.edit,
        },
    }
}

/// The expected and actual stdout, when stdout differs.
fn stdout_of(mismatches: &[Mismatch]) -> Option<(&Vec<u8>, &Vec<u8>)> {
    mismatches.iter().find_map(|m| match m {
        Mismatch::Stream {
            stream: Stream::Stdout,
            expected,
            actual,
            ..
        } => Some((expected, actual)),
        _ => None,
    })
}

/// Most later departures filed for one case.
const LATER: usize = 3;

/// Most lines compared past, one at a time, for one case: each step
/// compares the whole output again, and a bug repeated on every line (a
/// trailing space trimmed) would otherwise be walked line by line through
/// a whole game (250 such cases took 20 s).
const LATER_STEPS: usize = 8;

/// A departure after a case's first one, filed as a cause of its own.
#[derive(Debug, Clone, PartialEq)]
pub struct Later {
    /// Its cause.
    pub cause: Cause,
    /// Its lines exact, as a header quotes them.
    pub quoted: Cause,
    /// Its sentence, for a missed check.
    pub label: Option<String>,
    /// Stdout as compared past the departures before it: what its worked
    /// example shows (taken, and dropped, when the failure is made).
    pub stdout: Option<Mismatch>,
}

/// The departures of stdout after a first one confined to one line (one
/// line replaced by one, the line after it alike) that changes only text
/// (a number, spacing, letter case: `(2..9)` for `(2..8)`) before the
/// program has read any input: compared on past it, each later departure
/// is a cause of its own, so a wrong prompt does not hide a wrong grid. A
/// departure after input may be the game going another way (another move,
/// another player), whose consequences are the same bug: never compared
/// on. Without provenance, none.
pub fn later(mismatches: &[Mismatch], record: Option<&Record>, first: &Cause) -> Vec<Later> {
    let Some(record) = record else {
        return Vec::new();
    };
    let Some((expected, actual)) = stdout_of(mismatches) else {
        return Vec::new();
    };
    let mut found: Vec<Later> = Vec::new();
    let mut actual = actual.clone();
    for _ in 0..LATER_STEPS {
        if found.len() == LATER {
            break;
        }
        let textual = matches!(
            first_edit(expected, &actual, true).shape,
            Departure::Number | Departure::Spacing | Departure::LetterCase
        );
        let Some(patched) = past_one_line(expected, &actual).filter(|_| textual) else {
            break;
        };
        if patched == *expected {
            break;
        }
        let stdout = [Mismatch::Stream {
            stream: Stream::Stdout,
            expected: expected.clone(),
            actual: patched.clone(),
            dropped: 0,
        }];
        let (cause, label) = Cause::labelled(&stdout, Some(record), None);
        if cause != *first && found.iter().all(|l| l.cause != cause) {
            let quoted = Cause::quote(&stdout);
            let [stdout] = stdout;
            found.push(Later {
                quoted,
                cause,
                label,
                stdout: Some(stdout),
            });
        }
        actual = patched;
    }
    found
}

/// `actual` with its first differing line replaced by the expected one,
/// when the difference is confined to that line: both sides have the line
/// and the line after it is the same on both.
fn past_one_line(expected: &[u8], actual: &[u8]) -> Option<Vec<u8>> {
    let e: Vec<&[u8]> = expected.split_inclusive(|&b| b == b'\n').collect();
    let a: Vec<&[u8]> = actual.split_inclusive(|&b| b == b'\n').collect();
    let k = e.iter().zip(&a).take_while(|(x, y)| x == y).count();
    let (el, al) = (e.get(k)?, a.get(k)?);
    if !el.ends_with(b"\n") || !al.ends_with(b"\n") || e.get(k + 1) != a.get(k + 1) {
        return None;
    }
    e.get(k + 1)?;
    let mut patched = a.clone();
    patched[k] = el;
    Some(patched.concat())
}

/// Whether the program printed the line it had just read (and a newline)
/// at byte `at` of its output.
fn echoes(actual: &[u8], at: usize, answered: Option<&[u8]>) -> bool {
    let rest = actual.get(at..).unwrap_or_default();
    answered.is_some_and(|a| {
        rest.strip_prefix(a)
            .is_some_and(|r| r.first() == Some(&b'\n'))
    })
}

/// The check a program misses, when the reference's record says it
/// rejected a line or stopped where the program departs: its cause part
/// and its label. A crash, hang or flood is never one; an echo neither.
fn missed_check(
    mismatches: &[Mismatch],
    record: &Record,
    answered: Option<&[u8]>,
) -> Option<(PartCause, String)> {
    let grave = mismatches
        .iter()
        .any(|m| matches!(m, Mismatch::Ending { actual, .. } if is_grave(&ending(actual))));
    if grave || record.rulings.is_empty() {
        return None;
    }
    let stop = record
        .rulings
        .iter()
        .rev()
        .find(|r| r.verdict == Verdict::Stopped);
    let stdout = stdout_of(mismatches);
    let missed = |shape: Missed, r: &Ruling| PartCause {
        part: "stdout".to_owned(),
        place: None,
        edit: Edit::Missed {
            shape,
            rule: r.rule.clone(),
            kind: r.kind.clone(),
            says: r.says.clone(),
        },
    };
    let Some((expected, actual)) = stdout else {
        // Stdout is right: the status or the message of the stop is not.
        let stop = stop?;
        // The stop's message is the last line of stderr: a difference
        // that leaves it whole at the end is another bug's.
        let parts: Vec<&str> = mismatches
            .iter()
            .filter_map(|m| match m {
                Mismatch::Ending { .. } => Some("status"),
                Mismatch::Stream {
                    stream: Stream::Stderr,
                    expected,
                    actual,
                    ..
                } if !actual.ends_with(last_line(expected)) => Some("stderr"),
                _ => None,
            })
            .collect();
        if parts.is_empty() {
            return None;
        }
        let part = PartCause {
            part: parts.join(" and "),
            place: None,
            edit: Edit::Missed {
                shape: Missed::StopsOtherwise,
                rule: stop.exit_rule.clone(),
                kind: String::new(),
                says: String::new(),
            },
        };
        let label = format!(
            "stops otherwise after {}: {}",
            stop.detail,
            Cause::quote(mismatches)
        );
        return Some((part, label));
    };
    let first = first_edit(expected, actual, true);
    if echoes(actual, first.at, answered) {
        return None;
    }
    let at = u64::try_from(first.at).ok()?;
    if let Some(stop) = stop
        && at >= stop.at
        && actual.len() > first.at
    {
        let label = format!("goes on after {}", stop.detail);
        return Some((missed(Missed::GoesOn, stop), label));
    }
    let rejected = accepted(record, expected, actual, first.at)?;
    let label = format!(
        "accepts `{}`: {}",
        crate::bytes::visible::escape(&rejected.line),
        rejected.detail
    );
    Some((missed(Missed::Accepts, rejected), label))
}

/// The last line of `text`, with its newline.
fn last_line(text: &[u8]) -> &[u8] {
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    let start = body.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    &text[start..]
}

/// The rejection whose answer holds the first difference at `at`, when
/// the program printed something else there than an extra line before
/// the same answer (a message is not acceptance) and did not stop.
fn accepted<'r>(
    record: &'r Record,
    expected: &[u8],
    actual: &[u8],
    at: usize,
) -> Option<&'r Ruling> {
    let at64 = u64::try_from(at).ok()?;
    let (i, ruling) = record
        .rulings
        .iter()
        .enumerate()
        .rfind(|(_, r)| r.verdict == Verdict::Rejected && r.at <= at64)?;
    // The answer: from the rejection to the end of the span written then,
    // or to the next ruling.
    let next = record.rulings[i + 1..].first().map_or(u64::MAX, |r| r.at);
    let start = usize::try_from(ruling.at).ok()?;
    let end = crate::judge::provenance::at(&record.spans, start)
        .map_or(ruling.at, |s| s.end)
        .min(next)
        .max(ruling.at + 1);
    if at64 >= end || actual.len() <= at {
        return None;
    }
    // A few extra lines, then the reference's answer: a message (or an
    // echo cut short), not acceptance; so is the answer with one line of
    // it worded otherwise (`Sorry try again.`).
    let until = usize::try_from(end)
        .unwrap_or(usize::MAX)
        .min(expected.len());
    let e = expected.get(at..until).unwrap_or_default();
    let worded = e.contains(&b'\n')
        && past_one_line(expected, actual)
            .is_some_and(|p| p.get(at..).is_some_and(|rest| rest.starts_with(e)));
    if worded {
        return None;
    }
    let mut a = &actual[at..];
    for _ in 0..3 {
        let Some(nl) = a.iter().position(|&b| b == b'\n') else {
            break;
        };
        a = &a[nl + 1..];
        if a.starts_with(e) {
            return None;
        }
    }
    Some(ruling)
}

/// A changed line; when only numbers differ, the numbers are the
/// difference and are kept.
fn changed(expected: &[u8], actual: &[u8], mask: bool) -> Edit {
    if !mask {
        return Edit::Changed {
            expected: exact(expected),
            actual: exact(actual),
        };
    }
    let (e, a) = (normalise(expected), normalise(actual));
    if e == a {
        let keep = |b: &[u8]| cut(crate::bytes::visible::escape(b));
        return Edit::Changed {
            expected: keep(expected),
            actual: keep(actual),
        };
    }
    Edit::Changed {
        expected: e,
        actual: a,
    }
}

fn cut(mut text: String) -> String {
    if text.chars().count() > LINE_CHARS {
        text = text.chars().take(LINE_CHARS).collect();
        text.push('…');
    }
    text
}

fn window(bytes: &[u8]) -> Vec<&[u8]> {
    let cut = &bytes[..bytes.len().min(WINDOW_BYTES)];
    cut.split_inclusive(|&b| b == b'\n')
        .take(WINDOW_LINES)
        .collect()
}

/// Whether a normalised ending is a crash (a signal), a hang or a flood.
fn is_grave(ending: &str) -> bool {
    ending.starts_with("killed by signal")
        || ending == "timed out"
        || ending.ends_with("past the cap")
}

impl Cause {
    /// How bad the departure is, for ordering causes met equally often:
    /// 0 a crash (a signal), a hang or a flood; 1 anything else (wrong
    /// bytes, another status).
    pub fn severity(&self) -> u8 {
        let grave = self
            .parts
            .iter()
            .any(|p| matches!(&p.edit, Edit::Ending { actual, .. } if is_grave(actual)));
        u8::from(!grave)
    }

    /// The failure as its header quotes it: each part's first edit with
    /// its lines exact (escaped, cut, numbers kept: `Player O wins`, not
    /// `Player O wins` with its digits masked).
    pub fn quote(mismatches: &[Mismatch]) -> Self {
        Self::parts_of(mismatches, None, None, false, false)
    }

    /// The cause of a case's mismatches; `record` is the reference's
    /// provenance of the expected stdout, `answered` the stdin line the
    /// program had just read when stdout departed.
    ///
    /// With provenance the cause is the primary part alone (a crash, hang
    /// or flood; else stdout; else the first part): the other parts of the
    /// same bug (a status, a save file named by the case) differ from case
    /// to case and would split it. The worked example shows them all.
    pub fn located(
        mismatches: &[Mismatch],
        record: Option<&Record>,
        answered: Option<&[u8]>,
    ) -> Self {
        Self::labelled(mismatches, record, answered).0
    }

    /// [`Self::located`], with the sentence a missed check is told in
    /// ("accepts `3 14 h`: TURN-3 rejects it (…)"), from this case's
    /// values: a cause's label, when its worked example is this case.
    pub fn labelled(
        mismatches: &[Mismatch],
        record: Option<&Record>,
        answered: Option<&[u8]>,
    ) -> (Self, Option<String>) {
        let spans = record.map(|r| r.spans.as_slice());
        let mut cause = Self::parts_of(mismatches, spans, answered, true, true);
        let Some(record) = record else {
            return (cause, None);
        };
        if let Some((part, label)) = missed_check(mismatches, record, answered) {
            cause.parts = vec![part];
            return (cause, Some(label));
        }
        if let Some(primary) = cause.primary() {
            cause.parts = vec![primary];
        }
        (cause, None)
    }

    /// The part that names the bug: a crash, hang or flood, else stdout,
    /// else the first.
    fn primary(&self) -> Option<PartCause> {
        let grave =
            |p: &&PartCause| matches!(&p.edit, Edit::Ending { actual, .. } if is_grave(actual));
        self.parts
            .iter()
            .find(grave)
            .or_else(|| self.parts.iter().find(|p| p.part == "stdout"))
            .or_else(|| self.parts.first())
            .cloned()
    }

    /// Each part's cause; `shapes`: files keyed by the shape of their
    /// first difference, not by their names and bytes (a save file's name
    /// is the case's choice).
    fn parts_of(
        mismatches: &[Mismatch],
        spans: Option<&[Span]>,
        answered: Option<&[u8]>,
        shapes: bool,
        mask: bool,
    ) -> Self {
        let file = |path: &str| {
            if shapes {
                "file".to_owned()
            } else if mask {
                format!("file {}", normalise(path.as_bytes()))
            } else {
                format!("file {}", exact(path.as_bytes()))
            }
        };
        let parts = mismatches
            .iter()
            .map(|m| match m {
                Mismatch::Ending { expected, actual } => {
                    let actual = ending(actual);
                    // A crash, hang or flood is the bug whatever status the
                    // case expected.
                    let expected = if spans.is_some() && is_grave(&actual) {
                        String::new()
                    } else {
                        ending(expected)
                    };
                    PartCause {
                        part: "status".to_owned(),
                        place: None,
                        edit: Edit::Ending { expected, actual },
                    }
                }
                Mismatch::LeftProcess { .. } => PartCause {
                    part: "process".to_owned(),
                    place: None,
                    edit: Edit::LeftProcess,
                },
                Mismatch::Stream {
                    stream: Stream::Stdout,
                    expected,
                    actual,
                    ..
                } => stream_cause(mask, "stdout".to_owned(), expected, actual, spans, answered),
                Mismatch::Stream {
                    stream,
                    expected,
                    actual,
                    ..
                } => stream_cause(mask, stream.name().to_owned(), expected, actual, None, None),
                Mismatch::FileMissing { path } => PartCause {
                    part: file(path),
                    place: None,
                    edit: Edit::Absent,
                },
                Mismatch::FileUnexpected { path } => PartCause {
                    part: file(path),
                    place: None,
                    edit: Edit::Present,
                },
                Mismatch::FileDiffers {
                    path,
                    expected,
                    actual,
                } if shapes => PartCause {
                    part: file(path),
                    place: None,
                    edit: Edit::Departed(first_edit(expected, actual, true).shape),
                },
                Mismatch::FileDiffers {
                    path,
                    expected,
                    actual,
                } => stream_cause(mask, file(path), expected, actual, None, None),
                Mismatch::Exchange(x) => PartCause {
                    part: "answer".to_owned(),
                    place: None,
                    edit: Edit::Broke {
                        rule: x.rule.clone(),
                        message: if mask {
                            normalise(x.message.as_bytes())
                        } else {
                            exact(x.message.as_bytes())
                        },
                    },
                },
            })
            .collect();
        Self { parts }
    }
}

impl fmt::Display for Edit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |lines: &[String]| {
            lines
                .iter()
                .map(|l| format!("`{l}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Self::Ending { expected, actual } if expected.is_empty() => write!(f, "{actual}"),
            Self::Ending { expected, actual } => {
                write!(f, "{actual} where {expected} was expected")
            }
            Self::Extra(lines) => write!(f, "extra output {}", list(lines)),
            Self::Missing(lines) => write!(f, "missing output {}", list(lines)),
            Self::Changed { expected, actual } => {
                write!(f, "`{actual}` where `{expected}` was expected")
            }
            Self::Absent => write!(f, "missing"),
            Self::Present => write!(f, "should not exist"),
            Self::LeftProcess => write!(f, "left running, holding the output open"),
            Self::Broke { rule, message } => write!(f, "broke {rule}: {message}"),
            Self::NotRun(why) => write!(f, "not run ({why})"),
            Self::Departed(d) => write!(f, "{d}"),
            Self::Missed {
                shape: Missed::StopsOtherwise,
                rule,
                ..
            } => write!(f, "stops otherwise where the reference stops ({rule})"),
            Self::Missed {
                shape, rule, says, ..
            } => {
                let what = if *shape == Missed::Accepts {
                    ACCEPTS
                } else {
                    GOES_ON
                };
                write!(f, "{what}: {rule}, {says}")
            }
        }
    }
}

impl fmt::Display for Cause {
    /// One line: each part with its edit (`#` stands for any number).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::new();
        for (i, p) in self.parts.iter().enumerate() {
            if i > 0 {
                text.push_str("; ");
            }
            let _ = match (&p.place, &p.edit) {
                (Some(place), Edit::Departed(d @ Departure::ExtraLine)) => {
                    write!(text, "{}, before {place}: {d}", p.part)
                }
                (Some(place), Edit::Departed(d @ Departure::LineBreak)) => {
                    write!(text, "{}, after {place}: {d}", p.part)
                }
                (Some(place), edit) => write!(text, "{}, in {place}: {edit}", p.part),
                (None, edit) => write!(text, "{}: {edit}", p.part),
            };
        }
        if text.is_empty() {
            text.push_str("no difference");
        }
        f.write_str(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stdout(expected: &[u8], actual: &[u8]) -> Cause {
        Cause::located(
            &[Mismatch::Stream {
                stream: Stream::Stdout,
                expected: expected.to_vec(),
                actual: actual.to_vec(),
                dropped: 0,
            }],
            None,
            None,
        )
    }

    #[test]
    fn digits_become_hashes_and_long_lines_are_cut() {
        assert_eq!(normalise(b"move 12 3 h\n"), "move # # h\\n");
        assert_eq!(normalise(b"\xff\t7"), "\\xff\\t#");
        let long = normalise(&[b'x'; 500]);
        assert_eq!(long.chars().count(), LINE_CHARS + 1);
        assert!(long.ends_with('…'));
    }

    #[test]
    fn an_extra_line_after_a_move_is_one_cause_in_any_grid() {
        let a = stdout(
            b"+ +\nA> +-+\n| |\nB> ",
            b"+ +\nA> debug: move 0 0\n+-+\n| |\nB> ",
        );
        let b = stdout(
            b"+ + +\n\nA> +-+ +\nB> ",
            b"+ + +\n\nA> debug: move 13 2\n+-+ +\nB> ",
        );
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "stdout: extra output `debug: move # #\\n`");
    }

    #[test]
    fn missing_changed_and_endings_are_told_apart() {
        let missing = stdout(b"+ +\nA> ", b"+ +\n");
        assert_eq!(missing.parts[0].edit, Edit::Missing(vec!["A> ".into()]));
        let changed = stdout(b"+-+ \n| |\n", b"+-+\n|x|\n");
        assert_eq!(
            changed.parts[0].edit,
            Edit::Changed {
                expected: "+-+ \\n".into(),
                actual: "+-+\\n".into()
            }
        );
        // A changed message is quoted whole, not from its first
        // differing byte.
        let words = stdout(b"Error reading grid contents\n", b"End of user input\n");
        assert_eq!(
            words.to_string(),
            "stdout: `End of user input\\n` where `Error reading grid contents\\n` was expected"
        );
        let status = Cause::located(
            &[Mismatch::Ending {
                expected: Ending::Exited(0),
                actual: Ending::Exited(5),
            }],
            None,
            None,
        );
        assert_eq!(
            status.to_string(),
            "status: status 5 where status 0 was expected"
        );
        let other = Cause::located(
            &[Mismatch::Ending {
                expected: Ending::Exited(0),
                actual: Ending::Exited(6),
            }],
            None,
            None,
        );
        assert_ne!(status, other);
        let numbers = stdout(b"1\n", b"2\n");
        assert_eq!(
            numbers.to_string(),
            "stdout: `2\\n` where `1\\n` was expected"
        );
    }

    fn span(start: u64, end: u64, what: &str, rules: &[&str]) -> Span {
        Span {
            start,
            end,
            rules: rules.iter().map(|r| (*r).to_owned()).collect(),
            what: what.to_owned(),
        }
    }

    fn record(spans: Vec<Span>) -> Record {
        Record {
            spans,
            rulings: Vec::new(),
        }
    }

    /// `+-+ \n` (a grid) then `A> ` (a prompt).
    fn spans() -> Vec<Span> {
        vec![
            span(0, 5, "the grid", &["DISP-1"]),
            span(5, 8, "the prompt", &["TURN-1"]),
        ]
    }

    fn located(expected: &[u8], actual: &[u8], answered: Option<&[u8]>) -> Cause {
        let m = [Mismatch::Stream {
            stream: Stream::Stdout,
            expected: expected.to_vec(),
            actual: actual.to_vec(),
            dropped: 0,
        }];
        Cause::located(&m, Some(&record(spans())), answered)
    }

    #[test]
    fn with_provenance_a_cause_is_the_place_and_the_shape_never_the_bytes() {
        let trimmed = located(b"+-+ \nA> ", b"+-+\nA> ", None);
        assert_eq!(
            trimmed.to_string(),
            "stdout, in the grid (DISP-1): a line differs only in spaces or tabs"
        );
        // Other bytes, same shape at the same place: the same cause.
        assert_eq!(trimmed, located(b"+-+ \nA> ", b"+-+\t\nA> ", None));
        let number = located(b"+-+ \nA> ", b"+-+ \nB> ", None);
        assert_eq!(
            number.to_string(),
            "stdout, in the prompt (TURN-1): a line differs"
        );
        let extra = located(b"+-+ \nA> ", b"+-+ \ndebug 3\nA> ", None);
        assert_eq!(
            extra.to_string(),
            "stdout, before the prompt (TURN-1): an extra line"
        );
        let echo = located(b"+-+ \nA> ", b"+-+ \n0 0 h\nA> ", Some(b"0 0 h"));
        assert_eq!(
            echo.to_string(),
            "stdout: the program echoes the input line it just read"
        );
        let stops = located(b"+-+ \nA> ", b"+-+ \n", None);
        assert_eq!(
            stops.to_string(),
            "stdout, in the prompt (TURN-1): the output stops here"
        );
        let case = located(b"+-+ \nA> ", b"+-+ \na> ", None);
        assert_eq!(
            case.to_string(),
            "stdout, in the prompt (TURN-1): a line differs in letter case"
        );
    }

    #[test]
    fn with_provenance_the_primary_part_alone_is_the_cause() {
        let stream = Mismatch::Stream {
            stream: Stream::Stdout,
            expected: b"+-+ \nA> ".to_vec(),
            actual: b"+-+ \n".to_vec(),
            dropped: 0,
        };
        let status = Mismatch::Ending {
            expected: Ending::Exited(6),
            actual: Ending::Exited(0),
        };
        let both = Cause::located(
            &[status.clone(), stream.clone()],
            Some(&record(spans())),
            None,
        );
        assert_eq!(
            both,
            Cause::located(&[stream], Some(&record(spans())), None)
        );
        let crashed = Mismatch::Ending {
            expected: Ending::Exited(0),
            actual: Ending::Signaled(11),
        };
        let stream = Mismatch::Stream {
            stream: Stream::Stdout,
            expected: b"+-+ \nA> ".to_vec(),
            actual: b"+".to_vec(),
            dropped: 0,
        };
        let crash = Cause::located(&[crashed, stream], Some(&record(spans())), None);
        assert_eq!(crash.parts.len(), 1);
        assert_eq!(crash.parts[0].part, "status");
        assert_eq!(crash.severity(), 0);
        // Without provenance every part counts, by its bytes.
        assert_eq!(Cause::located(&[status], None, None).parts.len(), 1);
    }

    fn ruling(verdict: Verdict, at: u64, rule: &str, kind: &str, detail: &str) -> Ruling {
        Ruling {
            verdict,
            at,
            rule: rule.to_owned(),
            kind: kind.to_owned(),
            says: format!("{kind} in words"),
            detail: detail.to_owned(),
            line: b"3 14 h".to_vec(),
            exit_rule: if verdict == Verdict::Stopped {
                "FILE-6".to_owned()
            } else {
                String::new()
            },
        }
    }

    /// The grid, a prompt, a line rejected at 8 and the prompt again.
    fn rejecting() -> Record {
        Record {
            spans: vec![
                span(0, 5, "the grid", &["DISP-1"]),
                span(5, 8, "the first prompt", &["TURN-1"]),
                span(8, 11, "the prompt after a rejected line", &["TURN-3"]),
            ],
            rulings: vec![ruling(
                Verdict::Rejected,
                8,
                "TURN-3",
                "h-row",
                "TURN-3 rejects it (row 3 is outside a 2-row grid)",
            )],
        }
    }

    fn stdout_of(expected: &[u8], actual: &[u8]) -> Mismatch {
        Mismatch::Stream {
            stream: Stream::Stdout,
            expected: expected.to_vec(),
            actual: actual.to_vec(),
            dropped: 0,
        }
    }

    #[test]
    fn a_line_answered_where_the_reference_rejected_it_is_the_missed_check() {
        let record = rejecting();
        let played = stdout_of(b"+-+ \nA> A> ", b"+-+ \nA> +-+-\nB> ");
        let (cause, label) = Cause::labelled(&[played], Some(&record), None);
        assert_eq!(
            cause.to_string(),
            "stdout: accepts what the reference rejects: TURN-3, h-row in words"
        );
        assert_eq!(
            label.as_deref(),
            Some("accepts `3 14 h`: TURN-3 rejects it (row 3 is outside a 2-row grid)")
        );
        // Another line, another grid: the same check, the same cause.
        let other = stdout_of(b"+-+ \nA> A> ", b"+-+ \nA> +-+ \n|  \nB> ");
        assert_eq!(Cause::located(&[other], Some(&record), None), cause);
        // A message before the same prompt is not acceptance.
        let message = stdout_of(b"+-+ \nA> A> ", b"+-+ \nA> Invalid move\nA> ");
        let (cause, label) = Cause::labelled(&[message], Some(&record), None);
        assert!(label.is_none());
        assert!(!cause.to_string().contains("accepts"), "{cause}");
    }

    #[test]
    fn going_on_where_the_reference_stops_is_keyed_by_its_check() {
        let record = Record {
            spans: Vec::new(),
            rulings: vec![ruling(
                Verdict::Stopped,
                0,
                "FILE-2",
                "next-player-range",
                "a grid file whose next player is 0: FILE-2 wants 1..P",
            )],
        };
        let on = stdout_of(b"", b"+ +\nA> ");
        let status = Mismatch::Ending {
            expected: Ending::Exited(5),
            actual: Ending::Exited(6),
        };
        let (cause, label) = Cause::labelled(&[status.clone(), on], Some(&record), None);
        assert_eq!(
            cause.to_string(),
            "stdout: goes on where the reference stops: FILE-2, next-player-range in words"
        );
        assert_eq!(
            label.as_deref(),
            Some("goes on after a grid file whose next player is 0: FILE-2 wants 1..P")
        );
        assert_eq!(
            missed_check_of(&cause.to_string()),
            Some((
                "FILE-2",
                "goes on where the reference stops: next-player-range in words".to_owned()
            ))
        );
        // Stdout right, the status wrong: keyed by the stop's exit rule.
        let (cause, _) = Cause::labelled(&[status], Some(&record), None);
        assert_eq!(
            cause.to_string(),
            "status: stops otherwise where the reference stops (FILE-6)"
        );
        // A crash is a crash wherever it happens.
        let crash = Mismatch::Ending {
            expected: Ending::Exited(5),
            actual: Ending::Signaled(11),
        };
        let (cause, label) = Cause::labelled(&[crash], Some(&record), None);
        assert!(label.is_none());
        assert_eq!(cause.severity(), 0);
    }
}
