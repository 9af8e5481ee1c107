//! `conformance-engine`: replays YAML conformance cases against any
//! executable and tells, byte for byte, where it departs from its
//! specification. What the program is comes from a spec pack ([`pack`]);
//! the engine names none.
//!
//! The engine is five layers, each a folder that may use only the folders
//! below it (`docs/architecture.md` draws them; `tests/layers.rs` keeps
//! them so):
//!
//! - [`commands`]: the command line, `diff`, `mark`;
//! - [`output`]: reports, results, `--bless`'s rewriting, exit statuses;
//! - [`judge`]: comparison, failures, their causes and groups;
//! - [`exec`]: a program run contained and supervised;
//! - [`model`]: the case format, cases, suites, spec packs.
//!
//! The other crates of the workspace (packs, references, the harness) use
//! the short paths below; inside the engine every path names its layer.

pub mod commands;
pub mod exec;
pub mod judge;
pub mod model;
pub mod output;

pub use commands::cli::{App, Defaults, main_with_args};
/// The paths the packs, references and harness use, named once here.
pub use commands::diff;
/// Listing a case tree, shared with the packs' build scripts.
pub use conformance_embed::walk;
/// Containment of a run, from its own crate (reference programs use it
/// without the engine).
pub use conformance_sandbox as sandbox;
pub use exec::{driver, interrupt, run};
pub use model::pack::{EmbeddedSuite, Pack, reference_mode};
pub use model::{pack, rng, schema, suite};
pub use output::{exit, report, writer};
