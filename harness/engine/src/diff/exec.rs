//! Running one session on both sides (the candidate and the expected side:
//! the reference or `--against`), each in its own sandbox through
//! [`crate::run`], so a session gets the same timeout, output cap, resource
//! limits and process-group kill as a case.

use std::time::Duration;

use super::compare::{self, Difference};
use super::explore::{Bounds, Explorer};
use crate::run::{Outcome, RunError, Target};

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
    /// Runs `session` on both sides, through the explorer, and compares
    /// them.
    pub fn trial<E: Explorer>(
        &self,
        explorer: &E,
        session: &E::Session,
    ) -> Result<Trial, RunError> {
        let bounds = Bounds {
            timeout: self.timeout,
            output_cap: self.output_cap,
        };
        let expected = explorer.run(&self.expected, session, bounds)?;
        let actual = explorer.run(&self.candidate, session, bounds)?;
        let differences = compare::compare(&expected, &actual);
        Ok(Trial {
            expected,
            actual,
            differences,
        })
    }
}
