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

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::fs;
use std::io::{self, Read};
use std::os::fd::OwnedFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal};

use crate::interrupt::{Interrupted, Killer, Ticket};
use crate::sandbox::{self, Containment, Layout, Reported};
pub use crate::sandbox::{LeftBehind, Limits};
pub use crate::schema::Mode;
use crate::supervise::{Ends, Rules, Stop, Supervisor};
pub use crate::terminal::Awaiting;
use crate::terminal::{self, Keys, Terminal};

pub use crate::pack::REFERENCE_ENV;

/// Default per-case timeout.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

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

/// The program to run: a path, or the reference, which is this very
/// executable re-run with [`REFERENCE_ENV`] set (never looked up by path).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    path: PathBuf,
    /// Words after the path that belong to the program (a command line's
    /// arguments), before any a case adds.
    words: Vec<OsString>,
    /// The pack whose reference this is, if it is one.
    reference: Option<&'static str>,
}

/// A `--bin` that cannot be run.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// The path does not exist.
    #[error("binary {0} does not exist")]
    Missing(PathBuf),
    /// The path is not a regular file with an execute bit.
    #[error("binary {0} is not an executable file")]
    NotExecutable(PathBuf),
    /// A command line that does not split into words.
    #[error("cannot split the command `{0}` into words (unbalanced quotes, or empty)")]
    BadCommand(String),
    /// A command's program is not found in `PATH`.
    #[error("command `{0}` not found in PATH")]
    NotFound(String),
    /// This executable's own path is unknown.
    #[error("cannot find the harness's own executable to run the reference: {0}")]
    NoSelf(io::Error),
}

impl Target {
    /// The reference of the pack `pack`: the current executable in
    /// reference mode.
    pub fn reference(pack: &'static str) -> Result<Self, TargetError> {
        let path = std::env::current_exe().map_err(TargetError::NoSelf)?;
        Ok(Self {
            path,
            words: Vec::new(),
            reference: Some(pack),
        })
    }

    /// A candidate binary, checked to exist and be executable; a bare name
    /// without a slash is taken relative to the current directory, never
    /// searched in `PATH`.
    pub fn binary(path: &Path) -> Result<Self, TargetError> {
        use std::os::unix::fs::PermissionsExt;
        let meta = fs::metadata(path).map_err(|_| TargetError::Missing(path.to_owned()))?;
        if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
            return Err(TargetError::NotExecutable(path.to_owned()));
        }
        // The child runs in the sandbox: a relative path must not resolve
        // against it.
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
        Ok(Self {
            path,
            words: Vec::new(),
            reference: None,
        })
    }

    /// A command line: one shell-quoted string split into words with the
    /// shell's quoting rules (never run through a shell). A first word
    /// with a slash is a path, checked like [`Target::binary`]; one
    /// without is looked up in `PATH`, as a shell would.
    pub fn command(line: &str) -> Result<Self, TargetError> {
        let words = shlex::split(line)
            .filter(|w| !w.is_empty())
            .ok_or_else(|| TargetError::BadCommand(line.to_owned()))?;
        let (first, rest) = words
            .split_first()
            .ok_or_else(|| TargetError::BadCommand(line.to_owned()))?;
        let mut target = if first.contains('/') {
            Self::binary(Path::new(first))?
        } else {
            let found = std::env::var_os("PATH")
                .iter()
                .flat_map(std::env::split_paths)
                .map(|dir| dir.join(first))
                .find(|p| Self::binary(p).is_ok())
                .ok_or_else(|| TargetError::NotFound(first.clone()))?;
            Self::binary(&found)?
        };
        target.words = rest.iter().map(OsString::from).collect();
        Ok(target)
    }

    /// The words after the path that belong to the program.
    pub fn words(&self) -> &[OsString] {
        &self.words
    }

    /// The reference mode variable to set when running this target (the
    /// pack's name), if it is a reference.
    pub fn reference_env(&self) -> Option<(&'static str, &'static str)> {
        self.reference.map(|pack| (REFERENCE_ENV, pack))
    }

    /// The executable's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether this is the reference.
    pub fn is_reference(&self) -> bool {
        self.reference.is_some()
    }

    /// The pack whose reference this is, if it is one.
    pub fn reference_pack(&self) -> Option<&'static str> {
        self.reference
    }

    /// How the target is named to people.
    pub fn describe(&self) -> String {
        if self.reference.is_some() {
            "the reference (built in)".to_owned()
        } else if self.words.is_empty() {
            self.path.display().to_string()
        } else {
            let mut line = self.path.display().to_string();
            for w in &self.words {
                line.push(' ');
                line.push_str(&crate::report::shell_quote(&w.to_string_lossy()));
            }
            line
        }
    }
}

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
            mode: Mode::Pipe,
            timeout: DEFAULT_TIMEOUT,
            output_cap: DEFAULT_OUTPUT_CAP,
            limits: Limits::for_timeout(DEFAULT_TIMEOUT),
            keep: Keep::ALL,
            prompt: PROMPT.to_vec(),
        }
    }
}

