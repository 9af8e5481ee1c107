//! Numbers compared by value (`match: {stdout: {numbers: …}}`,
//! docs/matching.md "Numbers"): the numeric token parser, the one
//! comparison of two values under absolute and relative tolerances
//! ([`within_tolerance`], Kattis's default validator's
//! `float_absolute_tolerance` / `float_relative_tolerance`), and a text
//! judged token by token with it, its first refusal said with both
//! values and the tolerance.

use crate::model::matching::NumberTolerance;

/// Whether `actual` matches `expected` within `absolute` or within
/// `relative` (a fraction of `|expected|`): Kattis's default validator's
/// rule, `|e - a| <= absolute || |e - a| <= relative * |e|`. A NaN on
/// either side never matches. The one function every caller of a float
/// tolerance uses (problem packages' default validator too).
pub fn within_tolerance(expected: f64, actual: f64, absolute: f64, relative: f64) -> bool {
    let diff = (expected - actual).abs();
    diff <= absolute || diff <= relative * expected.abs()
}

/// A token's value when it is a decimal number as a program prints one:
/// an optional sign, digits with at most one `.` (a digit on some side
/// of it), an optional exponent (`e` or `E`, a sign, digits). Never
/// `inf`, `nan` or hexadecimal: those are words.
pub fn parse_number(token: &[u8]) -> Option<f64> {
    let mut i = 0;
    if matches!(token.first(), Some(b'+' | b'-')) {
        i = 1;
    }
    let digits = |from: usize| {
        token[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let whole = digits(i);
    i += whole;
    let mut fraction = 0;
    if token.get(i) == Some(&b'.') {
        i += 1;
        fraction = digits(i);
        i += fraction;
    }
    if whole + fraction == 0 {
        return None;
    }
    if matches!(token.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(token.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exponent = digits(i);
        if exponent == 0 {
            return None;
        }
        i += exponent;
    }
    if i != token.len() {
        return None;
    }
    std::str::from_utf8(token).ok()?.parse().ok()
}

/// Where a text departs under a numbers tolerance.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// A number out of tolerance (or a word where a number was expected).
    Number {
        /// The line, from 1.
        line: usize,
        /// The expected token.
        expected: String,
        /// The token printed.
        actual: String,
    },
    /// The text around the numbers differs (or the number of tokens).
    Text {
        /// The line, from 1.
        line: usize,
    },
}

impl Refusal {
    /// The sentence a cause's label says: both values and the tolerance.
    pub fn say(&self, tolerance: &NumberTolerance) -> String {
        match self {
            Self::Number {
                line,
                expected,
                actual,
            } => format!(
                "line {line}: {actual} printed where {expected} was expected, not within \
                 {}",
                tolerance.describe()
            ),
            Self::Text { line } => format!("line {line}: the text around the numbers differs"),
        }
    }

    /// The same without its values: what the cause's key keeps.
    pub fn key(&self) -> &'static str {
        match self {
            Self::Number { .. } => "a number out of tolerance",
            Self::Text { .. } => "the text around the numbers differs",
        }
    }
}

/// Runs of blanks and runs of the rest, in order; under `spacing` the
/// blanks ending the text go (a missing final newline is no departure).
fn pieces(bytes: &[u8], spacing: bool) -> Vec<&[u8]> {
    let blank = |b: &u8| b.is_ascii_whitespace();
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=bytes.len() {
        if i == bytes.len() || blank(&bytes[i]) != blank(&bytes[start]) {
            out.push(&bytes[start..i]);
            start = i;
        }
    }
    if spacing && out.last().is_some_and(|p| p.iter().all(blank)) {
        out.pop();
    }
    out
}

/// Newlines in a piece.
#[expect(
    clippy::naive_bytecount,
    reason = "a piece is one run of blanks: a few bytes"
)]
fn newlines(piece: &[u8]) -> usize {
    piece.iter().filter(|&&b| b == b'\n').count()
}

/// Whether two pieces that are not numbers are the same text: under
/// `spacing`, blanks with as many line breaks are (runs of spaces and
/// tabs, and those ending a line, compare equal); under `case`, ASCII
/// letters compare ignoring case.
fn same_text(tolerance: &NumberTolerance, x: &[u8], y: &[u8]) -> bool {
    let blank = |p: &[u8]| p.iter().all(u8::is_ascii_whitespace);
    if tolerance.spacing && blank(x) && blank(y) {
        return newlines(x) == newlines(y);
    }
    x == y || tolerance.case && x.eq_ignore_ascii_case(y)
}

