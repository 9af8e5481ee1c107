//! `conformance-engine`: replays YAML conformance cases against any
//! executable and tells, byte for byte, where it departs from its
//! specification. What the program is comes from a spec pack ([`pack`]);
//! the engine names none.
//!
//! The engine is nine layers, each a folder that may use only the folders
//! below it (`docs/architecture.md` draws them; `tests/it/layers.rs` keeps
//! them so):
//!
//! - `commands/`: the command line, thin: arguments, wiring, output choice;
//! - `marking/`: `mark`'s cohort: submissions read, built, checked,
//!   recorded, merged and shown as a class;
//! - `packs/`: the spec pack interface, built-in and folder packs;
//! - `explorer/`: `diff`'s differential testing: sessions, their grammar,
//!   dedup, shrinking, tolerated differences;
//! - `output/`: reports, results, `--bless`'s rewriting, exit statuses;
//! - `judge/`: comparison, failures, their causes, groups and verdicts;
//! - `model/`: the case format, cases, suites;
//! - `exec/`: a program run contained and supervised;
//! - `bytes/`: bytes made visible and quoted for people.
//!
//! The layers are private: the other crates of the workspace (packs,
//! references, the harness) use the named short paths below; inside the
//! engine every path names its layer.

mod bytes;
mod commands;
mod exec;
mod explorer;
mod judge;
mod marking;
mod model;
mod output;
mod packs;

// The engine's public surface, a named list: the short paths the packs,
// the references, the harness and its tests use. The layers themselves
// are private, so nothing else is reachable from outside.
/// Bytes shown to people and quoted for shells (the codingame driver's
/// reports).
pub use bytes::{quote, visible};
pub use commands::cli::{App, Defaults, main_with_args};
pub use commands::corpus_cli;
pub use packs::pack::{EmbeddedSuite, Pack, reference_mode};
pub use packs::{builtin, pack};
/// Differential testing: a pack's explorer and the sessions it drives
/// (the explorer layer, under the name the packs know it by).
pub mod diff {
    pub use crate::explorer::*;
}
/// Listing a case tree, shared with the packs' build scripts.
pub use conformance_embed::walk;
/// Containment of a run, from its own crate (reference programs use it
/// without the engine).
pub use conformance_sandbox as sandbox;
pub use exec::{driver, interrupt, run};
/// Kept sandbox folders and a quiet end on a closed pipe, for the
/// harness's own `main`.
pub use exec::{quiet, spare};
/// A run judged: comparison, the bounded failure and its cause (the
/// harness's example tests place causes themselves).
pub use judge::{cause, compare, failure};
/// A case resolved into a run and its expectation.
pub use model::case;
pub use model::{hard_lines, rng, schema, suite};
pub use output::{exit, results, writer};
