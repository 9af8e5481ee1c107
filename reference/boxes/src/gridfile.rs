//! The grid file: one grammar for loading and saving (rulings FILE-1..7,
//! SAVE-2).
//!
//! Loading is a streaming state machine over the file's bytes, so memory
//! stays O(grid) whatever the file holds (a multi-gigabyte line of garbage is
//! rejected at its first wrong byte) and every error names its line.
//!
//! One piece: loading and saving are one grammar, which must agree byte
//! for byte, and the loader is one state machine; its tests are the
//! sibling `gridfile/tests.rs`.

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::grid::{Cell, Edge, Grid};
use crate::layout::{self, LineKind};
use crate::player::Player;
use crate::rules::Rule;
use crate::state::State;

/// What is wrong with a grid file's contents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadErrorKind {
    /// The file has no bytes at all.
    Empty,
    /// The file ends before its 3H+2 lines are complete.
    MissingLines {
        /// Lines the grid needs.
        expected: usize,
        /// Lines the file has.
        found: usize,
    },
    /// The next-player line holds a byte that is not a digit.
    NextPlayerByte(u8),
    /// The next-player line is empty.
    NextPlayerEmpty,
    /// The next player is 0 or more than the player count.
    NextPlayerRange,
    /// An edge row holds a byte other than `0` or `1`.
    EdgeByte(u8),
    /// An edge row is shorter than the grid needs.
    EdgeRowShort,
    /// An edge row is longer than the grid needs.
    EdgeRowLong,
    /// A cell row holds a byte other than a digit or a comma.
    CellByte(u8),
    /// A cell row has an empty owner field (`0,,0`, a trailing comma).
    EmptyField,
    /// A cell row has fewer than W owners.
    TooFewFields,
    /// A cell row has more than W owners.
    TooManyFields,
    /// An owner number above the player count.
    OwnerRange,
    /// An owner on a cell whose four edges are not all closed (FILE-4).
    OwnerOnOpenCell {
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
    },
    /// A line (even a blank one) after the last cell row (FILE-5).
    ExtraLine,
    /// The file opened but reading it failed (a directory).
    Unreadable,
}

/// A grid file's contents are wrong: where and how (always FILE-6 to a user).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct LoadError {
    /// 1-based line of the file where the error shows.
    pub line: usize,
    /// What is wrong.
    pub kind: LoadErrorKind,
}

impl LoadErrorKind {
    /// The rules an error of this kind breaks, the one map from load errors
    /// to rulings, decided by FILE-1..FILE-6: the line layout, the number
    /// of lines, the length of an edge row and the number of owners in a
    /// cell row are FILE-1; the next player FILE-2; an owner's digits,
    /// value and an empty field FILE-3; an owner on an open cell FILE-4; a
    /// line after the grid FILE-5, as is a foreign byte FILE-5 names (`\r`,
    /// space, tab, NUL) besides its line's own rule; an empty or unreadable
    /// file FILE-6 alone. FILE-6 (the message and exit 5) holds for every
    /// kind and is not listed.
    pub fn rules(self) -> Vec<Rule> {
        let foreign = |line: Rule, byte: u8| {
            if matches!(byte, b'\r' | b' ' | b'\t' | 0) {
                vec![line, Rule::File5]
            } else {
                vec![line]
            }
        };
        match self {
            Self::Empty | Self::Unreadable => vec![Rule::File6],
            Self::MissingLines { .. }
            | Self::EdgeRowShort
            | Self::EdgeRowLong
            | Self::TooFewFields
            | Self::TooManyFields => vec![Rule::File1],
            Self::EdgeByte(b) => foreign(Rule::File1, b),
            Self::NextPlayerByte(b) => foreign(Rule::File2, b),
            Self::NextPlayerEmpty | Self::NextPlayerRange => vec![Rule::File2],
            Self::CellByte(b) => foreign(Rule::File3, b),
            Self::EmptyField | Self::OwnerRange => vec![Rule::File3],
            Self::OwnerOnOpenCell { .. } => vec![Rule::File4],
            Self::ExtraLine => vec![Rule::File5],
        }
    }
}

