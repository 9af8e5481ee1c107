//! `match:`: how a case's outputs are judged where the rulings leave them
//! free (docs/matching.md). A declaration sits on a rule of `rules.yaml`,
//! on a case, or in `suite.yaml`; this module parses it (a misspelt
//! tolerance is an error at its line) and resolves, for one case, which
//! declaration judges each stream ([`Matching`]). How a tolerance compares
//! bytes is the judge's (`judge/tolerance.rs`); what `bless` records never
//! changes.
//!
//! - [`tolerance`]: one tolerance, parsed;
//! - [`status`]: how the exit status is compared;
//! - [`resolve`]: a declaration as written and resolved for one case.

mod resolve;
mod status;
mod tolerance;

pub use resolve::{Charge, Judging, MatchSpec, Matching, Origin, declared, resolve};
pub use status::StatusMatch;
pub use tolerance::{EVERY_FILE, HOLE, LINES_HOLE, NumberTolerance, Tolerance};

#[cfg(test)]
mod tests;
