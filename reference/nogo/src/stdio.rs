//! The process's standard streams for [`crate::app::main_with_args`]:
//! stdout written in large blocks yet flushed whenever the program is about
//! to wait for input (TURN-1), and a failure to write it ignored (SYS-1).
//!
//! A 100×100 computer game writes megabytes of grids, so stdout goes out
//! in blocks; the stdin reader flushes it just before every read
//! ([`reference_kit::stdio`]). Unlike boxes, a failed stdout is dropped
//! silently instead of ending the program.

use std::ffi::OsString;
use std::io::{Read, Write};

use reference_kit::stdio::{self, WriteFailure};

use crate::app::run;
use crate::status::Exit;

/// [`run`] with the buffering a process needs (TURN-1, SYS-1).
pub fn run_process<R: Read, E: Write>(
    args: &[OsString],
    input: R,
    sink: Box<dyn Write>,
    err: E,
) -> Exit {
    let (input, out, finish) = stdio::streams(input, sink, WriteFailure::Ignored);
    let exit = run(args, input, out, err);
    // SYS-1: whatever became of stdout, the outcome stands.
    let _ = finish.finish();
    exit
}
