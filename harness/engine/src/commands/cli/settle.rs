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
//!   confirmation of the cause found it stuck past its CPU limit (killed
//!   again having used more than it), the cause's other starved timeouts
//!   are charged without a run
//!   (as an idle machine, which gives each run its CPU, would have
//!   charged them at once); while one is being confirmed, the others of
//!   its cause wait for it rather than run beside it. A confirmation that
//!   clears its case, finds it slow (its CPU time near the limit, which
//!   differs from case to case) or starved again says nothing of the
//!   others: each is confirmed.
//!
//! A run stopped by its CPU time before its limit (the program was found
//! stuck on another case: [`confirm::cpu_stop`]) is settled as a starved
//! one, whatever it looked like at the stop: it used less CPU than its
//! limit.
//!
//! So a cause costs one confirmation (at most [`confirm::HEADROOM`] times
//! its limit, and as much again under a load that starves it twice), not
//! one per case, and the verdicts are those of an idle machine.

use std::sync::PoisonError;
use std::time::Duration;

use crate::exec::run::{Activity, Ending, Invocation, Outcome};
use crate::judge::compare;
use crate::judge::failure::CaseFailure;
use crate::judge::verdict::Verdict;

use super::confirm::{self, Look};
use super::context::Context;
use super::told::{Confirmed, SpentRun};

/// What a verdict leaves aside: the departures a tolerance forgave (under
/// `--strict`, those it would have), and under `--memcheck …,warn` the
/// memory error only warned about.
#[derive(Debug, Default)]
pub(super) struct Aside {
    /// Set before the run: the case is secret and the run's outputs are
    /// the student's, so no kit of it is kept.
    pub(super) secret: bool,
    pub(super) forgiven: Vec<compare::Forgiven>,
    pub(super) warning: Option<Box<CaseFailure>>,
    /// The score a driver's judge gave the case (a problem package's
    /// validator's), for its category's grader.
    pub(super) score: Option<f64>,
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
    let Some(mut look) = confirm::look(case.inv, &first, how) else {
        ctx.causes.finished(how.cpu);
        *actual = Some(first.ending.clone());
        return judge(first, aside);
    };
    // Stopped by its CPU time before its limit: it used less CPU than the
    // limit, whatever it looked like then, so it is settled as a starved
    // run is.
    let stopped = case
        .inv
        .cpu_stop
        .filter(|_| first.elapsed < limit)
        .map(|stop| how.cpu.unwrap_or(stop));
    if stopped.is_some() {
        look = Look::Starved;
    }
    let told_note = |told: &Confirmed, on: Option<&str>| match stopped {
        Some(cpu) => confirm::stopped_note(told, (limit, cpu), case.reference, on),
        None => confirm::note(told, limit, case.reference).map(|note| match on {
            Some(on) => {
                format!("{note}; not run again: {on}, a case of the same cause, was told so")
            }
            None => note,
        }),
    };
    *actual = Some(first.ending.clone());
    let mut verdict = judge(first, aside);
    let Verdict::Failed(failure) = &mut verdict else {
        return verdict;
    };
    let failed_by = failure.cause.clone();
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
            if ctx.causes.claim(&failed_by, limit) {
                let told = confirm::tell(case.inv);
                ctx.causes.record(&failed_by, limit, told, case.name);
            }
            note
        }
        Look::Starved => match ctx.causes.known_or_claim(&failed_by, limit) {
            Some((told, on)) => told_note(&told, Some(&on)),
            None => match confirm::again(case.inv) {
                Some(Confirmed::Cleared(again)) => {
                    ctx.causes.record(&failed_by, limit, None, case.name);
                    // Judged on the confirming run: the first kill was the
                    // machine's doing.
                    *actual = Some(again.ending.clone());
                    *aside = Aside {
                        secret: aside.secret,
                        ..Aside::default()
                    };
                    return judge(*again, aside);
                }
                Some(told) => {
                    let note = told_note(&told, None);
                    ctx.causes.record(&failed_by, limit, Some(told), case.name);
                    note
                }
                None => {
                    ctx.causes.record(&failed_by, limit, None, case.name);
                    None
                }
            },
        },
    };
    verdict.noted(note)
}
