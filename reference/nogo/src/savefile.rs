//! The save file: one grammar for loading and saving (rulings FILE-1..7,
//! SAVE-2).
//!
//! Loading is a streaming state machine over the file's bytes: memory stays
//! O(grid) whatever the file holds (a gigabyte header of digits is read in
//! constant space), reading stops at the H-th grid line's `\n` (FILE-5:
//! the rest is ignored, never read), and every error says which rule it
//! breaks.
//!
//! One piece: the save file's reader and writer are one format, which
//! must agree byte for byte.

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::generator::{GenState, Generator};
use crate::grid::{Cell, Grid, MAX_DIMENSION, MIN_DIMENSION, Stone};
use crate::player::Player;
use crate::state::State;

/// Fields of the header line (FILE-1).
pub const HEADER_FIELDS: usize = 9;

/// What is wrong with a save file's contents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LoadErrorKind {
    /// The file has no bytes (FILE-5).
    Empty,
    /// The file ends inside the header line (FILE-5).
    HeaderUnterminated,
    /// A header byte is neither a digit nor a space (FILE-2): a sign, a
    /// tab, a `\r`, a letter.
    HeaderByte(u8),
    /// An empty header field: a leading, doubled or trailing space, or an
    /// empty header line (FILE-1).
    HeaderEmptyField,
    /// Fewer or more than nine fields (FILE-1).
    HeaderFieldCount,
    /// H or W outside 4..=1000 (FILE-2).
    Dimension,
    /// `next` is not 0 or 1 (FILE-2).
    NextPlayer,
    /// A generator row >= H (FILE-3).
    GeneratorRow,
    /// A generator column >= W (FILE-3).
    GeneratorColumn,
    /// A move number above 18446744073709551615 (FILE-3).
    MoveNumber,
    /// A grid byte other than `.`, `O`, `X` (FILE-4).
    GridByte(u8),
    /// A grid line shorter than W (FILE-4).
    GridLineShort,
    /// A grid line longer than W (FILE-4).
    GridLineLong,
    /// The file ends before the H-th grid line's `\n` (FILE-1, FILE-5).
    GridTruncated,
    /// The grid has no empty cell (FILE-4).
    NoEmptyCell,
    /// The file opened but cannot be read, e.g. a directory (ARGS-4).
    Unreadable,
}

impl LoadErrorKind {
    /// The rule this error breaks.
    pub const fn rule(self) -> &'static str {
        match self {
            Self::Empty | Self::HeaderUnterminated | Self::GridTruncated => "FILE-5",
            Self::HeaderEmptyField | Self::HeaderFieldCount => "FILE-1",
            Self::HeaderByte(_) | Self::Dimension | Self::NextPlayer => "FILE-2",
            Self::GeneratorRow | Self::GeneratorColumn | Self::MoveNumber => "FILE-3",
            Self::GridByte(_) | Self::GridLineShort | Self::GridLineLong | Self::NoEmptyCell => {
                "FILE-4"
            }
            Self::Unreadable => "ARGS-4",
        }
    }
}

impl fmt::Display for LoadErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "the file is empty"),
            Self::HeaderUnterminated => write!(f, "the file ends inside the header"),
            Self::HeaderByte(b) => write!(f, "header holds byte {b:#04x}"),
            Self::HeaderEmptyField => write!(f, "empty header field"),
            Self::HeaderFieldCount => write!(f, "the header has not nine fields"),
            Self::Dimension => write!(f, "height or width outside 4..=1000"),
            Self::NextPlayer => write!(f, "next player is not 0 or 1"),
            Self::GeneratorRow => write!(f, "generator row not below the height"),
            Self::GeneratorColumn => write!(f, "generator column not below the width"),
            Self::MoveNumber => write!(f, "move number above 18446744073709551615"),
            Self::GridByte(b) => write!(f, "grid holds byte {b:#04x}"),
            Self::GridLineShort => write!(f, "grid line too short"),
            Self::GridLineLong => write!(f, "grid line too long"),
            Self::GridTruncated => write!(f, "the file ends inside the grid"),
            Self::NoEmptyCell => write!(f, "the grid has no empty cell"),
            Self::Unreadable => write!(f, "the file cannot be read"),
        }
    }
}

/// A save file's contents are wrong: where and how (FILE-6 to a user).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct LoadError {
    /// 1-based line of the file where the error shows.
    pub line: usize,
    /// What is wrong.
    pub kind: LoadErrorKind,
}

/// Why a save file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadFailure {
    /// The file could not be opened for reading (ARGS-4, exit 4).
    #[error("opening the save file: {0}")]
    Open(#[source] io::Error),
    /// The file opened but its contents are wrong (FILE-6, exit 5).
    #[error("reading the save file: {0}")]
    Contents(#[source] LoadError),
}

/// Opens and loads the save file at `path`.
pub fn load_path(path: &Path) -> Result<State, LoadFailure> {
    let file = File::open(path).map_err(LoadFailure::Open)?;
    load_reader(file).map_err(LoadFailure::Contents)
}

/// Loads a save file from any reader, reading no further than the grid's
/// last `\n`. A read error is a contents error.
pub fn load_reader<R: Read>(mut reader: R) -> Result<State, LoadError> {
    let mut loader = Loader::default();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                if loader.feed(&chunk[..n])? {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return Err(loader.error(LoadErrorKind::Unreadable)),
        }
    }
    loader.finish()
}

