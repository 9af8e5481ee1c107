//! The keeper: this very executable, re-run with [`KEEPER_ENV`] set, as
//! PID 1 of the sandbox. PID 1 ignores every signal it has no handler
//! for, so a program run as PID 1 could not be killed by its own
//! `abort()`: the keeper starts the program as PID 2, waits for it, lets
//! processes it left behind finish for a moment, names those still alive,
//! writes it all to a status file only it can reach, and exits, which
//! kills everything left in the namespace.
//!
//! At the Landlock level the caller starts the keeper as an ordinary
//! child; the keeper makes its user and PID namespaces itself, confines
//! itself, and forks PID 1 ([`enter`]). Making the namespaces from a
//! caller (hakoniwa, used with a mount namespace) means forking the whole
//! caller twice per run, whose page tables a large multi-threaded harness
//! pays for on every case.
//!
//! At the `landlock` level (namespaces refused) the keeper makes none: it
//! leads a process group of its own, takes the same Landlock rules and
//! seccomp filter, and forks the program's parent as before, which is
//! then the run's subreaper instead of PID 1 and kills what lies below it
//! itself (at the end of a run, at a limit, or when the outer keeper is
//! killed: it watches a pipe only the outer one holds).

use std::ffi::OsString;
use std::fs;
use std::io::{self, Write as _};
use std::os::fd::{AsFd as _, BorrowedFd};
use std::os::unix::ffi::{OsStrExt as _, OsStringExt as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, WaitOptions};

use crate::report::{LeftBehind, Report, Reported, STARTED_FILE, STATUS_FILE};
use crate::{CONTROL_MOUNT, Confine, KEEPER_CAPABLE, KEEPER_ENV, PRIVATE_TMP, Spec, confine, tree};

/// The status a keeper exits with when it cannot do its work (its message
/// is on the program's stderr).
const KEEPER_FAILED: u8 = 125;

/// Runs the keeper when this process was started as one ([`KEEPER_ENV`]
/// set); every binary that runs cases calls this first thing in `main`
/// (through the engine's `reference_mode`).
pub fn keeper_mode() -> Option<ExitCode> {
    // Whatever this process inherited stays out of every child it starts.
    crate::seal_inherited_fds();
    KEEPER_CAPABLE.store(true, std::sync::atomic::Ordering::Relaxed);
    if std::env::var_os(crate::zygote::ZYGOTE_ENV).is_some() {
        return Some(crate::zygote::serve());
    }
    let json = std::env::var_os(KEEPER_ENV)?;
    let spec: Spec = match serde_json::from_slice(json.as_bytes()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("conformance keeper: bad spec: {e}");
            return Some(ExitCode::from(KEEPER_FAILED));
        }
    };
    Some(run(&spec))
}

/// A keeper's whole life, whichever way it was started.
fn run(spec: &Spec) -> ExitCode {
    let _ = rustix::thread::set_name(c"conformance-kpr");
    let done = spec.limits.apply(None).and_then(|()| match &spec.confine {
        Some(confine) => enter(spec, confine),
        None => keep_mounted(spec).map(|()| ExitCode::SUCCESS),
    });
    done.unwrap_or_else(|e| {
        eprintln!("conformance keeper: {e}");
        ExitCode::from(KEEPER_FAILED)
    })
}

/// A keeper forked by the zygote: its standard streams are the program's,
/// received with the request.
pub(crate) fn run_forked(spec: &Spec, streams: [std::os::fd::OwnedFd; 3]) -> ExitCode {
    let [stdin, stdout, stderr] = streams;
    let placed = rustix::stdio::dup2_stdin(&stdin)
        .and_then(|()| rustix::stdio::dup2_stdout(&stdout))
        .and_then(|()| rustix::stdio::dup2_stderr(&stderr));
    drop((stdin, stdout, stderr));
    if placed.is_err() {
        return ExitCode::from(KEEPER_FAILED);
    }
    run(spec)
}

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
    fn create(control: &Path) -> io::Result<Self> {
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

    fn report(mut self, report: &Report) -> io::Result<()> {
        self.status.write_all(report.render().as_bytes())?;
        self.status.flush()
    }
}

