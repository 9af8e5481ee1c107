//! The grid file's line layout (FILE-1), spelled once: which line of a file
//! for an H×W grid holds the next player, which edge row or which cell row.
//! The loader reads by it, and the corpus and the session generator edit
//! files by it, so a file's shape is never re-derived elsewhere.

use crate::grid::Direction;

/// What one line of a grid file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// Line 0: the next player's number (FILE-2).
    Next,
    /// An edge row of `len` `0`/`1` bytes (FILE-1).
    Edges {
        /// Row of corners the edges start from.
        row: usize,
        /// Which edges the row lists.
        dir: Direction,
        /// How many bytes the row holds: W for `h`, W+1 for `v`.
        len: usize,
    },
    /// The owners of cell row `row`, W comma-separated numbers (FILE-3).
    Cells {
        /// Row of cells.
        row: usize,
    },
    /// Past the last cell row (FILE-5).
    Extra,
}

/// How many lines a file for a grid of `height` rows has: the next player,
/// 2H+1 edge rows, H cell rows.
pub const fn line_count(height: usize) -> usize {
    3 * height + 2
}

/// Line index (0-based) of the horizontal edges from corner row `r`.
pub const fn horizontal_line(r: usize) -> usize {
    1 + 2 * r
}

/// Line index of the vertical edges from corner row `r`.
pub const fn vertical_line(r: usize) -> usize {
    2 + 2 * r
}

/// Line index of the first cell row in a grid of `height` rows.
pub const fn first_cell_line(height: usize) -> usize {
    2 * height + 2
}

/// Line index of cell row `r` in a grid of `height` rows.
pub const fn cell_line(height: usize, r: usize) -> usize {
    first_cell_line(height) + r
}

/// What line `line` of a file for an H×W grid holds.
pub const fn kind_of(height: usize, width: usize, line: usize) -> LineKind {
    if line == 0 {
        LineKind::Next
    } else if line < first_cell_line(height) {
        let i = line - 1;
        if i.is_multiple_of(2) {
            LineKind::Edges {
                row: i / 2,
                dir: Direction::Horizontal,
                len: width,
            }
        } else {
            LineKind::Edges {
                row: i / 2,
                dir: Direction::Vertical,
                len: width + 1,
            }
        }
    } else if line < line_count(height) {
        LineKind::Cells {
            row: line - first_cell_line(height),
        }
    } else {
        LineKind::Extra
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_1_every_line_of_a_2x3_file() {
        let kinds: Vec<LineKind> = (0..=line_count(2)).map(|l| kind_of(2, 3, l)).collect();
        let h = |row| LineKind::Edges {
            row,
            dir: Direction::Horizontal,
            len: 3,
        };
        let v = |row| LineKind::Edges {
            row,
            dir: Direction::Vertical,
            len: 4,
        };
        assert_eq!(
            kinds,
            [
                LineKind::Next,
                h(0),
                v(0),
                h(1),
                v(1),
                h(2),
                LineKind::Cells { row: 0 },
                LineKind::Cells { row: 1 },
                LineKind::Extra,
            ]
        );
        assert_eq!(horizontal_line(2), 5);
        assert_eq!(vertical_line(1), 4);
        assert_eq!(cell_line(2, 1), 7);
    }
}
