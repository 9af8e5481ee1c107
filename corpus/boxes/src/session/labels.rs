//! The labels computed from a session's bytes: which rulings marked
//! ambiguous ([`super::ambiguity`]) its argument numbers, grid files and
//! stdin lines reach. The rules themselves are the reference's (ARGS-2
//! number reading, the TURN-2 move shape, the grid-file loader); this
//! module only names which ambiguous point a byte pattern reaches.

use std::collections::BTreeSet;

use boxes_reference::args;
use boxes_reference::command::{self, Command};
use boxes_reference::gridfile::{self, LoadErrorKind};
use boxes_reference::layout;

use super::ambiguity::Ambiguity;
use super::{MAX_PLAIN_PLAYERS, PROMISED_LINE_LENGTH, Session};

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
