//! Builds the corpus's files in memory: for each [`Class`], one or more
//! variants made from a valid state by random play. Valid files come from
//! the reference's own serializer (`gridfile::to_bytes`); faulty files are
//! that text with one precise change, so each breaks exactly one rule.
//!
//! Past 600 lines: a table of samples, one per error class.

use boxes_reference::grid::Cell;
use boxes_reference::gridfile;
use boxes_reference::layout::{
    cell_line, first_cell_line, horizontal_line, line_count, vertical_line,
};
use boxes_reference::{Grid, State};

use crate::class::{CellFault, Class, Control, EdgeFault, EdgeRow, NextFault, Shift};
use crate::filelines::Lines;
use crate::play::{self, RandomGame};
use crate::rng::SplitMix64;
use crate::spec::Spec;

/// One generated file before it is written: which class, which variant of
/// it, what exactly was done, and the bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    /// The class the file belongs to.
    pub class: Class,
    /// A kebab-case name unique within the class: the file's stem.
    pub variant: String,
    /// What this variant holds, beyond the class description.
    pub detail: String,
    /// The file's contents.
    pub bytes: Vec<u8>,
}

impl Sample {
    /// The file's path inside a corpus folder, `/`-separated.
    pub fn file(&self) -> String {
        format!("{}/{}.grid", self.class.name(), self.variant)
    }

    /// The class description and the variant's detail, in one line.
    pub fn description(&self) -> String {
        format!("{}: {}", self.class.description(), self.detail)
    }
}

/// Grids up to this many lines are cut after every line; larger ones after
/// a sample, so a 999-row corpus does not hold thousands of multi-megabyte
/// prefixes.
pub const MAX_CUTS: usize = 64;

/// How many lines each `too-few-lines` file keeps, ascending: every count
/// in 1..3H+2 for small grids; for larger ones every boundary between line
/// kinds (next player, edge rows, cell rows, the last line) plus random
/// counts, [`MAX_CUTS`] in all.
fn cut_points(height: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let total = line_count(height);
    if total - 1 <= MAX_CUTS {
        return (1..total).collect();
    }
    let mut kept: std::collections::BTreeSet<usize> = [
        1,
        2,
        3,
        first_cell_line(height) - 1,
        first_cell_line(height),
        total - 1,
    ]
    .into();
    while kept.len() < MAX_CUTS {
        kept.insert(rng.between(1, total - 1));
    }
    kept.into_iter().collect()
}

/// First, last and one random row out of `count`, without repeats.
fn pick_rows(count: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let mut rows = vec![0, count.saturating_sub(1), rng.below(count)];
    rows.sort_unstable();
    rows.dedup();
    rows
}

/// Builds every sample of a corpus, class by class in [`Class::all`] order.
pub fn build(spec: &Spec) -> Vec<Sample> {
    let root = SplitMix64::new(spec.seed);
    let base = base_state(spec);
    let mut out = Vec::new();
    for class in Class::all() {
        let mut b = Builder {
            spec,
            base: &base,
            lines: Lines::of(&base),
            // Keyed by name, so adding a class never moves another's draws.
            rng: root.fork(fnv1a(class.name().as_bytes())),
            class,
            out: &mut out,
        };
        b.class();
    }
    out
}

/// The valid base file every faulty sample is made from, and that the
/// exhaustive mode mutates.
pub fn base_state(spec: &Spec) -> State {
    let root = SplitMix64::new(spec.seed);
    play::mid_game(
        spec.height,
        spec.width,
        spec.players,
        &mut root.fork(u64::MAX),
    )
    .state
}

struct Builder<'a> {
    spec: &'a Spec,
    base: &'a State,
    lines: Lines,
    rng: SplitMix64,
    class: Class,
    out: &'a mut Vec<Sample>,
}

