//! Why the reference rejects an input line or stops: boxes' closed set of
//! reasons ([`Why`]), each with the rule that decides it, and the
//! sentences a traced run records with them (`reference_kit::trace`), so a
//! program that accepts what the rulings reject is told which check it
//! misses ("TURN-3 rejects it (row 3 is outside a 2-row grid; horizontal
//! edges have rows 0..H)"), whatever the bytes of the line.
//!
//! One piece: the closed set of reasons, each with its rule and
//! sentence: the exhaustive `match`es over the one enum (`told`,
//! `stop`) are what keep a new reason from going without either.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use reference_kit::trace::{self, Reason, Told};

use crate::command::move_shape;
use crate::grid::{Direction, Edge, Grid, MoveError};
use crate::gridfile::LoadErrorKind;
use crate::status::{Exit, ExitTable};

/// Why boxes rejects a line or stops: one variant per check of the rulings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// TURN-2: not three fields (`0 0`, `1 2 3 h`, an empty line).
    FieldCount,
    /// TURN-2: a leading, trailing or doubled space, or a tab.
    Spacing,
    /// TURN-2: a `+` or `-` before a number.
    Sign,
    /// TURN-2: a leading zero (`00 0 h`).
    LeadingZero,
    /// TURN-2: a field that is not decimal digits (`a`, `0x1`, `1.5`).
    NotANumber,
    /// TURN-2: a direction other than `h` or `v`.
    Direction,
    /// TURN-2: a control or non-ASCII byte (`\r`, NUL) in the line.
    StrayByte,
    /// TURN-3: a number past what a C `int` holds (wraps in a C program).
    TooLarge,
    /// TURN-3: a horizontal edge's row above H.
    HorizontalRow,
    /// TURN-3: a horizontal edge's column at or above W.
    HorizontalColumn,
    /// TURN-3: a vertical edge's row at or above H.
    VerticalRow,
    /// TURN-3: a vertical edge's column above W.
    VerticalColumn,
    /// TURN-3: the edge is already closed.
    Closed,
    /// ARGS-1: not 3 or 4 arguments.
    ArgumentCount,
    /// ARGS-2: a height or width that is not a whole number.
    DimensionNotANumber,
    /// ARGS-3: a height or width outside 2..999.
    DimensionRange,
    /// ARGS-2: a player count that is not a whole number.
    PlayersNotANumber,
    /// ARGS-4: a player count outside 2..100.
    PlayersRange,
    /// ARGS-6: the grid file cannot be opened.
    FileOpen,
    /// FILE-1: fewer lines than 3H+2.
    MissingLines,
    /// FILE-1: an edge row shorter than the grid needs.
    EdgeRowShort,
    /// FILE-1: an edge row longer than the grid needs.
    EdgeRowLong,
    /// FILE-1: an edge row holding a byte other than `0` or `1`.
    EdgeByte,
    /// FILE-1: a cell row with fewer or more than W owners.
    OwnerCount,
    /// FILE-2: the next player is not digits, or empty.
    NextPlayerForm,
    /// FILE-2: the next player is 0 or above P.
    NextPlayerRange,
    /// FILE-3: an owner that is not digits, or an empty field.
    OwnerForm,
    /// FILE-3: an owner above P.
    OwnerRange,
    /// FILE-4: an owner on a cell whose edges are not all closed.
    OwnerOnOpenCell,
    /// FILE-5: a byte outside the grammar (`\r`, space, tab, NUL).
    ForeignByte,
    /// FILE-5: a line after the last cell row.
    ExtraLine,
    /// FILE-6: an empty or unreadable file.
    EmptyFile,
    /// EOF-1: input ended where a line was expected.
    EndOfInput,
}

