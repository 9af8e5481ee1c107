//! Execution: running a program contained and bringing back what it did.
//! It owns one contained run ([`run`]), supervised from one poll loop
//! (`run/supervise.rs`) with an interactive run's terminal ([`terminal`]), the
//! run folders kept for reuse ([`spare`]) and the keepers reaped after
//! ([`reaper`]), Ctrl-C and SIGTERM clean-up ([`interrupt`]), a quiet end
//! on a closed pipe ([`quiet`]), the first start of `--bin`
//! ([`preflight`]), what is kept between commands ([`cache`]), a run
//! changed for memory checking ([`memcheck`]) and
//! cases run as a conversation by a pack's driver ([`driver`]). It knows
//! nothing of case files: a run is an [`run::Invocation`] in and an
//! [`run::Outcome`] out.
//!
//! May use: [`crate::bytes`]. Used by every layer above.

pub mod cache;
pub mod driver;
pub mod interrupt;
pub mod memcheck;
pub mod preflight;
pub mod quiet;
pub mod reaper;
pub mod run;
pub mod spare;
pub mod terminal;
