//! The valid controls: files every loader must accept (the base game,
//! and the edge cases a strict but wrong loader rejects).

use boxes_reference::grid::Cell;
use boxes_reference::gridfile;
use boxes_reference::layout::cell_line;

use super::Builder;
use crate::class::Control;
use crate::play::{self, RandomGame};

impl Builder<'_> {
    pub(super) fn control(&mut self, control: Control) {
        let p = self.spec.players;
        let h = self.spec.height;
        match control {
            Control::MidGame => {
                let bytes = self.lines.bytes();
                let open = self.base.grid.open_edges();
                self.push("base", format!("{open} edges open"), bytes);
            }
            Control::NoFinalNewline => {
                let mut bytes = self.lines.bytes();
                bytes.pop();
                self.push("base", "the mid-game file less its last byte", bytes);
            }
            Control::ZeroOwnerOnClosedCell => {
                if let Some(cell) = self.pick_cell(true) {
                    let mut state = self.base.clone();
                    state.grid.set_owner(cell, None);
                    self.push(
                        format!("cell-{}-{}", cell.row, cell.col),
                        format!("closed cell ({}, {}) with owner 0", cell.row, cell.col),
                        gridfile::to_bytes(&state),
                    );
                }
            }
            Control::HighestPlayer => {
                let mut state = self.base.clone();
                state.next = play::player(p);
                self.push(
                    "next-player",
                    format!("next player {p}"),
                    gridfile::to_bytes(&state),
                );
                if let Some(cell) = self.pick_cell(true) {
                    let mut state = self.base.clone();
                    state.grid.set_owner(cell, Some(play::player(p)));
                    self.push(
                        "owner",
                        format!("closed cell ({}, {}) owned by {p}", cell.row, cell.col),
                        gridfile::to_bytes(&state),
                    );
                }
            }
            Control::LeadingZeros => {
                let n = self.base.next.number();
                self.edited("next-player", format!("next player written 0{n}"), |l| {
                    *l.line_mut(0) = format!("0{n}").into_bytes();
                });
                if let Some(cell) = self.pick_cell(true) {
                    let index = cell_line(h, cell.row);
                    let value = self.lines.field(index, cell.col);
                    let text = [b"00", &value[..]].concat();
                    let detail = format!(
                        "owner of cell ({}, {}) written {}",
                        cell.row,
                        cell.col,
                        String::from_utf8_lossy(&text)
                    );
                    self.edited("owner", detail, |l| l.set_field(index, cell.col, &text));
                }
                let grid = &self.base.grid;
                let unowned: Vec<Cell> =
                    grid.cells().filter(|&c| grid.owner(c).is_none()).collect();
                if let Some(cell) = unowned.get(self.rng.below(unowned.len())).copied() {
                    let detail = format!("unowned cell ({}, {}) written 00", cell.row, cell.col);
                    self.edited("unowned", detail, |l| {
                        l.set_field(cell_line(h, cell.row), cell.col, b"00");
                    });
                }
            }
            Control::FullyClosed => {
                let game = RandomGame::to_end(self.spec.height, self.spec.width, p, &mut self.rng);
                let scores = game.state.grid.scores(p);
                let best = scores.iter().max().copied().unwrap_or(0);
                self.push(
                    "played-out",
                    format!("a random game played to its end, top score {best}"),
                    gridfile::to_bytes(&game.state),
                );
            }
            Control::NextPlayerNotFirst => {
                let k = self.rng.between(2, p);
                let mut state = self.base.clone();
                state.next = play::player(k);
                self.push(
                    format!("next-{k}"),
                    format!("next player {k}"),
                    gridfile::to_bytes(&state),
                );
            }
        }
    }
}
