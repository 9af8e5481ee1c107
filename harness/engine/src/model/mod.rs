//! The case model, the lowest layer: what a case is and where cases come
//! from. It owns the case format ([`schema`]), a case resolved into what to
//! run and what to expect ([`case`]), suites on disk or embedded
//! ([`suite`]), what a spec pack supplies ([`pack`]) and the seeded PRNG
//! every pack's corpus and explorer share ([`rng`]).
//!
//! May use: nothing of the engine (only other crates). Every layer above
//! may use it.

pub mod case;
pub mod pack;
pub mod rng;
pub mod schema;
pub mod suite;
