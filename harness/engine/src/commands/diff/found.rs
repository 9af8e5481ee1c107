//! What a `diff` run found: each distinct mismatch, shrunk and written
//! ([`Finding`]), and the run's totals ([`Report`]).

use std::path::PathBuf;
use std::time::Duration;

use super::dedup::Key;
use super::exec::Trial;
use super::explore::{Label, Probe};

/// One distinct mismatch, shrunk and written.
#[derive(Debug, Clone)]
pub struct Finding {
    /// What identifies it.
    pub key: Key,
    /// The session's index in the run.
    pub index: u64,
    /// The shrunk session's run.
    pub probe: Probe,
    /// The ambiguous rulings it touches.
    pub labels: Vec<Label>,
    /// Its runs.
    pub trial: Trial,
    /// The case written for it, if writing worked.
    pub case: Option<PathBuf>,
}

/// What a whole run found.
#[derive(Debug, Default)]
pub struct Report {
    /// Sessions run.
    pub sessions: u64,
    /// Sessions that mismatched (distinct or not).
    pub mismatching: u64,
    /// Mismatching sessions not shrunk, as likely repeats of known ones.
    pub unshrunk: u64,
    /// Mismatching sessions whose difference rests on a ruling marked
    /// ambiguous, set apart (not counted in [`Self::mismatching`]) without
    /// `--ambiguous`.
    pub set_apart: u64,
    /// The distinct mismatches.
    pub findings: Vec<Finding>,
    /// Wall time.
    pub elapsed: Duration,
}
