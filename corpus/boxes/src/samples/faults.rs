//! The faulty samples of each error class: each the base file with one
//! precise change (lines cut, a next player out of range, an edge or cell
//! line wrong, lines after the grid, CR LF line ends, other dimensions).

use boxes_reference::Grid;
use boxes_reference::grid::Cell;
use boxes_reference::gridfile;
use boxes_reference::layout::{cell_line, horizontal_line, vertical_line};

use super::{Builder, cut_points, pick_rows};
use crate::class::{CellFault, EdgeFault, EdgeRow, NextFault, Shift};
use crate::play;

impl Builder<'_> {
    pub(super) fn too_few_lines(&mut self) {
        let total = self.spec.lines();
        let all = self.lines.bytes();
        // Offsets just past each line's `\n`: `ends[k - 1]` keeps k lines.
        let ends: Vec<usize> = all
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'\n')
            .map(|(i, _)| i + 1)
            .collect();
        for kept in cut_points(self.spec.height, &mut self.rng) {
            let Some(&end) = ends.get(kept - 1) else {
                continue;
            };
            self.push(
                format!("keep-{kept:04}"),
                format!("only the first {kept} of {total} lines"),
                all[..end].to_vec(),
            );
        }
    }

    pub(super) fn next_player(&mut self, fault: NextFault) {
        let n = self.base.next.number();
        let p = self.spec.players;
        let variants: Vec<(&str, String, String)> = match fault {
            NextFault::Empty => vec![("empty", String::new(), "an empty first line".into())],
            NextFault::NonNumeric => vec![
                ("symbol", "A".into(), "the symbol A instead of 1".into()),
                (
                    "trailing-letter",
                    format!("{n}x"),
                    format!("{n} followed by the letter x"),
                ),
            ],
            NextFault::Signed => vec![
                ("plus", format!("+{n}"), format!("+{n}")),
                ("minus", format!("-{n}"), format!("-{n}")),
            ],
            NextFault::Spaced => vec![
                ("leading", format!(" {n}"), format!("a space before {n}")),
                ("trailing", format!("{n} "), format!("a space after {n}")),
            ],
            NextFault::Zero => vec![("zero", "0".into(), "0".into())],
            NextFault::AbovePlayers => vec![(
                "p-plus-1",
                (p + 1).to_string(),
                format!("{} with {p} players", p + 1),
            )],
            NextFault::Huge => vec![
                (
                    "twenty-nines",
                    "9".repeat(20),
                    "twenty 9s, beyond 64 bits".into(),
                ),
                (
                    "wraps-32",
                    "4294967297".into(),
                    "2^32+1, which is 1 in 32 bits".into(),
                ),
                (
                    "wraps-64",
                    "18446744073709551617".into(),
                    "2^64+1, which is 1 in 64 bits".into(),
                ),
            ],
        };
        for (variant, text, detail) in variants {
            self.edited(variant, format!("first line {detail}"), |l| {
                *l.line_mut(0) = text.into_bytes();
            });
        }
    }

    pub(super) fn edge(&mut self, row: EdgeRow, fault: EdgeFault) {
        let (h, w) = (self.spec.height, self.spec.width);
        let (count, len) = match row {
            EdgeRow::Horizontal => (h + 1, w),
            EdgeRow::Vertical => (h, w + 1),
        };
        for r in pick_rows(count, &mut self.rng) {
            let index = match row {
                EdgeRow::Horizontal => horizontal_line(r),
                EdgeRow::Vertical => vertical_line(r),
            };
            let col = self.rng.below(len);
            let (detail, variant) = match fault {
                EdgeFault::TooShort => (
                    format!("row {r} without its character {col}"),
                    format!("row-{r}"),
                ),
                EdgeFault::TooLong => (format!("row {r} with a 0 appended"), format!("row-{r}")),
                EdgeFault::Byte(_) => (
                    format!("row {r}, character {col}"),
                    format!("row-{r}-col-{col}"),
                ),
            };
            self.edited(variant, detail, |l| {
                let line = l.line_mut(index);
                match fault {
                    EdgeFault::TooShort => {
                        if col < line.len() {
                            line.remove(col);
                        }
                    }
                    EdgeFault::TooLong => line.push(b'0'),
                    EdgeFault::Byte(b) => {
                        if let Some(slot) = line.get_mut(col) {
                            *slot = b.byte();
                        }
                    }
                }
            });
        }
    }

    pub(super) fn cell(&mut self, fault: CellFault) {
        let (h, w, p) = (self.spec.height, self.spec.width, self.spec.players);
        match fault {
            CellFault::AbovePlayers => {
                let Some(cell) = self.pick_cell(true) else {
                    return;
                };
                let index = cell_line(h, cell.row);
                for (variant, value, why) in [
                    ("p-plus-1", (p + 1).to_string(), format!("{p} players")),
                    ("256", "256".into(), "0 in 8 bits".into()),
                    ("wraps-32", "4294967297".into(), "1 in 32 bits".into()),
                ] {
                    let detail =
                        format!("cell ({}, {}) owned by {value} ({why})", cell.row, cell.col);
                    self.edited(variant, detail, |l| {
                        l.set_field(index, cell.col, value.as_bytes());
                    });
                }
            }
            CellFault::OwnerOnOpenCell => {
                let open: Vec<Cell> = self
                    .base
                    .grid
                    .cells()
                    .filter(|&c| !self.base.grid.is_cell_closed(c))
                    .collect();
                let random = open.get(self.rng.below(open.len())).copied();
                // The open cell with the most closed edges: a loader that
                // checks only some of the four edges misses it.
                let nearly = open
                    .iter()
                    .copied()
                    .max_by_key(|&c| (closed_sides(&self.base.grid, c), usize::MAX - c.row));
                let mut picked: Vec<(&str, Cell)> = Vec::new();
                if let Some(c) = random {
                    picked.push(("random", c));
                }
                if let Some(c) = nearly.filter(|c| Some(*c) != random) {
                    picked.push(("most-closed", c));
                }
                for (variant, cell) in picked {
                    let owner = self.rng.between(1, p);
                    let sides = closed_sides(&self.base.grid, cell);
                    let detail = format!(
                        "cell ({}, {}) with {sides} of 4 edges closed owned by {owner}",
                        cell.row, cell.col
                    );
                    self.edited(
                        format!("{variant}-cell-{}-{}", cell.row, cell.col),
                        detail,
                        |l| {
                            l.set_field(
                                cell_line(h, cell.row),
                                cell.col,
                                owner.to_string().as_bytes(),
                            );
                        },
                    );
                }
            }
            _ => {
                for r in pick_rows(h, &mut self.rng) {
                    self.cell_row(fault, r, w);
                }
            }
        }
    }

    /// The faults that are about one row's text.
    fn cell_row(&mut self, fault: CellFault, r: usize, w: usize) {
        let index = cell_line(self.spec.height, r);
        let col = self.rng.below(w);
        let value = self.lines.field(index, col);
        let shown = String::from_utf8_lossy(&value).into_owned();
        let row = format!("row-{r}");
        match fault {
            CellFault::TooFewFields => {
                self.edited(row, format!("row {r} without its last owner"), |l| {
                    let line = l.line_mut(index);
                    let cut = line.iter().rposition(|&b| b == b',').unwrap_or(0);
                    line.truncate(cut);
                });
            }
            CellFault::TooManyFields => {
                self.edited(row, format!("row {r} with ,0 appended"), |l| {
                    l.line_mut(index).extend_from_slice(b",0");
                });
            }
            CellFault::EmptyField => {
                // Never the last field: that would read as a trailing comma.
                let col = self.rng.below(w.saturating_sub(1));
                self.edited(
                    format!("row-{r}-col-{col}"),
                    format!("row {r}, owner {col} empty"),
                    |l| l.set_field(index, col, b""),
                );
            }
            CellFault::TrailingComma => {
                self.edited(row, format!("row {r} with a comma appended"), |l| {
                    l.line_mut(index).push(b',');
                });
            }
            CellFault::NonNumeric => {
                self.edited(
                    format!("row-{r}-col-{col}"),
                    format!("row {r}, owner {col} is the symbol A instead of {shown}"),
                    |l| l.set_field(index, col, b"A"),
                );
            }
            CellFault::Signed | CellFault::Spaced => {
                let pairs: [(&str, Vec<u8>); 2] = if fault == CellFault::Signed {
                    [
                        ("plus", [b"+", &value[..]].concat()),
                        ("minus", [b"-", &value[..]].concat()),
                    ]
                } else {
                    [
                        ("leading", [b" ", &value[..]].concat()),
                        ("trailing", [&value[..], b" "].concat()),
                    ]
                };
                for (how, text) in pairs {
                    let detail = format!(
                        "row {r}, owner {col} written {:?}",
                        String::from_utf8_lossy(&text)
                    );
                    self.edited(format!("row-{r}-col-{col}-{how}"), detail, |l| {
                        l.set_field(index, col, &text);
                    });
                }
            }
            CellFault::AbovePlayers | CellFault::OwnerOnOpenCell => {}
        }
    }

    /// A random cell that is owned (`owned`) or closed-and-owned; `None`
    /// when the base has none (never for [`play::mid_game`] states).
    pub(super) fn pick_cell(&mut self, owned: bool) -> Option<Cell> {
        let grid = &self.base.grid;
        let found: Vec<Cell> = grid
            .cells()
            .filter(|&c| grid.owner(c).is_some() == owned && grid.is_cell_closed(c))
            .collect();
        found.get(self.rng.below(found.len())).copied()
    }

    pub(super) fn lines_after_grid(&mut self) {
        let last = self.lines.0.last().cloned().unwrap_or_default();
        let extra: [(&str, &str, Vec<u8>); 3] = [
            ("blank-line", "an empty line", Vec::new()),
            ("repeated-cell-row", "the last cell row again", last),
            ("text-line", "the line `end`", b"end".to_vec()),
        ];
        for (variant, detail, line) in extra {
            self.edited(variant, detail, |l| l.0.push(line));
        }
    }

    pub(super) fn crlf(&mut self) {
        let all = self.lines.joined(b"\r\n");
        self.push("every-line", "every line ends in CR LF", all);
        let last = self.lines.0.len().saturating_sub(1);
        for (variant, detail, index) in [
            ("first-line", "only the first line ends in CR LF", 0),
            ("last-line", "only the last line ends in CR LF", last),
        ] {
            self.edited(variant, detail, |l| l.line_mut(index).push(b'\r'));
        }
    }

    pub(super) fn other_dimensions(&mut self, shift: Shift) {
        let (h, w) = shift.apply(self.spec.height, self.spec.width);
        let game = play::mid_game(h, w, self.spec.players, &mut self.rng);
        self.push(
            format!("height-{h}-width-{w}"),
            format!(
                "written for {h}x{w} instead of {}x{}",
                self.spec.height, self.spec.width
            ),
            gridfile::to_bytes(&game.state),
        );
    }
}

fn closed_sides(grid: &Grid, cell: Cell) -> usize {
    use boxes_reference::Edge;
    let Cell { row, col } = cell;
    [
        Edge::h(row, col),
        Edge::h(row + 1, col),
        Edge::v(row, col),
        Edge::v(row, col + 1),
    ]
    .into_iter()
    .filter(|&e| grid.is_closed(e))
    .count()
}
