//! Judging what came back: a run against what its case expected. It owns
//! comparison, byte-exact or under the
//! tolerance a `match:` declares ([`compare`], [`tolerance`]), how a case failed, structured and
//! bounded ([`failure`]), the cause that makes failures the same
//! ([`cause`]), failures grouped by cause ([`group`]), the rule a
//! difference falls under, as a traced reference tells it
//! ([`provenance`]), the verdict of a case ([`verdict`]) and the early
//! verdict on a program that hangs ([`budget`]), and the marker's folders
//! shown as the student's own in what a program printed ([`mask`]), and
//! the memory errors a sanitizer or valgrind reported ([`memory`]), and
//! the checker programs a `match:` names and the reference's spans of a
//! case's stdout ([`checker`]), the uncaught exception a Python, Java,
//! Node.js or Ruby program's runtime reported ([`exception`]), what
//! decided a failed part, so that its failure speaks of it ([`decided`]),
//! and the failures of the marker's environment, not the program's
//! ([`environment`]).
//!
//! May use: [`crate::bytes`], [`crate::exec`], [`crate::model`]. Used by
//! every layer above.

pub mod budget;
pub mod cause;
pub mod checker;
pub mod compare;
pub mod decided;
pub mod environment;
pub mod exception;
pub mod failure;
pub mod float_token;
pub mod group;
pub mod mask;
pub mod memory;
pub mod numbers;
pub mod provenance;
pub mod tolerance;
pub mod verdict;
