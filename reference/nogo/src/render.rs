//! The grid as printed (rulings GRID-1, GRID-2): kept rendered and updated
//! one byte per stone, so printing it after a move costs one copy.

use crate::grid::{Cell, Grid};

/// The H+2 lines of GRID-1, each ending in `\n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    bytes: Vec<u8>,
    width: usize,
}

impl Rendered {
    /// Renders `grid`: `/`, W `-`, `\`; then `|` row `|` per row; then `\`,
    /// W `-`, `/`. No spaces anywhere.
    pub fn new(grid: &Grid) -> Self {
        let (h, w) = (grid.height(), grid.width());
        let line = w + 3;
        let mut bytes = Vec::with_capacity(line * (h + 2));
        border(&mut bytes, w, b'/', b'\\');
        for r in 0..h {
            bytes.push(b'|');
            bytes.extend(grid.row(r).iter().map(|s| s.symbol()));
            bytes.extend_from_slice(b"|\n");
        }
        border(&mut bytes, w, b'\\', b'/');
        Self { bytes, width: w }
    }

    /// Shows `symbol` on `cell`.
    pub fn set(&mut self, cell: Cell, symbol: u8) {
        if cell.col >= self.width {
            return;
        }
        // Checked: a cell far off the board must change nothing, not wrap.
        let at = cell
            .row
            .checked_add(1)
            .and_then(|r| r.checked_mul(self.width + 3))
            .and_then(|i| i.checked_add(1 + cell.col));
        if let Some(b) = at.and_then(|i| self.bytes.get_mut(i)) {
            *b = symbol;
        }
    }

    /// The printed bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }
}

fn border(bytes: &mut Vec<u8>, width: usize, left: u8, right: u8) {
    bytes.push(left);
    bytes.resize(bytes.len() + width, b'-');
    bytes.push(right);
    bytes.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::grid_of;

    #[test]
    fn grid_1_empty_4x4() {
        let expected: &[u8] = b"/----\\\n|....|\n|....|\n|....|\n|....|\n\\----/\n";
        assert_eq!(Rendered::new(&Grid::new(4, 4)).as_bytes(), expected);
    }

    #[test]
    fn grid_1_stones_and_non_square() {
        let g = grid_of(&["O....", "...X.", ".....", "....X"]);
        let expected: &[u8] = b"/-----\\\n|O....|\n|...X.|\n|.....|\n|....X|\n\\-----/\n";
        assert_eq!(Rendered::new(&g).as_bytes(), expected);
        let mut r = Rendered::new(&Grid::new(4, 5));
        r.set(Cell::new(0, 0), b'O');
        r.set(Cell::new(1, 3), b'X');
        r.set(Cell::new(3, 4), b'X');
        r.set(Cell::new(3, 5), b'X');
        r.set(Cell::new(9, 0), b'X');
        r.set(Cell::new(usize::MAX, 0), b'X');
        r.set(Cell::new(0, usize::MAX), b'X');
        r.set(Cell::new(usize::MAX / 2, 0), b'X');
        assert_eq!(r.as_bytes(), expected);
    }
}
