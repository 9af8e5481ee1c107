//! Whether a stream's first difference is a line break the program put
//! inside a line (what `build` calls [`super::Departure::LineBreak`]),
//! told apart from a value that differs and ends its line early.

use crate::judge::provenance::Span;

/// Whether the first difference, at `at`, is a line break the program
/// put inside a line: the reference goes on writing that line with a new
/// span (what follows a prompt), and the program writes a newline there
/// and then that span's text. A newline anywhere else is a value that
/// differs (`32` then a newline where `32.0` was expected: the number is
/// wrong, not the line's end).
pub(super) fn line_break(expected: &[u8], actual: &[u8], at: usize, spans: &[Span]) -> bool {
    let spacing = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
    let mid_line = at > 0 && expected.get(at - 1).is_some_and(|&b| b != b'\n');
    let Some(skip) = actual
        .get(at..)
        .and_then(|a| a.iter().position(|b| !spacing(b)))
    else {
        return false;
    };
    if !mid_line || actual.get(at + skip) != Some(&b'\n') {
        return false;
    }
    // Where the reference's own text resumes past its spacing: a span
    // must start there, or the break splits something the reference
    // writes in one piece.
    let resumes = expected
        .get(at..)
        .and_then(|e| e.iter().position(|b| !spacing(b)))
        .map_or(expected.len(), |p| at + p);
    let starts_span =
        u64::try_from(resumes).is_ok_and(|r| spans.iter().any(|s| s.start == r && s.end > r));
    // ... and what the program writes after its newline is the rest of
    // the reference's line.
    let rest = crate::bytes::visible::rest_of_line(expected, resumes).trim_ascii();
    let next = actual.get(at + skip + 1..).unwrap_or_default();
    let next = next
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t'))
        .map_or(&[][..], |p| &next[p..]);
    starts_span && !rest.is_empty() && next.starts_with(rest)
}
