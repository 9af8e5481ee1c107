//! Comparison of what a run did against what was expected: exit status,
//! stdout, stderr, output files and absent files, byte-exact ([`compare`])
//! or under the tolerances the case's `match:` declares ([`judge_owned`]:
//! bytes that are equal never reach a tolerance). Every difference left is
//! a [`Mismatch`], every one a tolerance forgave a [`Forgiven`]; rendering
//! them for people is [`crate::judge::failure`]'s job.
//!
//! - [`mismatch`]: what a difference is;
//! - [`exact`]: the byte-exact walk over the parts;
//! - [`judged`]: the same walk under tolerances, a checker's oracle and
//!   the other readings of an ambiguous rule.

mod exact;
mod judged;
mod mismatch;

pub use exact::{compare, compare_owned, memory_error};
pub use judged::{
    Checked, Forgiven, Judgement, NoOracle, Oracle, forgave_text, judge_owned, other_reading,
};
pub use mismatch::{Mismatch, ReadCount, place_reads, ruled};

#[cfg(test)]
mod tests;
