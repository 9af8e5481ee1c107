//! The grid: edges, cells, completion and scores (rulings TURN-3, TURN-5,
//! END-1, FILE-4).
//!
//! One piece: the grid's edges, cells, owners and scores are one data
//! structure: every move and query reads the same edge indexing
//! (`index`, `cells_beside`); about 70 lines are tests.

use std::fmt;

use crate::player::Player;

/// Which way an edge runs from its upper-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Rightwards, written `h`.
    Horizontal,
    /// Downwards, written `v`.
    Vertical,
}

impl Direction {
    /// The letter a move line uses for this direction.
    pub const fn letter(self) -> u8 {
        match self {
            Self::Horizontal => b'h',
            Self::Vertical => b'v',
        }
    }
}

/// An edge named by the corner it starts from and its direction. It may lie
/// outside a particular grid; [`Grid::contains`] says whether it exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Edge {
    /// Row of the starting corner.
    pub row: usize,
    /// Column of the starting corner.
    pub col: usize,
    /// Direction from the corner.
    pub dir: Direction,
}

impl Edge {
    /// A horizontal edge from corner (`row`, `col`).
    pub const fn h(row: usize, col: usize) -> Self {
        Self {
            row,
            col,
            dir: Direction::Horizontal,
        }
    }

    /// A vertical edge from corner (`row`, `col`).
    pub const fn v(row: usize, col: usize) -> Self {
        Self {
            row,
            col,
            dir: Direction::Vertical,
        }
    }
}

impl fmt::Display for Edge {
    /// The move line that names this edge, without its newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}",
            self.row,
            self.col,
            char::from(self.dir.letter())
        )
    }
}

/// A cell by row and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cell {
    /// Row of cells, from 0.
    pub row: usize,
    /// Column of cells, from 0.
    pub col: usize,
}

impl Cell {
    /// The four edges around the cell: top, bottom, left, right.
    pub const fn edges(self) -> [Edge; 4] {
        [
            Edge::h(self.row, self.col),
            Edge::h(self.row + 1, self.col),
            Edge::v(self.row, self.col),
            Edge::v(self.row, self.col + 1),
        ]
    }
}

/// The cells one move completed: none, one or two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Completed {
    cells: [Option<Cell>; 2],
}

impl Completed {
    /// How many cells the move completed.
    pub fn count(&self) -> usize {
        self.cells.iter().flatten().count()
    }

    /// The completed cells.
    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        self.cells.iter().flatten().copied()
    }

    fn push(&mut self, cell: Cell) {
        if self.cells[0].is_none() {
            self.cells[0] = Some(cell);
        } else {
            self.cells[1] = Some(cell);
        }
    }
}

/// Why a move was refused (TURN-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The edge lies outside the grid.
    #[error("no such edge")]
    NoSuchEdge,
    /// The edge is already closed.
    #[error("edge already closed")]
    Closed,
}

/// The state of every edge and cell owner of an H×W grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    height: usize,
    width: usize,
    /// (H+1)×W horizontal edges, row-major; `true` is closed.
    horizontal: Vec<bool>,
    /// H×(W+1) vertical edges, row-major; `true` is closed.
    vertical: Vec<bool>,
    /// H×W owners; 0 is nobody, otherwise a player number.
    owners: Vec<u8>,
    open: usize,
}

impl Grid {
    /// An empty grid, every edge open, no owners.
    pub fn new(height: usize, width: usize) -> Self {
        let horizontal = vec![false; (height + 1) * width];
        let vertical = vec![false; height * (width + 1)];
        let open = horizontal.len() + vertical.len();
        Self {
            height,
            width,
            horizontal,
            vertical,
            owners: vec![0; height * width],
            open,
        }
    }

    /// Rows of cells (H).
    pub const fn height(&self) -> usize {
        self.height
    }

    /// Columns of cells (W).
    pub const fn width(&self) -> usize {
        self.width
    }

    /// Whether `edge` exists in this grid (TURN-3).
    pub const fn contains(&self, edge: Edge) -> bool {
        match edge.dir {
            Direction::Horizontal => edge.row <= self.height && edge.col < self.width,
            Direction::Vertical => edge.row < self.height && edge.col <= self.width,
        }
    }

