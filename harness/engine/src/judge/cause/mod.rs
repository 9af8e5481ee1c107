//! The cause of a failure: a structural signature of how a run departs from
//! what was expected, shared by every case (or `diff` session) that fails
//! the same way.
//!
//! When the reference's provenance is known ([`crate::judge::provenance`]), a
//! stream's cause is the rule context its first difference falls in (the
//! span of output the reference was writing: "the grid after a valid
//! move", DISP-1, DISP-3) and the kind of departure, named when it is a
//! common one ([`Departure`]: the program echoes the line it just read,
//! stops printing, changes spacing or a number). No byte of the
//! output enters such a key, so one bug is one cause, and the same program
//! gives the same causes run after run.
//!
//! Without provenance (a pack whose reference writes none, `diff`), two
//! failures have the same cause when the same parts differ by the same
//! kind of edit with the same lines once normalised: escaped, runs of
//! digits written `#`, cut short.
//!
//! The parts, lowest first: `text` helpers, the `signature` types,
//! the first `edit` of a stream, `missed` checks, crashes and hangs
//! placed where the program was (`grave`), uncaught exceptions placed
//! alike (`raised`), `later` departures, a `line_break` told from a
//! value cut short, the cause `build` from them
//! all, and output files (and what the model writes besides stdout)
//! blamed on the rules that write them, else the case's (`by_rule`).

mod build;
mod by_rule;
mod edit;
mod grave;
mod later;
mod line_break;
mod missed;
mod raised;
mod signature;
mod speak;
#[cfg(test)]
mod test_mismatch;
mod text;

pub use by_rule::{blame_asides, blame_files, name_case_rules};
pub use edit::{bytes_edit, bytes_shape};
pub use later::{Later, later};
pub use raised::{Blame, blame, raised_of};
pub use signature::{
    Cause, Departure, Edit, Missed, PartCause, Place, memory_error_of, missed_check_of,
};
pub use speak::speak;
pub use text::{ending, normalise};

#[cfg(test)]
mod tests;