/// The first place `actual` departs from `expected` under `tolerance`
/// (`None`: it passes). Tokens are runs of non-blanks: one the expected
/// side holds as a number ([`parse_number`]) matches a number within the
/// tolerance; every other piece compares under the text tolerance.
pub fn first_refusal(
    tolerance: &NumberTolerance,
    expected: &[u8],
    actual: &[u8],
) -> Option<Refusal> {
    let e = pieces(expected, tolerance.spacing);
    let a = pieces(actual, tolerance.spacing);
    let mut line = 1;
    for i in 0..e.len().max(a.len()) {
        let (Some(x), Some(y)) = (e.get(i), a.get(i)) else {
            return Some(Refusal::Text { line });
        };
        if let Some(want) = parse_number(x) {
            let within = parse_number(y).is_some_and(|got| {
                within_tolerance(want, got, tolerance.absolute, tolerance.relative)
            });
            if !within {
                return Some(Refusal::Number {
                    line,
                    expected: String::from_utf8_lossy(x).into_owned(),
                    actual: crate::bytes::visible::escape(y),
                });
            }
        } else if !same_text(tolerance, x, y) {
            return Some(Refusal::Text { line });
        }
        line += newlines(x);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn tol(absolute: f64, relative: f64) -> NumberTolerance {
        NumberTolerance {
            absolute,
            relative,
            spacing: false,
            case: false,
        }
    }

    #[test]
    fn a_third_passes_at_a_millionth_and_a_rough_one_is_refused_naming_both() {
        let t = tol(1e-6, 0.0);
        assert_eq!(
            first_refusal(
                &t,
                b"Average: 0.333333333\n",
                b"Average: 0.3333333333333333\n"
            ),
            None
        );
        let refused = first_refusal(&t, b"Average: 0.333333333\n", b"Average: 0.33\n");
        let said = refused.expect("refused").say(&t);
        assert_eq!(
            said,
            "line 1: 0.33 printed where 0.333333333 was expected, not within absolute 1e-6"
        );
    }

    #[test]
    fn within_either_tolerance_passes_as_kattis_judges() {
        assert!(within_tolerance(100.0, 100.5, 0.0, 0.01), "relative");
        assert!(within_tolerance(100.0, 100.5, 1.0, 0.0), "absolute");
        assert!(!within_tolerance(100.0, 102.0, 1.0, 0.01), "neither");
        assert!(within_tolerance(1.0, 1.0, 0.0, 0.0), "equal");
        assert!(!within_tolerance(f64::NAN, 1.0, 1.0, 1.0));
        assert!(!within_tolerance(1.0, f64::NAN, 1.0, 1.0));
    }

    #[test]
    fn the_rest_of_the_text_compares_under_its_own_tolerance() {
        let exact = tol(0.1, 0.0);
        assert_eq!(
            first_refusal(&exact, b"x 1\n", b"x  1.05\n"),
            Some(Refusal::Text { line: 1 })
        );
        assert_eq!(
            first_refusal(&exact, b"x 1\n", b"X 1\n"),
            Some(Refusal::Text { line: 1 })
        );
        let loose = NumberTolerance {
            spacing: true,
            case: true,
            ..exact
        };
        assert_eq!(first_refusal(&loose, b"x 1\n", b"X  1.05"), None);
        assert_eq!(first_refusal(&loose, b"x 1 \ny\n", b"x\t1\ny"), None);
        assert_eq!(
            first_refusal(&loose, b"x 1\ny\n", b"x 1 y\n"),
            Some(Refusal::Text { line: 1 }),
            "a line break is no space"
        );
        assert_eq!(
            first_refusal(&exact, b"a\nb 2\n", b"a\nb word\n"),
            Some(Refusal::Number {
                line: 2,
                expected: "2".to_owned(),
                actual: "word".to_owned()
            })
        );
        assert_eq!(
            first_refusal(&exact, b"1 2\n", b"1\n"),
            Some(Refusal::Text { line: 1 })
        );
    }

    #[test]
    fn words_are_not_numbers() {
        for word in [
            "", "-", ".", "1e", "e5", "inf", "nan", "0x10", "1.2.3", "1,5", "+-1",
        ] {
            assert_eq!(parse_number(word.as_bytes()), None, "{word}");
        }
        assert_eq!(parse_number(b"-.5e+2"), Some(-50.0));
        assert_eq!(parse_number(b"7."), Some(7.0));
    }

    proptest! {
        #[test]
        fn a_printed_number_parses_to_its_value(x in proptest::num::f64::NORMAL | proptest::num::f64::ZERO) {
            for text in [format!("{x}"), format!("{x:e}"), format!("{x:.3}")] {
                let back = parse_number(text.as_bytes());
                prop_assert!(back.is_some(), "{text}");
                prop_assert_eq!(back, text.parse::<f64>().ok());
            }
        }

        #[test]
        fn a_token_parses_only_as_rust_reads_it(token in "[-+0-9.eExna]{0,8}") {
            if let Some(v) = parse_number(token.as_bytes()) {
                prop_assert_eq!(Some(v), token.parse::<f64>().ok());
            }
        }
    }
}
