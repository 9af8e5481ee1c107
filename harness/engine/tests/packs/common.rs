//! Running the engine in-process without its output reaching the test's
//! own log. An inner run prints libtest's summary, and a run that is meant
//! to fail prints `test result: FAILED. 0 passed; 1 failed`: in the outer
//! test log that reads as a failure of the test itself to a CI reader. So
//! each inner run writes into a scratch file instead, and a check that
//! fails shows what the last inner run printed.

use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::process::ExitCode;
use std::sync::Mutex;

/// What the last inner run printed on stdout and stderr.
static LAST: Mutex<String> = Mutex::new(String::new());

/// Runs `f` with this process's stdout and stderr (the descriptors, so
/// libtest-mimic's output and every `eprintln!` are caught) sent to a
/// scratch file, keeping what it printed for [`check`]. Should the
/// descriptors not move, `f` runs with its output in the open.
pub fn quietly(f: impl FnOnce() -> ExitCode) -> ExitCode {
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    let Ok(mut scratch) = tempfile::tempfile() else {
        return f();
    };
    let (Ok(saved_out), Ok(saved_err)) = (
        rustix::io::dup(std::io::stdout()),
        rustix::io::dup(std::io::stderr()),
    ) else {
        return f();
    };
    if rustix::stdio::dup2_stdout(&scratch).is_err()
        || rustix::stdio::dup2_stderr(&scratch).is_err()
    {
        let _ = rustix::stdio::dup2_stdout(&saved_out);
        return f();
    }
    let code = f();
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    let _ = rustix::stdio::dup2_stdout(&saved_out);
    let _ = rustix::stdio::dup2_stderr(&saved_err);
    let mut text = String::new();
    if scratch.seek(SeekFrom::Start(0)).is_ok() {
        let mut bytes = Vec::new();
        let _ = scratch.read_to_end(&mut bytes);
        text = String::from_utf8_lossy(&bytes).into_owned();
    }
    *LAST
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = text;
    code
}

/// Prints one check's line (`PREFIX: WHAT ... ok`); a failed check is
/// noted in `failures` and followed by what the last inner run printed.
pub fn check(prefix: &str, what: &str, ok: bool, failures: &mut Vec<String>) {
    println!("{prefix}: {what} ... {}", if ok { "ok" } else { "FAILED" });
    if !ok {
        let last = LAST
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        println!("--- what the last inner run printed:\n{last}---");
        failures.push(what.to_owned());
    }
}