/// Loads a save file held in memory.
pub fn load_bytes(bytes: &[u8]) -> Result<State, LoadError> {
    let mut loader = Loader::default();
    loader.feed(bytes)?;
    loader.finish()
}

/// Serialises `state` in the save-file format (SAVE-2): the nine-number
/// header, then the grid rows, every line ending in `\n`.
pub fn to_bytes(state: &State) -> Vec<u8> {
    let grid = &state.grid;
    let (h, w) = (grid.height(), grid.width());
    let mut out = Vec::with_capacity(64 + h * (w + 1));
    let [o, x] = state.generators.each_ref().map(Generator::state);
    let header = format!(
        "{h} {w} {} {} {} {} {} {} {}\n",
        state.next.index(),
        o.row,
        o.col,
        o.number,
        x.row,
        x.col,
        x.number
    );
    out.extend_from_slice(header.as_bytes());
    for r in 0..h {
        out.extend(grid.row(r).iter().map(|s| s.symbol()));
        out.push(b'\n');
    }
    out
}

/// The header's fields holding a generator's row (O's, X's): each below H
/// once reduced (FILE-3).
pub const GENERATOR_ROW_FIELDS: [usize; 2] = [3, 6];
/// The header's fields holding a generator's column: each below W.
pub const GENERATOR_COLUMN_FIELDS: [usize; 2] = [4, 7];

/// `bytes` with each generator row and column of its header replaced by
/// `place(value, bound)`, the bound H for a row and W for a column; the
/// rest of the file as it is. `None` when the first line is not nine
/// numbers with H and W above zero (the loader then says what is wrong):
/// how a checker reduces a saved state and a fixture unreduces one, on the
/// one header this module writes.
pub fn with_generator_places(bytes: &[u8], place: impl Fn(u128, u128) -> u128) -> Option<Vec<u8>> {
    let end = bytes.iter().position(|&b| b == b'\n')?;
    let header = std::str::from_utf8(&bytes[..end]).ok()?;
    let numbers: Option<Vec<u128>> = header.split(' ').map(|f| f.parse().ok()).collect();
    let mut numbers = numbers.filter(|n| n.len() == HEADER_FIELDS)?;
    let (h, w) = (numbers[0], numbers[1]);
    if h == 0 || w == 0 {
        return None;
    }
    for i in GENERATOR_ROW_FIELDS {
        numbers[i] = place(numbers[i], h);
    }
    for i in GENERATOR_COLUMN_FIELDS {
        numbers[i] = place(numbers[i], w);
    }
    let mut out = numbers
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
        .into_bytes();
    out.extend_from_slice(&bytes[end..]);
    Some(out)
}

/// Where the loader is in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Reading header field `field`, with `digits` digits so far.
    Header { field: usize, digits: usize },
    /// Reading grid row `row`, `col` cells into it.
    Grid { row: usize, col: usize },
    /// The H-th grid line ended: the rest is never read (FILE-5).
    Done,
}

/// The streaming loader.
#[derive(Debug)]
struct Loader {
    phase: Phase,
    /// 1-based line being read.
    line: usize,
    /// Whether any byte was seen.
    started: bool,
    /// Header values, saturating so a huge number stays out of range.
    fields: [u64; HEADER_FIELDS],
    /// Which header values passed 18446744073709551615 (a move number may
    /// be anything up to it, so saturation alone cannot tell).
    overflowed: [bool; HEADER_FIELDS],
    state: Option<State>,
}

impl Default for Loader {
    fn default() -> Self {
        Self {
            phase: Phase::Header {
                field: 0,
                digits: 0,
            },
            line: 1,
            started: false,
            fields: [0; HEADER_FIELDS],
            overflowed: [false; HEADER_FIELDS],
            state: None,
        }
    }
}

impl Loader {
    fn error(&self, kind: LoadErrorKind) -> LoadError {
        LoadError {
            line: self.line,
            kind,
        }
    }

    /// Feeds the next bytes; `Ok(true)` once the grid is complete (the rest
    /// of the file is not needed).
    fn feed(&mut self, bytes: &[u8]) -> Result<bool, LoadError> {
        self.started |= !bytes.is_empty();
        let mut rest = bytes;
        while let Some((&b, tail)) = rest.split_first() {
            match self.phase {
                Phase::Header { field, digits } => {
                    self.header_byte(b, field, digits)?;
                    rest = tail;
                }
                Phase::Grid { row, col } => {
                    rest = self.grid_bytes(rest, row, col)?;
                }
                Phase::Done => return Ok(true),
            }
        }
        Ok(self.phase == Phase::Done)
    }

