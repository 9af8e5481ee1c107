//! Grid files for sessions: corpus files, files that break a FILE rule
//! not marked ambiguous, and files whose outcome rests on an ambiguous
//! FILE ruling. Each is a valid file from the reference's serializer with
//! one change, placed by the reference's line layout.

use boxes_reference::layout::{cell_line, first_cell_line, line_count};
use boxes_reference::{Cell, State, gridfile};

use super::generator::Generator;
use crate::filelines::Lines;
use crate::samples;
use crate::spec::Spec;

impl Generator {
    /// A faulty file of one of the corpus's error classes (an ambiguous
    /// class only when allowed), for `boxes H W P`.
    pub(super) fn corpus_file(&mut self, h: usize, w: usize, p: usize) -> Option<Vec<u8>> {
        let spec = Spec::new(h, w, p, self.rng.next_u64()).ok()?;
        let mut faulty: Vec<samples::Sample> = samples::build(&spec)
            .into_iter()
            .filter(|s| !s.class.is_control() && (self.ambiguous || !s.class.ambiguous()))
            .collect();
        let i = self.rng.below(faulty.len());
        (i < faulty.len()).then(|| faulty.swap_remove(i).bytes)
    }

    /// A file that breaks a FILE rule not marked ambiguous (FILE-6).
    pub(super) fn faulty_file(&mut self, state: &State) -> Vec<u8> {
        let (h, w, p) = (state.grid.height(), state.grid.width(), state.players);
        let mut lines = Lines::of(state);
        let edge_row = self.rng.range(1, first_cell_line(h) - 1);
        let cell_row = self.rng.range(first_cell_line(h), line_count(h) - 1);
        match self.rng.below(10) {
            0 => return Vec::new(),
            1 => lines.0.truncate(self.rng.range(1, line_count(h) - 1)),
            2 => {
                let next = [
                    String::new(),
                    "0".to_owned(),
                    (p + 1).to_string(),
                    "x".to_owned(),
                    "-1".to_owned(),
                    "+1".to_owned(),
                    " 1".to_owned(),
                    "1 ".to_owned(),
                    "99999999999999999999".to_owned(),
                    "1x".to_owned(),
                    "1\r".to_owned(),
                ];
                let i = self.rng.below(next.len());
                lines.0[0] = next[i].clone().into_bytes();
            }
            3 => {
                let foreign = self
                    .rng
                    .pick(&[b'2', b' ', b'\t', b'\r', b'a', 0, 0xff, b','])
                    .unwrap_or(b'2');
                let row = &mut lines.0[edge_row];
                let at = self.rng.below(row.len());
                row[at] = foreign;
            }
            4 => {
                let row = &mut lines.0[edge_row];
                let at = self.rng.below(row.len());
                row.remove(at);
            }
            5 => {
                let extra = if self.rng.percent(50) { b'0' } else { b'1' };
                lines.0[edge_row].push(extra);
            }
            6 => {
                let mut fields = lines.fields(cell_row);
                if self.rng.percent(50) && fields.len() > 1 {
                    fields.pop();
                } else {
                    fields.push(b"0".to_vec());
                }
                lines.set_fields(cell_row, &fields);
            }
            7 => {
                let mut fields = lines.fields(cell_row);
                let bad = [
                    "x".to_owned(),
                    "-1".to_owned(),
                    "+1".to_owned(),
                    " 1".to_owned(),
                    "1 ".to_owned(),
                    (p + 1).to_string(),
                    "99999999999999999999".to_owned(),
                    "1\t".to_owned(),
                ];
                let i = self.rng.below(bad.len());
                let at = self.rng.below(fields.len());
                fields[at] = bad[i].clone().into_bytes();
                lines.set_fields(cell_row, &fields);
            }
            8 => {
                for line in &mut lines.0 {
                    line.push(b'\r');
                }
            }
            _ => {
                // A valid file for a grid one row or column larger or smaller.
                let (fh, fw) = match self.rng.below(4) {
                    0 => (h + 1, w),
                    1 => (h, w + 1),
                    2 if h > 2 => (h - 1, w),
                    _ if w > 2 => (h, w - 1),
                    _ => (h + 1, w),
                };
                let moves = self.rng.below(fh * fw);
                let other = self.random_state(fh, fw, p, moves);
                return gridfile::to_bytes(&other);
            }
        }
        lines.bytes()
    }

    /// A file whose outcome rests on an ambiguous FILE ruling, or `None` for
    /// a directory in place of the file (ARGS-6).
    pub(super) fn ambiguous_file(&mut self, state: &State) -> Option<Vec<u8>> {
        let h = state.grid.height();
        let mut lines = Lines::of(state);
        let cell_row = self.rng.range(first_cell_line(h), line_count(h) - 1);
        let r = cell_row - first_cell_line(h);
        match self.rng.below(8) {
            0 => {
                let mut bytes = lines.bytes();
                bytes.pop();
                return Some(bytes);
            }
            1 => lines.0[0].insert(0, b'0'),
            2 => {
                let mut fields = lines.fields(cell_row);
                let at = self.rng.below(fields.len());
                fields[at].insert(0, b'0');
                lines.set_fields(cell_row, &fields);
            }
            3 => {
                let mut fields = lines.fields(cell_row);
                if self.rng.percent(50) {
                    let at = self.rng.below(fields.len());
                    fields[at].clear();
                    lines.set_fields(cell_row, &fields);
                } else {
                    lines.0[cell_row].push(b',');
                }
            }
            4 => {
                let grid = &state.grid;
                let open: Vec<Cell> = grid.cells().filter(|&c| !grid.is_cell_closed(c)).collect();
                let cell = self.rng.pick(&open)?;
                let row = cell_line(h, cell.row);
                let mut fields = lines.fields(row);
                fields[cell.col] = self.rng.range(1, state.players).to_string().into_bytes();
                lines.set_fields(row, &fields);
            }
            5 => {
                let grid = &state.grid;
                let closed: Vec<Cell> = grid.cells().filter(|&c| grid.is_cell_closed(c)).collect();
                let cell = self.rng.pick(&closed).unwrap_or(Cell { row: r, col: 0 });
                let row = cell_line(h, cell.row);
                let mut fields = lines.fields(row);
                fields[cell.col] = b"0".to_vec();
                lines.set_fields(row, &fields);
            }
            6 => {
                let extra = self.rng.pick(&[&b""[..], b"0", b" "]).unwrap_or(b"");
                lines.0.push(extra.to_vec());
            }
            _ => return None,
        }
        Some(lines.bytes())
    }
}
