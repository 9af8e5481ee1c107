//! The error classes: every way the corpus makes a grid file wrong, and the
//! valid controls that a strict but wrong loader rejects. Each class knows
//! its kebab-case name, a one-line description, the rulings it rests on and
//! whether one of them is marked (ambiguous). Every property is an
//! exhaustive `match`, so a new variant cannot be left without one.
//!
//! One piece: the closed set of error classes with their names,
//! descriptions and rules, one table of exhaustive `match`es; its tests
//! are the sibling `class/tests.rs`.

use std::fmt;

/// Which kind of edge row a fault sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdgeRow {
    /// A horizontal row: exactly W characters.
    Horizontal,
    /// A vertical row: exactly W+1 characters.
    Vertical,
}

impl EdgeRow {
    /// Both kinds, horizontal first (file order).
    pub const ALL: [Self; 2] = [Self::Horizontal, Self::Vertical];

    /// `horizontal` or `vertical`.
    pub const fn word(self) -> &'static str {
        match self {
            Self::Horizontal => "horizontal",
            Self::Vertical => "vertical",
        }
    }
}

/// A byte that has no place in an edge row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Foreign {
    /// `2`: a digit, but not `0` or `1`.
    Two,
    /// A space.
    Space,
    /// A horizontal tab.
    Tab,
    /// A carriage return, alone.
    CarriageReturn,
    /// The letter `x`.
    Letter,
    /// A NUL byte.
    Nul,
    /// 0xE9, a byte above 127 (Latin-1 `é`; not UTF-8 on its own).
    High,
}

impl Foreign {
    /// Every foreign byte, in a fixed order.
    pub const ALL: [Self; 7] = [
        Self::Two,
        Self::Space,
        Self::Tab,
        Self::CarriageReturn,
        Self::Letter,
        Self::Nul,
        Self::High,
    ];

    /// The byte itself.
    pub const fn byte(self) -> u8 {
        match self {
            Self::Two => b'2',
            Self::Space => b' ',
            Self::Tab => b'\t',
            Self::CarriageReturn => b'\r',
            Self::Letter => b'x',
            Self::Nul => 0,
            Self::High => 0xe9,
        }
    }

    /// A kebab-case word for names.
    pub const fn word(self) -> &'static str {
        match self {
            Self::Two => "two",
            Self::Space => "space",
            Self::Tab => "tab",
            Self::CarriageReturn => "cr",
            Self::Letter => "letter",
            Self::Nul => "nul",
            Self::High => "high",
        }
    }

    /// How the byte reads in a description.
    pub const fn shown(self) -> &'static str {
        match self {
            Self::Two => "the digit 2",
            Self::Space => "a space",
            Self::Tab => "a tab",
            Self::CarriageReturn => "a lone carriage return",
            Self::Letter => "the letter x",
            Self::Nul => "a NUL byte",
            Self::High => "the byte 0xE9 (above 127)",
        }
    }

    /// Whether FILE-5 names this byte class explicitly (whitespace, `\r`,
    /// NUL) on top of FILE-1's `0`/`1` alphabet.
    const fn file_5(self) -> bool {
        match self {
            Self::Space | Self::Tab | Self::CarriageReturn | Self::Nul => true,
            Self::Two | Self::Letter | Self::High => false,
        }
    }
}

/// What is wrong with an edge row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdgeFault {
    /// One character fewer than the row needs.
    TooShort,
    /// One `0` more than the row needs.
    TooLong,
    /// One character replaced by a foreign byte (same length).
    Byte(Foreign),
}

impl EdgeFault {
    /// Every edge fault.
    pub fn all() -> impl Iterator<Item = Self> {
        [Self::TooShort, Self::TooLong]
            .into_iter()
            .chain(Foreign::ALL.map(Self::Byte))
    }
}

/// What is wrong with the first line, the next player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NextFault {
    /// The line is empty.
    Empty,
    /// A letter instead of, or after, the number.
    NonNumeric,
    /// A `+` or `-` before the number.
    Signed,
    /// A space before or after the number.
    Spaced,
    /// The number 0.
    Zero,
    /// The number P+1.
    AbovePlayers,
    /// A number far above any player count, including ones that wrap to a
    /// valid player in 32 or 64 bits.
    Huge,
}

impl NextFault {
    /// Every next-player fault.
    pub const ALL: [Self; 7] = [
        Self::Empty,
        Self::NonNumeric,
        Self::Signed,
        Self::Spaced,
        Self::Zero,
        Self::AbovePlayers,
        Self::Huge,
    ];
}

