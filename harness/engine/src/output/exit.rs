//! The exit statuses of an engine binary, in one place.

use std::process::ExitCode;

/// Every selected case passed (or the command did what was asked).
pub const PASSED: u8 = 0;
/// At least one case failed.
pub const FAILED: u8 = 1;
/// A usage or set-up error: bad options, missing or non-executable `--bin`,
/// unreadable `--cases`. No case ran.
pub const USAGE: u8 = 2;

/// The program failed for the environment it ran in, not for its own
/// bugs (a module, class or shared library the course provides is
/// missing where it ran): its marks must not be published as they are.
/// Before [`FAILED`], after [`USAGE`].
pub const ENVIRONMENT: u8 = 3;

/// The [`ExitCode`] of a status above.
pub fn code(status: u8) -> ExitCode {
    ExitCode::from(status)
}

/// Stopped by Ctrl-C (128 + SIGINT), as a shell reports it; the interrupt
/// itself exits with 128 + the signal's number.
pub const INTERRUPTED: u8 = 130;