    fn index(&self, edge: Edge) -> Option<usize> {
        if !self.contains(edge) {
            return None;
        }
        Some(match edge.dir {
            Direction::Horizontal => edge.row * self.width + edge.col,
            Direction::Vertical => edge.row * (self.width + 1) + edge.col,
        })
    }

    /// Whether `edge` exists and is closed.
    pub fn is_closed(&self, edge: Edge) -> bool {
        match (self.index(edge), edge.dir) {
            (Some(i), Direction::Horizontal) => self.horizontal[i],
            (Some(i), Direction::Vertical) => self.vertical[i],
            (None, _) => false,
        }
    }

    /// Sets `edge` closed or open without completing cells; for loading a
    /// file. Returns `false` when the edge does not exist.
    pub fn set_edge(&mut self, edge: Edge, closed: bool) -> bool {
        let Some(i) = self.index(edge) else {
            return false;
        };
        let slot = match edge.dir {
            Direction::Horizontal => &mut self.horizontal[i],
            Direction::Vertical => &mut self.vertical[i],
        };
        if *slot != closed {
            *slot = closed;
            if closed {
                self.open -= 1;
            } else {
                self.open += 1;
            }
        }
        true
    }

    /// How many edges are still open.
    pub const fn open_edges(&self) -> usize {
        self.open
    }

    /// Whether all four edges of `cell` are closed.
    pub fn is_cell_closed(&self, cell: Cell) -> bool {
        cell.row < self.height
            && cell.col < self.width
            && cell.edges().into_iter().all(|e| self.is_closed(e))
    }

