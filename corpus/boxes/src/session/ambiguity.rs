//! The rulings marked ambiguous that a session may touch: their names and
//! rules. Which of them a session's bytes reach is [`super::labels`].

use std::fmt;

/// A ruling marked ambiguous that a session's outcome may depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ambiguity {
    /// A numeric argument with leading whitespace or a `+` (ARGS-2).
    ArgumentSpaceOrPlus,
    /// A numeric argument above 2147483647 (ARGS-2).
    ArgumentAboveInt,
    /// A directory given as the grid file (ARGS-6).
    DirectoryGridFile,
    /// A next-player line with a leading zero (FILE-2).
    NextPlayerLeadingZero,
    /// An owner number with a leading zero (FILE-3).
    OwnerLeadingZero,
    /// An empty owner field or a trailing comma (FILE-3).
    EmptyOwnerField,
    /// An owner on a cell that is not closed (FILE-4).
    OwnerOnOpenCell,
    /// A closed cell with owner 0 (FILE-4).
    UnownedClosedCell,
    /// A grid file without its final newline (FILE-5).
    FileWithoutFinalNewline,
    /// A line after the last cell row (FILE-5).
    LineAfterGrid,
    /// A loaded file with no open edge (END-2).
    FullyClosedLoad,
    /// More than 62 players: symbols past `~` (DISP-2).
    ManyPlayers,
    /// A move line with a leading zero (TURN-2).
    MoveLeadingZero,
    /// A NUL byte on stdin (TURN-2, SAVE-1).
    NulInput,
    /// A save line longer than 30 bytes (SAVE-1).
    LongSaveLine,
    /// The empty save path `w ` (SAVE-3).
    EmptySavePath,
    /// A save outside the sandbox, such as `/dev/full` (SAVE-3).
    AbsoluteSavePath,
    /// Input whose last line has no `\n` (EOF-2).
    InputWithoutFinalNewline,
}

impl Ambiguity {
    /// Every ambiguity, in order.
    pub const ALL: [Self; 18] = [
        Self::ArgumentSpaceOrPlus,
        Self::ArgumentAboveInt,
        Self::DirectoryGridFile,
        Self::NextPlayerLeadingZero,
        Self::OwnerLeadingZero,
        Self::EmptyOwnerField,
        Self::OwnerOnOpenCell,
        Self::UnownedClosedCell,
        Self::FileWithoutFinalNewline,
        Self::LineAfterGrid,
        Self::FullyClosedLoad,
        Self::ManyPlayers,
        Self::MoveLeadingZero,
        Self::NulInput,
        Self::LongSaveLine,
        Self::EmptySavePath,
        Self::AbsoluteSavePath,
        Self::InputWithoutFinalNewline,
    ];

    /// The ruling ID that marks this point ambiguous.
    pub const fn rule(self) -> &'static str {
        match self {
            Self::ArgumentSpaceOrPlus | Self::ArgumentAboveInt => "ARGS-2",
            Self::DirectoryGridFile => "ARGS-6",
            Self::NextPlayerLeadingZero => "FILE-2",
            Self::OwnerLeadingZero | Self::EmptyOwnerField => "FILE-3",
            Self::OwnerOnOpenCell | Self::UnownedClosedCell => "FILE-4",
            Self::FileWithoutFinalNewline | Self::LineAfterGrid => "FILE-5",
            Self::FullyClosedLoad => "END-2",
            Self::ManyPlayers => "DISP-2",
            Self::MoveLeadingZero => "TURN-2",
            Self::NulInput | Self::LongSaveLine => "SAVE-1",
            Self::EmptySavePath | Self::AbsoluteSavePath => "SAVE-3",
            Self::InputWithoutFinalNewline => "EOF-2",
        }
    }

    /// A short kebab-case name, usable as a tag or file-name part.
    pub const fn name(self) -> &'static str {
        match self {
            Self::ArgumentSpaceOrPlus => "argument-space-or-plus",
            Self::ArgumentAboveInt => "argument-above-int",
            Self::DirectoryGridFile => "directory-grid-file",
            Self::NextPlayerLeadingZero => "next-player-leading-zero",
            Self::OwnerLeadingZero => "owner-leading-zero",
            Self::EmptyOwnerField => "empty-owner-field",
            Self::OwnerOnOpenCell => "owner-on-open-cell",
            Self::UnownedClosedCell => "unowned-closed-cell",
            Self::FileWithoutFinalNewline => "file-without-final-newline",
            Self::LineAfterGrid => "line-after-grid",
            Self::FullyClosedLoad => "fully-closed-load",
            Self::ManyPlayers => "many-players",
            Self::MoveLeadingZero => "move-leading-zero",
            Self::NulInput => "nul-input",
            Self::LongSaveLine => "long-save-line",
            Self::EmptySavePath => "empty-save-path",
            Self::AbsoluteSavePath => "absolute-save-path",
            Self::InputWithoutFinalNewline => "input-without-final-newline",
        }
    }
}

impl fmt::Display for Ambiguity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name(), self.rule())
    }
}
