//! The N×N board (BOARD-1 … BOARD-4): box names counted from the bottom-left,
//! the four sides `L T R B` with inner sides shared by two boxes, drawn sides
//! and box ownership. Referee and bots share this one model so that a side
//! has exactly one identity whichever of its two names is used.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The smallest board size (BOARD-1).
pub const MIN_SIZE: u8 = 2;
/// The largest board size (BOARD-1).
pub const MAX_SIZE: u8 = 9;

/// A player's seat: `A` moves first (MATCH-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Seat {
    /// The first player.
    A,
    /// The second player.
    B,
}

impl Seat {
    /// Both seats, `A` first.
    pub const BOTH: [Seat; 2] = [Seat::A, Seat::B];

    /// The other seat.
    #[must_use]
    pub fn other(self) -> Seat {
        match self {
            Seat::A => Seat::B,
            Seat::B => Seat::A,
        }
    }

    /// The seat's letter as sent in INIT-1.
    pub fn letter(self) -> u8 {
        match self {
            Seat::A => b'A',
            Seat::B => b'B',
        }
    }

    /// 0 for `A`, 1 for `B`: an index into per-seat arrays.
    pub fn index(self) -> usize {
        match self {
            Seat::A => 0,
            Seat::B => 1,
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Seat::A => "A",
            Seat::B => "B",
        })
    }
}

/// One of a box's four sides (BOARD-3), in the order `L T R B` of TURN-2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Left.
    L,
    /// Top.
    T,
    /// Right.
    R,
    /// Bottom.
    B,
}

impl Side {
    /// The sides in the order the referee lists them (TURN-2).
    pub const ALL: [Side; 4] = [Side::L, Side::T, Side::R, Side::B];

    /// The side's letter.
    pub fn letter(self) -> u8 {
        match self {
            Side::L => b'L',
            Side::T => b'T',
            Side::R => b'R',
            Side::B => b'B',
        }
    }

    /// The side named by `letter`, if any.
    pub fn from_letter(letter: u8) -> Option<Side> {
        match letter {
            b'L' => Some(Side::L),
            b'T' => Some(Side::T),
            b'R' => Some(Side::R),
            b'B' => Some(Side::B),
            _ => None,
        }
    }
}

/// A box by 0-based column (left to right) and row (bottom to top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoxId {
    /// Column, 0 for `A`.
    pub col: u8,
    /// Row, 0 for the bottom row `1` (BOARD-2).
    pub row: u8,
}

impl BoxId {
    /// The box's two-byte name, such as `A1` (BOARD-2).
    pub fn name(self) -> [u8; 2] {
        [b'A' + self.col, b'1' + self.row]
    }
}

impl fmt::Display for BoxId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [c, r] = self.name();
        write!(f, "{}{}", char::from(c), char::from(r))
    }
}

/// A side of the board by its single identity, whichever box names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Edge(pub u16);

/// A board size outside BOARD-1's range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("board size {0} is outside 2..=9")]
pub struct SizeError(pub u64);

/// The state of a board: drawn sides and owned boxes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    size: u8,
    drawn: Vec<bool>,
    owner: Vec<Option<Seat>>,
}

impl Board {
    /// An empty board of `size` (BOARD-1, BOARD-3: every side free).
    pub fn new(size: u64) -> Result<Board, SizeError> {
        let Some(n) = u8::try_from(size)
            .ok()
            .filter(|n| (MIN_SIZE..=MAX_SIZE).contains(n))
        else {
            return Err(SizeError(size));
        };
        let edges = 2 * usize::from(n) * (usize::from(n) + 1);
        Ok(Board {
            size: n,
            drawn: vec![false; edges],
            owner: vec![None; usize::from(n) * usize::from(n)],
        })
    }

    /// Boxes per row and per column.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// Number of sides, 2N(N+1).
    pub fn edge_count(&self) -> usize {
        self.drawn.len()
    }

    /// All sides.
    pub fn edges(&self) -> impl Iterator<Item = Edge> + use<> {
        (0..self.drawn.len()).map(|e| Edge(e as u16))
    }

