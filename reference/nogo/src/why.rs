//! Why the reference rejects an input line or stops: nogo's closed set of
//! reasons ([`Why`]), each with the rule that decides it, recorded while
//! traced (`reference_kit::trace`) so a program that accepts what the
//! rulings reject is told which check it misses, whatever the bytes.

use reference_kit::trace::{self, Reason, Told};

use crate::grid::{Cell, Grid};
use crate::savefile::LoadErrorKind;
use crate::status::{Exit, ExitTable};

/// Why nogo rejects a line or stops: one variant per check of the rulings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// TURN-2: not two numbers separated by one space.
    Form,
    /// TURN-3: a cell outside the board.
    Outside,
    /// TURN-3: a cell already holding a stone.
    Occupied,
    /// ARGS-1: not 3 or 4 arguments.
    ArgumentCount,
    /// ARGS-2: a player type other than `c` or `h`.
    PlayerType,
    /// ARGS-3: a board dimension outside 4..1000 or not a number.
    Dimension,
    /// ARGS-4: the save file cannot be opened.
    FileOpen,
    /// FILE-1: not nine header fields.
    HeaderFieldCount,
    /// FILE-1: an empty header field (a doubled, leading or trailing space).
    HeaderSpacing,
    /// FILE-4 (FILE-2 in the header): a `\r`, a CRLF file; FILE-4 names it.
    CarriageReturn,
    /// FILE-2: a header byte other than a digit or a space.
    HeaderByte,
    /// FILE-2: a height or width outside 4..1000 (a huge one included).
    FileDimension,
    /// FILE-2: a next player other than 0 or 1.
    NextPlayer,
    /// FILE-3: a generator state outside the board, or a move number too big.
    Generator,
    /// FILE-4: a grid byte other than `.`, `O`, `X`.
    GridByte,
    /// FILE-4: a grid line shorter than W.
    GridLineShort,
    /// FILE-4: a grid line longer than W.
    GridLineLong,
    /// FILE-4: no empty cell.
    NoEmptyCell,
    /// FILE-5: the file ends early (no final newline, a missing line).
    Truncated,
    /// FILE-5: an empty file.
    Empty,
    /// ARGS-4: the file opened but cannot be read.
    Unreadable,
    /// EOF-1: input ended where a line was expected.
    EndOfInput,
    /// FILE-3 (accepted): a move number above H·W/2, which the rulings do
    /// not bound.
    UnboundedMoveNumber,
}

impl Reason for Why {
    /// The rule, the kind's token and its words of each reason: the one
    /// table.
    fn told(self) -> Told {
        match self {
            Self::Form => Told::new("TURN-2", "form", "not two numbers and one space"),
            Self::Outside => Told::new("TURN-3", "outside", "a cell outside the board"),
            Self::Occupied => Told::new("TURN-3", "occupied", "a cell already taken"),
            Self::ArgumentCount => Told::new("ARGS-1", "argument-count", "not 3 or 4 arguments"),
            Self::PlayerType => Told::new("ARGS-2", "player-type", "a player type not c or h"),
            Self::Dimension => Told::new("ARGS-3", "dimension", "a dimension outside 4..1000"),
            Self::FileOpen => Told::new("ARGS-4", "file-open", "a file that cannot be opened"),
            Self::HeaderFieldCount => {
                Told::new("FILE-1", "header-fields", "not nine header fields")
            }
            Self::HeaderSpacing => Told::new("FILE-1", "header-spacing", "an empty header field"),
            Self::CarriageReturn => {
                Told::new("FILE-4", "carriage-return", "a \\r (CRLF line ends)")
            }
            Self::HeaderByte => Told::new("FILE-2", "header-byte", "a header byte not a digit"),
            Self::FileDimension => Told::new("FILE-2", "dimension", "a dimension outside 4..1000"),
            Self::NextPlayer => Told::new("FILE-2", "next-player", "a next player not 0 or 1"),
            Self::Generator => Told::new("FILE-3", "generator", "a generator state out of range"),
            Self::GridByte => Told::new("FILE-4", "grid-byte", "a grid byte not ., O or X"),
            Self::GridLineShort => {
                Told::new("FILE-4", "grid-line-short", "a grid line shorter than W")
            }
            Self::GridLineLong => {
                Told::new("FILE-4", "grid-line-long", "a grid line longer than W")
            }
            Self::NoEmptyCell => Told::new("FILE-4", "no-empty-cell", "a full board"),
            Self::Truncated => Told::new(
                "FILE-5",
                "truncated",
                "a file ending early (no final newline)",
            ),
            Self::Empty => Told::new("FILE-5", "empty", "an empty file"),
            Self::Unreadable => Told::new("ARGS-4", "unreadable", "a file that cannot be read"),
            Self::EndOfInput => Told::new("EOF-1", "end-of-input", "input ends"),
            Self::UnboundedMoveNumber => Told::new(
                "FILE-3",
                "move-number-unbounded",
                "a move number past H·W/2, which FILE-3 does not bound",
            ),
        }
    }
}

