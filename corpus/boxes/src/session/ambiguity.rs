//! The rulings marked ambiguous that a session may touch, and the labels
//! computed from a session's bytes: argument numbers, grid files, stdin
//! lines. The rules themselves are the reference's (ARGS-2 number reading,
//! the TURN-2 move shape, the grid-file loader); this module only names
//! which ambiguous point a byte pattern reaches.

use std::collections::BTreeSet;
use std::fmt;

use boxes_reference::args;
use boxes_reference::command::{self, Command};
use boxes_reference::gridfile::{self, LoadErrorKind};
use boxes_reference::layout;

use super::{MAX_PLAIN_PLAYERS, PROMISED_LINE_LENGTH, Session};

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

impl Session {
    /// The ambiguous rulings this session's bytes touch. It errs on the side
    /// of naming one the outcome might not depend on.
    pub fn ambiguities(&self) -> BTreeSet<Ambiguity> {
        let mut found = BTreeSet::new();
        if (3..=4).contains(&self.args.len()) {
            for arg in self.args.iter().take(3) {
                argument_ambiguities(arg.as_bytes(), &mut found);
            }
        }
        if let Ok(config) = args::parse(&self.os_args()) {
            if config.players > MAX_PLAIN_PLAYERS {
                found.insert(Ambiguity::ManyPlayers);
            }
            if let Some(path) = self.args.get(3) {
                if path == "." || path == ".." || path.ends_with('/') {
                    found.insert(Ambiguity::DirectoryGridFile);
                } else if let Some(file) = self.files.iter().find(|f| &f.path == path) {
                    file_ambiguities(
                        &file.bytes,
                        config.height,
                        config.width,
                        config.players,
                        &mut found,
                    );
                }
            }
        }
        let stdin = self.stdin();
        if stdin.last().is_some_and(|&b| b != b'\n') {
            found.insert(Ambiguity::InputWithoutFinalNewline);
        }
        if stdin.contains(&0) {
            found.insert(Ambiguity::NulInput);
        }
        for line in &self.lines {
            if let Command::Save(path) = command::parse(line) {
                if line.len() > PROMISED_LINE_LENGTH {
                    found.insert(Ambiguity::LongSaveLine);
                }
                if path.is_empty() {
                    found.insert(Ambiguity::EmptySavePath);
                }
                if path.first() == Some(&b'/') {
                    found.insert(Ambiguity::AbsoluteSavePath);
                }
            } else if command::move_shape(line).is_some_and(|m| m.has_leading_zero()) {
                found.insert(Ambiguity::MoveLeadingZero);
            }
        }
        found
    }
}

/// ARGS-2 ambiguities of one numeric argument, as the reference reads it.
fn argument_ambiguities(arg: &[u8], found: &mut BTreeSet<Ambiguity>) {
    let parts = args::number_parts(arg);
    if parts.leading_space || parts.sign == Some(b'+') {
        found.insert(Ambiguity::ArgumentSpaceOrPlus);
    }
    // Digits the reference still refuses lie beyond a C `int`.
    if parts.is_whole_number() && args::parse_c_long(arg).is_none() {
        found.insert(Ambiguity::ArgumentAboveInt);
    }
}

/// FILE ambiguities of a grid file loaded for H×W with P players.
fn file_ambiguities(
    bytes: &[u8],
    height: usize,
    width: usize,
    players: usize,
    found: &mut BTreeSet<Ambiguity>,
) {
    if bytes.last().is_some_and(|&b| b != b'\n') {
        found.insert(Ambiguity::FileWithoutFinalNewline);
    }
    let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    let leading = |n: &[u8]| n.len() > 1 && n[0] == b'0' && n.iter().all(u8::is_ascii_digit);
    if lines.first().is_some_and(|l| leading(l)) {
        found.insert(Ambiguity::NextPlayerLeadingZero);
    }
    let cells = lines
        .iter()
        .skip(layout::first_cell_line(height))
        .take(height);
    for row in cells {
        if row.contains(&b',') || width == 1 {
            let fields: Vec<&[u8]> = row.split(|&b| b == b',').collect();
            if fields.iter().any(|f| leading(f)) {
                found.insert(Ambiguity::OwnerLeadingZero);
            }
            if fields.iter().any(|f| f.is_empty()) {
                found.insert(Ambiguity::EmptyOwnerField);
            }
        }
    }
    match gridfile::load_bytes(bytes, height, width, players) {
        Ok(state) => {
            if state.grid.open_edges() == 0 {
                found.insert(Ambiguity::FullyClosedLoad);
            }
            let unowned_closed = state
                .grid
                .cells()
                .any(|c| state.grid.is_cell_closed(c) && state.grid.owner(c).is_none());
            if unowned_closed {
                found.insert(Ambiguity::UnownedClosedCell);
            }
        }
        Err(e) => match e.kind {
            LoadErrorKind::OwnerOnOpenCell { .. } => {
                found.insert(Ambiguity::OwnerOnOpenCell);
            }
            LoadErrorKind::ExtraLine => {
                found.insert(Ambiguity::LineAfterGrid);
            }
            LoadErrorKind::EmptyField => {
                found.insert(Ambiguity::EmptyOwnerField);
            }
            _ => {}
        },
    }
}
