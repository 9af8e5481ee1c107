//! Rendering the grid as text (rulings DISP-1..3).
//!
//! The rendered grid is kept as one buffer and updated in place after each
//! move, so a move costs O(1) work plus one write of the buffer.

use crate::grid::{Cell, Direction, Edge, Grid};
use crate::player::Player;

/// The grid as the bytes `boxes` prints: 2H+1 lines of 2W+1 bytes and `\n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    width: usize,
    bytes: Vec<u8>,
}

impl Rendered {
    /// Renders every edge and owner of `grid`.
    pub fn new(grid: &Grid) -> Self {
        let (h, w) = (grid.height(), grid.width());
        let line = 2 * w + 2;
        let mut bytes = vec![b' '; (2 * h + 1) * line];
        for r in 0..=2 * h {
            bytes[r * line + line - 1] = b'\n';
            if r % 2 == 0 {
                for c in 0..=w {
                    bytes[r * line + 2 * c] = b'+';
                }
            }
        }
        let mut out = Self { width: w, bytes };
        for edge in grid.edges() {
            if grid.is_closed(edge) {
                out.close(edge);
            }
        }
        for row in 0..h {
            for col in 0..w {
                let cell = Cell { row, col };
                if let Some(p) = grid.owner(cell) {
                    out.own(cell, p);
                }
            }
        }
        out
    }

    fn line_len(&self) -> usize {
        2 * self.width + 2
    }

    /// Draws `edge` closed. The edge must exist in the rendered grid.
    pub fn close(&mut self, edge: Edge) {
        let line = self.line_len();
        let (at, byte) = match edge.dir {
            Direction::Horizontal => (2 * edge.row * line + 2 * edge.col + 1, b'-'),
            Direction::Vertical => ((2 * edge.row + 1) * line + 2 * edge.col, b'|'),
        };
        if let Some(slot) = self.bytes.get_mut(at) {
            *slot = byte;
        }
    }

    /// Draws `owner`'s symbol in `cell`.
    pub fn own(&mut self, cell: Cell, owner: Player) {
        let at = (2 * cell.row + 1) * self.line_len() + 2 * cell.col + 1;
        if let Some(slot) = self.bytes.get_mut(at) {
            *slot = owner.symbol();
        }
    }

    /// The printed bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gridfile::load_bytes;

    #[test]
    fn disp_1_empty_grid_has_trailing_spaces() {
        let r = Rendered::new(&Grid::new(2, 2));
        assert_eq!(r.as_bytes(), b"+ + +\n     \n+ + +\n     \n+ + +\n");
    }

    #[test]
    fn disp_1_assignment_page_one_grid() {
        let file = b"1\n000\n0100\n011\n0111\n011\n1000\n100\n0,0,0\n0,1,2\n0,0,0\n";
        let state = load_bytes(file, 3, 3, 2);
        let r = state
            .map(|s| Rendered::new(&s.grid).as_bytes().to_vec())
            .ok();
        let expected: &[u8] = b"+ + + +\n  |    \n+ +-+-+\n  |A|B|\n+ +-+-+\n|      \n+-+ + +\n";
        assert_eq!(r.as_deref(), Some(expected));
    }

    #[test]
    fn disp_2_symbols_above_126_written_raw() {
        let mut g = Grid::new(2, 2);
        let p = Player::new(100).unwrap_or(Player::FIRST);
        for e in [Edge::h(0, 0), Edge::h(1, 0), Edge::v(0, 0)] {
            let _ = g.play(e, p);
        }
        let _ = g.play(Edge::v(0, 1), p);
        let r = Rendered::new(&g);
        assert_eq!(&r.as_bytes()[6..12], b"|\xa4|  \n");
    }

    #[test]
    fn disp_3_in_place_update_matches_fresh_render() {
        let mut g = Grid::new(3, 4);
        let mut r = Rendered::new(&g);
        let p = Player::FIRST;
        let edges: Vec<Edge> = g.edges().collect();
        for e in edges.into_iter().rev() {
            if let Ok(done) = g.play(e, p) {
                r.close(e);
                for c in done.iter() {
                    r.own(c, p);
                }
            }
            assert_eq!(r, Rendered::new(&g));
        }
    }
}
