//! What the arena plays and what it gets: the bots, each scheduled match
//! and each finished one; below the run that makes them and the standings
//! that tally them.

use std::path::PathBuf;

use serde::Serialize;

use crate::record::Record;

/// A named bot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entrant {
    /// The bot's name.
    pub name: String,
    /// Its command.
    pub cmd: String,
}

/// One scheduled match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Fixture {
    /// Its number, from 1.
    pub index: usize,
    /// Entrant index in seat A.
    pub a: usize,
    /// Entrant index in seat B.
    pub b: usize,
    /// Board size.
    pub size: u8,
}

/// One finished match.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// What was played.
    #[serde(flatten)]
    pub fixture: Fixture,
    /// Seat A's name.
    pub a_name: String,
    /// Seat B's name.
    pub b_name: String,
    /// The record file, relative to where the arena ran.
    pub record_file: PathBuf,
    /// The record.
    pub record: Record,
    /// Why a seat's bot could not be started, if one could not.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub start_errors: Vec<String>,
}
