//! Output: telling people and machines what a run found. It owns the
//! reproduce lines ([`reproduce`]), the score, coverage and JUnit
//! ([`report`]; a category's grader, [`graded`]), the machine-readable results ([`results`]), how a case
//! file spells a value ([`writer`]) and its rewriting by `--bless`
//! ([`bless`]), whether a reference's or model's run may be blessed at
//! all ([`model_bless`]), the `--keep-failed` folders ([`kit`]), the exit
//! statuses ([`exit`]), what a student may see of a secret case
//! ([`secret`]), and the places courses mark: GitHub Classroom
//! and Actions ([`github`]) and PrairieLearn ([`prairielearn`]).
//!
//! May use: [`crate::bytes`], [`crate::exec`], [`crate::model`],
//! [`crate::judge`]. Used by every layer above.

pub mod bless;
pub mod exit;
pub mod github;
pub mod graded;
pub mod kit;
pub mod model_bless;
pub mod prairielearn;
pub mod report;
pub mod reproduce;
pub mod results;
pub mod secret;
pub mod writer;