/// An output stream of the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

impl Stream {
    /// `stdout` or `stderr`.
    pub fn name(self) -> &'static str {
        match self {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
        }
    }
}

/// How the program's run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Ending {
    /// It exited with this status.
    Exited(i32),
    /// A signal killed it (the harness did not).
    Signaled(i32),
    /// The harness killed it at the timeout.
    TimedOut {
        /// The timeout.
        after: Duration,
        /// In interactive mode, what was still waiting for its prompt (a
        /// stdin line, or the end of input), if anything.
        awaiting_prompt: Option<Awaiting>,
    },
    /// The harness killed it when a stream passed the cap.
    OutputCapExceeded {
        /// The stream.
        stream: Stream,
        /// The cap, bytes.
        cap: u64,
    },
}

impl Ending {
    /// The exit status, if the program exited.
    pub fn status(&self) -> Option<i32> {
        match self {
            Ending::Exited(code) => Some(*code),
            _ => None,
        }
    }
}

impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ending::Exited(code) => write!(f, "status {code}"),
            Ending::Signaled(sig) => write!(f, "killed by signal {}", signal_name(*sig)),
            Ending::TimedOut {
                after,
                awaiting_prompt: None,
            } => write!(
                f,
                "timed out after {} s: killed at its time limit; any output it had not flushed \
                 is lost",
                format_secs(*after)
            ),
            Ending::TimedOut {
                after,
                awaiting_prompt: Some(awaiting),
            } => write!(
                f,
                "timed out after {} s: the prompt `> ` never appeared before {awaiting} \
                 (TURN-1: stdin and stdout were one terminal, as for a person, and the program \
                 waited for input without showing its prompt; flush stdout after printing it)",
                format_secs(*after)
            ),
            Ending::OutputCapExceeded { stream, cap } => write!(
                f,
                "killed: {} passed the output cap of {cap} bytes",
                stream.name()
            ),
        }
    }
}

/// The longest timeout accepted: a day. Anything longer is a typo, and
/// values near `u64::MAX` seconds overflow deadline arithmetic.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(24 * 60 * 60);

/// Parses a timeout in seconds as given on a command line (`--timeout`):
/// a finite number above zero and at most [`MAX_TIMEOUT`].
pub fn parse_timeout(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !secs.is_finite() || secs <= 0.0 {
        return Err(format!(
            "`{text}`: a timeout must be a positive number of seconds"
        ));
    }
    match Duration::try_from_secs_f64(secs) {
        Ok(d) if !d.is_zero() && d <= MAX_TIMEOUT => Ok(d),
        Ok(d) if d.is_zero() => Err(format!("`{text}`: a timeout must be at least a nanosecond")),
        _ => Err(format!(
            "`{text}`: a timeout longer than a day ({} s) is refused",
            MAX_TIMEOUT.as_secs()
        )),
    }
}

