//! Running one session on both sides (the candidate and the expected side:
//! the reference or `--against`), each in its own sandbox through
//! [`crate::exec::run`], so a session gets the same timeout, output cap, resource
//! limits and process-group kill as a case.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::time::Duration;

use super::compare::{self, Difference};
use super::explore::{Bounds, Explorer};
use super::tolerated::{Judged, Session, Tolerances};
use crate::exec::run::{Ending, Invocation, Outcome, RunError, Target, limit_from_reference};

/// Why a session could not be run or judged: a fault of the harness, the
/// suite or a checker, never of the program.
#[derive(Debug, thiserror::Error)]
pub enum TrialError {
    /// A run could not be made.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The tolerance could not judge it (a checker's fault, a pattern
    /// that cannot be built).
    #[error("{0}")]
    Judge(String),
    /// A side's runtime never started, run again and again: the machine's
    /// failure, not a finding.
    #[error(
        "{side}'s runtime could not start where diff runs ({}): {}; this machine is short of \
         memory or processes: no finding is made of it",
        .no_start.tries, .no_start.said
    )]
    NoStart {
        /// `the program` or `the reference`.
        side: &'static str,
        /// What it said.
        no_start: crate::exec::run::NoStart,
    },
}

/// How many times the limit a run killed at it while starved is given
/// when it runs again (as a case's confirmation: `commands/cli/confirm.rs`).
const HEADROOM: u32 = 5;

/// Whether `outcome`, killed at `limit`, may only have been starved by a
/// busy machine: it used less CPU time than the limit, and was runnable
/// at the kill or had used a tenth of it (one blocked with next to no CPU
/// time was waiting for something: no load explains that; one that used
/// its whole limit would have been killed on an idle machine too).
fn starved(outcome: &Outcome, limit: Duration) -> bool {
    if !matches!(outcome.ending, Ending::TimedOut { .. }) {
        return false;
    }
    let activity = outcome.activity;
    match activity.cpu {
        None => true,
        Some(cpu) => cpu * 10 < limit * 9 && (activity.runnable || cpu * 10 >= limit),
    }
}

/// The two programs compared and how each run is bounded.
#[derive(Debug, Clone)]
pub struct Runner {
    /// The program under test.
    pub candidate: Target,
    /// The program whose behaviour is expected.
    pub expected: Target,
    /// Per-run timeout of the expected side, and of the candidate when
    /// [`Runner::derived`] is off.
    pub timeout: Duration,
    /// Whether the candidate's timeout derives from the expected side's
    /// own time ([`candidate_timeout`]), so that a program that spins costs
    /// about a second per session instead of the whole timeout.
    pub derived: bool,
    /// Per-stream output cap.
    pub output_cap: u64,
    /// `--memcheck`: the candidate's stderr is read for memory errors
    /// (the candidate is already wrapped for valgrind).
    pub memcheck: Option<crate::exec::memcheck::Memcheck>,
    /// The pack's reference, whose record says which rules a session
    /// exercises (the expected side, unless `--against`).
    pub reference: Target,
    /// How differences are judged: the rules' `match:` declarations.
    pub tolerances: Tolerances,
}

/// The candidate's timeout for a session the expected side ran in
/// `expected`: [`limit_from_reference`], never past `cap`.
pub fn candidate_timeout(expected: Duration, cap: Duration) -> Duration {
    limit_from_reference(expected).min(cap)
}

/// Both runs of one session and where they differ.
#[derive(Debug, Clone)]
pub struct Trial {
    /// The expected side's run.
    pub expected: Outcome,
    /// The candidate's run.
    pub actual: Outcome,
    /// Every difference no tolerance forgives (under `--strict`, every
    /// difference), status first (empty: the session agrees).
    pub differences: Vec<Difference>,
    /// What the tolerances made of the differences.
    pub judged: Judged,
}

impl Trial {
    /// The first difference, the one a mismatch is named by.
    pub fn first(&self) -> Option<&Difference> {
        self.differences.first()
    }
}

