//! A timeout is confirmed before it is charged. A run killed at its time
//! limit may only have been slowed by a busy machine (other jobs, other
//! submissions marked beside it), so the case runs again with
//! [`HEADROOM`] times the limit, and the limit is then applied to the CPU
//! time the program used, which does not depend on the machine's load.
//! Confirmations run in the job pool while the other cases run, and other
//! processes (under `mark`, each submission is a harness process of its
//! own) run beside them, which is why the CPU time, not the wall time,
//! decides:
//!
//! - it finishes within the limit's CPU time: the first kill was the
//!   machine's doing, and the case is judged on this run;
//! - it finishes but used more CPU time than the limit: slow, charged as
//!   a timeout that says how long it takes ("slow: finishes in 8.8 s");
//! - it is killed again having used more CPU time than the limit, or
//!   blocked (nothing of it runnable at the kill): stuck, charged ("timed
//!   out twice"), saying whether it was using CPU or writing at the kill;
//! - it is killed again having used less CPU time than the limit while
//!   runnable (starved by the machine's load): it runs once more with
//!   [`HEADROOM`] times as long again, then is judged as above.
//!
//! A run that used its whole limit of CPU time by the kill is charged at
//! once ([`Confirmed::Spent`]): no load explains that, since an idle
//! machine would have killed it too. Whether it is slow or stuck is then
//! told once per cause ([`tell`], run by the first case of the cause to
//! be charged so, in the pool: see [`super::settle`]), not every case: a
//! program with 45 loops that never end costs 45 limits and one
//! confirmation per cause, not 45 limits and 45 confirmations. Likewise a
//! starved timeout whose cause a confirmation already found past its CPU
//! limit is charged without a run of its own.
//!
//! A run killed while blocked (nothing of it runnable, and under a tenth
//! of the limit's CPU time used) was waiting for something, not starved:
//! no load explains that, and it is charged without a second run (a
//! program waiting for input at a prompt it never showed costs one limit,
//! not five).
//!
//! Either way the note says what the reference takes, when the case
//! records it.

use std::time::Duration;

use crate::exec::run::{self, Activity, Ending, Invocation, Limits, Outcome};
use crate::judge::cause::Cause;
use crate::judge::group;

use super::told::{Confirmed, SpentRun};
use crate::judge::verdict::{CaseResult, Verdict};

/// Puts in each cause's worked example charged as [`Confirmed::Spent`]
/// what the cause's confirmation told (slow or stuck, [`tell`], run in the
/// pool by the cause's first such case). The verdicts do not change: the
/// example was charged on its first run, whatever the second says.
pub(super) fn tell_examples(
    results: &mut [CaseResult],
    spent: Vec<SpentRun>,
    told: &super::told::Causes,
) {
    if spent.is_empty() {
        return;
    }
    let examples: Vec<(String, Cause)> = group::groups(results)
        .iter()
        .map(|g| (g.example.0.to_owned(), g.cause.clone()))
        .collect();
    for run in spent {
        let Some((_, cause)) = examples.iter().find(|(name, _)| *name == run.name) else {
            continue;
        };
        let Some(told) = told.told(cause, run.limit) else {
            continue;
        };
        let Some(note) = note(&told, run.limit, run.reference) else {
            continue;
        };
        for r in results.iter_mut().filter(|r| r.name == run.name) {
            if let Verdict::Failed(f) = &mut r.verdict {
                f.summary = f.summary.replacen(&run.note, &note, 1);
            }
        }
    }
}

/// How many times the limit a confirming run is given.
pub(super) const HEADROOM: u32 = 4;

/// How a run killed at its time limit looks at the kill.
#[derive(Debug, Clone, Copy)]
pub(super) enum Look {
    /// Blocked, using no CPU: charged at once ([`Confirmed::Blocked`]).
    Blocked,
    /// Its whole limit of CPU time used: charged at once
    /// ([`Confirmed::Spent`]).
    Spent(Activity),
    /// Runnable with less CPU time than its limit: the machine may have
    /// starved it, so it is confirmed ([`again`]).
    Starved,
}

