//! Spec packs: what a program under test is, as the engine sees it. It
//! owns the interface a pack plugs into the commands ([`pack`]: its name,
//! embedded suite, rules, reference, conversation driver, build line,
//! checkers and explorer), a built-in pack stated as one value
//! ([`builtin`]) and the packs that are folders on disk, with a model
//! solution for a reference and an explorer read from `explore.yaml` or
//! derived from their own cases ([`folder`]). It sits above the explorer
//! because a pack hands `diff` its explorer.
//!
//! May use: [`crate::bytes`], [`crate::exec`], [`crate::model`],
//! [`crate::judge`], [`crate::output`], [`crate::explorer`]. Used by the
//! marking and the commands.

pub mod builtin;
pub mod folder;
pub mod pack;
pub mod problem;