impl fmt::Display for LoadErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "the file is empty"),
            Self::MissingLines { expected, found } => {
                write!(f, "the grid needs {expected} lines, the file has {found}")
            }
            Self::NextPlayerByte(b) => write!(f, "next player holds byte {b:#04x}"),
            Self::NextPlayerEmpty => write!(f, "next player line is empty"),
            Self::NextPlayerRange => write!(f, "next player out of range"),
            Self::EdgeByte(b) => write!(f, "edge row holds byte {b:#04x}"),
            Self::EdgeRowShort => write!(f, "edge row too short"),
            Self::EdgeRowLong => write!(f, "edge row too long"),
            Self::CellByte(b) => write!(f, "cell row holds byte {b:#04x}"),
            Self::EmptyField => write!(f, "empty owner field"),
            Self::TooFewFields => write!(f, "too few owners in cell row"),
            Self::TooManyFields => write!(f, "too many owners in cell row"),
            Self::OwnerRange => write!(f, "owner above the player count"),
            Self::OwnerOnOpenCell { row, col } => {
                write!(
                    f,
                    "owner on cell ({row}, {col}) whose edges are not all closed"
                )
            }
            Self::ExtraLine => write!(f, "line after the last cell row"),
            Self::Unreadable => write!(f, "the file cannot be read"),
        }
    }
}

/// Why a grid file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadFailure {
    /// The file could not be opened for reading (ARGS-6, exit 4).
    #[error("opening the grid file: {0}")]
    Open(#[source] io::Error),
    /// The file opened but its contents are wrong (FILE-6, exit 5).
    #[error("reading the grid file: {0}")]
    Contents(#[source] LoadError),
}

/// Opens and loads the grid file at `path` for an H×W game of P players.
pub fn load_path(
    path: &Path,
    height: usize,
    width: usize,
    players: usize,
) -> Result<State, LoadFailure> {
    let file = File::open(path).map_err(LoadFailure::Open)?;
    load_reader(file, height, width, players).map_err(LoadFailure::Contents)
}

/// Loads a grid file from any reader. A read error is a contents error.
pub fn load_reader<R: Read>(
    mut reader: R,
    height: usize,
    width: usize,
    players: usize,
) -> Result<State, LoadError> {
    let mut loader = Loader::new(height, width, players);
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => loader.feed(&chunk[..n])?,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return Err(loader.error(LoadErrorKind::Unreadable)),
        }
    }
    loader.finish()
}

/// Loads a grid file held in memory.
pub fn load_bytes(
    bytes: &[u8],
    height: usize,
    width: usize,
    players: usize,
) -> Result<State, LoadError> {
    let mut loader = Loader::new(height, width, players);
    loader.feed(bytes)?;
    loader.finish()
}

/// Serializes `state` in the grid-file format (SAVE-2): every line ends in
/// `\n`, the next player first.
pub fn to_bytes(state: &State) -> Vec<u8> {
    let grid = &state.grid;
    let (h, w) = (grid.height(), grid.width());
    let mut out = Vec::with_capacity(8 + (2 * h + 1) * (w + 2) + h * (4 * w + 1));
    out.extend_from_slice(state.next.number().to_string().as_bytes());
    out.push(b'\n');
    for r in 0..=h {
        out.extend((0..w).map(|c| {
            if grid.is_closed(Edge::h(r, c)) {
                b'1'
            } else {
                b'0'
            }
        }));
        out.push(b'\n');
        if r < h {
            out.extend((0..=w).map(|c| {
                if grid.is_closed(Edge::v(r, c)) {
                    b'1'
                } else {
                    b'0'
                }
            }));
            out.push(b'\n');
        }
    }
    for row in 0..h {
        for col in 0..w {
            if col > 0 {
                out.push(b',');
            }
            let owner = grid.owner(Cell { row, col }).map_or(0, Player::number);
            out.extend_from_slice(owner.to_string().as_bytes());
        }
        out.push(b'\n');
    }
    out
}

/// The streaming parser: feed it bytes, then finish.
struct Loader {
    players: usize,
    grid: Grid,
    next: Option<Player>,
    line: usize,
    col: usize,
    kind: LineKind,
    value: u64,
    digits: usize,
    field: usize,
}

impl Loader {
    fn new(height: usize, width: usize, players: usize) -> Self {
        Self {
            players,
            grid: Grid::new(height, width),
            next: None,
            line: 0,
            col: 0,
            kind: LineKind::Next,
            value: 0,
            digits: 0,
            field: 0,
        }
    }

    fn total_lines(&self) -> usize {
        layout::line_count(self.grid.height())
    }

    fn kind_of(&self, line: usize) -> LineKind {
        layout::kind_of(self.grid.height(), self.grid.width(), line)
    }

    fn error(&self, kind: LoadErrorKind) -> LoadError {
        LoadError {
            line: self.line + 1,
            kind,
        }
    }

