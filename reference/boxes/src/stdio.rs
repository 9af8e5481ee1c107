//! The process's standard streams for [`main_with_args`]:
//! stdout written in large blocks yet flushed whenever the program is about
//! to wait for input (TURN-1), and a failure to write it turned into SYS-1.
//!
//! A 60×60 game writes 108 MB, so stdout goes out in blocks; the stdin
//! reader flushes it just before every read ([`reference_kit::stdio`]), and
//! under boxes' SYS-1 a failed write fails the game.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::process::ExitCode;

use reference_kit::stdio::{self, WriteFailure};

use crate::app::run;
use crate::status::{Exit, ExitTable};

/// [`run`] with the buffering a process needs: stdout is written in large
/// blocks, but always flushed before the program waits for input (TURN-1).
pub fn run_process<R: Read, E: Write>(
    args: &[OsString],
    input: R,
    sink: Box<dyn Write>,
    mut err: E,
) -> Exit {
    let (exit, written) = stdio::run_buffered(input, sink, WriteFailure::Fails, |input, out| {
        run(args, input, out, &mut err)
    });
    // The game's last lines are flushed for real: a failure there is still
    // SYS-1.
    if !written && exit != Exit::SystemCall {
        let exit = Exit::SystemCall;
        if let Some(message) = exit.message() {
            let _ = writeln!(err, "{message}");
        }
        return exit;
    }
    exit
}

/// Runs `boxes` as a process: `argv` includes the program name, the
/// streams are the process's own. Used by the `boxes` binary and by every
/// tool that re-executes itself as the reference.
pub fn main_with_args(argv: impl IntoIterator<Item = OsString>) -> ExitCode {
    stdio::main_with(argv, run_process)
}

#[cfg(test)]
mod tests {
    use std::io::{self, Cursor, Write};

    use reference_kit::terminal::{Broken, FailsAfterFirst, Keyboard, Screen, os_args};

    use super::*;
    use crate::app::tests::{WORKED_INPUT, WORKED_OUTPUT};

    #[test]
    fn turn_1_process_prompt_reaches_the_screen_before_each_wait() {
        let screen = Screen::default();
        let mut keyboard = Keyboard::new(WORKED_INPUT, &screen, b"> ");
        let mut err = Vec::new();
        let exit = run_process(
            &os_args(&[b"2", b"2", b"2"]),
            &mut keyboard,
            Box::new(screen.clone()),
            &mut err,
        );
        assert_eq!(exit, Exit::Normal);
        assert_eq!(keyboard.waits_without_prompt(), 0);
        assert_eq!(screen.bytes(), WORKED_OUTPUT);
    }

    #[test]
    fn eof_1_process_stdout_ends_with_the_prompt() {
        let screen = Screen::default();
        let mut err = Vec::new();
        let exit = run_process(
            &os_args(&[b"2", b"2", b"2"]),
            Cursor::new(b"0 0 h\n".to_vec()),
            Box::new(screen.clone()),
            &mut err,
        );
        assert_eq!(exit, Exit::EndOfInput);
        assert_eq!(err, b"End of user input\n");
        assert_eq!(
            screen.bytes(),
            &WORKED_OUTPUT[..WORKED_OUTPUT.len().min(2 * 30 + 6)]
        );
    }

    #[test]
    fn sys_1_process_failures_exit_9_once() {
        for (input, sink) in [
            (
                WORKED_INPUT,
                Box::new(Broken(io::ErrorKind::BrokenPipe)) as Box<dyn Write>,
            ),
            (b"", Box::new(Broken(io::ErrorKind::StorageFull))),
            // The whole game is in the first read: its output meets the
            // failing stdout only at the final flush.
            (WORKED_INPUT, Box::new(FailsAfterFirst::default())),
        ] {
            let mut err = Vec::new();
            let exit = run_process(
                &os_args(&[b"2", b"2", b"2"]),
                Cursor::new(input),
                sink,
                &mut err,
            );
            assert_eq!(exit, Exit::SystemCall);
            assert_eq!(err, b"System call failure\n");
        }
    }
}
