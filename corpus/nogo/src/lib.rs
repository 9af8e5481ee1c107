//! The nogo corpus: labelled save files for `nogo h h FILE`, faulty in
//! every way the FILE rulings name plus the valid controls that a strict
//! but wrong loader rejects, each written as a conformance case whose
//! expected outcome comes from the reference program. The grammar lives
//! once, in `nogo_reference::savefile`: this crate writes files with the
//! reference's serialiser and classifies them with its loader.
//!
//! The crate is also the nogo spec pack ([`PACK`]): the suite `cases/nogo`
//! embedded, the reference, and the explorer behind `diff --spec nogo`
//! ([`session`], [`lines`], [`sim`], [`shrink`], [`classify`]), all built on
//! the reference's own types and functions.
//! [`save_check`] is its built-in checker `save-game` (SAVE-2).

pub mod ambiguity;
pub mod class;
pub mod classify;
pub mod command;
pub mod generate;
pub mod generator;
pub mod lines;
pub mod pack;
pub mod play;
pub use conformance_engine::rng;
pub mod samples;
pub mod save_check;
pub mod session;
pub mod shrink;
pub mod sim;

pub use class::Class;
pub use generate::{Entry, GenerateError, generate};
pub use pack::PACK;
pub use rng::SplitMix64;
pub use samples::{Sample, Spec, build};
