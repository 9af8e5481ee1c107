//! Numeric tokens compared by value: a whole token read as a finite
//! number the way C's `strtod` reads one (decimal or hexadecimal, a sign,
//! an exponent; `inf` and `nan` are not numbers here), and two numbers
//! agreeing within an absolute or a relative tolerance. A problem
//! package's default output validator judges floats with these
//! ([`crate::packs::problem::validator`]). The comparison itself is
//! [`crate::judge::numbers::within_tolerance`], shared with `match:`'s
//! `numbers`; the parsers differ on purpose: a package's validator reads
//! a token as C does (hexadecimal included), `match:` reads decimals as
//! programs print them.

/// A tolerance on numbers: either bound admits a value (problemtools'
/// default validator: `|e - a| <= abs` or `|e - a| <= rel * |e|`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tolerance {
    /// The absolute tolerance, if set.
    pub absolute: Option<f64>,
    /// The relative tolerance, if set.
    pub relative: Option<f64>,
}

impl Tolerance {
    /// Whether any bound is set (numbers are compared by value at all).
    pub fn is_set(&self) -> bool {
        self.absolute.is_some() || self.relative.is_some()
    }

    /// Whether `actual` is within the tolerance of `expected`.
    pub fn admits(&self, expected: f64, actual: f64) -> bool {
        // The one float comparison of the engine; a bound left unset is
        // NaN there, which admits nothing.
        crate::judge::numbers::within_tolerance(
            expected,
            actual,
            self.absolute.unwrap_or(f64::NAN),
            self.relative.unwrap_or(f64::NAN),
        )
    }

    /// The tolerance in words: `absolute 1e-6, relative 1e-6`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(a) = self.absolute {
            parts.push(format!("absolute {a:e}"));
        }
        if let Some(r) = self.relative {
            parts.push(format!("relative {r:e}"));
        }
        if parts.is_empty() {
            "none".to_owned()
        } else {
            parts.join(", ")
        }
    }
}

/// The whole of `token` as a finite number, as C's `sscanf("%lf")`
/// followed by nothing reads it: `12`, `-0.5`, `.5`, `5.`, `1e-3`,
/// `+2E+2`, `0x1.8p1`; `None` for anything else (`1e`, `0x`, `1,5`,
/// `inf`, `nan`, a number too large for a double).
pub fn parse_number(token: &str) -> Option<f64> {
    let (negative, body) = match token.as_bytes().first() {
        Some(b'-') => (true, &token[1..]),
        Some(b'+') => (false, &token[1..]),
        _ => (false, token),
    };
    let value = if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        parse_hex(hex)?
    } else {
        parse_decimal(body)?
    };
    let value = if negative { -value } else { value };
    value.is_finite().then_some(value)
}

/// `digits [. digits] [e sign digits]` with digits on at least one side
/// of the point.
fn parse_decimal(body: &str) -> Option<f64> {
    let bytes = body.as_bytes();
    let digits = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let whole = digits(0);
    let mut at = whole;
    let mut fraction = "";
    if bytes.get(at) == Some(&b'.') {
        let n = digits(at + 1);
        fraction = &body[at + 1..at + 1 + n];
        at += 1 + n;
    }
    if whole + fraction.len() == 0 {
        return None;
    }
    let mantissa_end = at;
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        let mut e = at + 1;
        if matches!(bytes.get(e), Some(b'+' | b'-')) {
            e += 1;
        }
        let exp = digits(e);
        if exp == 0 {
            return None;
        }
        at = e + exp;
    }
    if at != bytes.len() {
        return None;
    }
    // Rust's parser is given digits on both sides of the point.
    let or_zero = |s: &'_ str| {
        if s.is_empty() {
            "0".to_owned()
        } else {
            s.to_owned()
        }
    };
    format!(
        "{}.{}{}",
        or_zero(&body[..whole]),
        or_zero(fraction),
        &body[mantissa_end..]
    )
    .parse()
    .ok()
}

/// `hexdigits [. hexdigits] [p sign digits]` after `0x`.
fn parse_hex(body: &str) -> Option<f64> {
    let (mantissa, exponent) = match body.find(['p', 'P']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.len() + fraction.len() == 0
        || !whole
            .bytes()
            .chain(fraction.bytes())
            .all(|b| b.is_ascii_hexdigit())
    {
        return None;
    }
    let mut value = 0f64;
    for b in whole.bytes().chain(fraction.bytes()) {
        value = value * 16.0 + f64::from(char::from(b).to_digit(16)?);
    }
    let mut exp: i32 = 0;
    if let Some(e) = exponent {
        let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        // Past any double's range either way: saturate.
        exp = e.parse::<i32>().unwrap_or(if e.starts_with('-') {
            -100_000
        } else {
            100_000
        });
    }
    let shift = i32::try_from(fraction.len()).ok()?.checked_mul(4)?;
    Some(value * 2f64.powi(exp.saturating_sub(shift)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn numbers_are_read_as_strtod_reads_a_whole_token() {
        for (token, value) in [
            ("12", 12.0),
            ("-0.5", -0.5),
            (".5", 0.5),
            ("5.", 5.0),
            ("1e-3", 1e-3),
            ("+2E+2", 200.0),
            ("0x1.8p1", 3.0),
            ("0X10", 16.0),
            ("-0x.8", -0.5),
            ("007", 7.0),
        ] {
            assert_eq!(parse_number(token), Some(value), "{token}");
        }
        for token in [
            "",
            "-",
            ".",
            "1e",
            "1e+",
            "0x",
            "0xg",
            "1,5",
            "inf",
            "-infinity",
            "nan",
            "1e999",
            "1.2.3",
            "12a",
            " 1",
            "0x1p",
        ] {
            assert_eq!(parse_number(token), None, "{token}");
        }
    }

    #[test]
    fn a_tolerance_admits_by_either_bound() {
        let abs = Tolerance {
            absolute: Some(1e-6),
            relative: None,
        };
        assert!(abs.admits(0.333_333_333, 0.333_333_333_333_333_3));
        assert!(!abs.admits(0.333_333_333, 0.33));
        let rel = Tolerance {
            absolute: None,
            relative: Some(1e-3),
        };
        assert!(rel.admits(1000.0, 1000.9));
        assert!(!rel.admits(1000.0, 1001.1));
        assert!(!Tolerance::default().admits(1.0, 1.0));
        assert_eq!(abs.describe(), "absolute 1e-6");
    }

    proptest! {
        #[test]
        fn a_printed_double_reads_back(x in proptest::num::f64::NORMAL | proptest::num::f64::ZERO) {
            prop_assert_eq!(parse_number(&format!("{x}")), Some(x));
            prop_assert_eq!(parse_number(&format!("{x:e}")), Some(x));
        }

        #[test]
        fn any_token_parses_without_panicking(s in "[-+0-9a-fA-FxXpP.eE]{0,12}") {
            if let Some(v) = parse_number(&s) {
                prop_assert!(v.is_finite());
            }
        }

        #[test]
        fn fixed_decimals_read_as_rust_reads_them(i in 0u32..100_000, f in 0u32..1000) {
            let text = format!("{i}.{f:03}");
            prop_assert_eq!(parse_number(&text), text.parse::<f64>().ok());
        }
    }
}
