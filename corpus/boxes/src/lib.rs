//! The boxes corpus: labelled grid files for `boxes H W P FILE`, faulty in
//! every way the rulings name (FILE-1..7) plus the valid controls that a
//! strict but wrong loader rejects, each with the complete expected outcome
//! computed by the reference program. The grammar itself lives once, in
//! `boxes_reference::gridfile`; this crate only writes files from the
//! reference's serializer and classifies mutants with its loader.
//!
//! Also home of reusable generated test material: [`rng::SplitMix64`] and
//! [`play::RandomGame`] (valid states by seeded random play), and
//! [`session`], the random invocations that `boxes-harness diff` replays.
//!
//! And the boxes spec pack for the conformance engine ([`pack::PACK`]):
//! the embedded suite, the reference, and the explorer behind `diff`
//! ([`session`], [`shrink`], [`classify`]).

pub mod class;
pub mod classify;
pub mod command;
pub mod exhaustive;
pub mod filelines;
pub mod generate;
pub mod manifest;
pub mod pack;
pub mod play;
pub use conformance_engine::rng;
pub mod samples;
pub mod session;
pub mod shrink;
pub mod spec;

pub use class::Class;
pub use generate::{GenerateError, Options, generate};
pub use manifest::{Entry, Manifest, ManifestError};
pub use pack::PACK;
pub use play::RandomGame;
pub use rng::SplitMix64;
pub use spec::Spec;
