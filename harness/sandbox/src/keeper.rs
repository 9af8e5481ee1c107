//! The keeper: this very executable, re-run with
//! [`KEEPER_ENV`](crate::KEEPER_ENV) set ([`crate::mode`]), as
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
//!
//! In the sandbox's order (docs/architecture.md) the keeper starts: it is
//! above the watchdog that watches its program and the resident keeper
//! that waits for runs (which it becomes when asked to), and below the
//! zygote that forks keepers and the mode that makes this executable one.

use std::fs;
use std::io::{self, Write as _};
use std::os::fd::{AsFd as _, BorrowedFd};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use rustix::process::{Signal, WaitOptions};

use crate::process::{Forked, fork, own_link, readable, seal, seal_inherited_fds};
use crate::program::{Files, command, linger_holding, own_reads, watched_folders};
use crate::report::{Report, Reported};
use crate::spec::{CONTROL_MOUNT, Confine, Spec, bytes_path};
use crate::{confine, network, reads, resident, watchdog};

/// The status a keeper exits with when it cannot do its work (its message
/// is on the program's stderr).
pub(crate) const KEEPER_FAILED: u8 = 125;

/// A keeper's whole life, whichever way it was started.
pub(crate) fn run(spec: &Spec) -> ExitCode {
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
        Some(own) => reads::ruleset(&own)
            .and_then(reads::enforce)
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
    network::refuse_sockets().map_err(|e| format!("seccomp (no network): {e}"))
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
    watchdog::raise_keeper();
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
                    resident::reside(&files, spec, Some(alive_read.as_fd()))
                } else {
                    keep(spec, files, Some(alive_read.as_fd()))
                };
                watchdog::kill_all();
                return done.map(|()| ExitCode::SUCCESS);
            }
            rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
            if readable(&alive_read, Some(Duration::ZERO))? {
                return Ok(ExitCode::from(KEEPER_FAILED));
            }
            drop(alive_read);
            if spec.resident {
                return resident::reside(&files, spec, None).map(|()| ExitCode::SUCCESS);
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
    watchdog::without_pid_namespace();
    seal();
    // Refused to a process without `CAP_SETPCAP` (not root), whose
    // programs have no `CAP_SYS_PTRACE` to lose.
    let _ = rustix::thread::remove_capability_from_bounding_set(
        rustix::thread::CapabilitySet::SYS_PTRACE,
    );
    rustix::process::setpgid(None, None)?;
    Ok(())
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
    seal_inherited_fds();
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
            let watch = watchdog::Watch {
                limits: spec.limits,
                folders: watched_folders(spec),
                stderr,
                gone: outer.into_iter().collect(),
            };
            if spec.release_streams {
                release_streams();
            }
            watchdog::wait(child, &watch)?
        }
    };
    let left = linger_holding(Duration::from_millis(spec.grace_ms), &ours);
    files.report(&Report { ending, left })
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
