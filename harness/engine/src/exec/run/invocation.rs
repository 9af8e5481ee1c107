//! What to run and how: an [`Invocation`] (the target, its arguments,
//! environment, stdin, files, mode, time limit and output cap), what of
//! each output stream to keep ([`Keep`]), and the time limits derived from
//! the reference's own time.

use std::ffi::OsString;
use std::time::Duration;

use conformance_sandbox::Limits;

use super::ending::Stream;
use super::mode::Mode;
use super::target::Target;
use crate::exec::terminal::PROMPT;

/// Default per-case timeout when nothing says how long the reference took.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The least time a program is given when the limit comes from the
/// reference's own time.
pub const MIN_TIME_LIMIT: Duration = Duration::from_secs(1);

/// How many times the reference's time a program is given.
pub const SLOWDOWN_ALLOWED: u32 = 20;

/// The time limit of a run the reference made in `reference`:
/// `max(1 s, 20 × reference)`. A program that spins forever then costs a
/// second, not the ten of [`DEFAULT_TIMEOUT`], while one twenty times
/// slower than the reference still passes.
pub fn limit_from_reference(reference: Duration) -> Duration {
    reference
        .saturating_mul(SLOWDOWN_ALLOWED)
        .max(MIN_TIME_LIMIT)
}

/// The reference's time as a case records it (`reference-ms`): whole
/// milliseconds rounded up to a power of two, so that re-blessing on a
/// busier or quieter machine rewrites nothing unless the time really
/// changed (at least doubled or halved); and 1 for any time the 1 s floor
/// covers (under 50 ms), so that a case written twice from the same
/// session is the same bytes.
pub fn recorded_reference_ms(elapsed: Duration) -> u64 {
    if limit_from_reference(elapsed) == MIN_TIME_LIMIT {
        return 1;
    }
    let ms = u64::try_from(elapsed.as_millis())
        .unwrap_or(u64::MAX)
        .max(1);
    ms.checked_next_power_of_two().unwrap_or(u64::MAX)
}

/// Default cap on each output stream.
pub const DEFAULT_OUTPUT_CAP: u64 = 16 * 1024 * 1024;

/// How long a process may keep stdout or stderr open after the program
/// itself exited. The program's own descriptors are closed before its exit is
/// reported, so only a process it left behind can hold them past this.
pub(super) const LINGER_GRACE: Duration = Duration::from_millis(500);

/// How long the readers may take to drain the pipes once a keeper (and so
/// everything in its namespace) is gone.
pub(super) const KEEPER_DRAIN: Duration = Duration::from_secs(2);

/// One fully prepared run: everything the sandbox needs.
#[derive(Debug, Clone)]
pub struct Invocation {
    /// What to run.
    pub target: Target,
    /// Arguments after the program name.
    pub args: Vec<OsString>,
    /// Variables added to the cleared environment.
    pub env: Vec<(OsString, OsString)>,
    /// Standard input.
    pub stdin: Vec<u8>,
    /// Files placed in the sandbox first (relative path, bytes).
    pub files: Vec<(String, Vec<u8>)>,
    /// Those of `files` placed executable (mode 0755; the rest 0644).
    pub executable: Vec<String>,
    /// How stdout is connected.
    pub mode: Mode,
    /// Time before the group is killed.
    pub timeout: Duration,
    /// Bytes per stream before the group is killed.
    pub output_cap: u64,
    /// Resource limits.
    pub limits: Limits,
    /// Bytes of each stream kept; the rest is only counted.
    pub keep: Keep,
    /// What every prompt of the program ends with ([`PROMPT`] unless the
    /// suite says otherwise): an interactive case types each stdin line
    /// once stdout showed one more.
    pub prompt: Vec<u8>,
    /// Feed stdin one line at a time as the program reads it, and record
    /// each read ([`super::outcome::Outcome::reads`], [`super::reads`]).
    /// Only where stdin is a pipe: at a terminal (`mode: interactive`)
    /// the prompt gate already types one line at each prompt.
    pub count_reads: bool,
    /// Stop the run once its CPU time reaches this, before its time limit,
    /// as if killed at the limit (`None`: only the limit stops it). Set
    /// only for a program already seen to spin for ever on another case: a
    /// run so stopped used less CPU than its limit, so its timeout is
    /// charged only as a starved one is (confirmed, or charged as its
    /// cause's case found stuck was).
    pub cpu_stop: Option<Duration>,
}

/// How many bytes of each output stream a run keeps, whatever it prints up
/// to the cap; the rest is counted in [`super::outcome::Outcome::dropped`]. A case's run
/// needs only what its comparison and report can use: the expected length
/// plus [`KEEP_WINDOW`]. Keeping a whole 16 MiB flood per run made the
/// harness's peak memory depend on how the allocator reused freed blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keep {
    /// Bytes of stdout kept.
    pub stdout: u64,
    /// Bytes of stderr kept.
    pub stderr: u64,
}

/// Bytes kept past an expected stream's length: the failure report's diff
/// window ([`crate::judge::failure`] diffs at most 1 MiB from a few lines before the
/// first difference, which lies within the expected length).
pub const KEEP_WINDOW: u64 = 1 << 20;

impl Keep {
    /// Everything up to the cap (the reference's runs when blessing, and
    /// `diff`'s, whose other side is not known in advance).
    pub const ALL: Self = Self {
        stdout: u64::MAX,
        stderr: u64::MAX,
    };

    /// Enough to compare against streams of these lengths and to report
    /// the difference as if everything had been kept.
    pub fn around(stdout: usize, stderr: usize) -> Self {
        let len = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
        Self {
            stdout: len(stdout).saturating_add(KEEP_WINDOW),
            stderr: len(stderr).saturating_add(KEEP_WINDOW),
        }
    }

    pub(crate) fn of(self, stream: Stream) -> u64 {
        match stream {
            Stream::Stdout => self.stdout,
            Stream::Stderr => self.stderr,
        }
    }
}

impl Invocation {
    /// An invocation with default mode, timeout, cap and limits.
    pub fn new(target: Target, args: Vec<OsString>, stdin: Vec<u8>) -> Self {
        Self {
            target,
            args,
            env: Vec::new(),
            stdin,
            files: Vec::new(),
            executable: Vec::new(),
            mode: Mode::Pipe,
            timeout: DEFAULT_TIMEOUT,
            output_cap: DEFAULT_OUTPUT_CAP,
            limits: Limits::for_timeout(DEFAULT_TIMEOUT),
            keep: Keep::ALL,
            prompt: PROMPT.to_vec(),
            count_reads: false,
            cpu_stop: None,
        }
    }
}

#[cfg(test)]
mod limit_tests {
    use super::*;

    #[test]
    fn recorded_times_are_canonical_and_give_the_limit() {
        let ms = Duration::from_millis;
        assert_eq!(recorded_reference_ms(ms(0)), 1);
        assert_eq!(recorded_reference_ms(ms(49)), 1);
        assert_eq!(recorded_reference_ms(ms(51)), 64);
        assert_eq!(recorded_reference_ms(ms(700)), 1024);
        assert_eq!(limit_from_reference(ms(1)), MIN_TIME_LIMIT);
        assert_eq!(limit_from_reference(ms(200)), ms(4000));
    }
}
