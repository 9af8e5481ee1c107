//! The rules of a match as a state machine, without processes or clocks:
//! who is asked next and with which bytes (MOVE-3, INIT-1), how an answer
//! line is judged (ANSWER-2 … MOVE-2), forfeits (END-3) and the outcome
//! (END-1, END-2). The live referee, the replay and the engine all drive it.

use crate::answer;
use crate::board::{Board, Seat, SizeError};
use crate::moves;
pub use crate::reason::Reason;
use crate::record::{ForfeitRecord, MoveRecord, Record, Score};
use crate::request;

/// One request to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The seat asked.
    pub seat: Seat,
    /// The request's number over the whole match, from 1 (REC-1).
    pub number: u32,
    /// Whether this is the seat's first request (INIT-1, TIME-2).
    pub first: bool,
    /// The exact bytes (TURN-3).
    pub bytes: Vec<u8>,
}

/// The state of one match.
#[derive(Debug, Clone)]
pub struct Judge {
    board: Board,
    to_move: Seat,
    requests: u32,
    started: [bool; 2],
    moves: Vec<MoveRecord>,
    forfeit: Option<ForfeitRecord>,
}

impl Judge {
    /// A new match on an empty board of `size`; seat A moves first.
    pub fn new(size: u64) -> Result<Judge, SizeError> {
        Ok(Judge {
            board: Board::new(size)?,
            to_move: Seat::A,
            requests: 0,
            started: [false; 2],
            moves: Vec::new(),
            forfeit: None,
        })
    }

    /// The board as it stands.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whether the match has ended (END-1 or END-3).
    pub fn is_over(&self) -> bool {
        self.forfeit.is_some() || self.board.is_full()
    }

    /// The next request, or `None` once the match has ended (END-1).
    pub fn next_request(&self) -> Option<Request> {
        if self.is_over() {
            return None;
        }
        let seat = self.to_move;
        let first = !self.started[seat.index()];
        Some(Request {
            seat,
            number: self.requests + 1,
            first,
            bytes: request::to_bytes(&self.board, seat, first),
        })
    }

    fn open_request(&mut self) -> Seat {
        self.requests += 1;
        self.started[self.to_move.index()] = true;
        self.to_move
    }

    /// Judges the answer to the next request: `line` is what the bot wrote
    /// before its `\n`. Returns the forfeit reason when it is not a legal move.
    pub fn answer(&mut self, line: &[u8]) -> Result<(), Reason> {
        self.answer_after_cr(answer::strip_cr(line))
    }

    /// Judges a line already through ANSWER-2, as a record holds it (REC-2).
    pub fn answer_after_cr(&mut self, line: &[u8]) -> Result<(), Reason> {
        if self.is_over() {
            return Ok(());
        }
        let edge = answer::parse(line)
            .map_err(Reason::from)
            .and_then(|a| moves::resolve(&self.board, &a).map_err(Reason::from));
        let edge = match edge {
            Ok(edge) => edge,
            Err(reason) => {
                self.forfeit(reason, line);
                return Err(reason);
            }
        };
        let seat = self.open_request();
        self.moves.push(MoveRecord::new(seat, line));
        let completed = self.board.draw(edge, seat);
        if completed == 0 {
            self.to_move = seat.other();
        }
        Ok(())
    }

    /// Ends the match at the next request with a forfeit by the seat asked
    /// (END-3); `received` is what arrived, recorded as the move as it is
    /// (REC-2): [`Judge::answer`] passes its line after ANSWER-2.
    pub fn forfeit(&mut self, reason: Reason, received: &[u8]) {
        if self.is_over() {
            return;
        }
        let seat = self.open_request();
        self.moves.push(MoveRecord::new(seat, received));
        self.forfeit = Some(ForfeitRecord {
            seat,
            reason,
            request: self.requests,
        });
    }

