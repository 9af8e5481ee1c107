//! Turning a syntactically valid answer into a side of the board (MOVE-1):
//! the box must exist and the side must be free under either of its names.

use crate::answer::Answer;
use crate::board::{Board, Edge};
use crate::reason::Reason;

/// Why a well-formed answer is not a legal move (MOVE-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The box is not on this board.
    #[error("no such box on this board")]
    NoSuchBox,
    /// The side is already drawn.
    #[error("the side is already drawn")]
    SideTaken,
}

impl MoveError {
    /// END-3's reason code for this error.
    pub fn reason(self) -> Reason {
        match self {
            MoveError::NoSuchBox => Reason::NoSuchBox,
            MoveError::SideTaken => Reason::SideTaken,
        }
    }
}

impl From<MoveError> for Reason {
    fn from(e: MoveError) -> Self {
        e.reason()
    }
}

/// The free side that `answer` names on `board`.
pub fn resolve(board: &Board, answer: &Answer<'_>) -> Result<Edge, MoveError> {
    let col = answer.column.wrapping_sub(b'A');
    let row = answer.row.wrapping_sub(b'1');
    let b = board.box_at(col, row).ok_or(MoveError::NoSuchBox)?;
    let edge = board.edge(b, answer.side);
    if board.is_drawn(edge) {
        Err(MoveError::SideTaken)
    } else {
        Ok(edge)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::parse;
    use crate::board::Seat;

    #[test]
    fn move_1_box_must_exist() {
        let b = Board::new(2).unwrap();
        assert_eq!(
            resolve(&b, &parse(b"C1 L").unwrap()),
            Err(MoveError::NoSuchBox)
        );
        assert_eq!(
            resolve(&b, &parse(b"A0 T").unwrap()),
            Err(MoveError::NoSuchBox)
        );
        assert_eq!(
            resolve(&b, &parse(b"A3 T").unwrap()),
            Err(MoveError::NoSuchBox)
        );
        assert!(resolve(&b, &parse(b"B2 T").unwrap()).is_ok());
    }

    #[test]
    fn move_1_side_taken_by_either_name() {
        let mut b = Board::new(2).unwrap();
        let e = resolve(&b, &parse(b"A1 R").unwrap()).unwrap();
        b.draw(e, Seat::A);
        assert_eq!(
            resolve(&b, &parse(b"A1 R").unwrap()),
            Err(MoveError::SideTaken)
        );
        assert_eq!(
            resolve(&b, &parse(b"B1 L").unwrap()),
            Err(MoveError::SideTaken)
        );
    }
}
