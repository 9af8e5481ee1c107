//! Execution: running a program contained and bringing back what it did.
//! It owns one contained run ([`run`]), supervised from one poll loop
//! ([`supervise`]) with an interactive run's terminal ([`terminal`]), the
//! run folders kept for reuse ([`spare`]) and the keepers reaped after
//! ([`reaper`]), Ctrl-C and SIGTERM clean-up ([`interrupt`]), a quiet end
//! on a closed pipe ([`quiet`]), the first start of `--bin`
//! ([`preflight`]), the early verdict on a program that hangs
//! ([`budget`]) and cases run as a conversation by a pack's driver
//! ([`driver`]).
//!
//! May use: [`crate::model`]. Used by judging, output and the commands.

pub mod budget;
pub mod driver;
pub mod interrupt;
pub mod preflight;
pub mod quiet;
pub mod reaper;
pub mod run;
pub mod spare;
pub mod supervise;
pub mod terminal;
