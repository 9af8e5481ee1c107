//! The grid: N x N boxes, (N+1) x (N+1) dots, the edges between them and
//! the boxes' owners (APPLY-1), and its drawing (DISP-1..4).

/// A player: who claims a box and scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Player {
    /// The human, `H`.
    Human,
    /// The computer, `C`.
    Computer,
}

impl Player {
    /// The letter drawn in a claimed box.
    pub fn letter(self) -> u8 {
        match self {
            Player::Human => b'H',
            Player::Computer => b'C',
        }
    }

    /// The other player.
    #[must_use]
    pub fn other(self) -> Player {
        match self {
            Player::Human => Player::Computer,
            Player::Computer => Player::Human,
        }
    }
}

/// A dot: its row (0 is `a`, the top) and column (0 is `1`, the left).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dot {
    /// Row, from the top.
    pub row: u8,
    /// Column, from the left.
    pub col: u8,
}

impl Dot {
    /// Its name: row letter, column digit (`a1` is the top-left dot).
    pub fn name(self) -> [u8; 2] {
        [b'a' + self.row, b'1' + self.col]
    }
}

/// An edge between two neighbouring dots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Edge {
    /// Joins dot (row, col) and dot (row, col + 1).
    Horizontal {
        /// Row of both dots.
        row: u8,
        /// Column of the left dot.
        col: u8,
    },
    /// Joins dot (row, col) and dot (row + 1, col).
    Vertical {
        /// Row of the upper dot.
        row: u8,
        /// Column of both dots.
        col: u8,
    },
}

impl Edge {
    /// Its two dots: the left (horizontal) or upper (vertical) one first,
    /// the order COMP-8 names them in.
    pub fn dots(self) -> (Dot, Dot) {
        match self {
            Edge::Horizontal { row, col } => (Dot { row, col }, Dot { row, col: col + 1 }),
            Edge::Vertical { row, col } => (Dot { row, col }, Dot { row: row + 1, col }),
        }
    }

    /// The edge joining two dots, if they are neighbours (in either order).
    pub fn between(a: Dot, b: Dot) -> Option<Edge> {
        let (lo, hi) = if (a.row, a.col) <= (b.row, b.col) {
            (a, b)
        } else {
            (b, a)
        };
        if lo.row == hi.row && hi.col == lo.col + 1 {
            Some(Edge::Horizontal {
                row: lo.row,
                col: lo.col,
            })
        } else if lo.col == hi.col && hi.row == lo.row + 1 {
            Some(Edge::Vertical {
                row: lo.row,
                col: lo.col,
            })
        } else {
            None
        }
    }
}

/// A game's grid of `n` x `n` boxes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    n: u8,
    /// Horizontal edges, row by row: (n + 1) rows of n.
    horizontal: Vec<bool>,
    /// Vertical edges, row by row: n rows of n + 1.
    vertical: Vec<bool>,
    /// Box owners, row by row.
    owners: Vec<Option<Player>>,
}

impl Grid {
    /// An empty grid of `n` x `n` boxes.
    pub fn new(n: u8) -> Grid {
        let n_us = usize::from(n);
        Grid {
            n,
            horizontal: vec![false; (n_us + 1) * n_us],
            vertical: vec![false; n_us * (n_us + 1)],
            owners: vec![None; n_us * n_us],
        }
    }

    /// Boxes per side.
    pub fn size(&self) -> u8 {
        self.n
    }

    fn slot(&self, edge: Edge) -> Option<usize> {
        let n = usize::from(self.n);
        match edge {
            Edge::Horizontal { row, col } if row <= self.n && col < self.n => {
                Some(usize::from(row) * n + usize::from(col))
            }
            Edge::Vertical { row, col } if row < self.n && col <= self.n => {
                Some(usize::from(row) * (n + 1) + usize::from(col))
            }
            _ => None,
        }
    }

    /// Whether `edge` is on the grid and filled.
    pub fn is_filled(&self, edge: Edge) -> bool {
        self.slot(edge).is_some_and(|i| match edge {
            Edge::Horizontal { .. } => self.horizontal.get(i).copied().unwrap_or(false),
            Edge::Vertical { .. } => self.vertical.get(i).copied().unwrap_or(false),
        })
    }

    /// Whether `edge` is on the grid and open.
    pub fn is_open(&self, edge: Edge) -> bool {
        self.slot(edge).is_some() && !self.is_filled(edge)
    }

    /// Whether `dot` is on the grid.
    pub fn has_dot(&self, dot: Dot) -> bool {
        dot.row <= self.n && dot.col <= self.n
    }

    /// Every edge, horizontal ones first, each row left to right.
    pub fn edges(&self) -> impl Iterator<Item = Edge> + use<> {
        let n = self.n;
        let horizontal =
            (0..=n).flat_map(move |row| (0..n).map(move |col| Edge::Horizontal { row, col }));
        let vertical =
            (0..n).flat_map(move |row| (0..=n).map(move |col| Edge::Vertical { row, col }));
        horizontal.chain(vertical)
    }

