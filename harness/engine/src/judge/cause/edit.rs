//! The first edit between an expected and an actual byte stream: where it
//! starts, which lines were added, dropped or changed, and the shape of
//! the change ([`Departure`]).

use std::time::{Duration, Instant};

use similar::{Algorithm, DiffTag};

use super::signature::{Departure, Edit};
use super::text::{cut, exact, normalise, window};

/// Added or missing lines kept in a signature.
pub(super) const EDIT_LINES: usize = 2;

/// The edit at the first difference of two byte strings: a line diff of
/// what follows the first differing byte on each side (a bounded window),
/// whose first non-equal operation says whether lines were added, left out
/// or changed.
pub fn bytes_edit(expected: &[u8], actual: &[u8]) -> Edit {
    first_edit(expected, actual, true).edit
}

/// The shape of the first difference of two byte strings, for a cause
/// keyed by its place.
pub fn bytes_shape(expected: &[u8], actual: &[u8]) -> super::signature::Departure {
    first_edit(expected, actual, true).shape
}

/// The first edit between two byte strings, where it starts in `expected`
/// and its shape.
pub(super) struct FirstEdit {
    pub(super) edit: Edit,
    /// The first differing byte.
    pub(super) at: usize,
    pub(super) offset: usize,
    pub(super) shape: Departure,
}

/// `mask`: lines normalised for a key ([`normalise`]), else exact for a
/// quote.
pub(super) fn first_edit(expected: &[u8], actual: &[u8], mask: bool) -> FirstEdit {
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
pub(super) fn shape_of_change(expected: &[u8], actual: &[u8]) -> Departure {
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

/// A changed line; when only numbers differ, the numbers are the
/// difference and are kept.
pub(super) fn changed(expected: &[u8], actual: &[u8], mask: bool) -> Edit {
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
