//! A quiet end when the reader of our output goes away (`… --list |
//! head -1`): Rust ignores SIGPIPE, so a write to a closed pipe
//! fails, and `print!` (ours and libtest-mimic's) turns that failure into a
//! panic with a message and status 101. This module recognises that one
//! panic, prints nothing for it, and ends with the status a Unix tool
//! killed by SIGPIPE has (141), like `seq 1 100000 | head -1`.

use std::any::Any;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// The status after the output pipe closed: 128 + SIGPIPE, as a shell
/// reports a tool killed by it.
pub const CLOSED_OUTPUT: u8 = 141;

static OUTPUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether some write already found the output closed; long runs check it
/// to stop early, since nobody reads what they would print.
pub fn output_closed() -> bool {
    OUTPUT_CLOSED.load(Ordering::Relaxed)
}

fn is_broken_pipe(message: &str) -> bool {
    message.contains("Broken pipe") || message.contains("BrokenPipe")
}

fn payload_text(payload: &(dyn Any + Send)) -> Option<&str> {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
}

/// Runs `body` (a whole command) so that a closed output pipe ends it
/// quietly with [`CLOSED_OUTPUT`]; every other panic keeps its message and
/// unwinds on.
pub fn run(body: impl FnOnce() -> ExitCode + std::panic::UnwindSafe) -> ExitCode {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // After the first, the panics that follow (a scope re-panicking, a
        // progress bar's poisoned lock) are consequences: silent too.
        if output_closed() || payload_text(info.payload()).is_some_and(is_broken_pipe) {
            OUTPUT_CLOSED.store(true, Ordering::Relaxed);
            crate::exec::interrupt::request(crate::exec::interrupt::Reason::OutputClosed);
        } else {
            previous(info);
        }
    }));
    match std::panic::catch_unwind(body) {
        Ok(code) => code,
        Err(payload)
            if output_closed() || payload_text(payload.as_ref()).is_some_and(is_broken_pipe) =>
        {
            ExitCode::from(CLOSED_OUTPUT)
        }
        Err(payload) => std::panic::resume_unwind(payload),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_pipe_messages_are_recognised() {
        assert!(is_broken_pipe(
            "failed printing to stdout: Broken pipe (os error 32)"
        ));
        assert!(is_broken_pipe(
            "called `Result::unwrap()` on an `Err` value: Os { code: 32, kind: BrokenPipe }"
        ));
        assert!(!is_broken_pipe("index out of bounds"));
    }
}
