//! `mark`: a folder of submissions to marks, reports and a class view.
//! Each submission is read ([`unpack`], with the ids and students of
//! [`intake`]), built contained ([`build`]), checked by this harness run
//! again on its program ([`check`]), and its outputs written into its own
//! folder at once (a rename); the class view ([`cohort`], [`html`]) is then
//! built from those folders alone, which is also what `mark merge` does
//! with the folders of several slices ([`merge`]).
//!
//! - `submissions/ID/`: `build.log`, `report.txt`, `results.json`,
//!   `gradescope.json`, `report.html`, `mark.json` ([`record`]);
//! - `marks.csv`, `cohort.json`, `index.html`.
//!
//! The cohort is a layer of its own (it was the `mark` command's folder):
//! the command line parses `mark`'s arguments ([`args`]) and calls
//! [`mark`] or [`merge::merge`].
//!
//! May use: every layer below ([`crate::bytes`], [`crate::exec`],
//! [`crate::model`], [`crate::judge`], [`crate::output`],
//! [`crate::explorer`], [`crate::packs`]). Used by the commands.

/// A line on stderr that never panics: a closed stream must not stop a
/// marking run (nor re-enter the interrupt's clean-up).
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod args;
pub mod build;
pub mod check;
pub mod cohort;
pub mod gap;
pub mod html;
pub mod intake;
pub mod lock;
pub mod merge;
pub mod partition;
pub mod record;
pub mod sanity;
pub mod stale;
pub mod struck;
mod submission;
pub mod unpack;
pub mod view;
mod work;
mod workers;

pub use work::mark;