impl Reason for Why {
    /// The rule, the kind's token and its words of each reason: the one
    /// table.
    fn told(self) -> Told {
        match self {
            Self::FieldCount => Told::new("TURN-2", "field-count", "not three fields"),
            Self::Spacing => Told::new("TURN-2", "spacing", "extra spaces or a tab"),
            Self::Sign => Told::new("TURN-2", "sign", "a sign before a number"),
            Self::LeadingZero => Told::new("TURN-2", "leading-zero", "a leading zero"),
            Self::NotANumber => Told::new("TURN-2", "not-a-number", "a field that is not a number"),
            Self::Direction => Told::new("TURN-2", "direction", "a direction other than h or v"),
            Self::StrayByte => Told::new("TURN-2", "stray-byte", "a stray byte (\\r, NUL)"),
            Self::TooLarge => Told::new("TURN-3", "too-large", "a number past a C int"),
            Self::HorizontalRow => Told::new("TURN-3", "h-row", "a horizontal edge's row past H"),
            Self::HorizontalColumn => {
                Told::new("TURN-3", "h-column", "a horizontal edge's column past W-1")
            }
            Self::VerticalRow => Told::new("TURN-3", "v-row", "a vertical edge's row past H-1"),
            Self::VerticalColumn => {
                Told::new("TURN-3", "v-column", "a vertical edge's column past W")
            }
            Self::Closed => Told::new("TURN-3", "closed", "an edge already closed"),
            Self::ArgumentCount => Told::new("ARGS-1", "argument-count", "not 3 or 4 arguments"),
            Self::DimensionNotANumber => {
                Told::new("ARGS-2", "dimension-form", "a dimension not a number")
            }
            Self::DimensionRange => {
                Told::new("ARGS-3", "dimension-range", "a dimension outside 2..999")
            }
            Self::PlayersNotANumber => {
                Told::new("ARGS-2", "players-form", "a player count not a number")
            }
            Self::PlayersRange => {
                Told::new("ARGS-4", "players-range", "a player count outside 2..100")
            }
            Self::FileOpen => Told::new("ARGS-6", "file-open", "a grid file that cannot be opened"),
            Self::MissingLines => Told::new("FILE-1", "missing-lines", "fewer than 3H+2 lines"),
            Self::EdgeRowShort => Told::new("FILE-1", "edge-row-short", "an edge row too short"),
            Self::EdgeRowLong => Told::new("FILE-1", "edge-row-long", "an edge row too long"),
            Self::EdgeByte => {
                Told::new("FILE-1", "edge-byte", "an edge row byte other than 0 or 1")
            }
            Self::OwnerCount => Told::new("FILE-1", "owner-count", "a cell row without W owners"),
            Self::NextPlayerForm => {
                Told::new("FILE-2", "next-player-form", "a next player not digits")
            }
            Self::NextPlayerRange => {
                Told::new("FILE-2", "next-player-range", "a next player outside 1..P")
            }
            Self::OwnerForm => Told::new("FILE-3", "owner-form", "an owner not digits"),
            Self::OwnerRange => Told::new("FILE-3", "owner-range", "an owner above P"),
            Self::OwnerOnOpenCell => {
                Told::new("FILE-4", "owner-on-open-cell", "an owner on an open cell")
            }
            Self::ForeignByte => Told::new("FILE-5", "foreign-byte", "a \\r, space, tab or NUL"),
            Self::ExtraLine => Told::new("FILE-5", "extra-line", "a line after the last cell row"),
            Self::EmptyFile => Told::new("FILE-6", "empty-file", "an empty or unreadable file"),
            Self::EndOfInput => Told::new("EOF-1", "end-of-input", "input ends"),
        }
    }
}

impl Why {
    /// The reason of a grid file's contents error.
    pub fn of_load(kind: LoadErrorKind) -> Self {
        let foreign = |b: u8| matches!(b, b'\r' | b' ' | b'\t' | 0);
        match kind {
            LoadErrorKind::Empty | LoadErrorKind::Unreadable => Self::EmptyFile,
            LoadErrorKind::MissingLines { .. } => Self::MissingLines,
            LoadErrorKind::NextPlayerByte(b)
            | LoadErrorKind::EdgeByte(b)
            | LoadErrorKind::CellByte(b)
                if foreign(b) =>
            {
                Self::ForeignByte
            }
            LoadErrorKind::NextPlayerByte(_) | LoadErrorKind::NextPlayerEmpty => {
                Self::NextPlayerForm
            }
            LoadErrorKind::NextPlayerRange => Self::NextPlayerRange,
            LoadErrorKind::EdgeByte(_) => Self::EdgeByte,
            LoadErrorKind::EdgeRowShort => Self::EdgeRowShort,
            LoadErrorKind::EdgeRowLong => Self::EdgeRowLong,
            LoadErrorKind::CellByte(_) | LoadErrorKind::EmptyField => Self::OwnerForm,
            LoadErrorKind::TooFewFields | LoadErrorKind::TooManyFields => Self::OwnerCount,
            LoadErrorKind::OwnerRange => Self::OwnerRange,
            LoadErrorKind::OwnerOnOpenCell { .. } => Self::OwnerOnOpenCell,
            LoadErrorKind::ExtraLine => Self::ExtraLine,
        }
    }

