//! Bytes shown to people, the lowest layer: made visible and escaped
//! ([`visible`]), quoted for a shell ([`quote`]). Shared by every layer
//! that names a byte to a person (a run's command line, a difference, a
//! cause, a report), so it sits below them all.
//!
//! May use: nothing of the engine (only other crates).

pub mod quote;
pub mod visible;