    /// The winner (END-2, END-3); `None` for a draw or a match not over.
    pub fn winner(&self) -> Option<Seat> {
        if let Some(f) = &self.forfeit {
            return Some(f.seat.other());
        }
        let (a, b) = (self.board.score(Seat::A), self.board.score(Seat::B));
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Seat::A),
            std::cmp::Ordering::Less => Some(Seat::B),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The match record (REC-1, REC-2) as it stands.
    pub fn record(&self) -> Record {
        let mut record = Record {
            size: self.board.size(),
            winner: self.winner(),
            score: Score {
                a: self.board.score(Seat::A),
                b: self.board.score(Seat::B),
            },
            forfeit: self.forfeit,
            moves: self.moves.clone(),
            ranking: None,
        };
        let (a, b) = record.ranking_scores();
        record.ranking = Some(crate::record::Ranking { a, b });
        record
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TURN-4, byte for byte, copied by hand from the rulings.
    #[test]
    fn turn_4_exchange() {
        let mut j = Judge::new(2).unwrap();
        let steps: [(&[u8], Seat, &[u8]); 5] = [
            (
                b"2\nA\n0 0\n4\nA1 LTRB\nB1 LTRB\nA2 LTRB\nB2 LTRB\n",
                Seat::A,
                b"A1 R",
            ),
            (
                b"2\nB\n0 0\n4\nA1 LTB\nB1 TRB\nA2 LTRB\nB2 LTRB\n",
                Seat::B,
                b"A1 L",
            ),
            (
                b"0 0\n4\nA1 TB\nB1 TRB\nA2 LTRB\nB2 LTRB\n",
                Seat::A,
                b"A1 B",
            ),
            (
                b"0 0\n4\nA1 T\nB1 TRB\nA2 LTRB\nB2 LTRB\n",
                Seat::B,
                b"A1 T",
            ),
            (b"1 0\n3\nB1 TRB\nA2 LTR\nB2 LTRB\n", Seat::B, b"B1 T"),
        ];
        for (i, (bytes, seat, answer)) in steps.into_iter().enumerate() {
            let r = j.next_request().unwrap();
            assert_eq!(r.bytes, bytes, "request {}", i + 1);
            assert_eq!(r.seat, seat);
            assert_eq!(r.number, i as u32 + 1);
            j.answer(answer).unwrap();
        }
    }

    #[test]
    fn move_3_one_extra_request_for_two_boxes() {
        let mut j = Judge::new(2).unwrap();
        // Close A1 and B1 with their shared side last, by seat A's moves and
        // B's in between.
        let script: [&[u8]; 7] = [
            b"A1 L", b"B1 R", b"A1 B", b"B1 B", b"A1 T", b"B1 T", b"A1 R",
        ];
        for line in script {
            j.answer(line).unwrap();
        }
        let last = j.moves.last().unwrap().seat;
        assert_eq!(j.board.score(last), 2);
        let next = j.next_request().unwrap();
        assert_eq!(next.seat, last);
        assert_eq!(next.number, 8);
    }

    #[test]
    fn move_4_and_end_1_full_match() {
        let mut j = Judge::new(3).unwrap();
        let mut n = 0;
        while let Some(r) = j.next_request() {
            let b = j.board().clone();
            let e = b.free_edges().next().unwrap();
            let (bx, side) = b.boxes_of(e).into_iter().flatten().next().unwrap();
            let mut line = bx.name().to_vec();
            line.extend([b' ', side.letter()]);
            assert_eq!(r.number, n + 1);
            j.answer(&line).unwrap();
            n += 1;
        }
        assert_eq!(n, 24);
        assert_eq!(j.record().score.a + j.record().score.b, 9);
    }

    #[test]
    fn end_3_forfeit_stops_and_loses() {
        let mut j = Judge::new(2).unwrap();
        j.answer(b"A1 R").unwrap();
        assert_eq!(j.answer(b"B1 L\r"), Err(Reason::SideTaken));
        let rec = j.record();
        assert_eq!(rec.winner, Some(Seat::A));
        let f = rec.forfeit.unwrap();
        assert_eq!(
            (f.seat, f.reason, f.request),
            (Seat::B, Reason::SideTaken, 2)
        );
        assert_eq!(rec.moves.last().unwrap().line, "B1 L");
        assert!(j.next_request().is_none());
    }
}
