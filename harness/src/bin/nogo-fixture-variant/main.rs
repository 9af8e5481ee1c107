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
use std::io::{self, BufWriter, Write};
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
    let exit = match buffering {
        None => {
            let mut input = io::stdin().lock();
            let mut out = BufWriter::new(io::stdout().lock());
            let exit = program(variant, operands, &mut input, &mut out);
            let _ = out.flush();
            exit
        }
        Some(buffering) => {
            let Ok((mut input, mut out)) = cstdio::process_streams(buffering) else {
                eprintln!("nogo-fixture-variant: cannot duplicate stdin or stdout");
                return ExitCode::from(2);
            };
            let exit = program(variant, operands, &mut input, &mut out);
            out.exit_flush();
            exit
        }
    };
    ExitCode::from(exit.code())
}
