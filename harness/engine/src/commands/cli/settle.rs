//! A timed-out case's way to its verdict, in the job pool while the other
//! cases run (issue 47: the confirmations used to wait until every case
//! had run, then take turns). The rules of a confirmation are
//! [`super::confirm`]'s; this module owns doing as few of them as the
//! marks allow: one per cause where the cause's cases are alike.
//!
//! Cases are alike when their first runs fail by the same [`Cause`] at
//! the same time limit (a program with 45 loops that never end, each
//! after a different faulty save file, fails by a handful of causes). For
//! each such cause:
//!
//! - the first case charged at once having used its whole CPU limit
//!   ([`Look::Spent`]) tells the cause slow or stuck ([`confirm::tell`]),
//!   in its own job; the others charged so run nothing more;
//! - a starved timeout ([`Look::Starved`]) is confirmed on its own run
//!   ([`confirm::again`]) only while nothing is known of its cause: once a
//!   confirmation of the cause found it past its CPU limit (slow or
//!   stuck), the cause's other starved timeouts are charged without a run
//!   (as an idle machine, which gives each run its CPU, would have
//!   charged them at once); while one is being confirmed, the others of
//!   its cause wait for it rather than run beside it. A confirmation that
//!   clears its case says nothing of the others: each is confirmed.
//!
//! So a cause costs one confirmation (at most [`confirm::HEADROOM`] times
//! its limit, and as much again under a load that starves it twice), not
//! one per case, and the verdicts are those of an idle machine.

use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;

use crate::exec::run::{Activity, Ending, Invocation, Outcome};
use crate::judge::cause::Cause;
use crate::judge::verdict::Verdict;

use super::confirm::{self, Confirmed, Look, SpentRun};
use super::context::Context;
use super::trials::Aside;

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
    fn claim(&self, cause: &Cause, limit: Duration) -> bool {
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
    fn known_or_claim(&self, cause: &Cause, limit: Duration) -> Option<(Confirmed, String)> {
        let mut states = self.states.lock().unwrap_or_else(PoisonError::into_inner);
        let deadline = std::time::Instant::now() + WAIT_AT_MOST;
        loop {
            let Some((_, _, state)) = states.iter().find(|(c, l, _)| c == cause && *l == limit)
            else {
                states.push((cause.clone(), limit, State::Confirming));
                return None;
            };
            match state {
                State::Told(Some(told), on) => return Some((told.clone(), on.clone())),
                State::Told(None, _) => return None,
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

    /// Records what the confirmation of `cause` at `limit`, run on the
    /// case `on`, told.
    fn record(&self, cause: &Cause, limit: Duration, told: Option<Confirmed>, on: &str) {
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

/// One run of a case, and how to judge a run of it.
pub(super) struct Run<'a> {
    /// The case's name.
    pub(super) name: &'a str,
    /// What the reference takes on it.
    pub(super) reference: Option<Duration>,
    /// The run as made.
    pub(super) inv: &'a Invocation,
}

/// The verdict on `first` (the case's run, `how` busy at its end), once
/// a timeout is confirmed as [`super::confirm`] says, with as few
/// confirmations as its cause allows; `actual` receives how the judged
/// run ended, `aside` what its verdict leaves aside.
pub(super) fn settle(
    ctx: &Context,
    case: &Run<'_>,
    first: Outcome,
    how: Activity,
    judge: &mut dyn FnMut(Outcome, &mut Aside) -> Verdict,
    actual: &mut Option<Ending>,
    aside: &mut Aside,
) -> Verdict {
    let limit = case.inv.timeout;
    let Some(look) = confirm::look(case.inv, &first, how) else {
        *actual = Some(first.ending.clone());
        return judge(first, aside);
    };
    *actual = Some(first.ending.clone());
    let mut verdict = judge(first, aside);
    let Verdict::Failed(failure) = &mut verdict else {
        return verdict;
    };
    let cause = failure.cause.clone();
    let note = match look {
        Look::Blocked => confirm::note(&Confirmed::Blocked, limit, case.reference),
        Look::Spent(activity) => {
            let note = confirm::note(&Confirmed::Spent { activity }, limit, case.reference);
            if let Some(note) = &note {
                ctx.spent
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(SpentRun {
                        name: case.name.to_owned(),
                        limit,
                        note: note.clone(),
                        reference: case.reference,
                    });
            }
            // The cause's first case so charged tells it slow or stuck,
            // here in the pool, while the other cases run.
            if ctx.causes.claim(&cause, limit) {
                let told = confirm::tell(case.inv);
                ctx.causes.record(&cause, limit, told, case.name);
            }
            note
        }
        Look::Starved => match ctx.causes.known_or_claim(&cause, limit) {
            Some((told, on)) => confirm::note(&told, limit, case.reference).map(|note| {
                format!("{note}; not run again: {on}, a case of the same cause, was told so")
            }),
            None => match confirm::again(case.inv) {
                Some(Confirmed::Cleared(again)) => {
                    ctx.causes.record(&cause, limit, None, case.name);
                    // Judged on the confirming run: the first kill was the
                    // machine's doing.
                    *actual = Some(again.ending.clone());
                    *aside = Aside::default();
                    return judge(*again, aside);
                }
                Some(told) => {
                    let note = confirm::note(&told, limit, case.reference);
                    ctx.causes.record(&cause, limit, Some(told), case.name);
                    note
                }
                None => {
                    ctx.causes.record(&cause, limit, None, case.name);
                    None
                }
            },
        },
    };
    if let (Verdict::Failed(f), Some(note)) = (&mut verdict, note) {
        f.summary = if f.summary.is_empty() {
            note
        } else {
            format!("{} [{note}]", f.summary)
        };
    }
    verdict
}
