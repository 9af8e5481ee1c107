//! The machinery the reference programs share (boxes, gridgame), so that
//! each rule of theirs is written once in its own crate and the plumbing
//! once here. A leaf crate: it depends on nothing of the workspace.
//!
//! - [`stdout`]: the process's standard output as a writer whose failures
//!   are seen, a closed descriptor 1 included (each program's SYS rule).

pub mod stdout;
