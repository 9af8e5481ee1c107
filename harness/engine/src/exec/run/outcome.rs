//! What came back from one run: its [`Outcome`] (how it ended, its
//! output, the files it left), how busy it was ([`Activity`]), what was
//! dropped past the cap ([`Dropped`]), a runtime that never started
//! ([`NoStart`], told by `start.rs`) and why it could not run
//! ([`RunError`]).

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::PathBuf;
use std::time::Duration;

use conformance_sandbox::LeftBehind;

use super::ending::Ending;
use super::reads::Reads;

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
    /// The files of [`Outcome::files`] longer than the cap, kept only up
    /// to it (a build's output must not be kept cut short).
    pub cut: BTreeSet<String>,
    /// The case folder the program ran in (its working directory), by
    /// the path it saw: output naming it names a folder that is reused or
    /// gone once the run ends.
    pub folder: PathBuf,
    /// The program exited but a process it left behind kept an output
    /// stream open; the harness killed it.
    pub left_process: bool,
    /// The processes the program left behind, killed when the case ended
    /// (named only when the run was contained in namespaces).
    pub left_behind: Vec<LeftBehind>,
    /// Bytes read and not kept (past the cap, or past what
    /// [`super::invocation::Invocation::keep`] asked for), per stream.
    pub dropped: Dropped,
    /// Wall time of the run.
    pub elapsed: Duration,
    /// How it read stdin fed a line at a time
    /// ([`super::invocation::Invocation::count_reads`]); `None` otherwise.
    pub reads: Option<Reads>,
    /// Bytes of stdin the program took from its pipe; `None` where stdin
    /// was no pipe of the run's (a terminal, another program's) or the
    /// pipe could not tell. A program that took any ran its own code.
    pub stdin_taken: Option<u64>,
    /// Its runtime never started, however often it was run
    /// (`start.rs`): what it did is no verdict on the program.
    pub no_start: Option<NoStart>,
    /// How busy it was (also returned beside it by
    /// [`super::run_with_activity`]): what tells a run slowed by the
    /// machine from one that spins, wherever only the outcome travels
    /// (`diff`'s sessions).
    pub activity: Activity,
}

/// How busy a run was, beside its [`Outcome`] (see [`super::run_with_activity`]):
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

/// A run whose runtime never started, however often it was run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoStart {
    /// What it said on stderr (its first start-up line, bounded), or how
    /// it ended where it said nothing.
    pub said: String,
    /// How many times it was run.
    pub tries: u32,
}

impl std::fmt::Display for NoStart {
    /// `the program's runtime could not start (3 runs): `Error occurred
    /// during initialization of VM``.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the program's runtime could not start ({} runs): {}",
            self.tries, self.said
        )
    }
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
            cut: BTreeSet::new(),
            folder: PathBuf::new(),
            left_process: false,
            left_behind: Vec::new(),
            dropped: Dropped::default(),
            elapsed: Duration::ZERO,
            reads: None,
            stdin_taken: Some(0),
            no_start: None,
            activity: Activity::default(),
        }
    }
}
