//! The shrink loop: a mismatching session is replaced by the first of its
//! pack's smaller candidates ([`Explorer::shrink`]) that still mismatches in
//! the same part, or with the same cause (a bug whose first difference
//! moves from the status to stdout as lines go is the same bug), and the
//! search starts over from it, until no candidate does or the run budget
//! is spent. Greedy and pack-neutral: what "smaller"
//! means is the pack's business.

use std::time::{Duration, Instant};

use super::compare::Part;
use super::exec::{Runner, Trial, TrialError};
use super::explore::Explorer;
use crate::exec::run::Ending;

/// Most candidate sessions run while shrinking one mismatch.
pub const BUDGET: usize = 400;

/// Most candidate sessions run while shrinking a mismatch where the
/// candidate timed out.
pub const HANGING_BUDGET: usize = 20;

/// Most wall time spent shrinking one mismatch: a candidate that times out
/// on every try would otherwise take hours.
pub const TIME_BUDGET: Duration = Duration::from_secs(60);

/// A shrunk mismatch: the smallest session found and its runs.
#[derive(Debug, Clone)]
pub struct Shrunk<S> {
    /// The session.
    pub session: S,
    /// Its two runs.
    pub trial: Trial,
    /// How many candidates were tried.
    pub tried: usize,
}

/// Shrinks `session`, whose `trial` mismatches, while the mismatch stays in
/// the same part or `same` says it is the same bug.
pub fn shrink<E: Explorer>(
    explorer: &E,
    runner: &Runner,
    session: E::Session,
    trial: Trial,
    same: impl Fn(&E::Session, &Trial) -> bool,
) -> Result<Shrunk<E::Session>, TrialError> {
    let Some(part) = trial.first().map(|d| d.part.clone()) else {
        return Ok(Shrunk {
            session,
            trial,
            tried: 0,
        });
    };
    let mut best = Shrunk {
        session,
        trial,
        tried: 0,
    };
    // Each try of a program that hangs costs a whole timeout.
    let budget = if matches!(best.trial.actual.ending, Ending::TimedOut { .. }) {
        HANGING_BUDGET
    } else {
        BUDGET
    };
    let started = Instant::now();
    'search: while best.tried < budget {
        for candidate in explorer.shrink(&best.session) {
            if best.tried >= budget || started.elapsed() >= TIME_BUDGET {
                break 'search;
            }
            best.tried += 1;
            let trial = runner.trial(explorer, &candidate)?;
            if still_fails(&trial, &part) || (trial.first().is_some() && same(&candidate, &trial)) {
                best.session = candidate;
                best.trial = trial;
                continue 'search;
            }
        }
        break;
    }
    Ok(best)
}

/// Whether `trial` still mismatches in `part` first.
fn still_fails(trial: &Trial, part: &Part) -> bool {
    trial.first().is_some_and(|d| &d.part == part)
}