/// What is wrong with a cell row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CellFault {
    /// W-1 owner fields.
    TooFewFields,
    /// W+1 owner fields.
    TooManyFields,
    /// An empty field between commas or before the first comma (`,0`).
    EmptyField,
    /// A comma after the last field.
    TrailingComma,
    /// A letter as an owner.
    NonNumeric,
    /// A `+` or `-` before an owner.
    Signed,
    /// A space before or after an owner.
    Spaced,
    /// An owner above P on a closed cell.
    AbovePlayers,
    /// A player as the owner of a cell whose edges are not all closed.
    OwnerOnOpenCell,
}

impl CellFault {
    /// Every cell-row fault.
    pub const ALL: [Self; 9] = [
        Self::TooFewFields,
        Self::TooManyFields,
        Self::EmptyField,
        Self::TrailingComma,
        Self::NonNumeric,
        Self::Signed,
        Self::Spaced,
        Self::AbovePlayers,
        Self::OwnerOnOpenCell,
    ];
}

/// A whole valid file written for other dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Shift {
    /// Written for H+1 rows.
    RowMore,
    /// Written for H-1 rows.
    RowFewer,
    /// Written for W+1 columns.
    ColumnMore,
    /// Written for W-1 columns.
    ColumnFewer,
}

impl Shift {
    /// Every shift.
    pub const ALL: [Self; 4] = [
        Self::RowMore,
        Self::RowFewer,
        Self::ColumnMore,
        Self::ColumnFewer,
    ];

    /// The dimensions the file is written for, from the real ones.
    pub const fn apply(self, height: usize, width: usize) -> (usize, usize) {
        match self {
            Self::RowMore => (height + 1, width),
            Self::RowFewer => (height.saturating_sub(1), width),
            Self::ColumnMore => (height, width + 1),
            Self::ColumnFewer => (height, width.saturating_sub(1)),
        }
    }
}

/// A valid file that a strict but wrong loader rejects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Control {
    /// A mid-game state written exactly as the reference saves it.
    MidGame,
    /// The same without the final `\n`.
    NoFinalNewline,
    /// A closed cell with owner 0.
    ZeroOwnerOnClosedCell,
    /// Player P as the next player or as an owner.
    HighestPlayer,
    /// Numbers with leading zeros (`01`, `00`).
    LeadingZeros,
    /// Every edge closed: the game ends at once with the winners.
    FullyClosed,
    /// A next player other than 1.
    NextPlayerNotFirst,
}

impl Control {
    /// Every control.
    pub const ALL: [Self; 7] = [
        Self::MidGame,
        Self::NoFinalNewline,
        Self::ZeroOwnerOnClosedCell,
        Self::HighestPlayer,
        Self::LeadingZeros,
        Self::FullyClosed,
        Self::NextPlayerNotFirst,
    ];
}

/// One way a grid file is wrong, or one kind of valid control file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// No bytes at all.
    EmptyFile,
    /// The file stops after a complete line, before its 3H+2 lines.
    TooFewLines,
    /// The first line is wrong.
    NextPlayer(NextFault),
    /// An edge row is wrong.
    Edge(EdgeRow, EdgeFault),
    /// A cell row is wrong.
    Cell(CellFault),
    /// A line after the last cell row.
    LinesAfterGrid,
    /// Lines end in `\r\n`.
    CrlfLineEnds,
    /// A valid file for other dimensions.
    OtherDimensions(Shift),
    /// A valid file.
    Valid(Control),
}

/// The rule IDs every faulty file shares: its message and status (FILE-6),
/// and nothing on stdout (ARGS-7).
const FAULT_RULES: [&str; 2] = ["FILE-6", "ARGS-7"];

/// What a loaded control then does on empty input.
const PLAY_RULES: [&str; 4] = ["FILE-7", "DISP-1", "TURN-1", "EOF-1"];

impl Class {
    /// Every class, in a fixed order (the order of `classes` and of the
    /// generated corpus).
    pub fn all() -> Vec<Self> {
        let mut all = vec![Self::EmptyFile, Self::TooFewLines];
        all.extend(NextFault::ALL.map(Self::NextPlayer));
        for row in EdgeRow::ALL {
            all.extend(EdgeFault::all().map(|f| Self::Edge(row, f)));
        }
        all.extend(CellFault::ALL.map(Self::Cell));
        all.extend([Self::LinesAfterGrid, Self::CrlfLineEnds]);
        all.extend(Shift::ALL.map(Self::OtherDimensions));
        all.extend(Control::ALL.map(Self::Valid));
        all
    }

