//! Running one session on both sides (the candidate and the expected side:
//! the reference or `--against`), each in its own sandbox through
//! [`crate::run`], so a session gets the same timeout, output cap, resource
//! limits and process-group kill as a case.

use std::time::Duration;

use boxes_corpus::session::Session;

use super::compare::{self, Difference};
use crate::run::{self, Invocation, Limits, Outcome, RunError, Target};

/// The two programs compared and how each run is bounded.
#[derive(Debug, Clone)]
pub struct Runner {
    /// The program under test.
    pub candidate: Target,
    /// The program whose behaviour is expected.
    pub expected: Target,
    /// Per-run timeout.
    pub timeout: Duration,
    /// Per-stream output cap.
    pub output_cap: u64,
}

/// Both runs of one session and where they differ.
#[derive(Debug, Clone)]
pub struct Trial {
    /// The expected side's run.
    pub expected: Outcome,
    /// The candidate's run.
    pub actual: Outcome,
    /// Every difference, status first (empty: the session agrees).
    pub differences: Vec<Difference>,
}

impl Trial {
    /// The first difference, the one a mismatch is named by.
    pub fn first(&self) -> Option<&Difference> {
        self.differences.first()
    }
}

impl Runner {
    /// The sandboxed invocation of `session` on `target`.
    pub fn invocation(&self, target: &Target, session: &Session) -> Invocation {
        let mut inv = Invocation::new(target.clone(), session.os_args(), session.stdin());
        inv.files = session
            .files
            .iter()
            .map(|f| (f.path.clone(), f.bytes.clone()))
            .collect();
        inv.timeout = self.timeout;
        inv.output_cap = self.output_cap;
        inv.limits = Limits::for_timeout(self.timeout);
        inv
    }

    /// Runs `session` on both sides and compares them.
    pub fn trial(&self, session: &Session) -> Result<Trial, RunError> {
        let expected = run::run(&self.invocation(&self.expected, session))?;
        let actual = run::run(&self.invocation(&self.candidate, session))?;
        let differences = compare::compare(&expected, &actual);
        Ok(Trial {
            expected,
            actual,
            differences,
        })
    }
}
