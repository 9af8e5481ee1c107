//! A run whose runtime never started, decided once every case has run.
//! A runtime's start-up message and a silent exit 127 are bytes a
//! program can write itself: a case whose run never started
//! ([`crate::exec::run::start`]) on a program that started on other
//! cases of the same run line is confirmed again after them, and charged
//! as the program's unless it now starts (then judged on that run) or the
//! machine is short of memory or tasks at that moment
//! ([`crate::exec::run::start::machine_short`]: then the environment's).
//! A program that started on no case at all is the environment's: a
//! runtime that cannot start anywhere (a heap that never fits) is the
//! machine's, and its row says so rather than a mark.

use std::sync::PoisonError;
use std::sync::atomic::Ordering;

use crate::exec::run::{self, Ending, Invocation, Outcome};
use crate::judge::verdict::{CaseResult, Verdict};

use super::context::Context;
use super::settle::Aside;

/// A case to run again once every case has run, and how its verdict is
/// then made.
pub(super) struct Unstarted {
    /// The case's name.
    pub(super) name: String,
    /// The case's run.
    pub(super) inv: Invocation,
    /// Judges a run of it, putting what the verdict leaves aside.
    pub(super) judge: Box<dyn FnOnce(&Context, Outcome, &mut Aside) -> Verdict + Send>,
    /// The case is secret and the reader a student (no kit kept).
    pub(super) secret: bool,
    /// The case's hint, for its deductions.
    pub(super) hint: Option<String>,
}

/// Notes a run of the program: its own code ran, or it never started
/// (then `later` is kept to decide once every case has run).
pub(super) fn note(ctx: &Context, outcome: &Outcome, later: impl FnOnce() -> Unstarted) {
    if outcome.no_start.is_none() {
        ctx.started.fetch_add(1, Ordering::Relaxed);
    } else {
        ctx.unstarted
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(later());
    }
}

/// Decides the cases whose runs never started, in `results` (sorted by
/// name), now that every case has run.
pub(super) fn decide(ctx: &Context, results: &mut [CaseResult]) {
    let unstarted =
        std::mem::take(&mut *ctx.unstarted.lock().unwrap_or_else(PoisonError::into_inner));
    let started = ctx.started.load(Ordering::Relaxed);
    // It started nowhere: the environment's on every case, as judged.
    if started == 0 {
        return;
    }
    for case in unstarted {
        let Some(result) = results.iter_mut().find(|r| r.name == case.name) else {
            continue;
        };
        let mut aside = Aside {
            secret: case.secret,
            ..Aside::default()
        };
        let (verdict, actual) = match run::run_with_activity(&case.inv) {
            Err(e) => (Verdict::Error(format!("{}: {e}", case.name)), None),
            Ok((mut outcome, _)) => {
                let charged = match outcome.no_start.as_mut() {
                    None => None,
                    Some(no) => match run::start::machine_short() {
                        // The machine's: the cause says why.
                        Some(short) => {
                            no.said = format!("{} ({short})", no.said);
                            None
                        }
                        None => Some(format!(
                            "its runtime said it could not start on this case ({} runs, then {} \
                             more after the other cases) yet started on {started} other run(s) \
                             of the same program: a start failure that follows the case is the \
                             program's",
                            no.tries, no.tries
                        )),
                    },
                };
                if charged.is_some() {
                    outcome.no_start = None;
                }
                let actual: Option<Ending> = Some(outcome.ending.clone());
                let mut verdict = (case.judge)(ctx, outcome, &mut aside);
                if let (Verdict::Failed(f), Some(note)) = (&mut verdict, charged) {
                    f.summary = if f.summary.is_empty() {
                        note
                    } else {
                        format!("{} [{note}]", f.summary)
                    };
                }
                (verdict, actual)
            }
        };
        result.verdict = verdict;
        result.actual = actual;
        super::trials::set_aside(result, aside, case.hint.as_ref());
    }
}