/// How a run killed at `inv.timeout` looks; `None` when it was not
/// killed at its time limit (nothing to confirm).
pub(super) fn look(inv: &Invocation, first: &Outcome, how: Activity) -> Option<Look> {
    if !matches!(first.ending, Ending::TimedOut { .. }) {
        return None;
    }
    let limit = inv.timeout;
    if !how.runnable && how.cpu.is_some_and(|cpu| cpu < limit / 10) {
        return Some(Look::Blocked);
    }
    if spent(how.cpu, limit) {
        return Some(Look::Spent(how));
    }
    Some(Look::Starved)
}

/// Whether a run's CPU time reached its limit: within a tenth of it (and
/// at least a clock tick, the resolution `/proc` counts in). The limit is
/// wall time from the spawn, the sandbox's set-up included, so a program
/// spinning from its first instruction on an idle machine shows 0.92 to
/// 0.99 s of CPU at a 1 s kill (measured on 2 cores); a program starved by
/// the machine's load gets far less (a quarter at load 8 on 2 cores), and
/// only such a run can have been killed by the load rather than by
/// itself.
fn spent(cpu: Option<Duration>, limit: Duration) -> bool {
    cpu.is_some_and(|cpu| cpu + (limit / 10).max(TICK) >= limit)
}

/// The resolution of a process's CPU time in `/proc` (`USER_HZ` is 100 on
/// Linux).
const TICK: Duration = Duration::from_millis(10);

/// Tells whether a run charged as [`Confirmed::Spent`] is slow or stuck:
/// once more with [`HEADROOM`] times the limit. `None` when the run could
/// not be made or, against the odds, it finished within its limit's CPU
/// time (the charge stands on the first run, which used all of it).
pub(super) fn tell(inv: &Invocation) -> Option<Confirmed> {
    match again(inv)? {
        Confirmed::Cleared(_) => None,
        told => Some(told),
    }
}

/// Runs `inv` again with [`HEADROOM`] times its limit (twice more when the
/// machine starved it) and judges the limit on its CPU time.
pub(super) fn again(inv: &Invocation) -> Option<Confirmed> {
    let limit = inv.timeout;
    let within = |cpu: Option<Duration>, wall: Duration| cpu.map_or(wall <= limit, |c| c <= limit);
    let mut again = inv.clone();
    let mut wall = limit;
    for last in [false, true] {
        wall = wall.saturating_mul(HEADROOM).min(run::MAX_TIMEOUT);
        again.timeout = wall;
        again.limits = Limits::for_timeout(wall);
        let (outcome, activity) = run::run_with_activity(&again).ok()?;
        if !matches!(outcome.ending, Ending::TimedOut { .. }) {
            return Some(if within(activity.cpu, outcome.elapsed) {
                Confirmed::Cleared(Box::new(outcome))
            } else {
                Confirmed::Slow {
                    took: outcome.elapsed,
                }
            });
        }
        // Starved, not stuck: it wanted the CPU and did not get its
        // limit's worth of it.
        let starved = activity.runnable && within(activity.cpu, Duration::ZERO);
        if !starved || last {
            return Some(Confirmed::Stuck {
                activity,
                after: wall,
            });
        }
    }
    None
}

/// The note a charged timeout carries: how it behaved and what the
/// reference takes.
pub(super) fn note(
    confirmed: &Confirmed,
    limit: Duration,
    reference: Option<Duration>,
) -> Option<String> {
    let reference = match reference {
        // What a case records for anything the 1 s floor covers.
        Some(r) if r <= Duration::from_millis(50) => {
            "; the reference takes under 0.05 s".to_owned()
        }
        Some(r) => format!("; the reference takes about {} s", secs(r)),
        None => String::new(),
    };
    match confirmed {
        Confirmed::Cleared(_) => None,
        Confirmed::Spent { activity } => Some(format!(
            "still running after {} s, having used all of its CPU time; {} (charged without a \
             second run: no load explains it){reference}",
            secs(limit),
            doing(activity, limit)
        )),
        Confirmed::Blocked => Some(format!(
            "still running after {} s, waiting at the kill and using no CPU (blocked reading \
             input?){reference}",
            secs(limit)
        )),
        Confirmed::Slow { took } => Some(format!(
            "slow: finishes in {} s, past its limit of {} s{reference} (timed out, then run again \
             with {HEADROOM}× the limit; its CPU time decides)",
            secs(*took),
            secs(limit)
        )),
        Confirmed::Stuck { activity, after } => Some(format!(
            "timed out twice: still running after {} s, and again after {} s; {}{reference}",
            secs(limit),
            secs(*after),
            doing(activity, *after)
        )),
    }
}

