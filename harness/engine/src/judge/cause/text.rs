//! The text helpers a cause is built with: lines normalised for a key
//! (escaped, digits as `#`, cut short), quoted exactly, the window after a
//! difference, an ending in words, and the small byte tests (a line that
//! echoes the input, the last line, a stream past one line).

use crate::exec::run::{Ending, Stream};
use crate::judge::compare::Mismatch;

/// Characters of a normalised line kept in a signature.
pub(super) const LINE_CHARS: usize = 60;

/// Lines of each side, after the first difference, looked at to tell an
/// added line from a changed one.
pub(super) const WINDOW_LINES: usize = 48;

/// Bytes of each side, after the first difference, looked at.
pub(super) const WINDOW_BYTES: usize = 16 * 1024;

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

/// A line as a quote shows it: escaped, cut, its numbers kept.
pub(super) fn exact(line: &[u8]) -> String {
    cut(crate::bytes::visible::escape(line))
}

/// `actual` with its first differing line replaced by the expected one,
/// when the difference is confined to that line: both sides have the line
/// and the line after it is the same on both.
pub(super) fn past_one_line(expected: &[u8], actual: &[u8]) -> Option<Vec<u8>> {
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
pub(super) fn echoes(actual: &[u8], at: usize, answered: Option<&[u8]>) -> bool {
    let rest = actual.get(at..).unwrap_or_default();
    answered.is_some_and(|a| {
        rest.strip_prefix(a)
            .is_some_and(|r| r.first() == Some(&b'\n'))
    })
}

/// The last line of `text`, with its newline.
pub(super) fn last_line(text: &[u8]) -> &[u8] {
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    let start = body.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    &text[start..]
}

pub(super) fn cut(mut text: String) -> String {
    if text.chars().count() > LINE_CHARS {
        text = text.chars().take(LINE_CHARS).collect();
        text.push('…');
    }
    text
}

pub(super) fn window(bytes: &[u8]) -> Vec<&[u8]> {
    let cut = &bytes[..bytes.len().min(WINDOW_BYTES)];
    cut.split_inclusive(|&b| b == b'\n')
        .take(WINDOW_LINES)
        .collect()
}

/// Whether a normalised ending is a crash (a signal), a hang or a flood.
pub(super) fn is_grave(ending: &str) -> bool {
    ending.starts_with("killed by signal")
        || ending == "timed out"
        || ending.ends_with("past the cap")
}

/// The expected and actual stdout, when stdout differs.
pub(super) fn stdout_of(mismatches: &[Mismatch]) -> Option<(&Vec<u8>, &Vec<u8>)> {
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