    fn header_byte(&mut self, b: u8, field: usize, digits: usize) -> Result<(), LoadError> {
        match b {
            b'0'..=b'9' => {
                let v = &mut self.fields[field];
                if let Some(n) = v
                    .checked_mul(10)
                    .and_then(|x| x.checked_add(u64::from(b - b'0')))
                {
                    *v = n;
                } else {
                    *v = u64::MAX;
                    self.overflowed[field] = true;
                }
                self.phase = Phase::Header {
                    field,
                    digits: digits + 1,
                };
            }
            b' ' | b'\n' if digits == 0 => {
                return Err(self.error(LoadErrorKind::HeaderEmptyField));
            }
            b' ' if field + 1 == HEADER_FIELDS => {
                return Err(self.error(LoadErrorKind::HeaderFieldCount));
            }
            b' ' => {
                self.phase = Phase::Header {
                    field: field + 1,
                    digits: 0,
                };
            }
            b'\n' if field + 1 != HEADER_FIELDS => {
                return Err(self.error(LoadErrorKind::HeaderFieldCount));
            }
            b'\n' => {
                self.state = Some(self.header_state()?);
                self.line += 1;
                self.phase = Phase::Grid { row: 0, col: 0 };
            }
            other => return Err(self.error(LoadErrorKind::HeaderByte(other))),
        }
        Ok(())
    }

    /// Checks the nine header values (FILE-2, FILE-3) and builds the empty
    /// state the grid lines fill.
    fn header_state(&self) -> Result<State, LoadError> {
        let [h, w, next, ro, co, mo, rx, cx, mx] = self.fields;
        let dims = MIN_DIMENSION as u64..=MAX_DIMENSION as u64;
        if !dims.contains(&h) || !dims.contains(&w) {
            return Err(self.error(LoadErrorKind::Dimension));
        }
        let Some(next) = Player::from_index(next) else {
            return Err(self.error(LoadErrorKind::NextPlayer));
        };
        if ro >= h || rx >= h {
            return Err(self.error(LoadErrorKind::GeneratorRow));
        }
        if co >= w || cx >= w {
            return Err(self.error(LoadErrorKind::GeneratorColumn));
        }
        // FILE-3: any move number a u64 holds; the reference counts on in
        // 64 bits, so every save it writes loads again.
        let [.., o_number_over, _, _, x_number_over] = self.overflowed;
        if o_number_over || x_number_over {
            return Err(self.error(LoadErrorKind::MoveNumber));
        }
        // Rows and columns are now below the dimensions: they fit a usize.
        let (h, w) = (h as usize, w as usize);
        let gen_state = |row: u64, col: u64, number: u64| GenState {
            row: row as usize,
            col: col as usize,
            number,
        };
        Ok(State {
            grid: Grid::new(h, w),
            next,
            generators: [
                Generator::with_state(Player::O, h, w, gen_state(ro, co, mo)),
                Generator::with_state(Player::X, h, w, gen_state(rx, cx, mx)),
            ],
        })
    }

    /// Reads grid bytes of row `row` from `col` on, up to the end of that
    /// line or of `bytes`; returns what is left.
    fn grid_bytes<'a>(
        &mut self,
        bytes: &'a [u8],
        row: usize,
        col: usize,
    ) -> Result<&'a [u8], LoadError> {
        let Some(state) = self.state.as_mut() else {
            return Err(LoadError {
                line: self.line,
                kind: LoadErrorKind::HeaderUnterminated,
            });
        };
        let (h, w) = (state.grid.height(), state.grid.width());
        let mut col = col;
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                if col < w {
                    return Err(self.error(LoadErrorKind::GridLineShort));
                }
                self.line += 1;
                self.phase = if row + 1 == h {
                    Phase::Done
                } else {
                    Phase::Grid {
                        row: row + 1,
                        col: 0,
                    }
                };
                return Ok(&bytes[i + 1..]);
            }
            let Some(stone) = Stone::from_symbol(b) else {
                return Err(self.error(LoadErrorKind::GridByte(b)));
            };
            if col == w {
                return Err(self.error(LoadErrorKind::GridLineLong));
            }
            state.grid.set(Cell::new(row, col), stone);
            col += 1;
        }
        self.phase = Phase::Grid { row, col };
        Ok(&[])
    }

    fn finish(self) -> Result<State, LoadError> {
        let line = self.line;
        let fail = |kind| Err(LoadError { line, kind });
        match (self.phase, self.state) {
            (Phase::Done, Some(state)) if state.grid.empty_cells() == 0 => {
                fail(LoadErrorKind::NoEmptyCell)
            }
            (Phase::Done, Some(state)) => Ok(state),
            (Phase::Header { .. }, _) if !self.started => fail(LoadErrorKind::Empty),
            (Phase::Header { .. }, _) => fail(LoadErrorKind::HeaderUnterminated),
            _ => fail(LoadErrorKind::GridTruncated),
        }
    }
}

#[cfg(test)]
mod tests;
