//! The process's standard streams for [`main_with_args`]:
//! stdout written in large blocks yet flushed whenever the program is about
//! to wait for input (TURN-1), and a failure to write it ignored (SYS-1).
//!
//! A 100×100 computer game writes megabytes of grids, so stdout goes out
//! in blocks; the stdin reader flushes it just before every read
//! ([`reference_kit::stdio`]). Unlike boxes, a failed stdout is dropped
//! silently instead of ending the program.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::process::ExitCode;

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
    // SYS-1: whatever became of stdout, the outcome stands.
    stdio::run_buffered(input, sink, WriteFailure::Ignored, |input, out| {
        run(args, input, out, err)
    })
    .0
}

/// Runs `nogo` as a process: `argv` includes the program name, the streams
/// are the process's own. Used by the `nogo` binary and by every tool that
/// runs the reference in-process.
pub fn main_with_args(argv: impl IntoIterator<Item = OsString>) -> ExitCode {
    stdio::main_with(argv, run_process)
}

#[cfg(test)]
mod tests {
    use std::io::{self, Cursor};

    use reference_kit::terminal::{Broken, Keyboard, Screen, os_args};

    use super::*;
    use crate::status::ExitTable;

    #[test]
    fn sys_1_unwritable_stdout_changes_no_status() {
        let broken = Broken(io::ErrorKind::StorageFull);
        for (args, input, code) in [
            (&[&b"c"[..], b"c", b"4", b"4"][..], &b""[..], 0),
            (&[b"h", b"h", b"4", b"4"], b"1 1\n", 6),
            (&[b"h", b"h", b"4"], b"", 4),
        ] {
            let mut err = Vec::new();
            let exit = run_process(
                &os_args(args),
                Cursor::new(input),
                Box::new(broken),
                &mut err,
            );
            assert_eq!(exit.code(), code);
            let mut err2 = Vec::new();
            let exit2 = run(&os_args(args), Cursor::new(input), broken, &mut err2);
            assert_eq!((exit2, err2), (exit, err));
        }
    }

    #[test]
    fn turn_1_process_prompt_reaches_the_screen_before_each_wait() {
        let screen = Screen::default();
        let mut keyboard = Keyboard::new(b"2 2\nbad\n3 3\n2 0\n0 3\n", &screen, b"> ");
        let mut err = Vec::new();
        let exit = run_process(
            &os_args(&[b"c", b"h", b"4", b"4"]),
            &mut keyboard,
            Box::new(screen.clone()),
            &mut err,
        );
        assert_eq!(exit, Exit::Normal);
        assert_eq!(keyboard.waits_without_prompt(), 0);
        assert!(screen.bytes().ends_with(b"Player O wins\n"));
    }
}
