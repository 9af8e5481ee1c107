//! The human's move line (MOVE-3..5): every byte that is not an ASCII
//! letter or digit is discarded; `Q` alone quits; four bytes left name two
//! dots (a letter and a digit each, in either order), which must be one
//! open edge apart.

use crate::grid::{Dot, Edge, Grid};
use crate::why::Why;

/// What a move line means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// `Q`: to the post-game (MOVE-3).
    Quit,
    /// An accepted move: this open edge (MOVE-5).
    Move(Edge),
    /// Anything else (MOVE-6).
    Bad,
}

/// Reads a move line against `grid`.
pub fn read(line: &[u8], grid: &Grid) -> Line {
    judge(line, grid).unwrap_or(Line::Bad)
}

/// Reads a move line against `grid`: a quit or a move, or why it is
/// rejected (MOVE-6).
pub fn judge(line: &[u8], grid: &Grid) -> Result<Line, Why> {
    let kept: Vec<u8> = line
        .iter()
        .copied()
        .filter(u8::is_ascii_alphanumeric)
        .collect();
    if kept == b"Q" {
        return Ok(Line::Quit);
    }
    let [a, b, c, d] = kept[..] else {
        return Err(Why::MoveLength);
    };
    let (Some(first), Some(second)) = (dot(a, b, grid), dot(c, d, grid)) else {
        return Err(Why::NoSuchDot);
    };
    match Edge::between(first, second) {
        Some(edge) if grid.is_open(edge) => Ok(Line::Move(edge)),
        Some(_) => Err(Why::Drawn),
        None => Err(Why::NotAdjacent),
    }
}

/// A dot named by a letter and a digit in either order (MOVE-4): a
/// lower-case row letter and a column digit `1`..N+1 of `grid`.
fn dot(x: u8, y: u8, grid: &Grid) -> Option<Dot> {
    let (letter, digit) = if x.is_ascii_alphabetic() && y.is_ascii_digit() {
        (x, y)
    } else if y.is_ascii_alphabetic() && x.is_ascii_digit() {
        (y, x)
    } else {
        return None;
    };
    if !letter.is_ascii_lowercase() || digit == b'0' {
        return None;
    }
    let found = Dot {
        row: letter - b'a',
        col: digit - b'1',
    };
    grid.has_dot(found).then_some(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Player;
    use proptest::prelude::*;

    const A1_A2: Edge = Edge::Horizontal { row: 0, col: 0 };
    const A2_B2: Edge = Edge::Vertical { row: 0, col: 1 };

    #[test]
    fn each_rejected_move_names_its_check() {
        let grid = Grid::new(2);
        assert_eq!(judge(b"a1", &grid), Err(Why::MoveLength));
        assert_eq!(judge(b"a1 a9", &grid), Err(Why::NoSuchDot));
        assert_eq!(judge(b"a1 b2", &grid), Err(Why::NotAdjacent));
        assert!(judge(b"a1 a2", &grid).is_ok());
    }

    #[test]
    fn move_5_spellings() {
        let g = Grid::new(2);
        // Each a spelling of a1-a2, and what it shows the reader drops.
        for (line, shows) in [
            (&b"a1 a2"[..], "the plain spelling"),
            (b"a2 a1", "the dots in either order"),
            (b"a1a2", "no separator"),
            (b"(a1, a2)", "punctuation"),
            (b"\ta1\r a2\0", "control bytes"),
        ] {
            assert_eq!(read(line, &g), Line::Move(A1_A2), "{shows}: {line:?}");
        }
        assert_eq!(read(b"2a,b2", &g), Line::Move(A2_B2));
        assert_eq!(
            read(b"1a-1b", &g),
            Line::Move(Edge::Vertical { row: 0, col: 0 })
        );
        // Bad lines, by the check that rejects them (MOVE-4, MOVE-5).
        let rejected: [(Why, &[&[u8]]); 3] = [
            (Why::MoveLength, &[b"a10 a2", b"a1a2b2", b"q", b""]),
            (
                Why::NoSuchDot,
                &[b"quit", b"A1 A2", b"a0 a1", b"d1 d2", b"a1 a4", b"aa11"],
            ),
            (Why::NotAdjacent, &[b"a1 a3", b"a1 b2", b"a1 a1"]),
        ];
        for (why, lines) in rejected {
            for &line in lines {
                let shown = String::from_utf8_lossy(line);
                assert_eq!(read(line, &g), Line::Bad, "{shown:?}");
                assert_eq!(judge(line, &g), Err(why), "{shown:?}");
            }
        }
        assert_eq!(read(b"Q", &g), Line::Quit);
        assert_eq!(read(b" Q\r", &g), Line::Quit);
        let mut filled = Grid::new(2);
        filled.fill(A1_A2, Player::Human);
        assert_eq!(read(b"a1 a2", &filled), Line::Bad, "a closed edge");
    }

    proptest! {
        #[test]
        fn never_panics_and_only_open_edges(line in proptest::collection::vec(any::<u8>(), 0..12), n in 2u8..=8) {
            let g = Grid::new(n);
            if let Line::Move(e) = read(&line, &g) {
                prop_assert!(g.is_open(e));
            }
        }
    }
}
