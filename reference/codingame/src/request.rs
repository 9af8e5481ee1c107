//! The bytes of a request (INIT-1, TURN-1 … TURN-3): the initialisation
//! lines on a player's first request, its own score first, then the playable
//! boxes from the bottom row up with their free sides in `L T R B` order.

use std::io::Write as _;

use crate::board::{Board, Seat};

/// Appends to `out` the request for `seat` on `board`; `first` adds INIT-1's
/// two lines.
pub fn write(board: &Board, seat: Seat, first: bool, out: &mut Vec<u8>) {
    if first {
        // Writing into a Vec cannot fail.
        let _ = write!(out, "{}\n{}\n", board.size(), seat);
    }
    let _ = writeln!(out, "{} {}", board.score(seat), board.score(seat.other()));
    let playable: Vec<_> = board
        .boxes()
        .filter(|&b| board.free_sides(b).next().is_some())
        .collect();
    let _ = writeln!(out, "{}", playable.len());
    for b in playable {
        out.extend_from_slice(&b.name());
        out.push(b' ');
        out.extend(board.free_sides(b).map(crate::board::Side::letter));
        out.push(b'\n');
    }
}

/// The request as a fresh buffer.
pub fn to_bytes(board: &Board, seat: Seat, first: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + 8 * usize::from(board.size()).pow(2));
    write(board, seat, first, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BoxId, Side};

    #[test]
    fn turn_2_partial_sides_keep_order() {
        let mut b = Board::new(2).unwrap();
        let a1 = BoxId { col: 0, row: 0 };
        for s in [Side::L, Side::R, Side::B] {
            b.draw(b.edge(a1, s), Seat::A);
        }
        let req = to_bytes(&b, Seat::B, false);
        assert_eq!(req, b"0 0\n4\nA1 T\nB1 TRB\nA2 LTRB\nB2 LTRB\n");
    }

    #[test]
    fn init_1_only_first() {
        let b = Board::new(3).unwrap();
        assert!(to_bytes(&b, Seat::B, true).starts_with(b"3\nB\n0 0\n9\nA1 LTRB\n"));
        assert!(to_bytes(&b, Seat::B, false).starts_with(b"0 0\n9\n"));
    }
}
