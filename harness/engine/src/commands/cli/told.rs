//! What the confirmations of one run told, by cause: the leaf that the
//! run's context holds and that [`super::confirm`] and [`super::settle`]
//! read and write, so that neither imports the other through it (the
//! layers test keeps the files of a layer free of circles).

use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;

use crate::exec::run::{Activity, Outcome};
use crate::judge::cause::Cause;

/// What a confirmation found, for the report.
#[derive(Debug, Clone)]
pub(super) enum Confirmed {
    /// Finished within the limit's CPU time: judged on `outcome`.
    Cleared(Box<Outcome>),
    /// Finished, after `took` (wall) and `cpu`, past the limit.
    Slow {
        /// Wall time of the confirming run.
        took: Duration,
    },
    /// Killed blocked, using no CPU: charged at once.
    Blocked,
    /// Killed having used its whole limit of CPU time: charged at once.
    Spent {
        /// How busy it was at the kill.
        activity: Activity,
    },
    /// Killed again at the headroom.
    Stuck {
        /// How busy it was at the second kill.
        activity: Activity,
        /// The headroom's limit.
        after: Duration,
    },
}

/// A case charged as [`Confirmed::Spent`], kept so that its cause's
/// worked example can be told slow or stuck after the run.
pub(super) struct SpentRun {
    /// The case's name, as its result names it.
    pub(super) name: String,
    /// Its time limit.
    pub(super) limit: Duration,
    /// The note its failure carries now.
    pub(super) note: String,
    /// What the reference takes on the case.
    pub(super) reference: Option<Duration>,
}

/// Longest a case waits for its cause's confirmation before running its
/// own: a confirmation is bounded by the run's limits (at most twenty
/// times the case's limit), so this is only a guard.
const WAIT_AT_MOST: Duration = Duration::from_secs(600);

/// What one cause's confirmation found.
enum State {
    /// A case of the cause is being confirmed.
    Confirming,
    /// Told: slow or stuck (past its CPU limit), or `None` (cleared, or
    /// the run could not be made: nothing said of the cause).
    Told(Option<Confirmed>, String),
}

/// The confirmations of one run, by cause and time limit.
#[derive(Default)]
pub(super) struct Causes {
    states: Mutex<Vec<(Cause, Duration, State)>>,
    changed: Condvar,
    /// The most CPU time a run of the program that ended by itself used:
    /// no run is stopped by its CPU time near that
    /// ([`super::confirm::cpu_stop`]).
    finished_cpu: Mutex<Duration>,
}

impl Causes {
    /// What the confirmation of `cause` at `limit` told, when it found the
    /// cause past its CPU limit.
    pub(super) fn told(&self, cause: &Cause, limit: Duration) -> Option<Confirmed> {
        let states = self.states.lock().unwrap_or_else(PoisonError::into_inner);
        states.iter().find_map(|(c, l, s)| match s {
            State::Told(Some(told), _) if c == cause && *l == limit => Some(told.clone()),
            _ => None,
        })
    }

    /// Claims the telling of `cause` at `limit` for a case charged at
    /// once: `false` when another case of the cause has it.
    pub(super) fn claim(&self, cause: &Cause, limit: Duration) -> bool {
        let mut states = self.states.lock().unwrap_or_else(PoisonError::into_inner);
        if states.iter().any(|(c, l, _)| c == cause && *l == limit) {
            return false;
        }
        states.push((cause.clone(), limit, State::Confirming));
        true
    }

    /// For a starved timeout of `cause` at `limit`: what its cause's
    /// confirmation told (slow or stuck, and the case told on), waiting
    /// for one under way; `None` after claiming the confirmation for this
    /// case, or when the cause's confirmation cleared its case (each case
    /// is then confirmed on its own).
    pub(super) fn known_or_claim(
        &self,
        cause: &Cause,
        limit: Duration,
    ) -> Option<(Confirmed, String)> {
        let mut states = self.states.lock().unwrap_or_else(PoisonError::into_inner);
        let deadline = std::time::Instant::now() + WAIT_AT_MOST;
        loop {
            let Some((_, _, state)) = states.iter().find(|(c, l, _)| c == cause && *l == limit)
            else {
                states.push((cause.clone(), limit, State::Confirming));
                return None;
            };
            match state {
                State::Told(Some(told), on) if stuck_past(told, limit) => {
                    return Some((told.clone(), on.clone()));
                }
                State::Told(..) => return None,
                State::Confirming => {
                    let left = deadline.saturating_duration_since(std::time::Instant::now());
                    if left.is_zero() {
                        return None;
                    }
                    states = self
                        .changed
                        .wait_timeout(states, left)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0;
                }
            }
        }
    }

    /// Whether a confirmation found a case of the run stuck past its CPU
    /// limit: the program spins for ever somewhere, so its other runs may
    /// be stopped by their CPU time ([`super::confirm::cpu_stop`]).
    pub(super) fn spins(&self) -> bool {
        let states = self.states.lock().unwrap_or_else(PoisonError::into_inner);
        states.iter().any(
            |(_, limit, s)| matches!(s, State::Told(Some(told), _) if stuck_past(told, *limit)),
        )
    }

    /// Counts the CPU time of a run that ended by itself.
    pub(super) fn finished(&self, cpu: Option<Duration>) {
        let mut most = self
            .finished_cpu
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *most = (*most).max(cpu.unwrap_or_default());
    }

    /// The most CPU time a run that ended by itself used.
    pub(super) fn finished_cpu(&self) -> Duration {
        *self
            .finished_cpu
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Records what the confirmation of `cause` at `limit`, run on the
    /// case `on`, told.
    pub(super) fn record(&self, cause: &Cause, limit: Duration, told: Option<Confirmed>, on: &str) {
        let mut states = self.states.lock().unwrap_or_else(PoisonError::into_inner);
        let told = told.filter(|t| !matches!(t, Confirmed::Cleared(_)));
        match states
            .iter_mut()
            .find(|(c, l, _)| c == cause && *l == limit)
        {
            Some((_, _, state)) => *state = State::Told(told, on.to_owned()),
            None => states.push((cause.clone(), limit, State::Told(told, on.to_owned()))),
        }
        drop(states);
        self.changed.notify_all();
    }
}

/// Whether a confirmation found its case stuck past its CPU limit: killed
/// again having used more CPU time than the limit (a loop that never
/// ends). Only that speaks for the cause's other cases: a slow case's CPU
/// time lies near its limit and differs from case to case, and a case
/// starved twice or blocked at the second kill proved nothing.
pub(super) fn stuck_past(told: &Confirmed, limit: Duration) -> bool {
    matches!(told, Confirmed::Stuck { activity, .. } if activity.cpu.is_some_and(|cpu| cpu > limit))
}
