//! Re-judging a record without the bots (REC-2): the accepted lines are
//! played again by the rules and the outcome must come out the same; a
//! `timeout` or `eof` forfeit is taken as recorded, at the request where the
//! rules say that seat was asked.

use crate::judge::Judge;
use crate::record::Record;

/// Why a record does not stand up to the rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The size is not a board size.
    #[error("size {0} is not a board size")]
    Size(u8),
    /// A move is listed after the match had ended.
    #[error("move {0} comes after the end of the match")]
    AfterEnd(usize),
    /// A move is listed for the wrong seat.
    #[error("move {index} is by seat {listed}, but the rules ask seat {asked}")]
    WrongSeat {
        /// 1-based index of the move.
        index: usize,
        /// The seat the record lists.
        listed: crate::board::Seat,
        /// The seat the rules ask.
        asked: crate::board::Seat,
    },
    /// The rules end the match differently than recorded.
    #[error("the rules give {expected}, the record says {recorded}")]
    Outcome {
        /// The outcome by the rules, as JSON without the moves.
        expected: String,
        /// The recorded outcome, as JSON without the moves.
        recorded: String,
    },
}

/// Checks `record` against the rules.
pub fn replay(record: &Record) -> Result<(), ReplayError> {
    let mut judge =
        Judge::new(u64::from(record.size)).map_err(|_| ReplayError::Size(record.size))?;
    let live_forfeit = record.forfeit.filter(|f| f.reason.is_live_only());
    for (i, m) in record.moves.iter().enumerate() {
        let Some(req) = judge.next_request() else {
            return Err(ReplayError::AfterEnd(i + 1));
        };
        if req.seat != m.seat {
            return Err(ReplayError::WrongSeat {
                index: i + 1,
                listed: m.seat,
                asked: req.seat,
            });
        }
        match live_forfeit {
            Some(f) if i + 1 == record.moves.len() && f.request == req.number => {
                judge.forfeit(f.reason, m.line.as_bytes());
            }
            _ => {
                // A rejected line ends the match; the comparison below
                // tells whether the record agrees.
                let _ = judge.answer_after_cr(m.line.as_bytes());
            }
        }
    }
    let mut expected = judge.record();
    let mut recorded = record.clone();
    // Answer times and "nothing received" are what only the live match
    // measured: the rules cannot give them back.
    for m in &mut recorded.moves {
        m.us = None;
        m.nothing = false;
    }
    // END-6's ranking follows from the outcome compared below; a record
    // written before it was kept has none.
    recorded.ranking = expected.ranking;
    if expected != recorded {
        expected.moves.clear();
        recorded.moves.clear();
        return Err(ReplayError::Outcome {
            expected: expected.to_json(),
            recorded: recorded.to_json(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Seat;
    use crate::reason::Reason;

    fn played(lines: &[&[u8]]) -> Record {
        let mut j = Judge::new(2).unwrap();
        for l in lines {
            let _ = j.answer(l);
        }
        j.record()
    }

    #[test]
    fn rec_2_round_trip_and_tamper() {
        let rec = played(&[b"A1 R", b"A1 L", b"A1 B", b"A1 T", b"B1 L"]);
        assert_eq!(rec.forfeit.unwrap().reason, Reason::SideTaken);
        replay(&rec).unwrap();
        let mut t = rec.clone();
        t.winner = Some(Seat::B);
        assert!(matches!(replay(&t), Err(ReplayError::Outcome { .. })));
        let mut t = rec.clone();
        t.moves[1].seat = Seat::A;
        assert!(matches!(replay(&t), Err(ReplayError::WrongSeat { .. })));
    }

    proptest::proptest! {
        /// Any sequence of answers, legal or not (names drawn from a small
        /// alphabet so that many are legal), gives a record that survives
        /// JSON and replays as consistent.
        #[test]
        fn rec_2_any_match_round_trips(
            size in 2u64..=4,
            lines in proptest::collection::vec(
                proptest::string::string_regex("[A-E][0-5] [LTRB]( MSG [ -~]{0,6})?|[a-z ]{0,5}\r?").unwrap(),
                0..60,
            ),
        ) {
            let mut j = Judge::new(size).unwrap();
            for l in &lines {
                let _ = j.answer(l.as_bytes());
            }
            let rec = j.record();
            let back = Record::from_json(&rec.to_json()).unwrap();
            proptest::prop_assert_eq!(&back, &rec);
            proptest::prop_assert!(replay(&back).is_ok());
        }
    }

    #[test]
    fn rec_2_live_forfeits_taken_as_recorded() {
        let mut j = Judge::new(2).unwrap();
        j.answer(b"A1 R").unwrap();
        j.forfeit(Reason::Timeout, b"");
        let rec = j.record();
        replay(&rec).unwrap();
        let mut t = rec.clone();
        t.forfeit.as_mut().unwrap().request = 3;
        assert!(replay(&t).is_err());
    }

    #[test]
    fn answer_2_only_one_cr_removed_even_in_the_record() {
        let mut j = crate::judge::Judge::new(2).unwrap();
        assert_eq!(j.answer(b"A1 T\r\r"), Err(Reason::Syntax));
        let rec = j.record();
        assert_eq!(rec.moves[0].line, "A1 T\r");
        replay(&rec).unwrap();
    }
}
