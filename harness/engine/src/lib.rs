//! `conformance-engine`: replays YAML conformance cases against any
//! executable and tells, byte for byte, where it departs from its
//! specification. What the program is comes from a spec pack ([`pack`]);
//! the engine names none.
//!
//! - [`pack`]: what a spec pack supplies; [`pack::reference_mode`];
//!   [`folder`]: a spec pack read from a folder (`pack.yaml`).
//! - [`schema`]: the case format (serde types, JSON Schema).
//! - [`suite`]: where cases come from (a pack's embedded suite, folders,
//!   files).
//! - [`case`]: from a case file to an [`run::Invocation`] and a
//!   [`compare::Expectation`].
//! - [`run`]: running one invocation in a sandbox ([`run::run`]),
//!   supervised from one poll loop ([`supervise`]; keepers that outlive
//!   their run are reaped by [`reaper`]); [`terminal`]: the terminal of
//!   an interactive run (stdin and stdout on
//!   one pseudo-terminal, stdin typed at the prompts, end of file).
//! - [`compare`]: byte-exact comparison ([`compare::compare`]).
//! - [`driver`]: cases run as a conversation by a pack's driver.
//! - [`failure`]: how a case failed, structured and bounded; [`cause`]:
//!   the signature that makes failures "the same"; [`group`]: the report
//!   of failures grouped by cause; [`kit`]: `--keep-failed` folders.
//! - [`report`]: reproduce commands, score, coverage, JUnit.
//! - [`bless`]: rewriting expected fields from the reference.
//! - [`budget`]: the early verdict on a program that hangs.
//! - [`diff`]: differential testing with a pack's explorer.
//! - [`mark`]: a folder of submissions built, marked and viewed as a class.
//! - [`sandbox`]: containment of a run in namespaces (a keeper as PID 1);
//!   [`interrupt`]: Ctrl-C / SIGTERM clean-up; [`preflight`]: a `--bin`
//!   that cannot execute, explained once; [`quiet`]: a quiet end on a
//!   closed output pipe.
//! - [`cli`]: the command line ([`cli::main_with_args`]); [`exit`]: its
//!   exit statuses.

pub mod bless;
pub mod budget;
pub mod case;
pub mod cause;
pub mod cli;
pub mod compare;
pub mod diff;
pub mod driver;
pub mod exit;
pub mod failure;
pub mod folder;
pub mod group;
pub mod interrupt;
pub mod kit;
pub mod mark;
pub mod pack;
pub mod preflight;
pub mod provenance;
pub mod quiet;
pub mod reaper;
pub mod report;
pub mod results;
pub mod rng;
pub mod run;
pub mod schema;
pub mod spare;
pub mod suite;
pub mod supervise;
pub mod terminal;
pub mod writer;

pub use cli::{App, Defaults, main_with_args};
/// Listing a case tree, shared with the packs' build scripts.
pub use conformance_embed::walk;
/// Containment of a run, from its own crate (reference programs use it
/// without the engine).
pub use conformance_sandbox as sandbox;
pub use pack::{EmbeddedSuite, Pack, reference_mode};
