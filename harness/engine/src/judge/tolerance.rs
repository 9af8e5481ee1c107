//! How a tolerance compares bytes (docs/matching.md): `spacing` and
//! `case` by normalising both sides, `lines`, `regex`, `nonempty` and
//! `any` by what they promise, and stdout by span (each rule's tolerance
//! on the bytes its spans produced) as one anchored regular expression
//! built from the expected bytes. Checkers are not here: they run a
//! program ([`crate::judge::compare::Oracle`]).
//!
//! Every function is only reached once the bytes differ: a case whose
//! output equals its expectation never pays for its tolerance.
//!
//! One piece: each tolerance's comparison, and stdout by span as one
//! regular expression built from the same per-tolerance patterns
//! (`pattern`), a `numbers` span's numbers captured by it and checked
//! after; the tests are in `tolerance/tests.rs`.

use std::fmt::Write as _;

use regex_automata::meta::Regex;
use regex_automata::util::syntax;

use crate::judge::numbers::Refusal;
use crate::model::matching::{HOLE, LINES_HOLE, NumberTolerance, Tolerance};

/// `bytes` with runs of spaces and tabs made one space, spaces and tabs at
/// line ends dropped, and a final newline added to a nonempty text that
/// lacks one: two texts equal ignoring spacing normalise to the same bytes.
pub fn normalise_spacing(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + 1);
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        let mut blank = false;
        for &b in body {
            if b == b' ' || b == b'\t' {
                blank = true;
            } else {
                if blank {
                    out.push(b' ');
                    blank = false;
                }
                out.push(b);
            }
        }
        out.push(b'\n');
    }
    out
}

/// `bytes` with ASCII letters lowercased.
pub fn fold_case(bytes: &[u8]) -> Vec<u8> {
    bytes.to_ascii_lowercase()
}

/// `bytes` as `spacing` and/or `case` see them.
pub fn normalise(bytes: &[u8], spacing: bool, case: bool) -> Vec<u8> {
    let spaced = if spacing {
        normalise_spacing(bytes)
    } else {
        bytes.to_vec()
    };
    if case { fold_case(&spaced) } else { spaced }
}

/// A nonempty text with a final newline (what `spacing`, `lines` and
/// `regex` compare: a missing final newline is ignored).
fn with_final_newline(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        bytes.into()
    } else {
        let mut v = bytes.to_vec();
        v.push(b'\n');
        v.into()
    }
}

/// Whether `bytes` hold a byte other than a space, a tab, a carriage
/// return or a newline: text, where blanks alone are no message.
fn has_text(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .any(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

/// Whether `actual` passes where the model printed `expected`, under a
/// tolerance that runs no program. `Err` is a fault of the suite (a
/// checker asked here, a pattern too big to build).
pub fn accepts(tolerance: &Tolerance, expected: &[u8], actual: &[u8]) -> Result<bool, String> {
    Ok(match tolerance {
        Tolerance::Exact => expected == actual,
        Tolerance::Loose { spacing, case } => {
            normalise(expected, *spacing, *case) == normalise(actual, *spacing, *case)
        }
        Tolerance::Nonempty | Tolerance::NonemptyOrTraceback => {
            let some = match (expected.is_empty(), has_text(expected)) {
                (true, _) => actual.is_empty(),
                (false, true) => has_text(actual),
                (false, false) => !actual.is_empty(),
            };
            some && !refused_traceback(tolerance, expected, actual)
        }
        Tolerance::Any => true,
        Tolerance::Lines(_) | Tolerance::Regex(_) => {
            let re = build(&pattern(tolerance, expected, true)?)?;
            re.is_match(with_final_newline(actual).as_ref())
        }
        Tolerance::Checker(c) => {
            return Err(format!("checker `{c}` cannot judge part of a stream"));
        }
        Tolerance::Numbers(n) => {
            crate::judge::numbers::first_refusal(n, expected, actual).is_none()
        }
    })
}

/// Whether `nonempty` refuses `actual` as a traceback: an uncaught
/// exception is no message of the program's choice, unless the model's
/// own bytes are one or the pack said `nonempty-or-traceback`.
fn refused_traceback(tolerance: &Tolerance, expected: &[u8], actual: &[u8]) -> bool {
    *tolerance == Tolerance::Nonempty
        && crate::judge::exception::is_traceback(actual)
        && !crate::judge::exception::is_traceback(expected)
}

/// One part of the expected stdout with the tolerance that judges it.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment<'a> {
    /// How.
    pub tolerance: &'a Tolerance,
    /// The model's bytes of it.
    pub expected: &'a [u8],
}

/// Whether `actual` passes as the sequence of `segments` (in order, their
/// expected bytes making the model's stdout).
#[cfg(test)]
pub fn accepts_segments(segments: &[Segment<'_>], actual: &[u8]) -> Result<bool, String> {
    Ok(judge_segments(segments, actual)? == Segments::Accepted)
}

/// What stdout judged by span gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Segments {
    /// Every span passes.
    Accepted,
    /// The text departs (what the spans' tolerances leave bound).
    Refused,
    /// The text passes, but a number a `numbers` span holds is out of its
    /// tolerance: the first one, said with both values, and the index of
    /// the segment holding it.
    OutOfTolerance(NumberTolerance, Refusal, usize),
}

/// A number in a span judged by `numbers`: where its capture is named,
/// and what the model printed there.
struct Wanted<'a> {
    segment: usize,
    tolerance: &'a NumberTolerance,
    token: &'a [u8],
    value: f64,
}

