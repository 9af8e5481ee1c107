//! The size line of the pre-game (PRE-2): surrounding whitespace bytes
//! removed, an optional sign, one or more decimal digits, a value 2 to 8.

use crate::why::Why;

/// The smallest grid size.
pub const MIN: u8 = 2;
/// The largest grid size.
pub const MAX: u8 = 8;

/// The size a line asks for, or `None` when the line is rejected.
pub fn parse(line: &[u8]) -> Option<u8> {
    judge(line).ok()
}

/// The size a line asks for, or why it is rejected.
pub fn judge(line: &[u8]) -> Result<u8, Why> {
    let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c);
    let start = line
        .iter()
        .position(|b| !blank(b))
        .ok_or(Why::SizeNotANumber)?;
    let end = line
        .iter()
        .rposition(|b| !blank(b))
        .map_or(start, |e| e + 1);
    let text = &line[start..end];
    let (negative, digits) = match text.split_first() {
        Some((b'+', rest)) => (false, rest),
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(Why::SizeNotANumber);
    }
    // Never wrapped: a value that does not fit is simply too large.
    let value = digits
        .iter()
        .try_fold(0u32, |v, &d| {
            v.checked_mul(10)?.checked_add(u32::from(d - b'0'))
        })
        .ok_or(Why::SizeRange)?;
    if negative && value != 0 {
        return Err(Why::SizeRange);
    }
    u8::try_from(value)
        .ok()
        .filter(|v| (MIN..=MAX).contains(v))
        .ok_or(Why::SizeRange)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn each_rejected_size_names_its_check() {
        assert_eq!(judge(b"9"), Err(Why::SizeRange));
        assert_eq!(judge(b"99999999999"), Err(Why::SizeRange));
        assert_eq!(judge(b"5x"), Err(Why::SizeNotANumber));
        assert_eq!(judge(b"   "), Err(Why::SizeNotANumber));
        assert_eq!(judge(b" 3 "), Ok(3));
    }

    #[test]
    fn pre_2_examples() {
        for (line, size) in [
            (&b"5"[..], Some(5)),
            (b" 5 ", Some(5)),
            (b"05", Some(5)),
            (b"+5", Some(5)),
            (b"5\r", Some(5)),
            (b"\t8\x0b", Some(8)),
            (b"2", Some(2)),
            (b"9", None),
            (b"1", None),
            (b"-3", None),
            (b"-0", None),
            (b"", None),
            (b"   ", None),
            (b"5x", None),
            (b"2.5", None),
            (b"3 4", None),
            (b"3 a1 a2", None),
            (b"+", None),
            (b"99999999999999999999999", None),
            (b"00000000000000000000003", Some(3)),
        ] {
            assert_eq!(parse(line), size, "{:?}", String::from_utf8_lossy(line));
        }
    }

    proptest! {
        #[test]
        fn never_panics_and_only_2_to_8(line in proptest::collection::vec(any::<u8>(), 0..40)) {
            if let Some(n) = parse(&line) {
                prop_assert!((MIN..=MAX).contains(&n));
            }
        }
    }
}