/// With a mount namespace (hakoniwa made it, and this process is PID 1):
/// the control folder is mounted at [`CONTROL_MOUNT`]; once the files are
/// open it is detached, so the program never sees it.
fn keep_mounted(spec: &Spec) -> io::Result<()> {
    let files = Files::create(Path::new(CONTROL_MOUNT))?;
    let _ = rustix::mount::unmount(CONTROL_MOUNT, rustix::mount::UnmountFlags::DETACH);
    if let Err(e) = refuse_network(spec) {
        return files.report(&Report {
            ending: Reported::ConfineFailed(e),
            left: Vec::new(),
        });
    }
    keep(spec, files, None)
}

/// A resident keeper for programs under test takes their read rules on
/// itself, once: each program then starts the cheap way (`posix_spawn`),
/// with no hook between `fork` and `exec`.
///
/// Not without namespaces: there its programs must be in a Landlock
/// domain below its own, or they could signal it (no PID namespace makes
/// it an init that ignores them), so each takes the rules alone.
fn narrow_resident(spec: &Spec) -> Result<(), String> {
    match own_reads(spec).filter(|_| spec.resident && !spec.no_namespaces) {
        Some(own) => crate::reads::ruleset(&own)
            .and_then(crate::reads::enforce)
            .map_err(|e| e.to_string()),
        None => Ok(()),
    }
}

/// Unless the spec allows the host's network, refuses every socket to
/// this process and all it starts ([`crate::network`]).
fn refuse_network(spec: &Spec) -> Result<(), String> {
    if spec.network {
        return Ok(());
    }
    crate::network::refuse_sockets().map_err(|e| format!("seccomp (no network): {e}"))
}

