//! Starting a run: the child's environment and stdout plan, started in a
//! process group or in a sandbox (through a keeper), with its limits.

use std::ffi::OsString;
use std::fs;
use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

use rustix::process::Pid;

use crate::exec::interrupt::{Interrupted, Killer, Ticket};
use crate::exec::terminal::{self, Keys, Terminal};
use conformance_sandbox::{self as sandbox, Layout};

use conformance_sandbox::Limits;

use super::invocation::{Invocation, LINGER_GRACE};
use super::mode::Mode;
use super::outcome::RunError;
use super::target::REFERENCE_ENV;

/// Where the child's stdout goes, as the mode says.
pub(super) enum StdoutPlan {
    Pipe,
    /// `/dev/full`.
    Full(fs::File),
    /// A terminal, the child's stdin and stdout both.
    Pty(Terminal),
    /// Another program's pipes ([`super::run_joined`]): the child reads
    /// `stdin` and writes `stdout`, neither of which the run watches.
    Joined {
        stdin: OwnedFd,
        stdout: OwnedFd,
    },
}

pub(super) fn plan_stdout(mode: Mode) -> Result<StdoutPlan, RunError> {
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
pub(super) struct Started {
    pub(super) stdin: Option<OwnedFd>,
    /// In interactive mode: the terminal's master to type stdin into.
    pub(super) typist: Option<(fs::File, Keys)>,
    pub(super) stdout: Option<OwnedFd>,
    pub(super) stderr: Option<OwnedFd>,
    pub(super) proc: Proc,
}

impl Started {
    /// A started child: its streams as descriptors to poll (stdout is its
    /// pipe or, on a `terminal`, the master side, whose typist types stdin)
    /// and how it ends.
    fn new(
        stdin: Option<impl Into<OwnedFd>>,
        stdout: Option<impl Into<OwnedFd>>,
        stderr: Option<impl Into<OwnedFd>>,
        terminal: Option<(fs::File, (fs::File, Keys))>,
        proc: Proc,
    ) -> Self {
        let (master, typist) = terminal.unzip();
        let stdout = match (stdout, master) {
            (Some(pipe), _) => Some(pipe.into()),
            (None, Some(master)) => Some(master.into()),
            (None, None) => None,
        };
        Self {
            stdin: stdin.map(Into::into),
            typist,
            stdout,
            stderr: stderr.map(Into::into),
            proc,
        }
    }
}

/// How a started run ends.
pub(super) enum Proc {
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
    pub(super) fn pid(&self) -> Pid {
        match self {
            Proc::Group { pid, .. } | Proc::Keeper { pid, .. } => *pid,
        }
    }

    /// A pidfd of that process from whoever started it, where it is not
    /// this process's child (a keeper the sandbox's zygote forked).
    pub(super) fn pidfd(&self) -> Option<OwnedFd> {
        match self {
            Proc::Keeper {
                waiter: Some(kept), ..
            } => kept.pidfd().and_then(|fd| fd.try_clone_to_owned().ok()),
            Proc::Group { .. } | Proc::Keeper { .. } => None,
        }
    }
}

/// The whole environment of the program: cleared, then these.
pub(super) fn environment(inv: &Invocation, layout: &Layout) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = vec![
        ("PATH".into(), super::target::RUN_PATH.into()),
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
    // A sanitized program keeps its ordinary verdicts: LeakSanitizer, on
    // by default in an ASan build, would turn every leak into exit 23,
    // and many courses do not charge leaks. In a process group no keeper
    // watches its memory: ASan's own limit does. A case's own
    // `ASAN_OPTIONS` (below) decides otherwise.
    if !inv.target.is_builtin_reference() && sandbox::reserves_address_space(inv.target.path()) {
        let options = match (sandbox::containment(), inv.limits.address_space) {
            (sandbox::Containment::ProcessGroup(_), Some(bytes)) => {
                format!("detect_leaks=0:hard_rss_limit_mb={}", (bytes >> 20).max(1))
            }
            _ => "detect_leaks=0".to_owned(),
        };
        env.push((ASAN_OPTIONS.into(), options.into()));
    }
    // The course's environment (`COURSE_ENV`, `PYTHONPATH`, …) for
    // every program but the built-in reference; a case's own variables
    // come after it and win.
    if !inv.target.is_builtin_reference() {
        env.extend(super::course_env::variables());
    }
    env.extend(inv.env.iter().cloned());
    env
}

/// The options of AddressSanitizer's runtime, from its environment.
const ASAN_OPTIONS: &str = "ASAN_OPTIONS";

/// Starts the program alone in its process group.
pub(super) fn spawn_grouped(
    inv: &Invocation,
    layout: &Layout,
    env: &[(OsString, OsString)],
    plan: StdoutPlan,
    ticket: &Ticket,
) -> Result<Started, RunError> {
    let mut cmd = Command::new(inv.target.path());
    cmd.args(inv.target.start_words())
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
        StdoutPlan::Joined { stdin, stdout } => {
            cmd.stdin(Stdio::from(stdin)).stdout(Stdio::from(stdout));
            None
        }
    };
    // Spawned under the registry's lock: nothing else would kill a group
    // an interrupt missed.
    let spawned = ticket
        .spawn_group(cmd)
        .map_err(|Interrupted| RunError::Interrupted)?;
    let mut child = spawned.map_err(|source| RunError::Spawn {
        path: inv.target.path().to_owned(),
        source,
    })?;
    let pid = Pid::from_child(&child);
    apply_limits(pid, limits_of(inv));
    Ok(Started::new(
        child.stdin.take(),
        child.stdout.take(),
        child.stderr.take(),
        master,
        Proc::Group { child, pid },
    ))
}

