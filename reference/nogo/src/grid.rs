//! The board: cells holding stones, strings and their liberties (rulings
//! CAPTURE-1, FILE-4, TURN-3).
//!
//! A liberty search walks one string and stops at its first liberty, so a
//! capture check costs the strings next to the placed stone, never the
//! whole board (CAPTURE-4). Its scratch space (a visit stamp per cell and a
//! stack) lives in the grid and is reused, so a search allocates nothing.

use crate::player::Player;

/// Smallest accepted height or width (ARGS-3, FILE-2): a bound of
/// the grid, below the arguments and the save file that both check it.
pub const MIN_DIMENSION: usize = 4;
/// Largest accepted height or width (ARGS-3, FILE-2).
pub const MAX_DIMENSION: usize = 1000;

/// A cell's row and column, 0-based, row first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cell {
    /// Row, 0-based.
    pub row: usize,
    /// Column, 0-based.
    pub col: usize,
}

impl Cell {
    /// The cell at `row`, `col`.
    pub const fn new(row: usize, col: usize) -> Self {
        Self { row, col }
    }
}

/// What a cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stone {
    /// `.`
    Empty,
    /// A player's stone.
    Taken(Player),
}

impl Stone {
    /// The byte that shows this cell on screen and in files (GRID-1, FILE-4).
    pub const fn symbol(self) -> u8 {
        match self {
            Self::Empty => b'.',
            Self::Taken(p) => p.symbol(),
        }
    }

    /// The stone a grid byte stands for: `.`, `O` or `X` only (FILE-4).
    pub const fn from_symbol(b: u8) -> Option<Self> {
        match b {
            b'.' => Some(Self::Empty),
            b'O' => Some(Self::Taken(Player::O)),
            b'X' => Some(Self::Taken(Player::X)),
            _ => None,
        }
    }
}

/// An H×W board.
#[derive(Debug, Clone)]
pub struct Grid {
    height: usize,
    width: usize,
    cells: Vec<Stone>,
    empty: usize,
    search: Search,
}

/// Reusable scratch space of liberty searches.
#[derive(Debug, Clone, Default)]
struct Search {
    /// `stamp[i] == round` marks cell `i` visited in the current search.
    stamp: Vec<u32>,
    round: u32,
    stack: Vec<usize>,
}

impl PartialEq for Grid {
    fn eq(&self, other: &Self) -> bool {
        self.height == other.height && self.width == other.width && self.cells == other.cells
    }
}

impl Eq for Grid {}

impl Grid {
    /// An empty board of `height` rows and `width` columns.
    pub fn new(height: usize, width: usize) -> Self {
        let size = height.saturating_mul(width);
        Self {
            height,
            width,
            cells: vec![Stone::Empty; size],
            empty: size,
            search: Search::default(),
        }
    }

    /// Rows (H).
    pub const fn height(&self) -> usize {
        self.height
    }

    /// Columns (W).
    pub const fn width(&self) -> usize {
        self.width
    }

    /// How many cells are empty.
    pub const fn empty_cells(&self) -> usize {
        self.empty
    }

    /// Whether `cell` lies on the board.
    pub const fn contains(&self, cell: Cell) -> bool {
        cell.row < self.height && cell.col < self.width
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        self.contains(cell)
            .then(|| cell.row * self.width + cell.col)
    }

    /// What `cell` holds (`None` off the board).
    pub fn get(&self, cell: Cell) -> Option<Stone> {
        self.index(cell).and_then(|i| self.cells.get(i).copied())
    }

    /// Whether `cell` is on the board and empty: a valid move (TURN-3).
    pub fn is_free(&self, cell: Cell) -> bool {
        self.get(cell) == Some(Stone::Empty)
    }

    /// Puts `stone` on `cell` (no rule checked: loading and playing both
    /// use it). Off the board it does nothing.
    pub fn set(&mut self, cell: Cell, stone: Stone) {
        let Some(i) = self.index(cell) else {
            return;
        };
        let Some(slot) = self.cells.get_mut(i) else {
            return;
        };
        match (*slot, stone) {
            (Stone::Empty, Stone::Taken(_)) => self.empty -= 1,
            (Stone::Taken(_), Stone::Empty) => self.empty += 1,
            _ => {}
        }
        *slot = stone;
    }

    /// The cells of row `row`, left to right.
    pub fn row(&self, row: usize) -> &[Stone] {
        let start = row.saturating_mul(self.width).min(self.cells.len());
        let end = start.saturating_add(self.width).min(self.cells.len());
        &self.cells[start..end]
    }

    /// The up to four cells horizontally or vertically next to `cell`.
    pub fn neighbours(&self, cell: Cell) -> impl Iterator<Item = Cell> + use<> {
        let (h, w) = (self.height, self.width);
        let Cell { row, col } = cell;
        [
            row.checked_sub(1).map(|r| Cell::new(r, col)),
            (row + 1 < h).then(|| Cell::new(row + 1, col)),
            col.checked_sub(1).map(|c| Cell::new(row, c)),
            (col + 1 < w).then(|| Cell::new(row, col + 1)),
        ]
        .into_iter()
        .flatten()
    }

