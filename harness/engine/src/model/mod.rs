//! The case model: what a case is and where cases come from. It owns the
//! case format ([`schema`]), a case resolved into what to run (an
//! [`crate::exec::run::Invocation`]) and what to expect
//! ([`case::Expectation`]) ([`case`]), suites on disk ([`suite`]) or
//! embedded in the binary ([`embedded`]), and the seeded PRNG every pack's
//! corpus and explorer share ([`rng`]), the lines that break careless
//! readers every explorer draws from it ([`hard_lines`]), a set of files
//! held in memory (a submission, a model's sources: [`files`]), where a key sits
//! in a YAML file for the errors serde cannot place ([`key_line`]), the
//! `match:` declarations saying how a case's outputs are judged
//! ([`matching`]), what a case weighs in its category ([`weight`]), and
//! how a category's marks follow from its cases when a grader says
//! ([`grader`]).
//!
//! May use: [`crate::bytes`], [`crate::exec`] (a case describes a run; the
//! run knows nothing of cases). Used by judging, output and the commands.

pub mod case;
pub mod embedded;
pub mod files;
pub mod grader;
pub mod hard_lines;
pub mod key_line;
pub mod matching;
pub mod rng;
pub mod schema;
pub mod suite;
pub mod weight;