/// How a contained run is kept: the level's namespaces, the folder's
/// resident keeper (if any), what the program may read.
pub(super) struct Keeping<'a> {
    /// The level (one that starts a keeper).
    pub(super) containment: &'a sandbox::Containment,
    /// The folder's resident keeper.
    pub(super) resident: Option<&'a mut sandbox::resident::Resident>,
    /// What a program under test may read (`None`: not narrowed).
    pub(super) reads: Option<sandbox::Reads>,
}

/// Starts the program in namespaces of its own, under a keeper.
pub(super) fn spawn_contained(
    inv: &Invocation,
    layout: &Layout,
    env: &[(OsString, OsString)],
    plan: StdoutPlan,
    keeping: Keeping<'_>,
    ticket: &Ticket,
) -> Result<Started, RunError> {
    let Keeping {
        containment,
        resident,
        reads,
    } = keeping;
    // A command line's own words come before the case's arguments.
    let mut args: Vec<OsString> = inv.target.start_words();
    args.extend(inv.args.iter().cloned());
    let spec = sandbox::Spec::new(layout, inv.target.path(), &args, env, LINGER_GRACE)
        .limited(limits_of(inv))
        .with_reads(reads);
    // The reference (ours) sees the harness's folder and what it was
    // given to read (a problem package's built output validator, which
    // its checker runs); a program under test its own folder.
    let shown: Vec<&Path> = if inv.target.is_builtin_reference() {
        inv.target
            .extra_reads()
            .iter()
            .map(PathBuf::as_path)
            .collect()
    } else {
        inv.target.path().parent().into_iter().collect()
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
        StdoutPlan::Joined { stdin, stdout } => (
            sandbox::Streams {
                stdin: sandbox::Io::Fd(stdin),
                stdout: sandbox::Io::Fd(stdout),
                stderr: sandbox::Io::Piped,
            },
            None,
        ),
    };
    let mut kept = sandbox::start_with(layout, &spec, containment, &shown, io, resident)
        .map_err(RunError::Contain)?;
    let pid = kept.pid();
    // Registering late is safe: an interrupt that came meanwhile killed
    // the zygote and every resident keeper, and a keeper of its own dies
    // with this thread (it asks for a parent-death signal).
    if ticket.started(Killer::Keeper(pid)).is_err() {
        let _ = kept.wait();
        return Err(RunError::Interrupted);
    }
    Ok(Started::new(
        kept.stdin.take(),
        kept.stdout.take(),
        kept.stderr.take(),
        master,
        Proc::Keeper {
            pid,
            status: Arc::new(Mutex::new(None)),
            waiter: Some(kept),
        },
    ))
}

/// The limits of `inv`'s program. Where a keeper watches the run (every
/// level but `group`), memory is bounded by what the run's processes hold
/// (the keeper's watch), never by their address space: runtimes reserve
/// address space far beyond what they use (a JVM sizes its heap at a
/// quarter of the machine's memory and reserves it at start, with its
/// class space, code cache and a C heap arena per thread besides; Node.js,
/// .NET, a sanitizer's shadow memory), and the limits reach a program a
/// few microseconds after it started (`prlimit` after `posix_spawn`), so a
/// JVM that read no limit reserved more than the limit then allowed and
/// died in its start-up (issue 53: about 2% of JVM runs). In a process
/// group no keeper watches: the address space stays the bound, but not
/// for a program that reserves it up front, which could not even start.
fn limits_of(inv: &Invocation) -> Limits {
    let watched = !matches!(
        sandbox::containment(),
        sandbox::Containment::ProcessGroup(_)
    );
    if watched
        || (!inv.target.is_builtin_reference()
            && (sandbox::reserves_address_space(inv.target.path())
                || sandbox::runtime_reserves_address_space(inv.target.path())))
    {
        inv.limits.bounding_resident()
    } else {
        inv.limits
    }
}

/// Sets the limits on the running child. std has no safe pre-exec hook, so
/// they are applied with `prlimit(2)` right after spawn: the child runs a
/// few microseconds unlimited, far too little to matter for a candidate.
pub(super) fn apply_limits(pid: Pid, limits: Limits) {
    // The child may already be gone: nothing to limit then.
    let _ = limits.apply(Some(pid));
}

/// Two more descriptors of a terminal: the master to type into (the other
/// one is read), and the slave again, the program's stdin beside its
/// stdout.
pub(super) fn terminal_ends(
    terminal: &Terminal,
) -> Result<(fs::File, std::os::fd::OwnedFd), RunError> {
    let typing = terminal.master.try_clone().map_err(RunError::Pty)?;
    let stdin = terminal.slave.try_clone().map_err(RunError::Pty)?;
    Ok((typing, stdin))
}