impl Why {
    /// The reason of a save file's contents error.
    pub const fn of_load(kind: LoadErrorKind) -> Self {
        match kind {
            LoadErrorKind::Empty => Self::Empty,
            LoadErrorKind::HeaderUnterminated | LoadErrorKind::GridTruncated => Self::Truncated,
            LoadErrorKind::HeaderByte(b'\r') | LoadErrorKind::GridByte(b'\r') => {
                Self::CarriageReturn
            }
            LoadErrorKind::HeaderByte(_) => Self::HeaderByte,
            LoadErrorKind::HeaderEmptyField => Self::HeaderSpacing,
            LoadErrorKind::HeaderFieldCount => Self::HeaderFieldCount,
            LoadErrorKind::Dimension => Self::FileDimension,
            LoadErrorKind::NextPlayer => Self::NextPlayer,
            LoadErrorKind::GeneratorRow
            | LoadErrorKind::GeneratorColumn
            | LoadErrorKind::MoveNumber => Self::Generator,
            LoadErrorKind::GridByte(_) => Self::GridByte,
            LoadErrorKind::GridLineShort => Self::GridLineShort,
            LoadErrorKind::GridLineLong => Self::GridLineLong,
            LoadErrorKind::NoEmptyCell => Self::NoEmptyCell,
            LoadErrorKind::Unreadable => Self::Unreadable,
        }
    }

    /// The TURN-3 reason a move to `cell` is refused.
    pub fn of_move(cell: Cell, grid: &Grid) -> Self {
        if cell.row >= grid.height() || cell.col >= grid.width() {
            Self::Outside
        } else {
            Self::Occupied
        }
    }

    /// The sentence of a rejected line, with the case's values.
    pub fn rejection(self, cell: Option<Cell>, grid: &Grid) -> String {
        let (h, w) = (grid.height(), grid.width());
        let specific = match (self, cell) {
            (Self::Outside, Some(c)) => format!(
                "cell ({}, {}) is outside a {h}x{w} board; rows 0..H-1, columns 0..W-1",
                c.row, c.col
            ),
            (Self::Occupied, Some(c)) => {
                format!("cell ({}, {}) already holds a stone", c.row, c.col)
            }
            _ => "a move is two decimal numbers and one space, nothing else".to_owned(),
        };
        format!("{} rejects it ({specific})", self.rule())
    }
}

/// Records, while traced, what a loaded game holds that a program may
/// wrongly refuse: a move number past H·W/2 (no game of new play reaches
/// one, but FILE-3 sets no bound).
pub fn loaded(state: &crate::state::State) {
    let (h, w) = (state.grid.height(), state.grid.width());
    let half = u64::try_from(h * w / 2).unwrap_or(u64::MAX);
    for player in crate::player::Player::BOTH {
        let number = state.generators[player.index()].state().number;
        if number > half {
            trace::accepted(Why::UnboundedMoveNumber, || {
                format!(
                    "a save file the reference loads: FILE-3 sets no bound on move numbers (m{} \
                     is {number}, past H·W/2 = {half})",
                    char::from(player.symbol())
                )
            });
        }
    }
}

/// Records that the reference stops for `why` after `situation` (only
/// while traced).
pub fn stopped(why: Why, exit: Exit, situation: impl FnOnce() -> String) {
    trace::stopped(why, exit.rule(), || {
        format!(
            "{}: {} rejects that, so the reference stops with `{}` (exit {}, {})",
            situation(),
            why.rule(),
            exit.message().unwrap_or(""),
            exit.code(),
            exit.rule()
        )
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_save_file_check_has_its_own_reason() {
        assert_eq!(
            Why::of_load(LoadErrorKind::HeaderByte(b'\r')),
            Why::CarriageReturn
        );
        assert_eq!(
            Why::of_load(LoadErrorKind::HeaderByte(b'x')),
            Why::HeaderByte
        );
        assert_eq!(Why::of_load(LoadErrorKind::GridTruncated), Why::Truncated);
        assert_eq!(Why::of_load(LoadErrorKind::GridLineLong), Why::GridLineLong);
        assert_eq!(
            Why::of_load(LoadErrorKind::HeaderFieldCount),
            Why::HeaderFieldCount
        );
        assert_eq!(Why::of_load(LoadErrorKind::NextPlayer), Why::NextPlayer);
        assert_eq!(Why::of_load(LoadErrorKind::Dimension), Why::FileDimension);
    }

    #[test]
    fn turn_3_tells_outside_from_occupied() {
        let grid = Grid::new(4, 4);
        let outside = Cell { row: 4, col: 0 };
        assert_eq!(Why::of_move(outside, &grid), Why::Outside);
        assert_eq!(
            Why::Outside.rejection(Some(outside), &grid),
            "TURN-3 rejects it (cell (4, 0) is outside a 4x4 board; rows 0..H-1, columns 0..W-1)"
        );
    }
}