impl Runner {
    /// Runs `session` on both sides, through the explorer, and compares
    /// them.
    pub fn trial<E: Explorer>(
        &self,
        explorer: &E,
        session: &E::Session,
    ) -> Result<Trial, TrialError> {
        let bounds = Bounds {
            timeout: self.timeout,
            output_cap: self.output_cap,
        };
        let expected = explorer.run(&self.expected, session, bounds)?;
        let timeout = if self.derived {
            candidate_timeout(expected.elapsed, self.timeout)
        } else {
            self.timeout
        };
        let candidate = Bounds {
            timeout: self.memcheck.map_or(timeout, |m| m.scale(timeout)),
            ..bounds
        };
        let mut actual = explorer.run(&self.candidate, session, candidate)?;
        // A timeout on one side only is confirmed before it is a finding:
        // a starved run (other work on the machine) runs again with
        // more time, and is judged on that run.
        let timed_out = |o: &Outcome| matches!(o.ending, Ending::TimedOut { .. });
        if timed_out(&actual) && !timed_out(&expected) && starved(&actual, candidate.timeout) {
            let longer = Bounds {
                timeout: candidate.timeout * HEADROOM,
                ..candidate
            };
            actual = explorer.run(&self.candidate, session, longer)?;
        }
        let expected =
            if timed_out(&expected) && !timed_out(&actual) && starved(&expected, bounds.timeout) {
                let longer = Bounds {
                    timeout: bounds.timeout * HEADROOM,
                    ..bounds
                };
                explorer.run(&self.expected, session, longer)?
            } else {
                expected
            };
        for (side, outcome) in [("the reference", &expected), ("the program", &actual)] {
            if let Some(no_start) = &outcome.no_start {
                return Err(TrialError::NoStart {
                    side,
                    no_start: no_start.clone(),
                });
            }
        }
        // A memory error is the mismatch, first: what the program printed
        // after it follows from it. Its report is no part of stderr.
        let mut memory = None;
        if self.memcheck.is_some() {
            let report = crate::judge::memory::parse(&actual.stderr);
            if !report.errors.is_empty() {
                memory = report.first(false).map(|e| Difference {
                    part: compare::Part::Memory {
                        kind: e.kind.clone(),
                        place: e
                            .frame
                            .as_ref()
                            .map(ToString::to_string)
                            .unwrap_or_default(),
                    },
                    line: 1,
                    offset: 0,
                    expected: None,
                    actual: Some(e.to_string().into_bytes()),
                });
                actual.stderr = report.rest;
            }
        }
        let mut differences = compare::compare(&expected, &actual);
        let judged = if self.tolerances.is_empty() || differences.is_empty() {
            Judged::default()
        } else {
            let probe = explorer.probe(session);
            let mut run = Invocation::new(
                self.reference.clone(),
                probe.args.iter().map(OsString::from).collect(),
                probe.stdin,
            );
            run.files = probe.files;
            let mut classified: BTreeSet<String> = expected
                .ending
                .status()
                .and_then(|s| u8::try_from(s).ok())
                .map(|s| explorer.classify(session, s).rules)
                .unwrap_or_default();
            classified.extend(explorer.labels(session).into_iter().map(|l| l.rule));
            let session = Session {
                run: &run,
                classified: &classified,
                reference: &self.reference,
            };
            self.tolerances
                .judge(session, &expected, &actual, &mut differences)
                .map_err(TrialError::Judge)?
        };
        if let Some(memory) = memory {
            differences.insert(0, memory);
        }
        Ok(Trial {
            expected,
            actual,
            differences,
            judged,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_starved_timeout_is_run_again() {
        let limit = Duration::from_secs(1);
        let killed = |cpu: Option<u64>, runnable: bool| {
            let mut o = Outcome::exited_with(b"");
            o.ending = Ending::TimedOut {
                after: limit,
                awaiting_prompt: None,
            };
            o.activity.cpu = cpu.map(Duration::from_millis);
            o.activity.runnable = runnable;
            o
        };
        // Runnable with little CPU time: the machine's load.
        assert!(starved(&killed(Some(200), true), limit));
        assert!(starved(&killed(None, false), limit));
        // Its whole limit spent, or blocked: its own.
        assert!(!starved(&killed(Some(950), true), limit));
        assert!(!starved(&killed(Some(5), false), limit));
        assert!(!starved(&Outcome::exited_with(b""), limit));
    }

    #[test]
    fn a_candidate_gets_twenty_times_the_expected_time_and_at_least_a_second() {
        let cap = Duration::from_secs(10);
        let ms = Duration::from_millis;
        assert_eq!(
            candidate_timeout(ms(3), cap),
            crate::exec::run::MIN_TIME_LIMIT
        );
        assert_eq!(candidate_timeout(ms(200), cap), ms(4000));
        assert_eq!(candidate_timeout(ms(900), cap), cap);
    }
}
