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
//! Once a confirmation found a case stuck (the program spins for ever
//! somewhere), its other runs are stopped by their CPU time ([`cpu_stop`],
//! a fraction of the limit): a run so stopped used less CPU than its
//! limit and is settled as a starved one, so a loop that never ends costs
//! a fraction of its limit per case, and no verdict rests on the stop
//! alone. A confirming run is likewise stopped once it used
//! [`STUCK_AFTER`] times its limit's CPU time.
//!
//! Either way the note says what the reference takes, when the case
//! records it.
//!
//! One piece: when a timeout is charged, how it is confirmed, when a run
//! is stopped by its CPU time and the words each way leaves are one rule
//! of the limit; split, each part would restate the others' thresholds.

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

/// The CPU time at which a run is stopped, short of its `limit`, once the
/// program was found stuck for ever on another case ([`Invocation::cpu_stop`]):
/// a [`HEADROOM`]th of the limit, or more when the reference's time
/// ([`run::SLOWDOWN_ALLOWED`] times it) or the program's own runs that
/// ended by themselves (twice the most CPU time one of them used: a
/// runtime's start, a heavy case) ask for more; `None` when that is not
/// clearly short of the limit. A spinning program then costs a fraction
/// of its limit per case, not the whole of it (issue 53: a C program
/// spinning on 45 cases at 2 s took 46 s on 2 idle cores). A run so
/// stopped used less CPU than its limit, so it is settled as a starved
/// one ([`Look::Starved`]): charged only as its cause's case found stuck
/// was, or confirmed on a run of its own.
pub(super) fn cpu_stop(
    limit: Duration,
    reference: Option<Duration>,
    own_most: Duration,
) -> Option<Duration> {
    let stop = (limit / HEADROOM)
        .max(
            reference
                .unwrap_or_default()
                .saturating_mul(run::SLOWDOWN_ALLOWED),
        )
        .max(own_most.saturating_mul(2));
    (!spent(Some(stop), limit)).then_some(stop)
}

/// How many times its limit of CPU time a confirming run may use before
/// it is stuck: it is stopped there rather than at its wall limit
/// ([`HEADROOM`] times the limit, room for a loaded machine), so on a
/// machine that gives it its CPU a loop that never ends is told in twice
/// its limit, not four times.
pub(super) const STUCK_AFTER: u32 = 2;

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
/// machine starved it), stopped once it used [`STUCK_AFTER`] times the
/// limit's CPU time, and judges the limit on its CPU time.
pub(super) fn again(inv: &Invocation) -> Option<Confirmed> {
    let limit = inv.timeout;
    let within = |cpu: Option<Duration>, wall: Duration| cpu.map_or(wall <= limit, |c| c <= limit);
    let mut again = inv.clone();
    again.cpu_stop = Some(limit.saturating_mul(STUCK_AFTER));
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
                // Stopped by its CPU time, it was still running then.
                after: outcome.elapsed.min(wall),
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
    let reference = reference_words(reference);
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

/// The note of a run stopped at its CPU stop, having used `cpu`
/// ([`cpu_stop`]), then charged as `told` says: told so on its own
/// confirmation, or (`on`) on that case of its cause.
pub(super) fn stopped_note(
    told: &Confirmed,
    (limit, cpu): (Duration, Duration),
    reference: Option<Duration>,
    on: Option<&str>,
) -> Option<String> {
    let stopped = format!(
        "stopped after {} s of CPU time, short of its limit of {} s (the program spins for ever \
         on another case)",
        secs(cpu),
        secs(limit)
    );
    let words = reference_words(reference);
    match (on, told) {
        (Some(on), told) => note(told, limit, reference)
            .map(|n| format!("{stopped}; not run again: {on}, a case of the same cause, {n}")),
        (None, Confirmed::Stuck { activity, after }) => Some(format!(
            "{stopped}, then run again: still running after {} s; {}{words}",
            secs(*after),
            doing(activity, *after)
        )),
        (None, Confirmed::Slow { took }) => Some(format!(
            "{stopped}, then run again: finishes in {} s, past its limit{words} (its CPU time \
             decides)",
            secs(*took)
        )),
        (None, other) => note(other, limit, reference),
    }
}

/// What a note says of the reference's time, when the case records it.
fn reference_words(reference: Option<Duration>) -> String {
    match reference {
        // What a case records for anything the 1 s floor covers.
        Some(r) if r <= Duration::from_millis(50) => {
            "; the reference takes under 0.05 s".to_owned()
        }
        Some(r) => format!("; the reference takes about {} s", secs(r)),
        None => String::new(),
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
    fn a_spinning_programs_runs_stop_at_a_fraction_of_their_limit() {
        let ms = Duration::from_millis;
        let limit = Duration::from_secs(2);
        assert_eq!(cpu_stop(limit, None, ms(0)), Some(ms(500)));
        assert_eq!(cpu_stop(limit, Some(ms(1)), ms(10)), Some(ms(500)));
        // The reference's own time, twenty-fold, when more.
        assert_eq!(cpu_stop(limit, Some(ms(32)), ms(0)), Some(ms(640)));
        // Twice the program's heaviest run that ended by itself (a JVM's
        // start): never stopped near what it takes when it works.
        assert_eq!(cpu_stop(limit, None, ms(400)), Some(ms(800)));
        // Not clearly short of the limit: no stop, the limit decides.
        assert_eq!(cpu_stop(limit, None, ms(950)), None);
        assert_eq!(cpu_stop(limit, Some(ms(128)), ms(0)), None);
    }

    #[test]
    fn a_stopped_runs_note_says_it_was_stopped_and_how_it_was_told() {
        let limit = Duration::from_secs(2);
        let stuck = Confirmed::Stuck {
            activity: Activity {
                cpu: Some(Duration::from_secs(4)),
                runnable: true,
                last_output: None,
            },
            after: Duration::from_millis(4100),
        };
        let cpu = Duration::from_millis(510);
        let own = stopped_note(&stuck, (limit, cpu), None, None).unwrap();
        assert_eq!(
            own,
            "stopped after 0.51 s of CPU time, short of its limit of 2 s (the program spins for \
             ever on another case), then run again: still running after 4.1 s; still using the \
             CPU at the kill (a loop that never ends?)"
        );
        let other = stopped_note(&stuck, (limit, cpu), None, Some("end/a")).unwrap();
        assert!(
            other.starts_with(
                "stopped after 0.51 s of CPU time, short of its limit of 2 s (the program spins \
                 for ever on another case); not run again: end/a, a case of the same cause, \
                 timed out twice: still running after 2 s, and again after 4.1 s"
            ),
            "{other}"
        );
        let slow = Confirmed::Slow {
            took: Duration::from_millis(2500),
        };
        let slow = stopped_note(&slow, (limit, cpu), Some(Duration::from_millis(1)), None);
        assert!(
            slow.is_some_and(|n| n.contains("then run again: finishes in 2.5 s, past its limit")),
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