/// A number as a program prints one ([`crate::judge::numbers::parse_number`]).
const NUMBER: &str = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?";

/// The group capturing the `k`-th number of a `numbers` span.
fn group(k: usize) -> String {
    format!("conformance_number_{k}")
}

/// A `numbers` span as a pattern: each number it holds captured (checked
/// against its tolerance once the whole matches), the text around them
/// under the tolerance's `spacing` and `case`.
fn numbers_pattern<'a>(
    segment: usize,
    n: &'a NumberTolerance,
    expected: &'a [u8],
    last: bool,
    wanted: &mut Vec<Wanted<'a>>,
) -> String {
    let mut out = String::new();
    let blank = |b: &u8| b.is_ascii_whitespace();
    let mut start = 0;
    let mut text: Vec<u8> = Vec::new();
    let flush = |text: &mut Vec<u8>, out: &mut String, end: bool| {
        if text.is_empty() {
            return;
        }
        let body = match (n.spacing, end && last) {
            (true, true) => spaced(&with_final_newline(text)),
            (true, false) => spaced(text),
            (false, _) => literal(text),
        };
        if n.case {
            let _ = write!(out, "(?i:{body})");
        } else {
            out.push_str(&body);
        }
        text.clear();
    };
    for i in 1..=expected.len() {
        if i < expected.len() && blank(&expected[i]) == blank(&expected[start]) {
            continue;
        }
        let piece = &expected[start..i];
        match crate::judge::numbers::parse_number(piece) {
            Some(value) => {
                flush(&mut text, &mut out, false);
                let _ = write!(out, "(?P<{}>{NUMBER})", group(wanted.len()));
                wanted.push(Wanted {
                    segment,
                    tolerance: n,
                    token: piece,
                    value,
                });
            }
            None => text.extend_from_slice(piece),
        }
        start = i;
    }
    flush(&mut text, &mut out, true);
    out
}

/// What stdout judged by span gives: the spans as one anchored regular
/// expression, then each number a `numbers` span captured against its
/// tolerance.
pub fn judge_segments(segments: &[Segment<'_>], actual: &[u8]) -> Result<Segments, String> {
    let mut whole = String::from(r"\A");
    let last = segments.len().saturating_sub(1);
    let mut wanted: Vec<Wanted<'_>> = Vec::new();
    for (i, s) in segments.iter().enumerate() {
        whole.push_str("(?:");
        match s.tolerance {
            Tolerance::Numbers(n) => {
                whole.push_str(&numbers_pattern(i, n, s.expected, i == last, &mut wanted));
            }
            t => whole.push_str(&pattern(t, s.expected, i == last)?),
        }
        whole.push(')');
    }
    whole.push_str(r"\z");
    // A traceback where a span frees the program's words is refused as
    // a whole stream is (a regular expression cannot tell one).
    if segments
        .iter()
        .any(|s| refused_traceback(s.tolerance, s.expected, actual))
    {
        return Ok(Segments::Refused);
    }
    let re = build(&whole)?;
    // A missing final newline is ignored where the last part is loose.
    let loose_end = segments.last().is_some_and(|s| match s.tolerance {
        Tolerance::Loose { spacing, .. } => *spacing,
        Tolerance::Numbers(n) => n.spacing,
        Tolerance::Lines(_) | Tolerance::Regex(_) => true,
        _ => false,
    });
    let input = if loose_end {
        with_final_newline(actual)
    } else {
        actual.into()
    };
    let mut caps = re.create_captures();
    re.captures(input.as_ref(), &mut caps);
    if !caps.is_match() {
        return Ok(Segments::Refused);
    }
    for (k, w) in wanted.iter().enumerate() {
        let Some(at) = caps.get_group_by_name(&group(k)) else {
            continue;
        };
        let printed = input.get(at.range()).unwrap_or_default();
        let t = w.tolerance;
        let within = crate::judge::numbers::parse_number(printed).is_some_and(|got| {
            crate::judge::numbers::within_tolerance(w.value, got, t.absolute, t.relative)
        });
        if !within {
            let before = input.get(..at.start).unwrap_or_default();
            let refusal = Refusal::Number {
                line: before.split(|&b| b == b'\n').count(),
                expected: String::from_utf8_lossy(w.token).into_owned(),
                actual: crate::bytes::visible::escape(printed),
            };
            return Ok(Segments::OutOfTolerance(*t, refusal, w.segment));
        }
    }
    Ok(Segments::Accepted)
}

fn build(pattern: &str) -> Result<Regex, String> {
    Regex::builder()
        .syntax(
            syntax::Config::new()
                .unicode(false)
                .utf8(false)
                .multi_line(true),
        )
        .configure(Regex::config().nfa_size_limit(Some(256 << 20)))
        .build(pattern)
        .map_err(|e| format!("cannot build the comparison: {e}"))
}

/// One byte as a regular expression matching it alone.
fn escape(out: &mut String, b: u8) {
    if b.is_ascii_alphanumeric() || b == b'_' {
        out.push(char::from(b));
    } else {
        let _ = write!(out, r"\x{b:02X}");
    }
}

fn literal(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        escape(&mut out, b);
    }
    out
}