/// What a run killed at `after` was doing then.
fn doing(activity: &Activity, after: Duration) -> &'static str {
    match (activity.cpu, activity.last_output) {
        (_, Some(out)) if after.saturating_sub(out) < Duration::from_millis(200) => {
            "still writing output at the kill"
        }
        (Some(_), _) if activity.runnable => {
            "still using the CPU at the kill (a loop that never ends?)"
        }
        (Some(_), _) => "waiting at the kill, using no CPU (blocked reading input?)",
        (None, _) => "still running",
    }
}

fn secs(d: Duration) -> String {
    let text = format!("{:.2}", d.as_secs_f64());
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_tell_slow_from_stuck() {
        let limit = Duration::from_secs(1);
        let slow = note(
            &Confirmed::Slow {
                took: Duration::from_millis(3800),
            },
            limit,
            Some(Duration::from_millis(10)),
        )
        .unwrap();
        assert!(slow.starts_with("slow: finishes in 3.8 s"), "{slow}");
        assert!(slow.contains("the reference takes under 0.05 s"), "{slow}");
        let spin = note(
            &Confirmed::Stuck {
                activity: Activity {
                    cpu: Some(Duration::from_secs(4)),
                    runnable: true,
                    last_output: None,
                },
                after: Duration::from_secs(4),
            },
            limit,
            None,
        )
        .unwrap();
        assert!(
            spin.starts_with("timed out twice: still running after 1 s"),
            "{spin}"
        );
        assert!(spin.contains("using the CPU"), "{spin}");
        let writing = note(
            &Confirmed::Stuck {
                activity: Activity {
                    cpu: Some(Duration::from_secs(1)),
                    runnable: false,
                    last_output: Some(Duration::from_millis(3950)),
                },
                after: Duration::from_secs(4),
            },
            limit,
            None,
        )
        .unwrap();
        assert!(writing.contains("still writing"), "{writing}");
        let blocked = note(&Confirmed::Blocked, limit, Some(Duration::from_millis(1))).unwrap();
        let spent_note = note(
            &Confirmed::Spent {
                activity: Activity {
                    cpu: Some(Duration::from_secs(1)),
                    runnable: true,
                    last_output: None,
                },
            },
            limit,
            None,
        )
        .unwrap();
        assert!(
            spent_note.starts_with(
                "still running after 1 s, having used all of its CPU time; still using"
            ),
            "{spent_note}"
        );
        assert_eq!(
            blocked,
            "still running after 1 s, waiting at the kill and using no CPU (blocked reading \
             input?); the reference takes under 0.05 s"
        );
    }

    #[test]
    fn only_a_run_clearly_short_of_its_cpu_limit_is_confirmed() {
        let limit = Duration::from_secs(1);
        assert!(spent(Some(Duration::from_secs(1)), limit));
        assert!(spent(Some(Duration::from_millis(995)), limit));
        // A spinning program killed on an idle machine: the sandbox's
        // set-up took the rest of its limit.
        assert!(spent(Some(Duration::from_millis(920)), limit));
        assert!(!spent(Some(Duration::from_millis(850)), limit));
        assert!(!spent(Some(Duration::from_millis(400)), limit));
        // A tick at least, however short the limit.
        assert!(!spent(Some(Duration::ZERO), Duration::from_millis(50)));
        assert!(!spent(None, limit));
    }
}