/// Seconds as people write them: `1`, `0.5`.
pub fn format_secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{}", d.as_secs())
    } else {
        format!("{s}")
    }
}

/// The conventional name of a signal number (`SIGSEGV`), or `signal N`.
pub fn signal_name(sig: i32) -> String {
    let name = match sig {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        10 => "SIGUSR1",
        11 => "SIGSEGV",
        12 => "SIGUSR2",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        24 => "SIGXCPU",
        25 => "SIGXFSZ",
        31 => "SIGSYS",
        _ => return format!("signal {sig}"),
    };
    format!("{name} ({sig})")
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

/// Where the child's stdout goes, as the mode says.
enum StdoutPlan {
    Pipe,
    /// `/dev/full`.
    Full(fs::File),
    /// A terminal, the child's stdin and stdout both.
    Pty(Terminal),
}

fn plan_stdout(mode: Mode) -> Result<StdoutPlan, RunError> {
    Ok(match mode {
        Mode::Pipe => StdoutPlan::Pipe,
        Mode::StdoutFull => StdoutPlan::Full(
            fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .map_err(RunError::Sandbox)?,
        ),
        Mode::Interactive => StdoutPlan::Pty(terminal::open().map_err(RunError::Pty)?),
    })
}

/// A started run: its streams and how it ends.
struct Started {
    stdin: Option<OwnedFd>,
    /// In interactive mode: the terminal's master to type stdin into.
    typist: Option<(fs::File, Keys)>,
    stdout: Option<OwnedFd>,
    stderr: Option<OwnedFd>,
    proc: Proc,
}

enum Proc {
    /// Containment by process group: the child leads its group.
    Group { child: Child, pid: Pid },
    /// Containment by namespaces: the sandbox's process outside the
    /// namespaces, whose death kills everything inside.
    Keeper {
        pid: Pid,
        status: Arc<Mutex<Option<String>>>,
        waiter: Option<sandbox::Kept>,
    },
}

impl Proc {
    /// The process whose end is the run's: the group's leader, or the
    /// keeper.
    fn pid(&self) -> Pid {
        match self {
            Proc::Group { pid, .. } | Proc::Keeper { pid, .. } => *pid,
        }
    }

    /// A pidfd of that process from whoever started it, where it is not
    /// this process's child (a keeper the sandbox's zygote forked).
    fn pidfd(&self) -> Option<OwnedFd> {
        match self {
            Proc::Keeper {
                waiter: Some(kept), ..
            } => kept.pidfd().and_then(|fd| fd.try_clone_to_owned().ok()),
            Proc::Group { .. } | Proc::Keeper { .. } => None,
        }
    }
}

/// The whole environment of the program: cleared, then these.
fn environment(inv: &Invocation, layout: &Layout) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = vec![
        ("PATH".into(), "/usr/bin:/bin".into()),
        ("LC_ALL".into(), "C".into()),
        ("HOME".into(), layout.work.clone().into()),
    ];
    // At the Landlock level `/tmp` is read-only: temporary files go to the
    // run's private folder.
    if let Some(tmp) = &layout.tmp {
        env.push(("TMPDIR".into(), tmp.clone().into()));
    }
    if let Some(pack) = inv.target.reference {
        env.push((REFERENCE_ENV.into(), pack.into()));
    }
    env.extend(inv.env.iter().cloned());
    env
}

