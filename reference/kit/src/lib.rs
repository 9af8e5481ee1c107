//! The machinery the reference programs share (boxes, nogo, gridgame), so
//! that each rule of theirs is written once in its own crate and the
//! plumbing once here. A leaf crate: it depends on nothing of the workspace.
//!
//! - [`stdout`]: the process's standard output as a writer whose failures
//!   are seen, a closed descriptor 1 included (each program's SYS rule).
//! - [`stdio`]: stdout in blocks, flushed before every read of stdin.
//! - [`line`]: one input line at a time in bounded memory.
//! - [`exit`]: a program's table of exit statuses and messages.
//! - [`number`]: numbers as C reads them (`strtol`'s parts, saturating
//!   digits), where the programs' rulings agree.
//! - [`rules`]: typed rule IDs ([`rule_ids!`]).
//! - [`trace`]: which rule each span of stdout obeys (provenance).
//! - [`terminal`]: stand-ins for a process's streams, for the references'
//!   tests of their process wiring.

pub mod exit;
pub mod line;
pub mod number;
pub mod rules;
pub mod stdio;
pub mod stdout;
pub mod terminal;
pub mod trace;
