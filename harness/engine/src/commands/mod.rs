//! The commands, the top layer: what a person types, kept thin (the
//! arguments, the wiring between layers, which output to write). It owns
//! the command line and its default `run`, `bless`, `list`, `coverage`
//! and `schema` ([`cli`]), a pack's corpus writer's command line
//! ([`corpus_cli`]) and the folder `new-pack` writes ([`scaffold`]). The
//! subsystems behind `diff` and `mark` are layers of their own
//! ([`crate::explorer`], [`crate::marking`]), as are the packs
//! ([`crate::packs`]).
//!
//! May use: every layer below ([`crate::bytes`], [`crate::exec`],
//! [`crate::model`], [`crate::judge`], [`crate::output`],
//! [`crate::explorer`], [`crate::packs`], [`crate::marking`]). Nothing in
//! the engine uses it; `lib.rs` names its entry points.

pub mod cli;
pub mod corpus_cli;
pub mod scaffold;
