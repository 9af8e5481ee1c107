//! A run whose stdin and stdout are another program's pipes (an
//! interactive problem's validator, which the caller started outside
//! this run's containment): the program is contained exactly as
//! [`super::run`] contains it, at the same level, and watched the same
//! way, its stderr read under the cap; its stdout is not read here
//! (`Outcome::stdout` is empty) and `Invocation::stdin` is not fed.

use std::os::fd::OwnedFd;

use super::outcome::{Activity, Outcome, RunError};
use super::spawn::StdoutPlan;
use super::{Invocation, run_planned};

/// Runs `inv` reading `stdin` and writing `stdout`. Run once: a
/// conversation cannot be replayed, so a runtime that could not start is
/// not tried again.
pub fn run_joined(
    inv: &Invocation,
    stdin: OwnedFd,
    stdout: OwnedFd,
) -> Result<(Outcome, Activity), RunError> {
    run_planned(inv, StdoutPlan::Joined { stdin, stdout })
}
