//! `conformance-engine`: replays YAML conformance cases against any
//! executable and tells, byte for byte, where it departs from its
//! specification. What the program is comes from a spec pack ([`pack`]);
//! the engine names none.
//!
//! The engine is six layers, each a folder that may use only the folders
//! below it (`docs/architecture.md` draws them; `tests/layers.rs` keeps
//! them so):
//!
//! - [`commands`]: the command line, `diff`, `mark`, the spec pack
//!   interface;
//! - [`output`]: reports, results, `--bless`'s rewriting, exit statuses;
//! - [`judge`]: comparison, failures, their causes, groups and verdicts;
//! - [`model`]: the case format, cases, suites;
//! - [`exec`]: a program run contained and supervised;
//! - [`bytes`]: bytes made visible and quoted for people.
//!
//! The other crates of the workspace (packs, references, the harness) use
//! the short paths below; inside the engine every path names its layer.

pub mod bytes;
pub mod commands;
pub mod exec;
pub mod judge;
pub mod model;
pub mod output;

// The short paths the packs, the references and the harness use: a named
// list, the engine's public surface besides the layers themselves.
pub use commands::cli::{App, Defaults, main_with_args};
pub use commands::pack::{EmbeddedSuite, Pack, reference_mode};
pub use commands::{builtin, corpus_cli, diff, pack};
/// Listing a case tree, shared with the packs' build scripts.
pub use conformance_embed::walk;
/// Containment of a run, from its own crate (reference programs use it
/// without the engine).
pub use conformance_sandbox as sandbox;
pub use exec::{driver, interrupt, run};
pub use model::{rng, schema, suite};
pub use output::{exit, writer};
