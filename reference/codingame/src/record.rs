//! The match record (REC-1, REC-2) as JSON: `size`, `winner`, `score`,
//! `forfeit` and `moves`. Lines are bytes; the record holds them as JSON
//! strings, with any byte that is not UTF-8 replaced by U+FFFD (a message is
//! free bytes, and the record exists to compare outcomes, not to carry them).

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::board::Seat;
use crate::reason::Reason;

/// The boxes each seat owns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// Boxes of seat A.
    #[serde(rename = "A")]
    pub a: u32,
    /// Boxes of seat B.
    #[serde(rename = "B")]
    pub b: u32,
}

/// A forfeit (END-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForfeitRecord {
    /// The seat that forfeited.
    pub seat: Seat,
    /// Why.
    pub reason: Reason,
    /// The request, counted over the match from 1.
    pub request: u32,
}

/// One request's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The seat asked.
    pub seat: Seat,
    /// The line as accepted (after ANSWER-2), or what was received.
    pub line: String,
    /// How long the bot took to answer, in microseconds (from the
    /// request's write to the answer line); absent in records made without
    /// a live bot (duels, old records).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub us: Option<u64>,
    /// At a forfeit, true when nothing at all was received: told apart
    /// from an empty answer line, which `line` alone cannot.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub nothing: bool,
}

impl MoveRecord {
    /// A move from the raw bytes of a line.
    pub fn new(seat: Seat, line: &[u8]) -> MoveRecord {
        MoveRecord {
            seat,
            line: String::from_utf8_lossy(line).into_owned(),
            us: None,
            nothing: false,
        }
    }
}

/// The record of one match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The board size.
    pub size: u8,
    /// The winning seat, `null` for a draw.
    pub winner: Option<Seat>,
    /// The boxes owned at the end (at the forfeit, for a forfeit).
    pub score: Score,
    /// The forfeit, if any.
    pub forfeit: Option<ForfeitRecord>,
    /// Every request's answer, in order.
    pub moves: Vec<MoveRecord>,
    /// END-6's ranking scores (boxes owned, -1 for a forfeiting seat),
    /// derived from `score` and `forfeit`; absent in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ranking: Option<Ranking>,
}

/// END-6's ranking scores of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ranking {
    /// Seat A's.
    #[serde(rename = "A")]
    pub a: i64,
    /// Seat B's.
    #[serde(rename = "B")]
    pub b: i64,
}

impl Record {
    /// The record as one line of JSON.
    pub fn to_json(&self) -> String {
        // A record holds only strings, numbers and enums: serialising it
        // cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// END-6's ranking scores, A then B: the boxes owned, and -1 for a
    /// seat that forfeited.
    pub fn ranking_scores(&self) -> (i64, i64) {
        let of = |seat: Seat, boxes: u32| match self.forfeit {
            Some(f) if f.seat == seat => -1,
            _ => i64::from(boxes),
        };
        (of(Seat::A, self.score.a), of(Seat::B, self.score.b))
    }

    /// The outcome in one line for people: the winner (or a draw), the
    /// score, the size, and a forfeit's seat, reason and request.
    pub fn summary(&self) -> String {
        let who = match self.winner {
            Some(seat) => format!("seat {seat} wins"),
            None => "a draw".to_owned(),
        };
        let mut line = format!(
            "{who}, {}-{} on {}x{}",
            self.score.a, self.score.b, self.size, self.size
        );
        if let Some(f) = &self.forfeit {
            let _ = write!(
                line,
                "; seat {} forfeits at request {} ({})",
                f.seat,
                f.request,
                f.reason.code()
            );
        }
        line
    }

    /// A record read back from JSON.
    pub fn from_json(text: &str) -> Result<Record, serde_json::Error> {
        serde_json::from_str(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rec_1_json_shape() {
        let r = Record {
            size: 2,
            winner: None,
            score: Score { a: 2, b: 2 },
            forfeit: Some(ForfeitRecord {
                seat: Seat::B,
                reason: Reason::NoSuchBox,
                request: 3,
            }),
            moves: vec![MoveRecord::new(Seat::A, b"A1 R")],
            ranking: None,
        };
        let j = r.to_json();
        assert_eq!(
            j,
            r#"{"size":2,"winner":null,"score":{"A":2,"B":2},"forfeit":{"seat":"B","reason":"no-such-box","request":3},"moves":[{"seat":"A","line":"A1 R"}]}"#
        );
        assert_eq!(Record::from_json(&j).unwrap(), r);
        // END-6: the forfeiting seat ranks with -1.
        assert_eq!(r.ranking_scores(), (2, -1));
    }
}
