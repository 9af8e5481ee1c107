//! The commands, the top layer: what a person types. It owns the command
//! line and its default `run`, `bless`, `list`, `coverage` and `schema`
//! ([`cli`]), differential testing with a pack's explorer ([`diff`]), a
//! class of submissions marked ([`mark`]) and what a spec pack plugs into
//! them ([`pack`]: its suite, rules, reference, driver and explorer; it
//! sits here because its explorer runs the `diff` command), a built-in
//! pack's registration as one value ([`builtin`]), a pack's corpus writer's
//! command line ([`corpus_cli`]), checker programs and spans for the judge
//! ([`checker`]) and the folder `new-pack` writes
//! ([`scaffold`]).
//!
//! May use: every layer below ([`crate::bytes`], [`crate::exec`],
//! [`crate::model`], [`crate::judge`], [`crate::output`]). Nothing in the
//! engine uses it; `lib.rs` names its entry points.

pub mod builtin;
pub mod checker;
pub mod cli;
pub mod corpus_cli;
pub mod diff;
pub mod folder;
pub mod mark;
pub mod pack;
pub mod scaffold;