    /// Every open edge.
    pub fn open_edges(&self) -> impl Iterator<Item = Edge> + '_ {
        self.edges().filter(|&e| self.is_open(e))
    }

    /// The four edges of box (row, col): top, bottom, left, right.
    pub fn box_edges(row: u8, col: u8) -> [Edge; 4] {
        [
            Edge::Horizontal { row, col },
            Edge::Horizontal { row: row + 1, col },
            Edge::Vertical { row, col },
            Edge::Vertical { row, col: col + 1 },
        ]
    }

    /// Filled edges of box (row, col).
    pub fn filled_count(&self, row: u8, col: u8) -> u8 {
        let filled = Self::box_edges(row, col)
            .iter()
            .filter(|&&e| self.is_filled(e))
            .count();
        u8::try_from(filled).unwrap_or(4)
    }

    /// The boxes `edge` borders (one or two), as (row, col).
    pub fn boxes_of(&self, edge: Edge) -> impl Iterator<Item = (u8, u8)> + use<> {
        let n = self.n;
        let (a, b) = match edge {
            Edge::Horizontal { row, col } => (
                row.checked_sub(1).map(|r| (r, col)),
                (row < n).then_some((row, col)),
            ),
            Edge::Vertical { row, col } => (
                col.checked_sub(1).map(|c| (row, c)),
                (col < n).then_some((row, col)),
            ),
        };
        a.into_iter().chain(b)
    }

    /// The owner of box (row, col).
    pub fn owner(&self, row: u8, col: u8) -> Option<Player> {
        let i = usize::from(row) * usize::from(self.n) + usize::from(col);
        self.owners.get(i).copied().flatten()
    }

    /// Fills `edge` for `mover` (APPLY-1); returns the boxes it claimed.
    pub fn fill(&mut self, edge: Edge, mover: Player) -> u8 {
        let Some(i) = self.slot(edge) else { return 0 };
        let cell = match edge {
            Edge::Horizontal { .. } => self.horizontal.get_mut(i),
            Edge::Vertical { .. } => self.vertical.get_mut(i),
        };
        match cell {
            Some(c) if !*c => *c = true,
            _ => return 0,
        }
        let mut claimed = 0;
        for (row, col) in self.boxes_of(edge).collect::<Vec<_>>() {
            if self.filled_count(row, col) == 4 {
                let j = usize::from(row) * usize::from(self.n) + usize::from(col);
                if let Some(o) = self.owners.get_mut(j) {
                    *o = Some(mover);
                    claimed += 1;
                }
            }
        }
        claimed
    }

    /// Points of `player`.
    pub fn score(&self, player: Player) -> u32 {
        let owned = self.owners.iter().filter(|&&o| o == Some(player)).count();
        u32::try_from(owned).unwrap_or(u32::MAX)
    }

    /// Whether every edge is filled.
    pub fn is_full(&self) -> bool {
        self.horizontal.iter().chain(&self.vertical).all(|&f| f)
    }

    /// The grid as DISP-1..4 draw it: dot rows and box rows, then the
    /// column index.
    pub fn draw(&self) -> Vec<u8> {
        let n = self.n;
        let mut out = Vec::with_capacity((2 * usize::from(n) + 2) * (2 * usize::from(n) + 5));
        for row in 0..=n {
            out.push(b'a' + row);
            out.extend_from_slice(b" +");
            for col in 0..n {
                out.push(if self.is_filled(Edge::Horizontal { row, col }) {
                    b'-'
                } else {
                    b' '
                });
                out.push(b'+');
            }
            out.push(b'\n');
            if row < n {
                out.extend_from_slice(b"  ");
                for col in 0..=n {
                    out.push(if self.is_filled(Edge::Vertical { row, col }) {
                        b'|'
                    } else {
                        b' '
                    });
                    if col < n {
                        out.push(self.owner(row, col).map_or(b' ', Player::letter));
                    }
                }
                out.push(b'\n');
            }
        }
        out.extend_from_slice(b"  ");
        for col in 0..=n {
            out.push(b'1' + col);
            out.push(b' ');
        }
        out.push(b'\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disp_empty_2x2() {
        assert_eq!(
            Grid::new(2).draw(),
            b"a + + +\n       \nb + + +\n       \nc + + +\n  1 2 3 \n".to_vec()
        );
    }

    #[test]
    fn disp_the_texts_3x3_example() {
        let mut g = Grid::new(3);
        // Human owns box (a, 2); the computer boxes (b, 3), (c, 2), (c, 3).
        for e in Grid::box_edges(0, 1) {
            g.fill(e, Player::Human);
        }
        for (r, c) in [(1, 2), (2, 1), (2, 2)] {
            for e in Grid::box_edges(r, c) {
                g.fill(e, Player::Computer);
            }
        }
        g.fill(Edge::Horizontal { row: 2, col: 0 }, Player::Human);
        g.fill(Edge::Vertical { row: 0, col: 0 }, Player::Human);
        assert_eq!(
            String::from_utf8(g.draw()).unwrap(),
            "a + +-+ +\n  | |H|  \nb + +-+-+\n      |C|\nc +-+-+-+\n    |C|C|\nd + +-+-+\n  1 2 3 4 \n"
        );
    }

    #[test]
    fn every_row_has_its_width() {
        for n in 2..=8u8 {
            let text = Grid::new(n).draw();
            let lines: Vec<&[u8]> = text
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .collect();
            assert_eq!(lines.len(), 2 * usize::from(n) + 2);
            for l in &lines[..lines.len() - 1] {
                assert_eq!(l.len(), 2 * usize::from(n) + 3);
            }
            assert_eq!(lines[lines.len() - 1].len(), 2 * usize::from(n) + 4);
        }
    }

    #[test]
    fn edges_between_dots_either_order() {
        let a1 = Dot { row: 0, col: 0 };
        let a2 = Dot { row: 0, col: 1 };
        let b1 = Dot { row: 1, col: 0 };
        assert_eq!(
            Edge::between(a2, a1),
            Some(Edge::Horizontal { row: 0, col: 0 })
        );
        assert_eq!(
            Edge::between(b1, a1),
            Some(Edge::Vertical { row: 0, col: 0 })
        );
        assert_eq!(Edge::between(a1, a1), None);
        assert_eq!(Edge::between(a2, b1), None);
    }
}
