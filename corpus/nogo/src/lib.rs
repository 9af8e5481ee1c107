//! The nogo corpus: labelled save files for `nogo h h FILE`, faulty in
//! every way the FILE rulings name plus the valid controls that a strict
//! but wrong loader rejects, each written as a conformance case whose
//! expected outcome comes from the reference program. The grammar lives
//! once, in `nogo_reference::savefile`: this crate writes files with the
//! reference's serialiser and classifies them with its loader.

pub mod class;
pub mod generate;
pub mod play;
pub mod rng;
pub mod samples;

pub use class::Class;
pub use generate::{Entry, GenerateError, generate};
pub use rng::SplitMix64;
pub use samples::{Sample, Spec, build};