/// Runs `inv` in a fresh sandbox and reports what happened.
pub fn run(inv: &Invocation) -> Result<Outcome, RunError> {
    let containment = sandbox::containment();
    let mut folder = match crate::spare::take(containment) {
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
    place_files(&layout.work, &inv.files)?;
    let env = environment(inv, layout);
    let plan = plan_stdout(inv.mode)?;

    let start = Instant::now();
    // The reference is contained too: what a program sees of the file
    // system must be the same on both sides of a comparison.
    let started = match containment {
        Containment::Namespaces { network, landlock } => {
            // A folder that is kept gets a keeper that stays with it.
            if *landlock && resident.is_none() && crate::spare::active() {
                *resident = sandbox::resident::Resident::start(layout).ok();
            }
            let resident = resident.as_mut();
            spawn_contained(
                inv,
                layout,
                &env,
                plan,
                (*network, *landlock),
                ticket,
                resident,
            )?
        }
        Containment::ProcessGroup(_) => spawn_grouped(inv, layout, &env, plan, ticket)?,
    };
    let outcome = watch(inv, layout, start, started);
    // A run killed by the harness, or one that left processes behind,
    // might still have something writing into its folder.
    let clean = outcome.as_ref().is_ok_and(|o| {
        matches!(o.ending, Ending::Exited(_) | Ending::Signaled(_))
            && !o.left_process
            && o.left_behind.is_empty()
    });
    crate::spare::give_back(folder, clean);
    outcome
}

/// Starts the program alone in its process group.
fn spawn_grouped(
    inv: &Invocation,
    layout: &Layout,
    env: &[(OsString, OsString)],
    plan: StdoutPlan,
    ticket: &Ticket,
) -> Result<Started, RunError> {
    let mut cmd = Command::new(inv.target.path());
    cmd.args(inv.target.words())
        .args(&inv.args)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .current_dir(&layout.work)
        .process_group(0)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped());
    let master = match plan {
        StdoutPlan::Pipe => {
            cmd.stdout(Stdio::piped());
            None
        }
        StdoutPlan::Full(full) => {
            cmd.stdout(Stdio::from(full));
            None
        }
        StdoutPlan::Pty(terminal) => {
            let (typing, stdin) = terminal_ends(&terminal)?;
            cmd.stdin(Stdio::from(stdin))
                .stdout(Stdio::from(terminal.slave));
            Some((terminal.master, (typing, terminal.keys)))
        }
    };
    // Spawned under the registry's lock: nothing else would kill a group
    // an interrupt missed.
    let spawned = ticket
        .spawn_locked(
            || {
                let r = cmd.spawn();
                // The command holds our copy of the terminal's slave side:
                // it must close now, or reading the master never ends.
                drop(cmd);
                r
            },
            |r| match r {
                Ok(child) => Killer::Group(Pid::from_child(child)),
                Err(_) => Killer::NotStarted,
            },
        )
        .map_err(|Interrupted| RunError::Interrupted)?;
    let mut child = spawned.map_err(|source| RunError::Spawn {
        path: inv.target.path().to_owned(),
        source,
    })?;
    let pid = Pid::from_child(&child);
    apply_limits(pid, inv.limits);
    let (master, typist) = master.unzip();
    let (stdin, stdout, stderr) = streams(
        child.stdin.take(),
        child.stdout.take(),
        master,
        child.stderr.take(),
    );
    Ok(Started {
        stdin,
        typist,
        stdout,
        stderr,
        proc: Proc::Group { child, pid },
    })
}

/// A started child's streams as descriptors to poll: stdout is its pipe
/// or, on a terminal, the master side.
fn streams(
    stdin: Option<impl Into<OwnedFd>>,
    stdout: Option<impl Into<OwnedFd>>,
    master: Option<fs::File>,
    stderr: Option<impl Into<OwnedFd>>,
) -> (Option<OwnedFd>, Option<OwnedFd>, Option<OwnedFd>) {
    let stdout = match (stdout, master) {
        (Some(pipe), _) => Some(pipe.into()),
        (None, Some(master)) => Some(master.into()),
        (None, None) => None,
    };
    (stdin.map(Into::into), stdout, stderr.map(Into::into))
}

