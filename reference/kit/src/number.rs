//! Numbers as the references' C programs read them, where their rulings
//! agree: an argument split as `strtol` splits it (leading C whitespace, an
//! optional sign, the rest), and decimal digits accumulated one at a time,
//! saturating, so that a number too large for any grid stays out of range
//! rather than wrapping into it. What a number may then be (its range, a
//! leading zero) is each program's own ruling.

/// A numeric argument as `strtol` splits it: leading C whitespace, an
/// optional sign, and the rest, which must be all decimal digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberParts<'a> {
    /// Whether C whitespace came before the sign or digits.
    pub leading_space: bool,
    /// The sign byte, `+` or `-`, when there is one.
    pub sign: Option<u8>,
    /// Everything after the sign.
    pub digits: &'a [u8],
}

impl NumberParts<'_> {
    /// Whether the part after the sign is one or more decimal digits, so
    /// `strtol` consumes the whole argument.
    pub fn is_whole_number(&self) -> bool {
        !self.digits.is_empty() && self.digits.iter().all(u8::is_ascii_digit)
    }
}

/// Splits `s` as `strtol` reads it.
pub fn number_parts(s: &[u8]) -> NumberParts<'_> {
    let start = s.iter().position(|b| !is_c_space(*b)).unwrap_or(s.len());
    let rest = &s[start..];
    let (sign, digits) = match rest.split_first() {
        Some((&b, tail)) if b == b'-' || b == b'+' => (Some(b), tail),
        _ => (None, rest),
    };
    NumberParts {
        leading_space: start > 0,
        sign,
        digits,
    }
}

/// C's `isspace` in the "C" locale.
pub const fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// `value` with the decimal digit `digit` (`b'0'..=b'9'`) appended,
/// saturating at `u64::MAX`.
#[inline]
pub fn push_digit(value: u64, digit: u8) -> u64 {
    value
        .saturating_mul(10)
        .saturating_add(u64::from(digit.wrapping_sub(b'0')))
}

/// The value of a run of decimal digits, saturating at `u64::MAX`.
#[inline]
pub fn saturating_decimal(digits: &[u8]) -> u64 {
    digits.iter().fold(0, |value, &d| push_digit(value, d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_as_strtol_splits_them() {
        let parts = number_parts(b" \t-12");
        assert_eq!((parts.leading_space, parts.sign), (true, Some(b'-')));
        assert_eq!(parts.digits, b"12");
        assert!(parts.is_whole_number());
        assert!(!number_parts(b"+").is_whole_number());
        assert!(!number_parts(b"3 ").is_whole_number());
        assert!(!number_parts(b"0x10").is_whole_number());
    }

    #[test]
    fn digits_saturate_rather_than_wrap() {
        assert_eq!(saturating_decimal(b"0042"), 42);
        assert_eq!(saturating_decimal(b""), 0);
        assert_eq!(saturating_decimal(b"18446744073709551615"), u64::MAX);
        assert_eq!(saturating_decimal(b"99999999999999999999999"), u64::MAX);
    }
}