/// At the Landlock level: makes user and PID namespaces, confines this
/// process (and so everything it starts) with Landlock, forks PID 1 of
/// the new namespace to [`keep`], and waits for it. Killing this process
/// kills PID 1 (a parent-death signal), and with it the namespace.
fn enter(spec: &Spec, confine: &Confine) -> io::Result<ExitCode> {
    // A keeper for one run dies with its caller (the caller may have died
    // before this process asked to, hence the check). A resident keeper
    // serves a process whose threads come and go: it ends when its socket
    // closes instead.
    if !spec.resident {
        rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
        if rustix::process::getppid().map(|p| p.as_raw_nonzero().get())
            != i32::try_from(spec.caller).ok()
        {
            return Ok(ExitCode::from(KEEPER_FAILED));
        }
    }
    crate::watchdog::raise_keeper();
    if spec.no_namespaces {
        without_namespaces()?;
    } else {
        let (uid, gid) = (
            rustix::process::getuid().as_raw(),
            rustix::process::getgid().as_raw(),
        );
        nix::sched::unshare(
            nix::sched::CloneFlags::CLONE_NEWUSER | nix::sched::CloneFlags::CLONE_NEWPID,
        )
        .map_err(io::Error::from)?;
        // Inside, the caller's user and group are themselves: files the
        // program makes belong to whoever runs the harness.
        fs::write("/proc/self/setgroups", "deny")?;
        fs::write("/proc/self/uid_map", format!("{uid} {uid} 1\n"))?;
        fs::write("/proc/self/gid_map", format!("{gid} {gid} 1\n"))?;
        // Counted in this user namespace alone from here on.
        if !spec.resident {
            spec.limits.apply_processes(None)?;
        }
    }
    let files = Files::create(&bytes_path(&confine.control))?;
    let writable: Vec<PathBuf> = confine.writable.iter().map(|w| bytes_path(w)).collect();
    let dirs: Vec<&Path> = writable.iter().map(PathBuf::as_path).collect();
    let confined = confine::restrict(&dirs)
        .map_err(|e| e.to_string())
        .and_then(|()| refuse_network(spec))
        .and_then(|()| narrow_resident(spec));
    if let Err(e) = confined {
        files.report(&Report {
            ending: Reported::ConfineFailed(e),
            left: Vec::new(),
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    // Held by this process alone once forked: PID 1 sees it hang up if
    // this process died before PID 1 asked to die with it.
    let (alive_read, alive_write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
    match fork()? {
        Forked::Child => {
            drop(alive_write);
            if spec.no_namespaces {
                // Its death would not kill the program: it outlives the
                // outer keeper long enough to kill what lies below it,
                // watching the pipe while the program runs. The parent of
                // the program, it is the one to be the subreaper (which
                // `fork` does not pass on).
                rustix::process::set_child_subreaper(Some(rustix::process::getpid()))?;
                let done = if spec.resident {
                    crate::resident::reside(&files, spec, Some(alive_read.as_fd()))
                } else {
                    keep(spec, files, Some(alive_read.as_fd()))
                };
                crate::watchdog::kill_all();
                return done.map(|()| ExitCode::SUCCESS);
            }
            rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
            if crate::readable(&alive_read, Some(Duration::ZERO))? {
                return Ok(ExitCode::from(KEEPER_FAILED));
            }
            drop(alive_read);
            if spec.resident {
                return crate::resident::reside(&files, spec, None).map(|()| ExitCode::SUCCESS);
            }
            keep(spec, files, None).map(|()| ExitCode::SUCCESS)
        }
        Forked::Parent(pid_one) => {
            drop(alive_read);
            drop(files);
            // This process only waits: with the streams released, PID 1
            // and the program hold the only copies.
            if spec.release_streams {
                release_streams();
            }
            let status = rustix::process::waitpid(Some(pid_one), WaitOptions::empty())?;
            drop(alive_write);
            let code = status
                .and_then(|(_, s)| s.exit_status())
                .and_then(|c| u8::try_from(c).ok())
                .unwrap_or(KEEPER_FAILED);
            Ok(ExitCode::from(code))
        }
    }
}

/// The `landlock` level's keeper, in place of namespaces: a process group
/// of its own (a program's `kill(0, …)` reaches the run, not the
/// harness), and kills by the tree below it, not `kill(-1)`. Its child
/// (the program's parent) is the subreaper of the run, so that a process
/// the program orphans (a `setsid` daemon) comes back to it and dies with
/// the run instead of going to the host's init.
///
/// Nothing hides the host's processes either: the keeper is sealed
/// ([`crate::seal`]), and its programs lose `CAP_SYS_PTRACE` (a harness
/// run as root, as in a Gradescope container, would pass it on), so that
/// the `/proc` entries of the harness's processes stay closed to them.
fn without_namespaces() -> io::Result<()> {
    crate::watchdog::without_pid_namespace();
    crate::seal();
    // Refused to a process without `CAP_SETPCAP` (not root), whose
    // programs have no `CAP_SYS_PTRACE` to lose.
    let _ = rustix::thread::remove_capability_from_bounding_set(
        rustix::thread::CapabilitySet::SYS_PTRACE,
    );
    rustix::process::setpgid(None, None)?;
    Ok(())
}

/// Which side of [`fork`] this process is.
pub(crate) enum Forked {
    /// The child (after `unshare`, PID 1 of the new PID namespace).
    Child,
    /// The parent, with the child's PID.
    Parent(Pid),
}

/// Forks this process (the keeper, for its PID 1; the zygote, for a
/// keeper). Neither ever starts a thread, and `fork` in a process of one
/// thread is sound: the child has all the state the parent had, no lock
/// half-held by a thread that does not exist in it. This is checked, not
/// assumed. Re-running this executable instead would cost one more `exec`
/// of the whole harness per run.
#[expect(
    unsafe_code,
    reason = "fork(2) of a single-threaded process, checked just before"
)]
pub(crate) fn fork() -> io::Result<Forked> {
    let threads = fs::read_dir("/proc/self/task")?.count();
    if threads != 1 {
        return Err(io::Error::other(format!(
            "the keeper has {threads} threads: it cannot fork"
        )));
    }
    // SAFETY: this process has exactly one thread (counted above, and the
    // keeper starts none), so the child inherits no lock held by another
    // thread; it goes on with ordinary Rust code, as a process of its own.
    match unsafe { nix::unistd::fork() }.map_err(io::Error::from)? {
        nix::unistd::ForkResult::Child => Ok(Forked::Child),
        nix::unistd::ForkResult::Parent { child } => Pid::from_raw(child.as_raw())
            .map(Forked::Parent)
            .ok_or_else(|| io::Error::other("fork returned no child")),
    }
}

pub(crate) fn bytes_path(bytes: &[u8]) -> PathBuf {
    PathBuf::from(OsString::from_vec(bytes.to_vec()))
}

/// The keeper's work, as PID 1 of the sandbox (or, without namespaces,
/// the subreaper of the run, watching `outer`: the pipe that hangs up
/// when the outer keeper is killed): starts the program, waits for it and
/// what it left behind, and reports.
fn keep(spec: &Spec, mut files: Files, outer: Option<BorrowedFd<'_>>) -> io::Result<()> {
    if spec.program.is_empty() {
        return files.report(&Report {
            ending: Reported::Probe,
            left: Vec::new(),
        });
    }
    crate::seal_inherited_fds();
    let mut cmd = command(spec, true)?;
    // The output's pipes, named while this process still holds them: what
    // lingers holding them is found by these names.
    let ours = [own_link(1), own_link(2)];
    let ending = match cmd.spawn() {
        Err(e) => Reported::SpawnFailed(e.raw_os_error().unwrap_or(0), e.to_string()),
        Ok(child) => {
            // `spawn` returns once the program's `exec` succeeded.
            let _ = files.started.write_all(b"started\n");
            let stderr = (!spec.release_streams).then(rustix::stdio::stderr);
            let watch = crate::watchdog::Watch {
                limits: spec.limits,
                folders: watched_folders(spec),
                stderr,
                gone: outer.into_iter().collect(),
            };
            if spec.release_streams {
                release_streams();
            }
            crate::watchdog::wait(child, &watch)?
        }
    };
    let left = linger_holding(Duration::from_millis(spec.grace_ms), &ours);
    files.report(&Report { ending, left })
}

/// The folders whose bytes count against the run's folder limit: where it
/// may write.
pub(crate) fn watched_folders(spec: &Spec) -> Vec<PathBuf> {
    match &spec.confine {
        Some(confine) => confine.writable.iter().map(|w| bytes_path(w)).collect(),
        None => vec![bytes_path(&spec.cwd), PathBuf::from("/tmp")],
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
        let rules = crate::reads::ruleset(&own).map_err(io::Error::other)?;
        narrow_before_exec(&mut cmd, rules);
    }
    Ok(cmd)
}

/// What a program under test may read besides the system: the run's own
/// folders (where it may write at the Landlock level; in a mount
/// namespace, its working folder, whose case folder it is, and `/tmp`,
/// a private one there, which it must read back what it writes to) and
/// what the caller named. `None`: a program of ours, not narrowed.
fn own_reads(spec: &Spec) -> Option<Vec<PathBuf>> {
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
    // thread (`fork` above checks it for its own forks, and it starts
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
                Some(r) => crate::reads::enforce(r).map_err(io::Error::other),
                None => Ok(()),
            }
        });
    }
}

/// Points this process's fds 0-2 at `/dev/null` (read-only: what the
/// keeper might still print is dropped), so that it holds no copy of the
/// program's streams.
fn release_streams() {
    if let Ok(null) = fs::File::open("/dev/null") {
        let _ = rustix::stdio::dup2_stdin(&null);
        let _ = rustix::stdio::dup2_stdout(&null);
        let _ = rustix::stdio::dup2_stderr(&null);
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

pub(crate) fn reap() {
    while let Ok(Some(_)) = rustix::process::wait(WaitOptions::NOHANG) {}
}

/// What `/proc` names the descriptor `fd` of this process.
pub(crate) fn own_link_of(fd: &std::os::fd::OwnedFd) -> Option<PathBuf> {
    use std::os::fd::AsRawFd as _;
    fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd())).ok()
}

pub(crate) fn own_link(fd: u32) -> Option<PathBuf> {
    fs::read_link(format!("/proc/self/fd/{fd}")).ok()
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

/// `OsStr` bytes of a path, as a [`Spec`] carries them.
pub(crate) fn path_bytes(p: &Path) -> Vec<u8> {
    p.as_os_str().as_bytes().to_vec()
}