    fn feed(&mut self, bytes: &[u8]) -> Result<(), LoadError> {
        for &b in bytes {
            self.byte(b).map_err(|k| self.error(k))?;
        }
        Ok(())
    }

    fn byte(&mut self, b: u8) -> Result<(), LoadErrorKind> {
        if b == b'\n' {
            self.end_line()?;
            self.line += 1;
            self.col = 0;
            self.value = 0;
            self.digits = 0;
            self.field = 0;
            self.kind = self.kind_of(self.line);
            return Ok(());
        }
        match self.kind {
            LineKind::Next => self.digit(b).ok_or(LoadErrorKind::NextPlayerByte(b))?,
            LineKind::Edges { row, dir, len } => {
                if !matches!(b, b'0' | b'1') {
                    return Err(LoadErrorKind::EdgeByte(b));
                }
                if self.col >= len {
                    return Err(LoadErrorKind::EdgeRowLong);
                }
                if b == b'1' {
                    self.grid.set_edge(
                        Edge {
                            row,
                            col: self.col,
                            dir,
                        },
                        true,
                    );
                }
            }
            LineKind::Cells { row } => {
                if b == b',' {
                    self.end_field(row)?;
                    self.field += 1;
                    if self.field >= self.grid.width() {
                        return Err(LoadErrorKind::TooManyFields);
                    }
                } else {
                    self.digit(b).ok_or(LoadErrorKind::CellByte(b))?;
                }
            }
            LineKind::Extra => return Err(LoadErrorKind::ExtraLine),
        }
        self.col += 1;
        Ok(())
    }

    fn digit(&mut self, b: u8) -> Option<()> {
        if !b.is_ascii_digit() {
            return None;
        }
        // Saturation keeps any run of digits bounded; every saturated value
        // is far above the largest player count.
        self.value = reference_kit::number::push_digit(self.value, b);
        self.digits += 1;
        Some(())
    }

    fn value_in(&self, min: u64) -> Option<usize> {
        let v = usize::try_from(self.value).ok()?;
        (min as usize..=self.players).contains(&v).then_some(v)
    }

    fn end_field(&mut self, row: usize) -> Result<(), LoadErrorKind> {
        if self.digits == 0 {
            return Err(LoadErrorKind::EmptyField);
        }
        let owner = self.value_in(0).ok_or(LoadErrorKind::OwnerRange)?;
        self.grid.set_owner(
            Cell {
                row,
                col: self.field,
            },
            Player::new(owner),
        );
        self.value = 0;
        self.digits = 0;
        Ok(())
    }

    fn end_line(&mut self) -> Result<(), LoadErrorKind> {
        match self.kind {
            LineKind::Next => {
                if self.digits == 0 {
                    return Err(LoadErrorKind::NextPlayerEmpty);
                }
                let n = self.value_in(1).ok_or(LoadErrorKind::NextPlayerRange)?;
                self.next = Player::new(n);
            }
            LineKind::Edges { len, .. } => {
                if self.col < len {
                    return Err(LoadErrorKind::EdgeRowShort);
                }
            }
            LineKind::Cells { row } => {
                self.end_field(row)?;
                if self.field + 1 < self.grid.width() {
                    return Err(LoadErrorKind::TooFewFields);
                }
            }
            LineKind::Extra => return Err(LoadErrorKind::ExtraLine),
        }
        Ok(())
    }

    fn finish(mut self) -> Result<State, LoadError> {
        if self.line == 0 && self.col == 0 {
            return Err(self.error(LoadErrorKind::Empty));
        }
        if self.col > 0 {
            // The last line has no final newline (FILE-5): it still counts.
            self.end_line().map_err(|k| self.error(k))?;
            self.line += 1;
        }
        let expected = self.total_lines();
        if self.line < expected {
            return Err(LoadError {
                line: self.line,
                kind: LoadErrorKind::MissingLines {
                    expected,
                    found: self.line,
                },
            });
        }
        if let Some(Cell { row, col }) = self.grid.owned_open_cell() {
            return Err(LoadError {
                line: layout::cell_line(self.grid.height(), row) + 1,
                kind: LoadErrorKind::OwnerOnOpenCell { row, col },
            });
        }
        let next = self.next.ok_or(LoadError {
            line: 1,
            kind: LoadErrorKind::NextPlayerEmpty,
        })?;
        Ok(State {
            grid: self.grid,
            next,
            players: self.players,
        })
    }
}

#[cfg(test)]
mod tests;
