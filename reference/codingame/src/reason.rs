//! END-3's reason codes: why a seat forfeits. Below every module that
//! judges an answer (`answer`, `moves`), records it (`record`) or runs the
//! rules (`judge`), so that each names it without importing the others.

use serde::{Deserialize, Serialize};

/// END-3's reason codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// The line does not match ANSWER-3.
    Syntax,
    /// The line is longer than ANSWER-5 allows.
    TooLong,
    /// The box is not on the board.
    NoSuchBox,
    /// The side is already drawn.
    SideTaken,
    /// The answer is not on time (TIME-4).
    Timeout,
    /// The output ended before the answer line was complete.
    Eof,
}

impl Reason {
    /// Every reason, in the order of END-3.
    pub const ALL: [Reason; 6] = [
        Reason::Syntax,
        Reason::TooLong,
        Reason::NoSuchBox,
        Reason::SideTaken,
        Reason::Timeout,
        Reason::Eof,
    ];

    /// The reason code as written in records.
    pub fn code(self) -> &'static str {
        match self {
            Reason::Syntax => "syntax",
            Reason::TooLong => "too-long",
            Reason::NoSuchBox => "no-such-box",
            Reason::SideTaken => "side-taken",
            Reason::Timeout => "timeout",
            Reason::Eof => "eof",
        }
    }

    /// Whether only a live match can show this reason (REC-2).
    pub fn is_live_only(self) -> bool {
        matches!(self, Reason::Timeout | Reason::Eof)
    }
}
