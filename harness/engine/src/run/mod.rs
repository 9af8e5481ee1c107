//! Running one prepared invocation in a sandbox: a fresh temporary working
//! directory, a cleared environment, the child in its own process group with
//! resource limits, then supervised from one poll loop on this thread
//! ([`crate::supervise`]): stdin written as the pipe takes it (in
//! interactive mode typed into the terminal that is both stdin and stdout,
//! see [`crate::terminal`]), both output streams read under a cap, and a
//! timeout that kills the whole group.
//!
//! The result is an [`Outcome`]: how the program ended, its output and the
//! files it left. Nothing here knows about case files; [`crate::case`] turns a
//! case into an [`Invocation`], and the later `diff` subcommand builds its own.
//!
//! Submodules: `target` (what runs: a path, a command line, the
//! reference), `spawn` (starting it in a process group or a sandbox),
//! `watch` (supervising it to its end and settling what it left),
//! `ending` (how a run ended, its streams, time limits in words), `files`
//! (the files placed in the sandbox and surveyed after).

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::interrupt::Interrupted;
use crate::sandbox::{self, Containment};
pub use crate::sandbox::{LeftBehind, Limits};
pub use crate::schema::Mode;
pub use crate::terminal::Awaiting;

pub use crate::pack::REFERENCE_ENV;

mod cpu;
mod ending;
mod files;
mod spawn;
mod target;
mod watch;

pub use ending::{Ending, MAX_TIMEOUT, Stream, format_secs, parse_timeout, signal_name};
pub use files::normalize;
use files::{place_files, survey};
use spawn::{environment, plan_stdout, spawn_contained, spawn_grouped};
pub use target::{Target, TargetError};
use watch::watch;

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
const LINGER_GRACE: Duration = Duration::from_millis(500);

/// How long the readers may take to drain the pipes once a keeper (and so
/// everything in its namespace) is gone.
const KEEPER_DRAIN: Duration = Duration::from_secs(2);

/// The prompt whose appearance releases the next stdin line in interactive
/// mode (TURN-1).
pub const PROMPT: &[u8] = b"> ";

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
}

/// How many bytes of each output stream a run keeps, whatever it prints up
/// to the cap; the rest is counted in [`Outcome::dropped`]. A case's run
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
/// window ([`crate::failure`] diffs at most 1 MiB from a few lines before the
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
        }
    }
}

/// Everything observed of one run.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// How it ended.
    pub ending: Ending,
    /// Everything written to stdout (up to the cap).
    pub stdout: Vec<u8>,
    /// Everything written to stderr (up to the cap).
    pub stderr: Vec<u8>,
    /// Every regular file in the sandbox afterwards, by relative path.
    pub files: BTreeMap<String, Vec<u8>>,
    /// Every directory in the sandbox afterwards.
    pub dirs: BTreeSet<String>,
    /// The files created or changed by the run.
    pub written: BTreeSet<String>,
    /// The program exited but a process it left behind kept an output
    /// stream open; the harness killed it.
    pub left_process: bool,
    /// The processes the program left behind, killed when the case ended
    /// (named only when the run was contained in namespaces).
    pub left_behind: Vec<LeftBehind>,
    /// Bytes read and not kept (past the cap, or past what
    /// [`Invocation::keep`] asked for), per stream.
    pub dropped: Dropped,
    /// Wall time of the run.
    pub elapsed: Duration,
}

/// How busy a run was, beside its [`Outcome`] (see [`run_with_activity`]):
/// what tells a slow program from a stuck one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Activity {
    /// CPU time it used (its descendants' included), read just before it
    /// was killed or reaped; `None` when `/proc` could not tell.
    pub cpu: Option<Duration>,
    /// Whether it was running or waiting for a CPU at that moment (not
    /// blocked): killed so, it was busy or starved by a loaded machine.
    pub runnable: bool,
    /// When it last wrote output, from its start.
    pub last_output: Option<Duration>,
}

/// Output read and not kept: counted, so the harness's memory
/// stays bounded whatever a program prints.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Bytes of stdout not kept.
    pub stdout: u64,
    /// Bytes of stderr not kept.
    pub stderr: u64,
}

