//! One program under a keeper, as both kinds of keeper run it (one per
//! run, [`crate::keeper`]; a resident one, [`crate::resident`]): the
//! keeper's two files in the control folder ([`Files`]), the program's
//! command with its read rules ([`command`]), the folders the watchdog
//! counts ([`watched_folders`]), and, once it ended, the grace given to
//! what it left holding its output and the names of what is left
//! ([`linger_holding`]).
//!
//! In the middle of the sandbox's order (docs/architecture.md): above the
//! spec, the report, the reads and the process tree it uses, below the
//! keepers that run programs with it.

use std::ffi::OsString;
use std::fs;
use std::io::{self, Write as _};
use std::os::unix::ffi::OsStringExt as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::process::reap;
use crate::report::{LeftBehind, Report};
use crate::spec::{PRIVATE_TMP, STARTED_FILE, STATUS_FILE, Spec, bytes_path};
use crate::{reads, tree};

/// The keeper's two files in the control folder, made before anything
/// forbids making them.
pub(crate) struct Files {
    pub(crate) status: fs::File,
    /// Empty until the program has started (see [`crate::started`]).
    pub(crate) started: fs::File,
}

impl Files {
    /// Opens both files, making them where they are missing. They are not
    /// truncated: a reused folder's are empty already ([`crate::Layout::
    /// recycle`]), and ext4 flushes to disk, on close, a file that was
    /// truncated to nothing and written again.
    pub(crate) fn create(control: &Path) -> io::Result<Self> {
        let open = |name: &str| {
            fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(false)
                .open(control.join(name))
        };
        Ok(Self {
            status: open(STATUS_FILE)?,
            started: open(STARTED_FILE)?,
        })
    }

    /// Writes the report of the run to the status file.
    pub(crate) fn report(mut self, report: &Report) -> io::Result<()> {
        self.status.write_all(report.render().as_bytes())?;
        self.status.flush()
    }
}

/// The folders whose bytes count against the run's folder limit: where it
/// may write.
pub(crate) fn watched_folders(spec: &Spec) -> Vec<PathBuf> {
    match &spec.confine {
        Some(confine) => confine.writable.iter().map(|w| bytes_path(w)).collect(),
        // `/dev` is a tmpfs of the namespace's own (its nodes are binds):
        // a program its reads do not narrow could fill it.
        None => vec![
            bytes_path(&spec.cwd),
            PathBuf::from("/tmp"),
            PathBuf::from("/dev"),
        ],
    }
}

/// The program's command: its arguments, cleared environment and folder
/// and, for a program under test with `narrow`, its read rules
/// ([`crate::reads`]), put on it alone between `fork` and `exec` (a
/// resident keeper that holds the same rules itself starts it without).
pub(crate) fn command(spec: &Spec, narrow: bool) -> io::Result<std::process::Command> {
    let mut cmd = std::process::Command::new(OsString::from_vec(spec.program.clone()));
    cmd.args(spec.args.iter().map(|a| OsString::from_vec(a.clone())))
        .env_clear()
        .envs(
            spec.env
                .iter()
                .map(|(k, v)| (OsString::from_vec(k.clone()), OsString::from_vec(v.clone()))),
        )
        .current_dir(OsString::from_vec(spec.cwd.clone()));
    if let Some(own) = own_reads(spec).filter(|_| narrow) {
        let rules = reads::ruleset(&own).map_err(io::Error::other)?;
        narrow_before_exec(&mut cmd, rules);
    }
    Ok(cmd)
}

/// What a program under test may read besides the system: the run's own
/// folders (where it may write at the Landlock level; in a mount
/// namespace, its working folder, whose case folder it is, and `/tmp`,
/// a private one there, which it must read back what it writes to) and
/// what the caller named. `None`: a program of ours, not narrowed.
pub(crate) fn own_reads(spec: &Spec) -> Option<Vec<PathBuf>> {
    let named = spec.reads.as_ref()?;
    let folders: Vec<PathBuf> = match &spec.confine {
        Some(confine) => confine.writable.iter().map(|w| bytes_path(w)).collect(),
        None => vec![bytes_path(&spec.cwd), PathBuf::from(PRIVATE_TMP)],
    };
    Some(
        folders
            .into_iter()
            .chain(named.iter().map(|p| bytes_path(p)))
            .collect(),
    )
}

/// Has the program put `rules` on itself before it `exec`s: stacked on
/// the keeper's own, they bind it alone, not the keeper, which goes on
/// starting programs of ours too (the reference).
#[expect(
    unsafe_code,
    reason = "a pre-exec hook; keepers are single-threaded, so the child may allocate"
)]
fn narrow_before_exec(cmd: &mut std::process::Command, rules: landlock::RulesetCreated) {
    use std::os::unix::process::CommandExt as _;
    let slot = std::sync::Mutex::new(Some(rules));
    // SAFETY: runs in the child between `fork` and `exec`. A keeper has one
    // thread (`process::fork` checks it for its own forks, and it starts
    // none), so no lock (the allocator's, `slot`'s) is held by a thread
    // missing from the child; the hook makes two system calls (`prctl`,
    // `landlock_restrict_self`).
    unsafe {
        cmd.pre_exec(move || {
            let rules = slot
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take();
            match rules {
                Some(r) => reads::enforce(r).map_err(io::Error::other),
                None => Ok(()),
            }
        });
    }
}

/// After the program exited: reaps what ends, gives processes that still
/// hold the output (the pipes `/proc` names `ours`) up to `grace` to
/// finish, and names what is left.
pub(crate) fn linger_holding(grace: Duration, ours: &[Option<PathBuf>]) -> Vec<LeftBehind> {
    let deadline = Instant::now() + grace;
    loop {
        reap();
        let left = survivors(ours);
        if !left.iter().any(|l| l.held_output) || Instant::now() >= deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Every process of the sandbox but the keeper, with whether it holds one
/// of the keeper's own output streams (the program's stdout and stderr).
fn survivors(ours: &[Option<PathBuf>]) -> Vec<LeftBehind> {
    let mut out: Vec<LeftBehind> = tree::descendants()
        .into_iter()
        .map(|d| {
            let base = PathBuf::from(format!("/proc/{}", d.proc_pid));
            let name = fs::read_to_string(base.join("comm"))
                .map(|s| s.trim_end().to_owned())
                .unwrap_or_default();
            let held_output = fs::read_dir(base.join("fd")).is_ok_and(|fds| {
                fds.flatten().any(|fd| {
                    fs::read_link(fd.path()).is_ok_and(|l| ours.iter().flatten().any(|o| *o == l))
                })
            });
            LeftBehind {
                pid: d.pid,
                name,
                held_output,
            }
        })
        .collect();
    out.sort_by_key(|l| l.pid);
    out
}