    /// Whether the string holding `cell` has a liberty (CAPTURE-1). Walks
    /// that string only, stopping at the first liberty found. An empty or
    /// off-board cell counts as having one (it is no string).
    pub fn has_liberty(&mut self, cell: Cell) -> bool {
        let Some(start) = self.index(cell) else {
            return true;
        };
        let Some(Stone::Taken(owner)) = self.cells.get(start).copied() else {
            return true;
        };
        let round = self.next_round();
        let w = self.width;
        let Search { stamp, stack, .. } = &mut self.search;
        stack.clear();
        stack.push(start);
        stamp[start] = round;
        while let Some(i) = stack.pop() {
            let (row, col) = (i / w, i % w);
            let up = row.checked_sub(1).map(|_| i - w);
            let down = (row + 1 < self.height).then_some(i + w);
            let left = col.checked_sub(1).map(|_| i - 1);
            let right = (col + 1 < w).then_some(i + 1);
            for j in [up, down, left, right].into_iter().flatten() {
                match self.cells[j] {
                    Stone::Empty => return true,
                    Stone::Taken(p) if p == owner && stamp[j] != round => {
                        stamp[j] = round;
                        stack.push(j);
                    }
                    Stone::Taken(_) => {}
                }
            }
        }
        false
    }

    /// Starts a new search: a fresh stamp value, clearing the stamps only
    /// when the counter wraps (once in four billion searches).
    fn next_round(&mut self) -> u32 {
        let s = &mut self.search;
        if s.stamp.len() != self.cells.len() {
            s.stamp = vec![0; self.cells.len()];
            s.round = 0;
        }
        s.round = s.round.wrapping_add(1);
        if s.round == 0 {
            s.stamp.fill(0);
            s.round = 1;
        }
        s.round
    }
}

/// A grid from rows of `.`, `O`, `X` (tests only).
#[cfg(test)]
pub(crate) fn grid_of(rows: &[&str]) -> Grid {
    let mut g = Grid::new(rows.len(), rows.first().map_or(0, |r| r.len()));
    for (r, line) in rows.iter().enumerate() {
        for (c, b) in line.bytes().enumerate() {
            g.set(
                Cell::new(r, c),
                Stone::from_symbol(b).unwrap_or(Stone::Empty),
            );
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_1_strings_and_liberties_of_the_seed_example() {
        // The text's example: the X at 0,3 has no liberty; the X at 2,2 and
        // the string of Os have some.
        let mut g = grid_of(&["X.OX", "..OO", "..X.", "...."]);
        assert!(!g.has_liberty(Cell::new(0, 3)));
        assert!(g.has_liberty(Cell::new(2, 2)));
        assert!(g.has_liberty(Cell::new(0, 2)));
        assert!(g.has_liberty(Cell::new(1, 3)));
        assert!(g.has_liberty(Cell::new(0, 0)));
    }

    #[test]
    fn capture_1_diagonals_do_not_connect_or_free() {
        let mut g = grid_of(&["OX..", "XO..", "....", "...."]);
        assert!(!g.has_liberty(Cell::new(0, 0)));
        let mut g = grid_of(&["X.X.", ".X..", "....", "...."]);
        assert!(g.has_liberty(Cell::new(0, 0)));
    }

    #[test]
    fn capture_1_long_string_found_through_the_whole_chain() {
        // A snake of Os filling most of the board, its one liberty at the
        // far end; then filled with X it has none.
        let mut g = grid_of(&["OOOO", "XXXO", "OOOO", "OXX."]);
        assert!(g.has_liberty(Cell::new(0, 0)));
        g.set(Cell::new(3, 3), Stone::Taken(Player::X));
        assert!(!g.has_liberty(Cell::new(0, 0)));
        assert!(!g.has_liberty(Cell::new(3, 1)));
    }

    #[test]
    fn turn_3_free_cells_are_on_the_board_and_empty() {
        let g = grid_of(&["O...", "....", "....", "...."]);
        assert!(!g.is_free(Cell::new(0, 0)));
        assert!(g.is_free(Cell::new(3, 3)));
        assert!(!g.is_free(Cell::new(4, 0)));
        assert!(!g.is_free(Cell::new(0, 4)));
        assert!(!g.is_free(Cell::new(usize::MAX, usize::MAX)));
    }

    #[test]
    fn empty_count_follows_sets() {
        let mut g = Grid::new(4, 5);
        assert_eq!(g.empty_cells(), 20);
        g.set(Cell::new(1, 1), Stone::Taken(Player::O));
        g.set(Cell::new(1, 1), Stone::Taken(Player::X));
        assert_eq!(g.empty_cells(), 19);
        g.set(Cell::new(1, 1), Stone::Empty);
        g.set(Cell::new(9, 9), Stone::Taken(Player::X));
        assert_eq!(g.empty_cells(), 20);
    }

    #[test]
    fn neighbours_stay_on_the_board() {
        let g = Grid::new(4, 4);
        assert_eq!(g.neighbours(Cell::new(0, 0)).count(), 2);
        assert_eq!(g.neighbours(Cell::new(0, 2)).count(), 3);
        assert_eq!(g.neighbours(Cell::new(2, 2)).count(), 4);
        assert_eq!(g.neighbours(Cell::new(3, 3)).count(), 2);
    }

    #[test]
    fn stamps_survive_many_searches() {
        let mut g = grid_of(&["OX..", "X...", "....", "...."]);
        g.search.round = u32::MAX - 2;
        for _ in 0..6 {
            assert!(!g.has_liberty(Cell::new(0, 0)));
            assert!(g.has_liberty(Cell::new(0, 1)));
        }
    }
}