    /// The TURN-2 reason of a line that is neither a move nor a save.
    pub fn of_form(line: &[u8]) -> Self {
        if line.contains(&b'\t')
            || line.starts_with(b" ")
            || line.ends_with(b" ")
            || line.windows(2).any(|w| w == b"  ")
        {
            return Self::Spacing;
        }
        let fields: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
        let stray = |f: &[u8]| f.iter().any(|&b| !b.is_ascii_graphic());
        if fields.len() != 3 {
            return if fields.iter().any(|f| stray(f)) {
                Self::StrayByte
            } else {
                Self::FieldCount
            };
        }
        for number in &fields[..2] {
            if stray(number) {
                return Self::StrayByte;
            }
            let digits = number
                .strip_prefix(b"+")
                .or_else(|| number.strip_prefix(b"-"));
            if digits.is_some_and(|d| !d.is_empty() && d.iter().all(u8::is_ascii_digit)) {
                return Self::Sign;
            }
            if number.is_empty() || !number.iter().all(u8::is_ascii_digit) {
                return Self::NotANumber;
            }
        }
        if stray(fields[2]) {
            return Self::StrayByte;
        }
        if !matches!(fields[2], b"h" | b"v") {
            return Self::Direction;
        }
        if move_shape(line).is_some_and(|s| s.has_leading_zero()) {
            return Self::LeadingZero;
        }
        Self::FieldCount
    }

    /// The TURN-3 reason a move naming `edge` (read from `line`) is refused.
    pub fn of_move(line: &[u8], edge: Edge, grid: &Grid, error: MoveError) -> Self {
        if error == MoveError::Closed {
            return Self::Closed;
        }
        let too_large = move_shape(line).is_some_and(|s| {
            [s.row, s.col].iter().any(|n| {
                n.len() > 10
                    || std::str::from_utf8(n)
                        .ok()
                        .and_then(|t| t.parse::<i64>().ok())
                        .is_none_or(|v| v > i64::from(i32::MAX))
            })
        });
        if too_large {
            return Self::TooLarge;
        }
        let h = grid.height();
        match edge.dir {
            Direction::Horizontal if edge.row > h => Self::HorizontalRow,
            Direction::Horizontal => Self::HorizontalColumn,
            Direction::Vertical if edge.row >= h => Self::VerticalRow,
            Direction::Vertical => Self::VerticalColumn,
        }
    }

    /// The sentence of a rejected line: the rule and the case's values.
    pub fn rejection(self, edge: Option<Edge>, grid: &Grid) -> String {
        let (h, w) = (grid.height(), grid.width());
        let rule = self.rule();
        let specific = match (self, edge) {
            (Self::HorizontalRow, Some(e)) => format!(
                "row {} is outside a {h}-row grid; horizontal edges have rows 0..H",
                e.row
            ),
            (Self::HorizontalColumn, Some(e)) => format!(
                "column {} is outside a {w}-column grid; horizontal edges have columns 0..W-1",
                e.col
            ),
            (Self::VerticalRow, Some(e)) => format!(
                "row {} is outside a {h}-row grid; vertical edges have rows 0..H-1",
                e.row
            ),
            (Self::VerticalColumn, Some(e)) => format!(
                "column {} is outside a {w}-column grid; vertical edges have columns 0..W",
                e.col
            ),
            (Self::TooLarge, _) => {
                "a number past 2147483647 names no edge; it must never wrap".to_owned()
            }
            (Self::Closed, _) => "the edge is already closed".to_owned(),
            (Self::LeadingZero, _) => "a move's numbers have no leading zero".to_owned(),
            _ => format!("{}: a move is `row column h|v`, single spaces", self.says()),
        };
        format!("{rule} rejects it ({specific})")
    }

