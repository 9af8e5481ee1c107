//! The options of `diff`, as clap reads them, and what they settle
//! before a session runs (the deadline, the candidate under `--memcheck`).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::exec::run::Target;

/// The options of `diff`.
#[derive(Debug, Clone, clap::Args)]
pub struct DiffCli {
    /// The program under test (default: `$NAME_BIN`, NAME the pack's).
    #[arg(long, value_name = "PATH")]
    pub bin: Option<PathBuf>,
    /// A second program whose behaviour is expected instead of the
    /// reference's.
    #[arg(long, value_name = "PATH")]
    pub against: Option<PathBuf>,
    /// How many sessions to run (default 2000).
    #[arg(long, value_name = "N", conflicts_with = "time")]
    pub sessions: Option<u64>,
    /// Run sessions for this many seconds instead of a fixed number.
    #[arg(long, value_name = "SECS")]
    pub time: Option<f64>,
    /// The seed: the same seed gives the same sessions (default: from the
    /// clock, printed in the summary).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Also generate sessions that touch rulings marked ambiguous; their
    /// cases are tagged `ambiguous`.
    #[arg(long)]
    pub ambiguous: bool,
    /// Judge every session exactly, ignoring the rules' `match:`
    /// tolerances, and say what they would have forgiven
    /// (docs/matching.md).
    #[arg(long)]
    pub strict: bool,
    /// Where to write the cases of the mismatches found.
    #[arg(long, value_name = "DIR", default_value = "diff-cases")]
    pub out: PathBuf,
    /// Stop after this many distinct mismatches.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub max_failures: usize,
    /// Per-run timeout, seconds, for both sides (default: the expected
    /// side gets 10 s and the candidate max(1 s, 20 × the expected side's
    /// own time for the session), so a program that spins costs about a
    /// second per session).
    #[arg(long, value_name = "SECS", value_parser = crate::exec::run::parse_timeout)]
    pub timeout: Option<Duration>,
    /// Check the candidate's memory: `asan` (it is built with
    /// -fsanitize=address,undefined) or `valgrind` (each session runs
    /// under valgrind's memcheck); a memory error is a mismatch
    /// (docs/memory.md).
    #[arg(long, value_name = "TOOL")]
    pub memcheck: Option<crate::exec::memcheck::Memcheck>,
    /// Parallel workers (0 or default: one per core).
    #[arg(long, short = 'j', visible_alias = "test-threads", value_name = "N")]
    pub jobs: Option<usize>,
}

impl DiffCli {
    /// When `--time` ends the sessions.
    pub fn deadline(&self) -> Result<Option<Instant>, String> {
        match self.time.map(Duration::try_from_secs_f64) {
            Some(Ok(d)) if !d.is_zero() => Ok(Instant::now().checked_add(d)),
            Some(_) => Err("--time must be a positive number of seconds".into()),
            None => Ok(None),
        }
    }

    /// The candidate as `--memcheck` runs it (under valgrind, wrapped), once
    /// the check is known to be able to run it.
    pub fn memchecked(&self, candidate: Target) -> Result<Target, String> {
        let Some(memcheck) = self.memcheck else {
            return Ok(candidate);
        };
        if memcheck.leaks || memcheck.warn {
            return Err(format!(
                "diff --memcheck takes `asan` or `valgrind` alone, not `{memcheck}`: a leak is no \
                 difference between two runs, and a warning no mismatch (`leaks` and `warn` are for \
                 run and mark)"
            ));
        }
        memcheck.check(&candidate)?;
        memcheck.wrap(candidate)
    }
}