/// A failure of the harness itself to set the run up.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The sandbox could not be made or filled.
    #[error("cannot prepare the sandbox: {0}")]
    Sandbox(io::Error),
    /// A sandbox path is absolute or climbs out of the sandbox.
    #[error("file path {0:?} must stay inside the sandbox")]
    BadPath(String),
    /// The pseudo-terminal could not be opened.
    #[error("cannot open a pseudo-terminal: {0}")]
    Pty(io::Error),
    /// The harness was interrupted (Ctrl-C, SIGTERM) before or during the
    /// run; the program was killed.
    #[error("not run: the harness was interrupted")]
    Interrupted,
    /// The namespaces of the sandbox could not be set up.
    #[error("cannot set up the sandbox's namespaces: {0}")]
    Contain(String),
    /// The run's descriptors could not be watched (`poll`, non-blocking
    /// mode); the program was killed.
    #[error("cannot watch the run: {0}")]
    Watch(io::Error),
    /// The program could not be started.
    #[error("cannot start {path}: {source}")]
    Spawn {
        /// The program.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

/// Runs `inv` in a fresh sandbox and reports what happened.
pub fn run(inv: &Invocation) -> Result<Outcome, RunError> {
    run_with_activity(inv).map(|(outcome, _)| outcome)
}

/// [`run`], with how busy the program was: its CPU time and when it last
/// wrote.
pub fn run_with_activity(inv: &Invocation) -> Result<(Outcome, Activity), RunError> {
    let containment = sandbox::containment();
    // A program under test reads the system, its case folder and its own
    // files; the reference (ours) is not narrowed.
    let reads = (!inv.target.is_builtin_reference())
        .then(|| {
            let own = inv.target.own_paths();
            sandbox::reads_for(&own.iter().map(PathBuf::as_path).collect::<Vec<_>>())
        })
        .flatten();
    let mut folder = match crate::spare::take(containment, reads.as_ref()) {
        Err(Interrupted) => return Err(RunError::Interrupted),
        Ok(Err(e)) => return Err(RunError::Sandbox(e)),
        Ok(Ok(folder)) => folder,
    };
    let crate::spare::Folder {
        layout,
        ticket,
        resident,
        ..
    } = &mut folder;
    let (layout, ticket) = (&*layout, &*ticket);
    place_files(&layout.work, &inv.files, &inv.executable)?;
    let env = environment(inv, layout);
    let plan = plan_stdout(inv.mode)?;

    let start = Instant::now();
    // The reference is contained too: what a program sees of the file
    // system must be the same on both sides of a comparison.
    let started = match containment {
        Containment::Namespaces { network, landlock } => {
            // A folder that is kept gets a keeper that stays with it, one
            // that reads as this run's program does.
            if *landlock
                && crate::spare::active()
                && resident
                    .as_ref()
                    .is_none_or(|r| r.reads() != reads.as_ref())
            {
                *resident = sandbox::resident::Resident::start(layout, reads.clone()).ok();
            }
            let resident = resident.as_mut();
            let keeping = spawn::Keeping {
                level: (*network, *landlock),
                resident,
                reads,
            };
            spawn_contained(inv, layout, &env, plan, keeping, ticket)?
        }
        Containment::ProcessGroup(_) => spawn_grouped(inv, layout, &env, plan, ticket)?,
    };
    let outcome = watch(inv, layout, start, started);
    // A run killed by the harness, or one that left processes behind,
    // might still have something writing into its folder.
    let clean = outcome.as_ref().is_ok_and(|(o, _)| {
        matches!(o.ending, Ending::Exited(_) | Ending::Signaled(_))
            && !o.left_process
            && o.left_behind.is_empty()
    });
    crate::spare::give_back(folder, clean);
    outcome
}

#[cfg(test)]
impl Outcome {
    /// A run that exited 0 having written `stdout` and nothing else.
    pub(crate) fn exited_with(stdout: &[u8]) -> Self {
        Self {
            ending: Ending::Exited(0),
            stdout: stdout.to_vec(),
            stderr: Vec::new(),
            files: BTreeMap::new(),
            dirs: BTreeSet::new(),
            written: BTreeSet::new(),
            left_process: false,
            left_behind: Vec::new(),
            dropped: Dropped::default(),
            elapsed: Duration::ZERO,
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn absurd_timeouts_are_refused() {
        assert_eq!(parse_timeout("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_timeout("86400"), Ok(MAX_TIMEOUT));
        for bad in ["-1", "0", "NaN", "inf", "86401", "9.3e18", "1e-12", "x", ""] {
            assert!(parse_timeout(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_command_line_splits_into_a_program_and_its_words() {
        let t = Target::command("sh -c 'echo \"a b\"'").unwrap();
        assert!(t.path().ends_with("sh") && t.path().is_absolute());
        assert_eq!(t.words(), [OsString::from("-c"), "echo \"a b\"".into()]);
        assert_eq!(
            t.describe(),
            format!("{} -c 'echo \"a b\"'", t.path().display())
        );
        assert!(matches!(
            Target::command("'open"),
            Err(TargetError::BadCommand(_))
        ));
        assert!(matches!(
            Target::command("  "),
            Err(TargetError::BadCommand(_))
        ));
        assert!(matches!(
            Target::command("surely-no-such-program-here x"),
            Err(TargetError::NotFound(_))
        ));
        assert!(matches!(
            Target::command("/nonexistent/bot"),
            Err(TargetError::Missing(_))
        ));
        let out = run(&Invocation::new(t, vec![], Vec::new())).unwrap();
        assert_eq!(out.stdout, b"a b\n");
    }

    #[test]
    fn signal_names() {
        assert_eq!(signal_name(11), "SIGSEGV (11)");
        assert_eq!(signal_name(64), "signal 64");
    }

    fn sh(script: &str, stdin: &[u8]) -> Outcome {
        let target = Target::binary(Path::new("/bin/sh")).unwrap();
        let mut inv = Invocation::new(target, vec!["-c".into(), script.into()], stdin.to_vec());
        inv.timeout = Duration::from_secs(5);
        run(&inv).unwrap()
    }

    #[test]
    fn pipes_status_and_files() {
        let out = sh("cat; echo err >&2; echo x > f; exit 3", b"in\n");
        assert_eq!(out.ending, Ending::Exited(3));
        assert_eq!(out.stdout, b"in\n");
        assert_eq!(out.stderr, b"err\n");
        assert_eq!(out.files.get("f").map(Vec::as_slice), Some(&b"x\n"[..]));
        assert!(out.written.contains("f"));
        assert!(!out.left_process);
    }

    #[test]
    fn limits_are_set_before_the_program_reads_stdin() {
        // CPU seconds: the default 10 s timeout + 2. The shell blocks on
        // `read` until the supervising loop writes stdin, which is after
        // the limits were set: no race.
        let out = sh("read x; ulimit -t; ulimit -f; ulimit -v", b"go\n");
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            text,
            "12\n524288\n4194304\n",
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    #[test]
    fn a_kept_folder_charges_a_run_only_its_own_cpu() {
        // Kept folders get a resident keeper that runs case after case:
        // the CPU of a busy earlier run must not be charged to the next.
        // (This test binary cannot be the sandbox's keeper, so here it
        // checks the process-group path only, not a resident keeper.)
        let _kept = crate::spare::Scope::enter();
        let target = Target::binary(Path::new("/bin/sh")).unwrap();
        let timed = |script: &str| {
            let mut inv = Invocation::new(target.clone(), vec!["-c".into(), script.into()], vec![]);
            inv.timeout = Duration::from_secs(20);
            run_with_activity(&inv).unwrap().1.cpu.unwrap()
        };
        let busy = timed("i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done");
        assert!(busy >= Duration::from_millis(300), "busy run: {busy:?}");
        for _ in 0..2 {
            let light = timed("exit 0");
            assert!(light < Duration::from_millis(100), "light run: {light:?}");
        }
    }

    #[test]
    fn environment_is_cleared() {
        let out = sh("env | sort", b"");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("LC_ALL=C\n"), "{text}");
        assert!(text.contains("PATH=/usr/bin:/bin\n"), "{text}");
        assert!(!text.contains("CARGO"), "{text}");
    }
}
