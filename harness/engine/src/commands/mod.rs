//! The commands, the top layer: what a person types. It owns the command
//! line and its default `run`, `bless`, `list`, `coverage` and `schema`
//! ([`cli`]), differential testing with a pack's explorer ([`diff`]), a
//! class of submissions marked ([`mark`]) and what a spec pack plugs into
//! them ([`pack`]: its suite, rules, reference, driver and explorer; it
//! sits here because its explorer runs the `diff` command).
//!
//! May use: every layer below ([`crate::bytes`], [`crate::exec`],
//! [`crate::model`], [`crate::judge`], [`crate::output`]). Nothing in the
//! engine uses it; `lib.rs` names its entry points.

pub mod cli;
pub mod diff;
pub mod mark;
pub mod pack;