/// Starts the program in namespaces of its own, under a keeper.
fn spawn_contained(
    inv: &Invocation,
    layout: &Layout,
    env: &[(OsString, OsString)],
    plan: StdoutPlan,
    (network, landlock): (bool, bool),
    ticket: &Ticket,
    resident: Option<&mut sandbox::resident::Resident>,
) -> Result<Started, RunError> {
    // A command line's own words come before the case's arguments.
    let args: Vec<OsString> = inv
        .target
        .words()
        .iter()
        .chain(&inv.args)
        .cloned()
        .collect();
    let spec =
        sandbox::Spec::new(layout, inv.target.path(), &args, env, LINGER_GRACE).limited(inv.limits);
    let program_dir = if inv.target.is_reference() {
        None
    } else {
        inv.target.path().parent()
    };
    let (io, master) = match plan {
        StdoutPlan::Pipe => (sandbox::Streams::piped(), None),
        StdoutPlan::Full(full) => (
            sandbox::Streams {
                stdout: sandbox::Io::Fd(full.into()),
                ..sandbox::Streams::piped()
            },
            None,
        ),
        StdoutPlan::Pty(terminal) => {
            let (typing, stdin) = terminal_ends(&terminal)?;
            (
                sandbox::Streams {
                    stdin: sandbox::Io::Fd(stdin),
                    stdout: sandbox::Io::Fd(terminal.slave),
                    stderr: sandbox::Io::Piped,
                },
                Some((terminal.master, (typing, terminal.keys))),
            )
        }
    };
    let containment = sandbox::Containment::Namespaces { network, landlock };
    let mut kept = sandbox::start_with(
        layout,
        &spec,
        &containment,
        program_dir.as_slice(),
        io,
        resident,
    )
    .map_err(RunError::Contain)?;
    let pid = kept.pid();
    // Registering late is safe: an interrupt that came meanwhile killed
    // the zygote and every resident keeper, and a keeper of its own dies
    // with this thread (it asks for a parent-death signal).
    if ticket.started(Killer::Keeper(pid)).is_err() {
        let _ = kept.wait();
        return Err(RunError::Interrupted);
    }
    let (master, typist) = master.unzip();
    let (stdin, stdout, stderr) = streams(
        kept.stdin.take(),
        kept.stdout.take(),
        master,
        kept.stderr.take(),
    );
    Ok(Started {
        stdin,
        typist,
        stdout,
        stderr,
        proc: Proc::Keeper {
            pid,
            status: Arc::new(Mutex::new(None)),
            waiter: Some(kept),
        },
    })
}