impl Builder<'_> {
    fn push(&mut self, variant: impl Into<String>, detail: impl Into<String>, bytes: Vec<u8>) {
        self.out.push(Sample {
            class: self.class,
            variant: variant.into(),
            detail: detail.into(),
            bytes,
        });
    }

    /// Pushes the base text with `edit` applied.
    fn edited(
        &mut self,
        variant: impl Into<String>,
        detail: impl Into<String>,
        edit: impl FnOnce(&mut Lines),
    ) {
        let mut lines = self.lines.clone();
        edit(&mut lines);
        let bytes = lines.bytes();
        self.push(variant, detail, bytes);
    }

    fn class(&mut self) {
        match self.class {
            Class::EmptyFile => self.push("empty", "zero bytes", Vec::new()),
            Class::TooFewLines => self.too_few_lines(),
            Class::NextPlayer(f) => self.next_player(f),
            Class::Edge(row, f) => self.edge(row, f),
            Class::Cell(f) => self.cell(f),
            Class::LinesAfterGrid => self.lines_after_grid(),
            Class::CrlfLineEnds => self.crlf(),
            Class::OtherDimensions(s) => self.other_dimensions(s),
            Class::Valid(c) => self.control(c),
        }
    }

    fn too_few_lines(&mut self) {
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

    fn next_player(&mut self, fault: NextFault) {
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

    fn edge(&mut self, row: EdgeRow, fault: EdgeFault) {
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

    fn cell(&mut self, fault: CellFault) {
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
    fn pick_cell(&mut self, owned: bool) -> Option<Cell> {
        let grid = &self.base.grid;
        let found: Vec<Cell> = grid
            .cells()
            .filter(|&c| grid.owner(c).is_some() == owned && grid.is_cell_closed(c))
            .collect();
        found.get(self.rng.below(found.len())).copied()
    }

    fn lines_after_grid(&mut self) {
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

    fn crlf(&mut self) {
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

    fn other_dimensions(&mut self, shift: Shift) {
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

    fn control(&mut self, control: Control) {
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

/// FNV-1a, 64 bits: a stable hash for naming random streams.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
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

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashSet};

    use boxes_reference::gridfile::{LoadErrorKind, load_bytes};

    use super::*;

    fn spec(h: usize, w: usize, p: usize, seed: u64) -> Spec {
        Spec::new(h, w, p, seed).expect("valid spec")
    }

    #[test]
    fn every_class_has_a_sample_and_files_are_unique() {
        for s in [spec(2, 2, 2, 0), spec(3, 5, 26, 1), spec(7, 2, 100, 2)] {
            let samples = build(&s);
            let classes: BTreeSet<Class> = samples.iter().map(|x| x.class).collect();
            assert_eq!(classes.len(), Class::all().len(), "{s:?}");
            let files: HashSet<String> = samples.iter().map(Sample::file).collect();
            assert_eq!(files.len(), samples.len(), "{s:?}");
        }
    }

    #[test]
    fn faulty_samples_are_rejected_and_controls_load() {
        for s in [spec(2, 2, 2, 0), spec(3, 5, 26, 1), spec(7, 2, 100, 2)] {
            for x in build(&s) {
                let loaded = load_bytes(&x.bytes, s.height, s.width, s.players);
                assert_eq!(loaded.is_ok(), x.class.is_control(), "{}", x.file());
            }
        }
    }

    /// Each faulty file fails for the reason its class names, not by
    /// accident of some other damage.
    #[test]
    fn faulty_samples_fail_for_their_own_reason() {
        let s = spec(3, 4, 5, 4);
        for x in build(&s) {
            let Err(e) = load_bytes(&x.bytes, 3, 4, 5) else {
                continue;
            };
            let ok = match x.class {
                Class::EmptyFile => e.kind == LoadErrorKind::Empty,
                Class::TooFewLines => matches!(e.kind, LoadErrorKind::MissingLines { .. }),
                Class::NextPlayer(_) => e.line == 1,
                Class::Edge(_, EdgeFault::TooShort) => e.kind == LoadErrorKind::EdgeRowShort,
                Class::Edge(_, EdgeFault::TooLong) => e.kind == LoadErrorKind::EdgeRowLong,
                Class::Edge(_, EdgeFault::Byte(b)) => e.kind == LoadErrorKind::EdgeByte(b.byte()),
                Class::Cell(CellFault::TooFewFields) => e.kind == LoadErrorKind::TooFewFields,
                Class::Cell(CellFault::TooManyFields | CellFault::TrailingComma) => {
                    e.kind == LoadErrorKind::TooManyFields
                }
                Class::Cell(CellFault::EmptyField) => e.kind == LoadErrorKind::EmptyField,
                Class::Cell(CellFault::NonNumeric) => e.kind == LoadErrorKind::CellByte(b'A'),
                Class::Cell(CellFault::Signed) => {
                    matches!(e.kind, LoadErrorKind::CellByte(b'+' | b'-'))
                }
                Class::Cell(CellFault::Spaced) => e.kind == LoadErrorKind::CellByte(b' '),
                Class::Cell(CellFault::AbovePlayers) => e.kind == LoadErrorKind::OwnerRange,
                Class::Cell(CellFault::OwnerOnOpenCell) => {
                    matches!(e.kind, LoadErrorKind::OwnerOnOpenCell { .. })
                }
                Class::LinesAfterGrid => e.kind == LoadErrorKind::ExtraLine,
                Class::CrlfLineEnds => matches!(
                    e.kind,
                    LoadErrorKind::NextPlayerByte(b'\r')
                        | LoadErrorKind::EdgeByte(b'\r')
                        | LoadErrorKind::CellByte(b'\r')
                ),
                Class::OtherDimensions(_) => true,
                Class::Valid(_) => false,
            };
            assert!(ok, "{}: {e}", x.file());
        }
    }

    #[test]
    fn too_few_lines_cuts_after_every_line() {
        let s = spec(2, 3, 2, 0);
        let cut: Vec<Sample> = build(&s)
            .into_iter()
            .filter(|x| x.class == Class::TooFewLines)
            .collect();
        assert_eq!(cut.len(), s.lines() - 1);
        for (i, x) in cut.iter().enumerate() {
            assert_eq!(x.bytes.split(|&b| b == b'\n').count(), i + 2);
            assert_eq!(x.bytes.last(), Some(&b'\n'));
        }
    }

    #[test]
    fn large_grids_are_cut_at_every_boundary_and_a_sample() {
        let cuts = cut_points(100, &mut SplitMix64::new(0));
        assert_eq!(cuts.len(), MAX_CUTS);
        for k in [1, 2, 3, 201, 202, 301] {
            assert!(cuts.contains(&k), "{k}");
        }
        assert!(cuts.windows(2).all(|w| w[0] < w[1]));
        assert!(cuts.iter().all(|&k| (1..302).contains(&k)));
        assert_eq!(cut_points(21, &mut SplitMix64::new(0)).len(), 64);
        assert_eq!(
            cut_points(2, &mut SplitMix64::new(0)),
            (1..8).collect::<Vec<_>>()
        );
    }

    #[test]
    fn controls_differ_from_the_base_only_where_they_say() {
        let s = spec(3, 3, 4, 8);
        let samples = build(&s);
        let base = gridfile::to_bytes(&base_state(&s));
        let find = |name: &str, variant: &str| {
            samples
                .iter()
                .find(|x| x.class.name() == name && x.variant == variant)
                .map(|x| x.bytes.clone())
        };
        assert_eq!(find("valid-mid-game", "base"), Some(base.clone()));
        assert_eq!(
            find("valid-no-final-newline", "base"),
            Some(base[..base.len() - 1].to_vec())
        );
        let lz = find("valid-leading-zeros", "next-player").expect("present");
        assert_eq!(&lz[1..], &base[..]);
        assert_eq!(lz[0], b'0');
        let top = find("valid-highest-player", "next-player").expect("present");
        assert!(top.starts_with(b"4\n"));
    }

    #[test]
    fn samples_are_deterministic_and_seed_dependent() {
        assert_eq!(build(&spec(4, 3, 7, 5)), build(&spec(4, 3, 7, 5)));
        assert_ne!(build(&spec(4, 3, 7, 5)), build(&spec(4, 3, 7, 6)));
    }
}