    /// Sides not drawn yet.
    pub fn free_edges(&self) -> impl Iterator<Item = Edge> + '_ {
        self.edges().filter(|&e| !self.is_drawn(e))
    }

    /// The box at `col`, `row` if it is on the board.
    pub fn box_at(&self, col: u8, row: u8) -> Option<BoxId> {
        (col < self.size && row < self.size).then_some(BoxId { col, row })
    }

    /// Every box, row 1 first and within a row from column `A` (TURN-2).
    pub fn boxes(&self) -> impl Iterator<Item = BoxId> + use<> {
        let n = self.size;
        (0..n).flat_map(move |row| (0..n).map(move |col| BoxId { col, row }))
    }

    fn horizontal(&self, col: u8, line: u8) -> Edge {
        Edge(u16::from(line) * u16::from(self.size) + u16::from(col))
    }

    fn vertical(&self, line: u8, row: u8) -> Edge {
        let n = u16::from(self.size);
        Edge(n * (n + 1) + u16::from(row) * (n + 1) + u16::from(line))
    }

    /// The side `side` of box `b` (BOARD-3: `A1 R` is `B1 L`).
    pub fn edge(&self, b: BoxId, side: Side) -> Edge {
        match side {
            Side::L => self.vertical(b.col, b.row),
            Side::R => self.vertical(b.col + 1, b.row),
            Side::B => self.horizontal(b.col, b.row),
            Side::T => self.horizontal(b.col, b.row + 1),
        }
    }

    /// The one or two boxes that `edge` bounds, each with the name the side
    /// has for it.
    pub fn boxes_of(&self, edge: Edge) -> [Option<(BoxId, Side)>; 2] {
        let n = u16::from(self.size);
        let e = edge.0;
        if e < n * (n + 1) {
            let (line, col) = ((e / n) as u8, (e % n) as u8);
            let below = line.checked_sub(1).map(|row| (BoxId { col, row }, Side::T));
            let above = (line < self.size).then_some((BoxId { col, row: line }, Side::B));
            [below, above]
        } else {
            let k = e - n * (n + 1);
            let (row, line) = ((k / (n + 1)) as u8, (k % (n + 1)) as u8);
            let left = line.checked_sub(1).map(|col| (BoxId { col, row }, Side::R));
            let right = (line < self.size).then_some((BoxId { col: line, row }, Side::L));
            [left, right]
        }
    }

    /// Whether `edge` is drawn.
    pub fn is_drawn(&self, edge: Edge) -> bool {
        self.drawn.get(usize::from(edge.0)).copied().unwrap_or(true)
    }

    /// The number of drawn sides of `b`.
    pub fn drawn_count(&self, b: BoxId) -> u8 {
        Side::ALL
            .iter()
            .filter(|&&s| self.is_drawn(self.edge(b, s)))
            .count() as u8
    }

    /// The free sides of `b`, in the order `L T R B`.
    pub fn free_sides(&self, b: BoxId) -> impl Iterator<Item = Side> + '_ {
        Side::ALL
            .into_iter()
            .filter(move |&s| !self.is_drawn(self.edge(b, s)))
    }

    /// Draws `edge` for `seat` (MOVE-2) and returns how many boxes it
    /// completed (0, 1 or 2). Drawing a drawn side changes nothing.
    pub fn draw(&mut self, edge: Edge, seat: Seat) -> u8 {
        let Some(slot) = self.drawn.get_mut(usize::from(edge.0)) else {
            return 0;
        };
        if *slot {
            return 0;
        }
        *slot = true;
        let mut completed = 0;
        for (b, _) in self.boxes_of(edge).into_iter().flatten() {
            if self.drawn_count(b) == 4 {
                let i = usize::from(b.row) * usize::from(self.size) + usize::from(b.col);
                if let Some(o) = self.owner.get_mut(i) {
                    *o = Some(seat);
                    completed += 1;
                }
            }
        }
        completed
    }

    /// Marks `edge` drawn without giving anyone a box: how a bot rebuilds
    /// the board from the free sides it is told.
    pub fn set_drawn(&mut self, edge: Edge, drawn: bool) {
        if let Some(slot) = self.drawn.get_mut(usize::from(edge.0)) {
            *slot = drawn;
        }
    }

    /// The owner of `b` (BOARD-4).
    pub fn owner(&self, b: BoxId) -> Option<Seat> {
        let i = usize::from(b.row) * usize::from(self.size) + usize::from(b.col);
        self.owner.get(i).copied().flatten()
    }

    /// Boxes owned by `seat`.
    pub fn score(&self, seat: Seat) -> u32 {
        self.owner.iter().filter(|&&o| o == Some(seat)).count() as u32
    }

    /// Whether every side is drawn (END-1).
    pub fn is_full(&self) -> bool {
        self.drawn.iter().all(|&d| d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_1_sizes() {
        assert!(Board::new(1).is_err());
        assert!(Board::new(10).is_err());
        assert!(Board::new(2).is_ok() && Board::new(9).is_ok());
    }

    #[test]
    fn board_2_names_from_bottom_left() {
        let b = Board::new(9).unwrap();
        let names: Vec<String> = b.boxes().map(|x| x.to_string()).collect();
        assert_eq!(names.first().map(String::as_str), Some("A1"));
        assert_eq!(names.get(1).map(String::as_str), Some("B1"));
        assert_eq!(names.get(9).map(String::as_str), Some("A2"));
        assert_eq!(names.last().map(String::as_str), Some("I9"));
    }

    #[test]
    fn board_3_shared_sides_and_counts() {
        let b = Board::new(2).unwrap();
        assert_eq!(b.edge_count(), 12);
        assert_eq!(Board::new(9).unwrap().edge_count(), 180);
        let a1 = BoxId { col: 0, row: 0 };
        let b1 = BoxId { col: 1, row: 0 };
        let a2 = BoxId { col: 0, row: 1 };
        assert_eq!(b.edge(a1, Side::R), b.edge(b1, Side::L));
        assert_eq!(b.edge(a1, Side::T), b.edge(a2, Side::B));
        let mut seen = std::collections::HashSet::new();
        for x in b.boxes() {
            for s in Side::ALL {
                let e = b.edge(x, s);
                assert!(b.boxes_of(e).contains(&Some((x, s))));
                seen.insert(e);
            }
        }
        assert_eq!(seen.len(), 12);
    }

    #[test]
    fn board_4_completion_and_owner() {
        let mut b = Board::new(2).unwrap();
        let a1 = BoxId { col: 0, row: 0 };
        for s in [Side::L, Side::T, Side::R] {
            assert_eq!(b.draw(b.edge(a1, s), Seat::A), 0);
        }
        assert_eq!(b.draw(b.edge(a1, Side::B), Seat::B), 1);
        assert_eq!(b.owner(a1), Some(Seat::B));
        assert_eq!(b.score(Seat::B), 1);
    }
}