/// Feeds stdin, reads both streams, supervises the run to its end and
/// surveys the sandbox.
fn watch(
    inv: &Invocation,
    layout: &Layout,
    start: Instant,
    mut started: Started,
) -> Result<Outcome, RunError> {
    let keeper = matches!(started.proc, Proc::Keeper { .. });
    let rules = Rules {
        timeout: inv.timeout,
        cap: inv.output_cap,
        keep: inv.keep,
        keeper,
        // Once a keeper is gone nothing can hold the streams: they only
        // drain what is left in the pipes.
        grace: if keeper { KEEPER_DRAIN } else { LINGER_GRACE },
    };
    let ends = Ends {
        stdin: started.stdin.take(),
        typing: started
            .typist
            .take()
            .map(|(master, keys)| (OwnedFd::from(master), keys)),
        stdout: started.stdout.take(),
        stderr: started.stderr.take(),
    };
    let watched = (started.proc.pid(), started.proc.pidfd());
    let mut supervisor = match Supervisor::new(ends, (&inv.stdin, &inv.prompt), watched, rules) {
        Ok(supervisor) => supervisor,
        Err(e) => {
            settle(&mut started.proc, true, false);
            return Err(RunError::Watch(e));
        }
    };
    let stop = match supervisor.run(start) {
        Ok(stop) => stop,
        Err(e) => {
            settle(&mut started.proc, true, supervisor.exited());
            return Err(RunError::Watch(e));
        }
    };
    let forced = match stop {
        Stop::Cap(stream) => Some(Ending::OutputCapExceeded {
            stream,
            cap: inv.output_cap,
        }),
        Stop::TimedOut(awaiting_prompt) => Some(Ending::TimedOut {
            after: inv.timeout,
            awaiting_prompt,
        }),
        Stop::Ended | Stop::Lingered => None,
    };
    let mut left_process = stop == Stop::Lingered && !keeper;
    let status = settle(&mut started.proc, forced.is_some(), supervisor.exited());
    // What the streams still hold was written before the kill. A process
    // left behind is killed only now: a moment for the pipes to close.
    let until = Instant::now()
        + if left_process {
            LEFT_DRAIN
        } else {
            Duration::ZERO
        };
    // A failed poll here only loses output after the verdict.
    let _ = supervisor.drain(until);
    let elapsed = start.elapsed();
    if crate::interrupt::interrupted() {
        return Err(RunError::Interrupted);
    }
    let mut left_behind = Vec::new();
    let ending = match (forced, status) {
        (Some(forced), _) => forced,
        (None, Settled::Group(ending)) => ending,
        (None, Settled::Keeper(why)) => {
            let Some(report) = sandbox::read_report(layout) else {
                let why = why.unwrap_or_else(|| "no status".to_owned());
                return Err(RunError::Contain(format!(
                    "the sandbox reported nothing ({why})"
                )));
            };
            left_process = report.left.iter().any(|l| l.held_output);
            left_behind = report.left;
            match report.ending {
                Reported::Exited(c) => Ending::Exited(c),
                Reported::Signaled(s) => Ending::Signaled(s),
                Reported::SpawnFailed(errno, _) => {
                    return Err(RunError::Spawn {
                        path: inv.target.path().to_owned(),
                        source: io::Error::from_raw_os_error(errno),
                    });
                }
                Reported::Probe => Ending::Exited(-1),
                Reported::ConfineFailed(why) => return Err(RunError::Contain(why)),
            }
        }
    };

    let [(stdout, stdout_dropped), (stderr, stderr_dropped)] = supervisor.captured();
    let (files, dirs, written) = survey(&layout.work, &inv.files, inv.output_cap);
    Ok(Outcome {
        ending,
        stdout,
        stderr,
        files,
        dirs,
        written,
        left_process,
        left_behind,
        dropped: Dropped {
            stdout: stdout_dropped,
            stderr: stderr_dropped,
        },
        elapsed,
    })
}

/// How long the streams may take to close once a left-behind process is
/// killed.
const LEFT_DRAIN: Duration = Duration::from_millis(100);

/// What is known of the process once the run is over.
enum Settled {
    /// A process group's leader ended so.
    Group(Ending),
    /// A keeper, whose report says how the program ended; its own status
    /// if it was reaped already (named when the report is missing).
    Keeper(Option<String>),
}

/// Kills what must be killed once the run is over (`kill`: the run was
/// cut short) and reaps the process watched. `exited`: its end was seen.
fn settle(proc: &mut Proc, kill: bool, exited: bool) -> Settled {
    match proc {
        Proc::Group { child, pid } => {
            // The leader is not reaped yet (its end was only peeked at), so
            // the group's id cannot have been reused: killing it reaches
            // only what the program started.
            let _ = rustix::process::kill_process_group(*pid, Signal::KILL);
            Settled::Group(match child.wait() {
                Ok(s) => match (s.code(), s.signal()) {
                    (Some(code), _) => Ending::Exited(code),
                    (None, Some(sig)) => Ending::Signaled(sig),
                    (None, None) => Ending::Exited(-1),
                },
                Err(_) => Ending::Exited(-1),
            })
        }
        Proc::Keeper {
            pid,
            status,
            waiter,
        } => {
            if kill {
                // Not reaped yet, so the id is still this keeper's.
                let _ = rustix::process::kill_process(*pid, Signal::KILL);
            }
            if let Some(mut child) = waiter.take() {
                // A keeper seen to end is reaped at once; one still
                // tearing down its namespaces is reaped later, off this
                // thread, rather than waited for.
                let reaped = if exited {
                    Some(child.wait())
                } else {
                    child.try_wait().transpose()
                };
                let reason = match reaped {
                    Some(Ok(reason)) => Some(reason),
                    Some(Err(e)) => Some(e.to_string()),
                    None => {
                        crate::reaper::later(move || {
                            let _ = child.wait();
                        });
                        None
                    }
                };
                *status.lock().unwrap_or_else(PoisonError::into_inner) = reason;
            }
            Settled::Keeper(
                status
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clone(),
            )
        }
    }
}