    /// The class whose [`Class::name`] is `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::all().into_iter().find(|c| c.name() == name)
    }

    /// Whether files of this class are valid (a control).
    pub const fn is_control(self) -> bool {
        match self {
            Self::Valid(_) => true,
            Self::EmptyFile
            | Self::TooFewLines
            | Self::NextPlayer(_)
            | Self::Edge(..)
            | Self::Cell(_)
            | Self::LinesAfterGrid
            | Self::CrlfLineEnds
            | Self::OtherDimensions(_) => false,
        }
    }

    /// The kebab-case name: the class's folder in a corpus and its
    /// `class` in the manifest.
    pub fn name(self) -> String {
        match self {
            Self::EmptyFile => "empty-file".into(),
            Self::TooFewLines => "too-few-lines".into(),
            Self::NextPlayer(f) => format!(
                "next-player-{}",
                match f {
                    NextFault::Empty => "empty",
                    NextFault::NonNumeric => "non-numeric",
                    NextFault::Signed => "signed",
                    NextFault::Spaced => "spaced",
                    NextFault::Zero => "zero",
                    NextFault::AbovePlayers => "above-players",
                    NextFault::Huge => "huge",
                }
            ),
            Self::Edge(row, f) => match f {
                EdgeFault::TooShort => format!("{}-row-too-short", row.word()),
                EdgeFault::TooLong => format!("{}-row-too-long", row.word()),
                EdgeFault::Byte(b) => format!("{}-row-byte-{}", row.word(), b.word()),
            },
            Self::Cell(f) => match f {
                CellFault::TooFewFields => "cell-row-too-few-fields",
                CellFault::TooManyFields => "cell-row-too-many-fields",
                CellFault::EmptyField => "cell-row-empty-field",
                CellFault::TrailingComma => "cell-row-trailing-comma",
                CellFault::NonNumeric => "cell-owner-non-numeric",
                CellFault::Signed => "cell-owner-signed",
                CellFault::Spaced => "cell-owner-spaced",
                CellFault::AbovePlayers => "cell-owner-above-players",
                CellFault::OwnerOnOpenCell => "cell-owner-on-open-cell",
            }
            .into(),
            Self::LinesAfterGrid => "lines-after-grid".into(),
            Self::CrlfLineEnds => "crlf-line-ends".into(),
            Self::OtherDimensions(s) => match s {
                Shift::RowMore => "dimensions-one-row-more",
                Shift::RowFewer => "dimensions-one-row-fewer",
                Shift::ColumnMore => "dimensions-one-column-more",
                Shift::ColumnFewer => "dimensions-one-column-fewer",
            }
            .into(),
            Self::Valid(c) => match c {
                Control::MidGame => "valid-mid-game",
                Control::NoFinalNewline => "valid-no-final-newline",
                Control::ZeroOwnerOnClosedCell => "valid-zero-owner-on-closed-cell",
                Control::HighestPlayer => "valid-highest-player",
                Control::LeadingZeros => "valid-leading-zeros",
                Control::FullyClosed => "valid-fully-closed",
                Control::NextPlayerNotFirst => "valid-next-player-not-first",
            }
            .into(),
        }
    }

    /// One line saying what files of this class hold.
    pub fn description(self) -> String {
        match self {
            Self::EmptyFile => "the file has no bytes at all".into(),
            Self::TooFewLines => {
                "the file ends after a complete line, before its 3H+2 lines".into()
            }
            Self::NextPlayer(f) => match f {
                NextFault::Empty => "the next-player line is empty".into(),
                NextFault::NonNumeric => "the next-player line holds a letter".into(),
                NextFault::Signed => "the next player has a + or - sign".into(),
                NextFault::Spaced => "the next player has a space before or after it".into(),
                NextFault::Zero => "the next player is 0".into(),
                NextFault::AbovePlayers => "the next player is P+1".into(),
                NextFault::Huge => {
                    "the next player is a huge number (some wrap to 1 in 32 or 64 bits)".into()
                }
            },
            Self::Edge(row, f) => {
                let w = row.word();
                match f {
                    EdgeFault::TooShort => format!("a {w} edge row is one character short"),
                    EdgeFault::TooLong => format!("a {w} edge row has one 0 too many"),
                    EdgeFault::Byte(b) => {
                        format!("a {w} edge row has {} in place of a 0 or 1", b.shown())
                    }
                }
            }
            Self::Cell(f) => match f {
                CellFault::TooFewFields => "a cell row has W-1 owners".into(),
                CellFault::TooManyFields => "a cell row has W+1 owners".into(),
                CellFault::EmptyField => "a cell row has an empty owner field".into(),
                CellFault::TrailingComma => "a cell row ends with a comma".into(),
                CellFault::NonNumeric => "a cell owner is a letter".into(),
                CellFault::Signed => "a cell owner has a + or - sign".into(),
                CellFault::Spaced => "a cell owner has a space before or after it".into(),
                CellFault::AbovePlayers => "a closed cell's owner is above P".into(),
                CellFault::OwnerOnOpenCell => {
                    "a cell whose edges are not all closed has an owner".into()
                }
            },
            Self::LinesAfterGrid => "a line follows the last cell row".into(),
            Self::CrlfLineEnds => "lines end in CR LF".into(),
            Self::OtherDimensions(s) => {
                let what = match s {
                    Shift::RowMore => "one row more",
                    Shift::RowFewer => "one row fewer",
                    Shift::ColumnMore => "one column more",
                    Shift::ColumnFewer => "one column fewer",
                };
                format!("a valid file for a grid of {what}")
            }
            Self::Valid(c) => match c {
                Control::MidGame => "valid: a mid-game state as the reference saves it",
                Control::NoFinalNewline => "valid: the last line has no final newline",
                Control::ZeroOwnerOnClosedCell => "valid: a closed cell with owner 0",
                Control::HighestPlayer => "valid: player P as next player or owner",
                Control::LeadingZeros => "valid: numbers with leading zeros",
                Control::FullyClosed => "valid: every edge closed, the game ends at once",
                Control::NextPlayerNotFirst => "valid: a next player other than 1",
            }
            .into(),
        }
    }

    /// The rule IDs the class's expected outcome rests on.
    pub fn rules(self) -> Vec<&'static str> {
        let mut rules: Vec<&'static str> = match self {
            Self::EmptyFile => vec![],
            Self::TooFewLines | Self::Edge(_, EdgeFault::TooShort | EdgeFault::TooLong) => {
                vec!["FILE-1"]
            }
            Self::NextPlayer(NextFault::Spaced) => vec!["FILE-2", "FILE-5"],
            Self::NextPlayer(_) => vec!["FILE-2"],
            Self::Edge(_, EdgeFault::Byte(b)) => {
                if b.file_5() {
                    vec!["FILE-1", "FILE-5"]
                } else {
                    vec!["FILE-1"]
                }
            }
            Self::Cell(f) => match f {
                CellFault::TooFewFields | CellFault::TooManyFields => vec!["FILE-1"],
                CellFault::EmptyField | CellFault::TrailingComma => vec!["FILE-1", "FILE-3"],
                CellFault::NonNumeric | CellFault::Signed | CellFault::AbovePlayers => {
                    vec!["FILE-3"]
                }
                CellFault::Spaced => vec!["FILE-3", "FILE-5"],
                CellFault::OwnerOnOpenCell => vec!["FILE-4"],
            },
            Self::LinesAfterGrid => vec!["FILE-1", "FILE-5"],
            Self::CrlfLineEnds => vec!["FILE-5"],
            Self::OtherDimensions(_) => vec!["FILE-1"],
            Self::Valid(c) => match c {
                Control::MidGame => vec!["FILE-1"],
                Control::NoFinalNewline => vec!["FILE-5"],
                Control::ZeroOwnerOnClosedCell => vec!["FILE-4"],
                Control::HighestPlayer => vec!["FILE-2", "FILE-3", "DISP-2"],
                Control::LeadingZeros => vec!["FILE-2", "FILE-3"],
                Control::FullyClosed => vec!["END-2", "END-1"],
                Control::NextPlayerNotFirst => vec!["FILE-2"],
            },
        };
        match self {
            Self::Valid(Control::FullyClosed) => rules.extend(["FILE-7", "DISP-1"]),
            Self::Valid(_) => rules.extend(PLAY_RULES),
            _ => rules.extend(FAULT_RULES),
        }
        rules
    }

    /// Whether the outcome rests on a ruling marked (ambiguous).
    pub const fn ambiguous(self) -> bool {
        match self {
            Self::Cell(
                CellFault::EmptyField | CellFault::TrailingComma | CellFault::OwnerOnOpenCell,
            )
            | Self::LinesAfterGrid
            | Self::Valid(
                Control::NoFinalNewline
                | Control::ZeroOwnerOnClosedCell
                | Control::LeadingZeros
                | Control::FullyClosed,
            ) => true,
            Self::EmptyFile
            | Self::TooFewLines
            | Self::NextPlayer(_)
            | Self::Edge(..)
            | Self::Cell(
                CellFault::TooFewFields
                | CellFault::TooManyFields
                | CellFault::NonNumeric
                | CellFault::Signed
                | CellFault::Spaced
                | CellFault::AbovePlayers,
            )
            | Self::CrlfLineEnds
            | Self::OtherDimensions(_)
            | Self::Valid(
                Control::MidGame | Control::HighestPlayer | Control::NextPlayerNotFirst,
            ) => false,
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests;
