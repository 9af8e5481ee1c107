//! The commands, the top layer: what a person types. It owns the command
//! line and its default `run`, `bless`, `list`, `coverage` and `schema`
//! ([`cli`]), differential testing with a pack's explorer ([`diff`]) and a
//! class of submissions marked ([`mark`]).
//!
//! May use: every layer below ([`crate::model`], [`crate::exec`],
//! [`crate::judge`], [`crate::output`]). Nothing in the engine uses it;
//! `lib.rs` names its entry points.

pub mod cli;
pub mod diff;
pub mod mark;