    /// The sentence of a stop: `situation` (`a grid file whose next player
    /// is 0`), what the rule wants, and how the reference stops.
    pub fn stop(self, situation: &str, exit: Exit) -> String {
        let wants = match self {
            Self::NextPlayerRange => "wants 1..P",
            Self::NextPlayerForm => "wants digits only",
            Self::OwnerRange => "wants owners 0..P",
            Self::OwnerForm => "wants digits between single commas",
            Self::DimensionRange => "wants 2..999",
            Self::PlayersRange => "wants 2..100",
            Self::DimensionNotANumber | Self::PlayersNotANumber => "wants a whole number",
            Self::ArgumentCount => "wants 3 or 4 arguments",
            Self::ForeignByte => "allows no \\r, space, tab or NUL",
            Self::ExtraLine => "allows nothing after the last cell row",
            Self::EndOfInput => "ends the program there",
            Self::EdgeRowShort | Self::EdgeRowLong => "wants edge rows of W and W+1 bytes",
            Self::MissingLines => "wants 3H+2 lines",
            Self::OwnerCount => "wants W owners a cell row",
            Self::EdgeByte => "wants edge rows of 0s and 1s",
            Self::OwnerOnOpenCell => "allows owners on closed cells only",
            _ => "forbids it",
        };
        let message = exit.message().unwrap_or("");
        format!(
            "{situation}: {} {wants}, so the reference stops with `{message}` (exit {}, {})",
            self.rule(),
            exit.code(),
            exit.rule()
        )
    }
}

/// Records that the reference stops for `why` (only while traced).
pub fn stopped(why: Why, exit: Exit, situation: impl FnOnce() -> String) {
    trace::stopped(why, exit.rule(), || why.stop(&situation(), exit));
}

/// The words naming a grid file's error for a sentence.
pub fn load_situation(kind: LoadErrorKind, line: usize) -> String {
    format!("a grid file with {kind} (line {line})")
}

/// An argument as a sentence quotes it.
pub fn quoted(arg: &OsStr) -> String {
    let bytes = arg.as_bytes();
    let cut = &bytes[..bytes.len().min(40)];
    format!("`{}`", cut.escape_ascii())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_2_every_form_has_its_reason() {
        for (line, why) in [
            (&b"0  0 h"[..], Why::Spacing),
            (b" 0 0 h", Why::Spacing),
            (b"0 0 h ", Why::Spacing),
            (b"0\t0 h", Why::Spacing),
            (b"0 0", Why::FieldCount),
            (b"1 2 3 h", Why::FieldCount),
            (b"", Why::FieldCount),
            (b"+1 0 h", Why::Sign),
            (b"0 -1 v", Why::Sign),
            (b"00 0 h", Why::LeadingZero),
            (b"a b h", Why::NotANumber),
            (b"0x1 0 h", Why::NotANumber),
            (b"0 0 x", Why::Direction),
            (b"0 0 H", Why::Direction),
            (b"0 0 h\r", Why::StrayByte),
            (b"0 0 h\0", Why::StrayByte),
        ] {
            assert_eq!(Why::of_form(line), why, "{}", line.escape_ascii());
        }
    }

    #[test]
    fn turn_3_names_the_bound_and_the_edge_kind() {
        let grid = Grid::new(2, 14);
        let h = |r, c| Edge::h(r, c);
        let v = |r, c| Edge::v(r, c);
        let no = MoveError::NoSuchEdge;
        assert_eq!(
            Why::of_move(b"3 14 h", h(3, 14), &grid, no),
            Why::HorizontalRow
        );
        assert_eq!(
            Why::of_move(b"0 14 h", h(0, 14), &grid, no),
            Why::HorizontalColumn
        );
        assert_eq!(Why::of_move(b"2 0 v", v(2, 0), &grid, no), Why::VerticalRow);
        assert_eq!(
            Why::of_move(b"0 15 v", v(0, 15), &grid, no),
            Why::VerticalColumn
        );
        assert_eq!(
            Why::of_move(b"4294967296 0 h", h(4_294_967_296, 0), &grid, no),
            Why::TooLarge
        );
        let said = Why::HorizontalRow.rejection(Some(h(3, 14)), &grid);
        assert_eq!(
            said,
            "TURN-3 rejects it (row 3 is outside a 2-row grid; horizontal edges have rows 0..H)"
        );
    }

    #[test]
    fn a_stop_names_the_check_and_the_exit() {
        let said =
            Why::NextPlayerRange.stop("a grid file whose next player is 0", Exit::GridFileContents);
        assert_eq!(
            said,
            "a grid file whose next player is 0: FILE-2 wants 1..P, so the reference stops \
             with `Error reading grid contents` (exit 5, FILE-6)"
        );
        assert_eq!(
            Why::of_load(LoadErrorKind::EdgeByte(b'\r')),
            Why::ForeignByte
        );
        assert_eq!(Why::of_load(LoadErrorKind::EdgeByte(b'2')), Why::EdgeByte);
    }
}
