//! Judging what came back: a run against what its case expected. It owns
//! byte-exact comparison ([`compare`]), how a case failed, structured and
//! bounded ([`failure`]), the cause that makes failures the same
//! ([`cause`]), failures grouped by cause ([`group`]) and the rule a
//! difference falls under, as a traced reference tells it
//! ([`provenance`]).
//!
//! May use: [`crate::model`], [`crate::exec`]. Used by output and the
//! commands.

pub mod cause;
pub mod compare;
pub mod failure;
pub mod group;
pub mod provenance;
