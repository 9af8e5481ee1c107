//! Deliberately wrong `boxes` programs for the suite's own tests
//! (`harness/tests/it/variants.rs`) and for `diff`'s (`harness/tests/it/diff.rs`):
//! each variant departs from the rulings in exactly one rule, the way a
//! student's program typically does, and the suite (or `diff`) must catch
//! it.
//!
//! The variant is picked by the basename of `argv[0]` (the harness clears
//! the environment, so a symlink named after the variant is the only
//! channel); `boxes` runs the reference unchanged. Everything is the
//! reference program (`boxes_reference::app::run_with`): arguments,
//! loading, the turn rule (`State::apply`), rendering, move parsing and
//! saving. A variant overrides one of the reference's [`Hooks`], changing
//! its output or its input at that one point.
//!
//! The variants and `main` live here; each variant's departure, the
//! hooks that change the reference at one point, in [`departure`].

use boxes_reference::ExitTable;
use std::ffi::OsString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::ExitCode;

use boxes_harness::cstdio::{self, Buffering};
use boxes_reference::app;

mod departure;
mod variant;

use departure::Departure;
use variant::Variant;

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let name = argv
        .first()
        .and_then(|p| Path::new(p).file_name())
        .map(|n| n.as_bytes().to_vec())
        .unwrap_or_default();
    let Some(variant) = Variant::from_name(&name) else {
        let known: Vec<&str> = Variant::ALL.iter().map(|(n, _)| *n).collect();
        eprintln!(
            "boxes-fixture-variant: run me through a link named after a variant: {}",
            known.join(", ")
        );
        return ExitCode::from(2);
    };
    let operands = argv.get(1..).unwrap_or_default();
    let err = io::stderr().lock();
    let mut departure = Departure {
        variant,
        owed: 0,
        grids: 0,
        digits: Vec::new(),
        echo: None,
    };
    let buffering = match variant {
        Variant::CStdio => Some(Buffering::Glibc),
        Variant::CStdioFullyBuffered => Some(Buffering::Full),
        _ => None,
    };
    let run = cstdio::run_on_process(buffering, |stdin, out| {
        app::run_with(operands, stdin, out, err, &mut departure)
    });
    let Ok(exit) = run else {
        eprintln!("boxes-fixture-variant: cannot duplicate stdin or stdout");
        return ExitCode::from(2);
    };
    ExitCode::from(exit.code())
}
