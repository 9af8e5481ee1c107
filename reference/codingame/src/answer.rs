//! The grammar of an answer line (ANSWER-2 … ANSWER-5): the CR removal, the
//! byte-exact pattern `^[A-Z][0-9] [LTRB]( MSG( .*)?)?$`, and the length cap.
//! A line that fails is a typed error that maps to END-3's reason code.

use crate::board::Side;
use crate::reason::Reason;

/// The longest accepted line, in bytes after ANSWER-2 (ANSWER-5).
pub const MAX_LINE: usize = 10_240;

/// A syntactically valid answer (ANSWER-3); the box may not exist yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answer<'a> {
    /// The column letter, `A`..=`Z`.
    pub column: u8,
    /// The row digit, `0`..=`9`.
    pub row: u8,
    /// The side named.
    pub side: Side,
    /// The message after `MSG`, if the keyword is present (ANSWER-6).
    pub message: Option<&'a [u8]>,
}

/// Why a line is not an answer (ANSWER-4, ANSWER-5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// The line does not match ANSWER-3.
    #[error("the line does not match `[A-Z][0-9] [LTRB]( MSG( .*)?)?`")]
    Syntax,
    /// The line is longer than [`MAX_LINE`] bytes.
    #[error("the line is longer than 10240 bytes")]
    TooLong,
}

impl AnswerError {
    /// END-3's reason code for this error.
    pub fn reason(self) -> Reason {
        match self {
            AnswerError::Syntax => Reason::Syntax,
            AnswerError::TooLong => Reason::TooLong,
        }
    }
}

impl From<AnswerError> for Reason {
    fn from(e: AnswerError) -> Self {
        e.reason()
    }
}

/// Removes one `\r` just before the (already removed) `\n` (ANSWER-2).
pub fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Parses a line already stripped of its `\n` and of ANSWER-2's `\r`.
pub fn parse(line: &[u8]) -> Result<Answer<'_>, AnswerError> {
    if line.len() > MAX_LINE {
        return Err(AnswerError::TooLong);
    }
    let [column, row, b' ', side, rest @ ..] = line else {
        return Err(AnswerError::Syntax);
    };
    if !column.is_ascii_uppercase() || !row.is_ascii_digit() {
        return Err(AnswerError::Syntax);
    }
    let side = Side::from_letter(*side).ok_or(AnswerError::Syntax)?;
    let message = match rest {
        [] => None,
        [b' ', b'M', b'S', b'G'] => Some(&[][..]),
        [b' ', b'M', b'S', b'G', b' ', msg @ ..] => Some(msg),
        _ => return Err(AnswerError::Syntax),
    };
    Ok(Answer {
        column: *column,
        row: *row,
        side,
        message,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn answer_3_valid_examples() {
        for line in [
            &b"A1 R"[..],
            b"B2 T MSG hello",
            b"A1 T MSG",
            b"A1 T MSG ",
            b"Z0 B",
        ] {
            assert!(parse(line).is_ok(), "{line:?}");
        }
        assert_eq!(
            parse(b"B2 T MSG hello").unwrap().message,
            Some(&b"hello"[..])
        );
        assert_eq!(parse(b"A1 T MSG ").unwrap().message, Some(&b""[..]));
        assert_eq!(parse(b"A1 T").unwrap().message, None);
        assert_eq!(
            parse(b"A1 T MSG \0x\r").unwrap().message,
            Some(&b"\0x\r"[..])
        );
    }

    #[test]
    fn answer_2_one_cr_removed() {
        assert_eq!(strip_cr(b"A1 T\r"), b"A1 T");
        assert_eq!(strip_cr(b"A1 T\r\r"), b"A1 T\r");
        assert_eq!(parse(strip_cr(b"A1 T\r\r")), Err(AnswerError::Syntax));
    }

    #[test]
    fn answer_4_invalid_examples() {
        for line in [
            &b"a1 t"[..],
            b"A1 T ",
            b" A1 T",
            b"A1  T",
            b"A1\tT",
            b"A1T",
            b"A01 T",
            b"A1 X",
            b"A1 T hi",
            b"A1 T MSGhi",
            b"",
            b"A1\0T",
            b"A\x001 T",
        ] {
            assert_eq!(parse(line), Err(AnswerError::Syntax), "{line:?}");
        }
    }

    #[test]
    fn answer_5_length_cap() {
        let mut line = b"A1 T MSG ".to_vec();
        line.resize(MAX_LINE, b'x');
        assert!(parse(&line).is_ok());
        line.push(b'x');
        assert_eq!(parse(&line), Err(AnswerError::TooLong));
        assert_eq!(parse(&vec![b'?'; MAX_LINE + 1]), Err(AnswerError::TooLong));
    }

    proptest! {
        #[test]
        fn valid_lines_parse_back(col in b'A'..=b'Z', row in b'0'..=b'9',
                                  side in 0usize..4,
                                  msg in proptest::option::of(proptest::collection::vec(any::<u8>().prop_filter("no LF", |b| *b != b'\n'), 0..40))) {
            let side = Side::ALL[side];
            let mut line = vec![col, row, b' ', side.letter()];
            if let Some(m) = &msg {
                line.extend_from_slice(b" MSG ");
                line.extend_from_slice(m);
            }
            let a = parse(&line).unwrap();
            prop_assert_eq!((a.column, a.row, a.side), (col, row, side));
            prop_assert_eq!(a.message, msg.as_deref());
        }

        #[test]
        fn parse_never_panics_and_accepts_only_the_pattern(line in proptest::collection::vec(any::<u8>(), 0..24)) {
            if let Ok(a) = parse(&line) {
                prop_assert!(line.len() >= 4);
                prop_assert!(a.column.is_ascii_uppercase() && a.row.is_ascii_digit());
                prop_assert_eq!(line[2], b' ');
                prop_assert!(line.len() == 4 || line[4..].starts_with(b" MSG"));
                prop_assert!(line.len() <= 8 || line[8] == b' ');
            }
        }
    }
}
