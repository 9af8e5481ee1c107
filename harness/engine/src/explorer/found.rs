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
    /// Sessions whose every difference a tolerance forgave, not counted
    /// as mismatching; under `--strict`, mismatching sessions a
    /// tolerance would have forgiven in part.
    pub forgiven: u64,
    /// Each forgiven part and how it was compared
    /// (`stderr compared as nonempty (any text) (USE-1)`), with the
    /// number of sessions.
    pub forgiven_how: Vec<(String, u64)>,
    /// The suite's non-exact declarations (`IO-1: stdout spacing`).
    pub tolerances: Vec<String>,
    /// The distinct mismatches.
    pub findings: Vec<Finding>,
    /// Wall time.
    pub elapsed: Duration,
}
