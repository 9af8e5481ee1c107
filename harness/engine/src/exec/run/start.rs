//! A run that died before the program's own code ran: its runtime could
//! not start (a JVM that could not reserve its heap, the loader that could
//! not allocate a thread's local storage, a Node.js, Python, Go or .NET
//! runtime that could not initialise, a shell that could not fork). What
//! the program would have done is unknown, so such a run is no verdict:
//! [`super::run_with_activity`] runs it again ([`TRIES`] runs in all, a
//! pause between them, longer each time: memory short for a moment comes
//! back), and a run that never started is kept with a [`NoStart`], which
//! the judge turns into an environment failure (nothing of the program's
//! is charged for it: [`crate::judge::environment::Lack::Start`]).
//!
//! Told by what the run left: nothing on stdout (the program's code never
//! ran to write), an ending other than success, and on stderr a runtime's
//! own start-up message, or exit 127 with nothing written at all (the
//! loader's abort).

use std::time::Duration;

use super::ending::Ending;
#[cfg(doc)]
use super::outcome::NoStart;
use super::outcome::Outcome;

/// Runs of an invocation in all before a runtime that never started is
/// kept as such.
pub const TRIES: u32 = 3;

/// The pause before the second run; the third waits twice as long.
pub const PAUSE: Duration = Duration::from_millis(250);

/// Bytes of stderr looked at, from its start: a runtime that cannot
/// start says so first.
const LOOKED_AT: usize = 16 * 1024;

/// The longest start-up message kept.
const SAID_CAP: usize = 160;

/// Runtimes' start-up failures, as they print them (each matched anywhere
/// on a line).
const MESSAGES: [&str; 19] = [
    // The JVM.
    "Error occurred during initialization of VM",
    "Could not reserve enough space for",
    "os::commit_memory(",
    "There is insufficient memory for the Java Runtime Environment to continue",
    "Could not create the Java Virtual Machine",
    // glibc's loader and threads.
    "cannot allocate memory for thread-local data",
    "failed to map segment from shared object",
    // Node.js (V8).
    "Fatal process out of memory: Failed to reserve",
    "Fatal process OOM in Failed to reserve",
    "Fatal process out of memory: Oilpan",
    // Python.
    "Fatal Python error: init",
    "Fatal Python error: _PyMem",
    // Go.
    "runtime: failed to create new OS thread",
    "fatal error: runtime: cannot allocate memory",
    "runtime: cannot reserve arena virtual address space",
    // .NET.
    "Failed to create CoreCLR",
    "GC heap initialization failed",
    // AddressSanitizer's shadow memory.
    "ReserveShadowMemoryRange failed",
    // A shell that could not fork.
    "fork: Resource temporarily unavailable",
];

/// What tells that `outcome`'s run died before the program's own code
/// ran, if it did.
pub fn failed_to_start(outcome: &Outcome) -> Option<String> {
    let status = match outcome.ending {
        Ending::Exited(0) | Ending::TimedOut { .. } | Ending::OutputCapExceeded { .. } => {
            return None;
        }
        Ending::Exited(code) => Some(code),
        Ending::Signaled(_) => None,
    };
    if !outcome.stdout.is_empty() || outcome.dropped.stdout > 0 {
        return None;
    }
    let head = &outcome.stderr[..outcome.stderr.len().min(LOOKED_AT)];
    let text = String::from_utf8_lossy(head);
    if let Some(line) = text
        .lines()
        .find(|line| MESSAGES.iter().any(|m| line.contains(m)))
    {
        let line = line.trim();
        let mut said: String = line.chars().take(SAID_CAP).collect();
        if said.len() < line.len() {
            said.push('…');
        }
        return Some(format!("`{said}`"));
    }
    (status == Some(127) && outcome.stderr.is_empty() && outcome.dropped.stderr == 0)
        .then(|| "status 127 with nothing written (the loader gave up)".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(ending: Ending, stdout: &[u8], stderr: &[u8]) -> Outcome {
        let mut o = Outcome::exited_with(stdout);
        o.ending = ending;
        o.stderr = stderr.to_vec();
        o
    }

    #[test]
    fn a_runtime_that_could_not_start() {
        for (ending, stderr) in [
            (
                Ending::Exited(1),
                &b"Error occurred during initialization of VM\nCould not reserve enough space \
                   for 6172672KB object heap\n"[..],
            ),
            (
                Ending::Exited(1),
                b"OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(0x0000, 65536, 0) \
                  failed; error='Not enough space' (errno=12)\n",
            ),
            (
                Ending::Exited(127),
                b"cannot allocate memory for thread-local data: ABORT\n",
            ),
            (
                Ending::Signaled(6),
                b"\n#\n# Fatal process out of memory: Failed to reserve virtual memory for \
                  CodeRange\n",
            ),
            (Ending::Exited(127), b""),
        ] {
            assert!(
                failed_to_start(&ended(ending.clone(), b"", stderr)).is_some(),
                "{ending:?} {}",
                String::from_utf8_lossy(stderr)
            );
        }
        let said = failed_to_start(&ended(
            Ending::Exited(1),
            b"",
            b"Error occurred during initialization of VM\n",
        ));
        assert_eq!(
            said.as_deref(),
            Some("`Error occurred during initialization of VM`")
        );
    }

    #[test]
    fn a_program_that_ran_is_judged() {
        let vm = &b"Error occurred during initialization of VM\n"[..];
        // It wrote: its own code ran.
        assert_eq!(
            failed_to_start(&ended(Ending::Exited(1), b"Sum: 3\n", vm)),
            None
        );
        // Success, a timeout, the cap: never a start failure.
        assert_eq!(failed_to_start(&ended(Ending::Exited(0), b"", vm)), None);
        assert_eq!(
            failed_to_start(&ended(
                Ending::TimedOut {
                    after: Duration::from_secs(1),
                    awaiting_prompt: None
                },
                b"",
                vm
            )),
            None
        );
        // Its own failures, and a status 127 that says why.
        for (ending, stderr) in [
            (
                Ending::Exited(1),
                &b"Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n"[..],
            ),
            (Ending::Exited(1), b"Traceback (most recent call last):\n"),
            (Ending::Exited(127), b"sh: 1: frobnicate: not found\n"),
            (Ending::Exited(2), b""),
            (Ending::Signaled(11), b""),
        ] {
            assert_eq!(failed_to_start(&ended(ending, b"", stderr)), None);
        }
    }
}
