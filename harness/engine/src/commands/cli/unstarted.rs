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

use crate::exec::run::{self, NoStart};
use crate::judge::verdict::{CaseResult, Verdict};

use super::context::Context;
use super::pending::Unstarted;
use super::settle::Aside;

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
        let Some(result) = results.iter_mut().find(|r| r.name == case.name()) else {
            continue;
        };
        let hint = match &case {
            Unstarted::Run { case, secret, .. } => case.hint.clone().filter(|_| !secret),
            Unstarted::Conversation { .. } => None,
        };
        let (verdict, aside) = redo(ctx, case, started, &mut result.actual);
        result.verdict = verdict;
        super::trials::set_aside(result, aside, hint.as_ref());
    }
}

/// The verdict on `case` run again (or driven again), `started` runs of
/// the same program having started; `actual` receives how the run ended.
fn redo(
    ctx: &Context,
    case: Unstarted,
    started: usize,
    actual: &mut Option<run::Ending>,
) -> (Verdict, Aside) {
    match case {
        Unstarted::Run {
            file,
            case,
            inv,
            expected,
            secret,
        } => {
            let mut aside = Aside {
                secret,
                ..Aside::default()
            };
            match run::run_with_activity(&inv) {
                Err(e) => (Verdict::Error(format!("{}: {e}", file.display())), aside),
                Ok((mut outcome, _)) => {
                    let charged = charge(&mut outcome.no_start, started);
                    *actual = Some(outcome.ending.clone());
                    let verdict = super::trials::judge(
                        ctx, &file, &case, &inv, &expected, outcome, &mut aside,
                    );
                    (verdict.noted(charged), aside)
                }
            }
        }
        Unstarted::Conversation { file, case, script } => {
            let driven = match &ctx.driver {
                Some(driver) => driver.drive(&script, &ctx.target, ctx.settings),
                None => Err("the pack runs no conversations".to_owned()),
            };
            let verdict = match driven {
                Err(e) => Verdict::Error(format!("{}: {e}", file.display())),
                Ok(mut conversation) => {
                    let charged = charge(&mut conversation.no_start, started);
                    super::prepare::spoken(ctx, &file, &case, conversation).noted(charged)
                }
            };
            (verdict, Aside::default())
        }
    }
}

/// Whether a case whose run still never started (`no_start`), where
/// `started` runs of the same program did, is charged as the program's:
/// the note that says why, `no_start` then cleared. Not where the machine
/// is short of memory or tasks now: the cause says so, and it stays the
/// environment's.
pub(super) fn charge(no_start: &mut Option<NoStart>, started: usize) -> Option<String> {
    let no = no_start.as_mut()?;
    if let Some(short) = run::start::machine_short() {
        no.said = format!("{} ({short})", no.said);
        return None;
    }
    let note = format!(
        "its runtime said it could not start on this case ({} runs, then {} more after the \
         other cases) yet started on {started} other run(s) of the same program: a start \
         failure that follows the case is the program's",
        no.tries, no.tries
    );
    *no_start = None;
    Some(note)
}
