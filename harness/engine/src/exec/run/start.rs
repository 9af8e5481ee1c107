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
//! loader's abort). Those a program can print itself, so what it cannot
//! fake decides too: a run that took any byte of its stdin (the harness
//! writes the pipe, so it knows what was taken) or used more CPU time
//! than a runtime's failed start takes ([`START_CPU`]) ran its own code,
//! and is judged whatever it printed. A run that passes all of these and
//! still never starts, on a case where the same program started on
//! others, is confirmed once more after the other cases and then charged
//! as the program's unless the machine is short of a resource at that
//! moment ([`machine_short`]): a failure that follows the input is the
//! program's (docs/containment.md, "A runtime that could not start").

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

/// The most CPU time a runtime that fails to start uses: a JVM that
/// cannot reserve its heap gives up within a tenth of a second, and
/// one that reaches a program's `main` has used about a quarter.
pub const START_CPU: Duration = Duration::from_secs(1);

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
    // It took input or computed: its own code ran.
    if outcome.stdin_taken.is_some_and(|n| n > 0)
        || outcome.activity.cpu.is_some_and(|cpu| cpu > START_CPU)
    {
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

/// Memory a machine short of it has left, at most: under this, or under
/// a twentieth of all, a runtime's failed start is the machine's.
const SHORT_MEMORY_KIB: u64 = 256 * 1024;

/// Why the machine cannot start a runtime now, if it is short of
/// something a start needs: memory (`MemAvailable`), or tasks near the
/// kernel's bound. Read by the harness, never told by the program.
pub fn machine_short() -> Option<String> {
    let meminfo = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .unwrap_or_default();
    let field = |name: &str| {
        meminfo
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .ok()
            })
    };
    if let (Some(available), Some(total)) = (field("MemAvailable:"), field("MemTotal:"))
        && (available < SHORT_MEMORY_KIB || available < total / 20)
    {
        return Some(format!(
            "the machine had {} MiB of memory available",
            available / 1024
        ));
    }
    let tasks = std::fs::read_to_string("/proc/loadavg").ok().and_then(|l| {
        let field = l.split_whitespace().nth(3)?;
        field.split_once('/')?.1.parse::<u64>().ok()
    });
    let bound = std::fs::read_to_string("/proc/sys/kernel/threads-max")
        .ok()
        .and_then(|t| t.trim().parse::<u64>().ok());
    match (tasks, bound) {
        (Some(tasks), Some(bound)) if tasks.saturating_mul(10) > bound.saturating_mul(9) => Some(
            format!("the machine ran {tasks} tasks of its bound of {bound}"),
        ),
        _ => None,
    }
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

    #[test]
    fn a_program_that_says_it_could_not_start_but_ran_is_judged() {
        let vm = &b"Error occurred during initialization of VM\n"[..];
        // It read its input first: its code ran.
        let mut read = ended(Ending::Exited(1), b"", vm);
        read.stdin_taken = Some(3);
        assert_eq!(failed_to_start(&read), None);
        // Silent 127 after a second of CPU: it computed.
        let mut busy = ended(Ending::Exited(127), b"", b"");
        busy.activity.cpu = Some(START_CPU + Duration::from_millis(1));
        assert_eq!(failed_to_start(&busy), None);
        // Nothing taken, little CPU: still a start failure.
        let mut quiet = ended(Ending::Exited(1), b"", vm);
        quiet.stdin_taken = Some(0);
        quiet.activity.cpu = Some(Duration::from_millis(40));
        assert!(failed_to_start(&quiet).is_some());
    }
}