/// The regular expression a tolerance makes of `expected`; `last`: it ends
/// the stream (where a final newline is added before matching).
fn pattern(tolerance: &Tolerance, expected: &[u8], last: bool) -> Result<String, String> {
    Ok(match tolerance {
        Tolerance::Exact => literal(expected),
        Tolerance::Loose { spacing, case } => {
            let body = if *spacing {
                spaced(&if last {
                    with_final_newline(expected)
                } else {
                    expected.into()
                })
            } else {
                literal(expected)
            };
            if *case { format!("(?i:{body})") } else { body }
        }
        Tolerance::Nonempty | Tolerance::NonemptyOrTraceback if expected.is_empty() => {
            String::new()
        }
        // A message is text: blanks alone are no message where the model
        // printed some (a prompt's space must not pass for it).
        Tolerance::Nonempty | Tolerance::NonemptyOrTraceback if has_text(expected) => {
            r"[\x00-\xFF]*[^\x09\x0A\x0D\x20][\x00-\xFF]*".to_owned()
        }
        Tolerance::Nonempty | Tolerance::NonemptyOrTraceback => r"[\x00-\xFF]+".to_owned(),
        Tolerance::Any => r"[\x00-\xFF]*".to_owned(),
        Tolerance::Lines(lines) => lines_pattern(lines, expected, last, |l| {
            l.split(HOLE)
                .map(|part| literal(part.as_bytes()))
                .collect::<Vec<_>>()
                .join(r"[^\n]*")
        }),
        Tolerance::Regex(lines) => lines_pattern(lines, expected, last, |l| format!("(?:{l})")),
        Tolerance::Checker(c) => {
            return Err(format!(
                "checker `{c}` judges a whole stream: declare it on the case (or the suite), \
                 not on a rule whose spans are part of stdout"
            ));
        }
        // Reached only from `lines` or `regex`, never: a `numbers` span
        // is built by `numbers_pattern`.
        Tolerance::Numbers(_) => {
            return Err("a `numbers` tolerance cannot be a line pattern".to_owned());
        }
    })
}

/// Pattern lines joined: each followed by a newline (the last only when
/// the part ends with one, or ends the stream).
fn lines_pattern(
    lines: &[String],
    expected: &[u8],
    last: bool,
    one: impl Fn(&str) -> String,
) -> String {
    let mut out = String::new();
    let n = lines.len();
    for (i, l) in lines.iter().enumerate() {
        let newline = i + 1 < n || last || expected.ends_with(b"\n");
        if l == LINES_HOLE {
            out.push_str(r"(?:[^\n]*\n)*");
        } else {
            out.push_str(&one(l));
            if newline {
                out.push_str(r"\n");
            }
        }
    }
    out
}

/// `expected` as a pattern ignoring spacing: a run of spaces and tabs
/// matches any run, spaces before a newline any or none.
fn spaced(expected: &[u8]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < expected.len() {
        let b = expected[i];
        if b == b' ' || b == b'\t' {
            while i < expected.len() && matches!(expected[i], b' ' | b'\t') {
                i += 1;
            }
            // A part ending in blanks inside a line is a prompt: the line
            // the user types follows it, so its trailing blanks are those
            // of a line end, free (`Celsius:` and `Celsius:  ` pass for
            // `Celsius: `). Inside a line a run still needs a blank.
            let at_line_end = matches!(expected.get(i), Some(&b'\n') | None);
            out.push_str(if at_line_end { r"[ \t]*" } else { r"[ \t]+" });
            continue;
        }
        if b == b'\n' && !out.ends_with(r"[ \t]*") {
            out.push_str(r"[ \t]*");
        }
        escape(&mut out, b);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests;
