//! The computer's move (COMP-1..7): a first-level list read off the grid
//! (the fourth edges of boxes with three; else the edges that give no box
//! its third; else every open edge), then kept by the largest degrees of
//! freedom, the smallest x-sum, the smallest y-sum. The grid is read once
//! per move: the filled count of every box and the open edges at every
//! dot, then each candidate costs a few lookups.

use crate::grid::{Edge, Grid};

/// What the grid says once per move: filled edges per box, open edges per
/// dot.
struct Counts {
    n: u8,
    filled: Vec<u8>,
    open_at_dot: Vec<u8>,
}

impl Counts {
    fn of(grid: &Grid) -> Counts {
        let n = grid.size();
        let mut filled = Vec::with_capacity(usize::from(n) * usize::from(n));
        for row in 0..n {
            for col in 0..n {
                filled.push(grid.filled_count(row, col));
            }
        }
        let side = usize::from(n) + 1;
        let mut open_at_dot = vec![0u8; side * side];
        for e in grid.open_edges() {
            let (a, b) = e.dots();
            for d in [a, b] {
                if let Some(c) = open_at_dot.get_mut(usize::from(d.row) * side + usize::from(d.col))
                {
                    *c += 1;
                }
            }
        }
        Counts {
            n,
            filled,
            open_at_dot,
        }
    }

    fn filled(&self, (row, col): (u8, u8)) -> u8 {
        self.filled
            .get(usize::from(row) * usize::from(self.n) + usize::from(col))
            .copied()
            .unwrap_or(0)
    }

    /// COMP-5: open edges at the edge's first dot plus at its second.
    fn freedom(&self, e: Edge) -> u8 {
        let side = usize::from(self.n) + 1;
        let (a, b) = e.dots();
        [a, b]
            .iter()
            .map(|d| {
                self.open_at_dot
                    .get(usize::from(d.row) * side + usize::from(d.col))
                    .copied()
                    .unwrap_or(0)
            })
            .sum()
    }
}

/// The first-level list (COMP-2..4), in the grid's edge order, each edge
/// once.
pub fn first_level(grid: &Grid) -> Vec<Edge> {
    let counts = Counts::of(grid);
    first_level_with(grid, &counts)
}

fn first_level_with(grid: &Grid, counts: &Counts) -> Vec<Edge> {
    let open: Vec<Edge> = grid.open_edges().collect();
    let completing: Vec<Edge> = open
        .iter()
        .copied()
        .filter(|&e| grid.boxes_of(e).any(|b| counts.filled(b) == 3))
        .collect();
    if !completing.is_empty() {
        return completing;
    }
    let safe: Vec<Edge> = open
        .iter()
        .copied()
        .filter(|&e| grid.boxes_of(e).all(|b| counts.filled(b) != 2))
        .collect();
    if safe.is_empty() { open } else { safe }
}

/// x-sum and y-sum of an edge's two dots (COMP-1: x the column, y the row
/// from the top, both 0-based).
fn sums(e: Edge) -> (u8, u8) {
    let (a, b) = e.dots();
    (a.col + b.col, a.row + b.row)
}

/// Which first-level list the computer chose from (COMP-2..4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FirstLevel {
    /// COMP-2: the fourth edges of boxes with three.
    Complete,
    /// COMP-3: the edges that give no box its third.
    Safe,
    /// COMP-4: every open edge.
    Any,
}

/// The level that left one candidate (COMP-5..7), or none needed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TieLevel {
    /// The first-level list had one edge.
    Alone,
    /// COMP-5: the degrees of freedom.
    Freedom,
    /// COMP-6: the x-sum.
    XSum,
    /// COMP-7: the y-sum.
    YSum,
}

/// A computer move and how it was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// The edge.
    pub edge: Edge,
    /// The list it came from.
    pub first: FirstLevel,
    /// The level that settled it.
    pub settled_by: TieLevel,
}

/// An edge of the first-level list with the keys the tie-break levels
/// compare (COMP-5..7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    /// The edge.
    pub edge: Edge,
    /// COMP-5: open edges at its two dots (more is better).
    pub freedom: u8,
    /// COMP-6: the sum of its dots' columns (less is better).
    pub x_sum: u8,
    /// COMP-7: the sum of its dots' rows (less is better).
    pub y_sum: u8,
}

/// The first-level list the computer chooses from, each edge with its
/// tie-break keys, in the grid's edge order; `None` when no edge is open.
pub fn ranked(grid: &Grid) -> Option<(FirstLevel, Vec<Candidate>)> {
    let counts = Counts::of(grid);
    let edges = first_level_with(grid, &counts);
    let first = match edges.first() {
        Some(&e) if grid.boxes_of(e).any(|b| counts.filled(b) == 3) => FirstLevel::Complete,
        Some(_)
            if grid.open_edges().count() == edges.len()
                && grid
                    .open_edges()
                    .any(|e| grid.boxes_of(e).any(|b| counts.filled(b) == 2)) =>
        {
            FirstLevel::Any
        }
        Some(_) => FirstLevel::Safe,
        None => return None,
    };
    let candidates = edges
        .into_iter()
        .map(|edge| {
            let (x_sum, y_sum) = sums(edge);
            Candidate {
                edge,
                freedom: counts.freedom(edge),
                x_sum,
                y_sum,
            }
        })
        .collect();
    Some((first, candidates))
}

