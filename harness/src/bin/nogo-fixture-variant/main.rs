//! Deliberately wrong `nogo` programs for the nogo pack's own tests
//! (`harness/tests/it/nogo_variants.rs`): each variant departs from the
//! rulings in exactly one rule, the way a student's program typically does;
//! the suite must fail it and `diff --spec nogo` must find and shrink it.
//!
//! The variant is picked by the basename of `argv[0]` (the harness clears
//! the environment, so a symlink named after the variant is the only
//! channel); any other name runs the rulings unchanged. Everything else is
//! the reference: arguments, loading, grid, rendering, move reading,
//! placing, capture and saving come from `nogo_reference`; only the turn
//! loop is repeated here so that each departure sits where a student would
//! make it.
//!
//! The variants and `main` live here; the game a variant plays, in
//! [`round`].

use std::ffi::OsString;
use std::process::ExitCode;

use boxes_harness::cstdio::{self, Buffering};
use nogo_reference::status::ExitTable;

mod round;
mod variant;

use round::program;
use variant::Variant;

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let variant = Variant::from_argv0(argv.first());
    let operands = argv.get(1..).unwrap_or_default();
    let buffering = match variant {
        Variant::CStdio => Some(Buffering::Glibc),
        Variant::CStdioFullyBuffered => Some(Buffering::Full),
        _ => None,
    };
    let run = cstdio::run_on_process(buffering, |mut input, mut out| {
        program(variant, operands, &mut input, &mut out)
    });
    let Ok(exit) = run else {
        eprintln!("nogo-fixture-variant: cannot duplicate stdin or stdout");
        return ExitCode::from(2);
    };
    ExitCode::from(exit.code())
}