/// Sets the limits on the running child. std has no safe pre-exec hook, so
/// they are applied with `prlimit(2)` right after spawn: the child runs a
/// few microseconds unlimited, far too little to matter for a candidate.
fn apply_limits(pid: Pid, limits: Limits) {
    // The child may already be gone: nothing to limit then.
    let _ = limits.apply(Some(pid));
}

/// Two more descriptors of a terminal: the master to type into (the other
/// one is read), and the slave again, the program's stdin beside its
/// stdout.
fn terminal_ends(terminal: &Terminal) -> Result<(fs::File, std::os::fd::OwnedFd), RunError> {
    let typing = terminal.master.try_clone().map_err(RunError::Pty)?;
    let stdin = terminal.slave.try_clone().map_err(RunError::Pty)?;
    Ok((typing, stdin))
}

fn checked_relative(path: &str) -> Result<PathBuf, RunError> {
    let p = Path::new(path);
    let ok = !path.is_empty()
        && p.components().all(|c| {
            matches!(
                c,
                std::path::Component::Normal(_) | std::path::Component::CurDir
            )
        });
    if ok {
        Ok(p.to_owned())
    } else {
        Err(RunError::BadPath(path.to_owned()))
    }
}

fn place_files(root: &Path, files: &[(String, Vec<u8>)]) -> Result<(), RunError> {
    for (path, bytes) in files {
        let full = root.join(checked_relative(path)?);
        if let Some(parent) = full.parent() {
            fs::create_dir_all(parent).map_err(RunError::Sandbox)?;
        }
        fs::write(&full, bytes).map_err(RunError::Sandbox)?;
    }
    Ok(())
}

type Survey = (
    BTreeMap<String, Vec<u8>>,
    BTreeSet<String>,
    BTreeSet<String>,
);

/// Lists what the sandbox holds after the run, and what the run wrote.
fn survey(root: &Path, placed: &[(String, Vec<u8>)], cap: u64) -> Survey {
    let mut files = BTreeMap::new();
    let mut dirs = BTreeSet::new();
    let mut pending = vec![(root.to_owned(), String::new())];
    while let Some((dir, prefix)) = pending.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = format!("{prefix}{name}");
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                dirs.insert(rel.clone());
                pending.push((entry.path(), format!("{rel}/")));
            } else {
                let mut bytes = Vec::new();
                if kind.is_file()
                    && let Ok(f) = fs::File::open(entry.path())
                {
                    let _ = f.take(cap).read_to_end(&mut bytes);
                }
                files.insert(rel, bytes);
            }
        }
    }
    let before: BTreeMap<String, &Vec<u8>> =
        placed.iter().map(|(p, b)| (normalize(p), b)).collect();
    let written = files
        .iter()
        .filter(|(p, b)| before.get(*p).is_none_or(|old| *old != *b))
        .map(|(p, _)| p.clone())
        .collect();
    (files, dirs, written)
}

/// A relative path in the form [`Outcome::files`] uses.
pub fn normalize(path: &str) -> String {
    Path::new(path)
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandbox_paths_stay_inside() {
        assert!(checked_relative("a/b.txt").is_ok());
        assert!(checked_relative("../x").is_err());
        assert!(checked_relative("/etc/passwd").is_err());
        assert!(checked_relative("").is_err());
    }

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
    fn environment_is_cleared() {
        let out = sh("env | sort", b"");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("LC_ALL=C\n"), "{text}");
        assert!(text.contains("PATH=/usr/bin:/bin\n"), "{text}");
        assert!(!text.contains("CARGO"), "{text}");
    }
}