/// The computer's edge, or `None` when no edge is open.
pub fn choose(grid: &Grid) -> Option<Edge> {
    decide(grid).map(|d| d.edge)
}

/// The computer's move with the levels that decided it: the candidate with
/// the most freedom, then the smallest x-sum, then the smallest y-sum (two
/// edges never share all three: they would join the same two dots).
pub fn decide(grid: &Grid) -> Option<Decision> {
    let (first, candidates) = ranked(grid)?;
    let best = candidates
        .iter()
        .min_by_key(|c| (std::cmp::Reverse(c.freedom), c.x_sum, c.y_sum))?;
    let tied = |same: &dyn Fn(&Candidate) -> bool| candidates.iter().filter(|c| same(c)).count();
    let settled_by = if candidates.len() == 1 {
        TieLevel::Alone
    } else if tied(&|c| c.freedom == best.freedom) == 1 {
        TieLevel::Freedom
    } else if tied(&|c| c.freedom == best.freedom && c.x_sum == best.x_sum) == 1 {
        TieLevel::XSum
    } else {
        TieLevel::YSum
    };
    Some(Decision {
        edge: best.edge,
        first,
        settled_by,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Dot, Player};
    use crate::moves::{Line, read};

    fn play(grid: &mut Grid, line: &str) {
        let Line::Move(e) = read(line.as_bytes(), grid) else {
            panic!("{line} is not a move")
        };
        grid.fill(e, Player::Human);
    }

    fn named(e: Edge) -> String {
        let (a, b) = e.dots();
        let n = |d: Dot| String::from_utf8(d.name().to_vec()).unwrap();
        format!("{} and {}", n(a), n(b))
    }

    #[test]
    fn worked_decision_1_after_a1_a2_the_computer_plays_b1_b2() {
        let mut g = Grid::new(2);
        play(&mut g, "a1 a2");
        assert_eq!(first_level(&g).len(), 11);
        assert_eq!(named(choose(&g).unwrap()), "b1 and b2");
    }

    #[test]
    fn worked_decision_2_a_completion_then_c1_c2() {
        let mut g = Grid::new(2);
        play(&mut g, "a1 a2");
        let e = choose(&g).unwrap();
        g.fill(e, Player::Computer);
        play(&mut g, "a2 b2");
        assert_eq!(first_level(&g), vec![Edge::Vertical { row: 0, col: 0 }]);
        let e = choose(&g).unwrap();
        assert_eq!(named(e), "a1 and b1");
        assert_eq!(g.fill(e, Player::Computer), 1);
        assert_eq!(named(choose(&g).unwrap()), "c1 and c2");
    }

    #[test]
    fn worked_decision_3_the_fourth_level() {
        let mut g = Grid::new(2);
        play(&mut g, "b1 b2");
        assert_eq!(named(choose(&g).unwrap()), "a2 and b2");
    }

    proptest::proptest! {
        /// On any reachable grid: the computer picks an open edge, one of
        /// its first-level list, and a game played out by it alone ends
        /// right after a claim (APPLY-4).
        #[test]
        fn the_chooser_picks_an_open_edge_and_games_end_after_a_claim(
            n in 2u8..=8,
            drawn in proptest::collection::vec(0usize..200, 0..60),
        ) {
            let mut g = Grid::new(n);
            let edges: Vec<Edge> = g.edges().collect();
            for i in drawn {
                g.fill(edges[i % edges.len()], Player::Human);
            }
            let mut last_claimed = None;
            while let Some(e) = choose(&g) {
                proptest::prop_assert!(g.is_open(e));
                proptest::prop_assert!(first_level(&g).contains(&e));
                last_claimed = Some(g.fill(e, Player::Computer));
            }
            proptest::prop_assert!(g.is_full());
            // The last edge always completes a box.
            if let Some(claimed) = last_claimed {
                proptest::prop_assert!(claimed > 0);
            }
        }
    }

    #[test]
    fn comp_4_every_open_edge_when_each_gives_a_third() {
        // 2 x 2 with every box at two filled edges: no safe edge is left.
        let mut g = Grid::new(2);
        for line in [
            "a1 a2", "a2 a3", "c1 c2", "c2 c3", "a1 b1", "b1 c1", "a3 b3", "b3 c3",
        ] {
            play(&mut g, line);
        }
        let open = g.open_edges().count();
        assert_eq!(open, 4);
        assert_eq!(first_level(&g).len(), open);
    }
}