    /// Every cell, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.height).flat_map(move |row| (0..self.width).map(move |col| Cell { row, col }))
    }

    /// Whether closing the open `edge` would complete at least one cell
    /// (TURN-5): a cell beside it has its three other edges closed.
    pub fn completes(&self, edge: Edge) -> bool {
        let (a, b) = self.cells_beside(edge);
        [a, b].into_iter().flatten().any(|cell| {
            cell.edges()
                .into_iter()
                .all(|e| e == edge || self.is_closed(e))
        })
    }

    /// The owner of `cell`, `None` when unowned or outside the grid.
    pub fn owner(&self, cell: Cell) -> Option<Player> {
        if cell.row >= self.height || cell.col >= self.width {
            return None;
        }
        Player::new(usize::from(self.owners[cell.row * self.width + cell.col]))
    }

    /// Gives `cell` to `owner` (or to nobody); for loading a file. Returns
    /// `false` when the cell does not exist.
    pub fn set_owner(&mut self, cell: Cell, owner: Option<Player>) -> bool {
        if cell.row >= self.height || cell.col >= self.width {
            return false;
        }
        self.owners[cell.row * self.width + cell.col] = owner.map_or(0, |p| p.number() as u8);
        true
    }

    /// Closes `edge` for `player` (TURN-5): every cell it completes takes the
    /// player's symbol. Refuses edges that do not exist or are closed.
    pub fn play(&mut self, edge: Edge, player: Player) -> Result<Completed, MoveError> {
        if !self.contains(edge) {
            return Err(MoveError::NoSuchEdge);
        }
        if self.is_closed(edge) {
            return Err(MoveError::Closed);
        }
        self.set_edge(edge, true);
        let mut done = Completed::default();
        let (a, b) = self.cells_beside(edge);
        for cell in [a, b].into_iter().flatten() {
            if self.is_cell_closed(cell) {
                self.set_owner(cell, Some(player));
                done.push(cell);
            }
        }
        Ok(done)
    }

    /// The (up to two) cells an existing edge borders.
    pub fn cells_beside(&self, edge: Edge) -> (Option<Cell>, Option<Cell>) {
        let Edge { row, col, dir } = edge;
        match dir {
            Direction::Horizontal => (
                (row > 0).then(|| Cell { row: row - 1, col }),
                (row < self.height).then_some(Cell { row, col }),
            ),
            Direction::Vertical => (
                (col > 0).then(|| Cell { row, col: col - 1 }),
                (col < self.width).then_some(Cell { row, col }),
            ),
        }
    }

    /// Every edge of the grid, horizontal rows and vertical rows interleaved
    /// in file order.
    pub fn edges(&self) -> impl Iterator<Item = Edge> + '_ {
        (0..=self.height).flat_map(move |r| {
            let h = (0..self.width).map(move |c| Edge::h(r, c));
            let v = (0..=self.width)
                .filter(move |_| r < self.height)
                .map(move |c| Edge::v(r, c));
            h.chain(v)
        })
    }

    /// Cells owned by each player: index 0 is player 1.
    pub fn scores(&self, players: usize) -> Vec<usize> {
        let mut scores = vec![0; players];
        for &o in &self.owners {
            if let Some(s) = usize::from(o)
                .checked_sub(1)
                .and_then(|i| scores.get_mut(i))
            {
                *s += 1;
            }
        }
        scores
    }

    /// The players with the highest score, in player order; all of them
    /// when every score is 0 (END-1).
    pub fn winners(&self, players: usize) -> Vec<Player> {
        let scores = self.scores(players);
        let best = scores.iter().copied().max().unwrap_or(0);
        scores
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s == best)
            .filter_map(|(i, _)| Player::new(i + 1))
            .collect()
    }

    /// The first owned cell whose edges are not all closed (FILE-4).
    pub fn owned_open_cell(&self) -> Option<Cell> {
        self.cells()
            .find(|&c| self.owner(c).is_some() && !self.is_cell_closed(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(n: usize) -> Player {
        Player::new(n).unwrap_or(Player::FIRST)
    }

    #[test]
    fn turn_3_edge_ranges() {
        let g = Grid::new(2, 3);
        assert!(g.contains(Edge::h(2, 2)));
        assert!(!g.contains(Edge::h(3, 0)));
        assert!(!g.contains(Edge::h(0, 3)));
        assert!(g.contains(Edge::v(1, 3)));
        assert!(!g.contains(Edge::v(2, 0)));
        assert!(!g.contains(Edge::v(0, 4)));
        assert!(!g.contains(Edge::h(usize::MAX, usize::MAX)));
    }

    #[test]
    fn turn_3_closed_edge_is_refused() {
        let mut g = Grid::new(2, 2);
        assert_eq!(g.play(Edge::h(0, 0), p(1)).map(|c| c.count()), Ok(0));
        assert_eq!(g.play(Edge::h(0, 0), p(2)), Err(MoveError::Closed));
        assert_eq!(g.play(Edge::v(5, 0), p(2)), Err(MoveError::NoSuchEdge));
    }

    #[test]
    fn turn_5_one_edge_can_complete_two_cells() {
        let mut g = Grid::new(1, 2);
        for e in [
            Edge::h(0, 0),
            Edge::h(0, 1),
            Edge::h(1, 0),
            Edge::h(1, 1),
            Edge::v(0, 0),
            Edge::v(0, 2),
        ] {
            assert_eq!(g.play(e, p(1)).map(|c| c.count()), Ok(0));
        }
        assert_eq!(g.play(Edge::v(0, 1), p(2)).map(|c| c.count()), Ok(2));
        assert_eq!(g.scores(2), vec![0, 2]);
        assert_eq!(g.open_edges(), 0);
    }

    #[test]
    fn end_1_winners_in_player_order_all_when_zero() {
        let g = Grid::new(2, 2);
        assert_eq!(g.winners(3), vec![p(1), p(2), p(3)]);
        let mut g = Grid::new(2, 2);
        g.set_owner(Cell { row: 0, col: 0 }, Some(p(2)));
        g.set_owner(Cell { row: 1, col: 1 }, Some(p(3)));
        assert_eq!(g.winners(3), vec![p(2), p(3)]);
    }

    #[test]
    fn edges_iterate_in_file_order() {
        let g = Grid::new(1, 1);
        let all: Vec<Edge> = g.edges().collect();
        assert_eq!(
            all,
            vec![Edge::h(0, 0), Edge::v(0, 0), Edge::v(0, 1), Edge::h(1, 0)]
        );
        assert_eq!(
            Grid::new(3, 4).edges().count(),
            Grid::new(3, 4).open_edges()
        );
    }
}
