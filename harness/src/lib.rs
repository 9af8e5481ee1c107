//! `boxes-harness`: replays YAML conformance cases against any `boxes`
//! executable and tells, byte for byte, where it departs from the spec.
//!
//! - [`schema`]: the case format (serde types, JSON Schema).
//! - [`suite`]: where cases come from (embedded suite, folders, files).
//! - [`case`]: from a case file to an [`run::Invocation`] and a
//!   [`compare::Expectation`].
//! - [`run`]: running one invocation in a sandbox ([`run::run`]).
//! - [`compare`]: byte-exact comparison ([`compare::compare`],
//!   [`compare::compare_outcomes`]).
//! - [`report`]: diffs, reproduce commands, score, coverage, JUnit.
//! - [`bless`]: rewriting expected fields from the reference.
//! - [`cli`]: the command line; [`exit`]: its exit statuses.

pub mod bless;
pub mod case;
pub mod cli;
pub mod compare;
pub mod diff;
pub mod exit;
pub mod interrupt;
pub mod preflight;
pub mod quiet;
pub mod report;
pub mod run;
pub mod sandbox;
pub mod schema;
pub mod suite;
mod walk;

use std::process::ExitCode;

/// Runs the reference `boxes` instead of the caller when this process was
/// started in reference mode ([`run::REFERENCE_ENV`] set). Every binary that
/// runs cases calls this first thing in `main`: with no `--bin`, the harness
/// re-executes itself in this mode, so the reference is never looked up by
/// path.
pub fn reference_mode() -> Option<ExitCode> {
    // A sandbox's keeper is this executable too (see [`sandbox`]).
    if let Some(code) = sandbox::keeper_mode() {
        return Some(code);
    }
    std::env::var_os(run::REFERENCE_ENV)
        .is_some_and(|v| !v.is_empty())
        .then(|| boxes_reference::main_with_args(std::env::args_os()))
}
