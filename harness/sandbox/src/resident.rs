//! A resident keeper: PID 1 of one sandbox that outlives its run, confined
//! (by Landlock) to one run folder's layout, and starts one program after
//! another there. A command reuses its run folders ([`Layout::recycle`]);
//! a folder's resident keeper makes the namespaces, the confinement and
//! the keeper once, where a keeper per run makes them for every run: at
//! the default level that set-up and tear-down cost more CPU than the
//! program under test.
//!
//! Each run is what a keeper of its own gives: the program starts as a
//! child of PID 1 with the run's arguments, environment, folder and
//! limits; after it ends, processes still holding its output get the
//! grace period, the ones left are named, and then every process of the
//! namespace but PID 1 is killed and reaped before the report is written
//! and the output closes. The namespace's PIDs keep counting from run to
//! run. A run cut short (timeout, output cap) kills the resident keeper
//! with it. The resident keeper ends when its socket closes: when its
//! folder is dropped, or when the caller dies however it dies (it watches
//! the socket while a program runs, too).
//!
//! Both sides are here: the caller's ([`Resident`]) and PID 1's, which
//! waits for run after run (`reside`). In the sandbox's order
//! (docs/architecture.md) the resident waits: above the watchdog and the
//! program it runs, below the keeper that becomes one and the start that
//! hands it runs.

use std::io;
use std::os::fd::{AsFd as _, OwnedFd};
use std::os::unix::fs::FileExt as _;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use rustix::process::{Pid, PidfdFlags, Signal};

use crate::level::Containment;
use crate::process::{own_link_of, readable, reap, seal_inherited_fds};
use crate::program::{Files, command, linger_holding, watched_folders};
use crate::report::{Report, Reported};
use crate::spec::{Confine, KEEPER_ENV, Layout, Reads, Spec};
use crate::{watchdog, wire};

/// The outer processes of the resident keepers alive, to kill on an
/// interrupt.
static LIVE: Mutex<Vec<Pid>> = Mutex::new(Vec::new());

fn live() -> std::sync::MutexGuard<'static, Vec<Pid>> {
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Kills every resident keeper now (an interrupt: everything dies).
pub fn kill_all() {
    for &pid in live().iter() {
        let _ = rustix::process::kill_process(pid, Signal::KILL);
    }
}

/// The caller's side of a resident keeper.
pub struct Resident {
    socket: UnixStream,
    outer: std::process::Child,
    pid: Pid,
    broken: bool,
    /// What its programs may read ([`crate::reads_for`]; `None`: not
    /// narrowed): the keeper itself holds these rules, so its programs
    /// start without a hook of their own between `fork` and `exec`.
    reads: Option<Reads>,
}

impl Resident {
    /// Starts a resident keeper for the folders of `layout` (made by
    /// [`Layout::confined`]: a Landlock level, `containment`), for programs that read
    /// `reads` (the built-in reference: `None`).
    pub fn start(
        layout: &Layout,
        reads: Option<Reads>,
        containment: &Containment,
    ) -> Result<Self, String> {
        let mut spec = Spec::new(layout, Path::new(""), &[], &[], Duration::ZERO);
        spec.resident = true;
        spec.no_namespaces = containment.without_namespaces();
        spec.reads.clone_from(&reads);
        spec.confine = Some(Confine::of(layout));
        let json = serde_json::to_string(&spec).map_err(|e| e.to_string())?;
        let exe = crate::process::own_exe().map_err(|e| format!("no own executable: {e}"))?;
        let (ours, theirs) = rustix::net::socketpair(
            rustix::net::AddressFamily::UNIX,
            rustix::net::SocketType::STREAM,
            rustix::net::SocketFlags::CLOEXEC,
            None,
        )
        .map_err(|e| format!("no socket for a resident keeper: {e}"))?;
        let outer = std::process::Command::new(exe)
            .env_clear()
            .env(KEEPER_ENV, json)
            .current_dir(&layout.work)
            .stdin(std::process::Stdio::from(theirs))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start a resident keeper: {e}"))?;
        let pid = Pid::from_child(&outer);
        live().push(pid);
        Ok(Self {
            socket: UnixStream::from(ours),
            outer,
            pid,
            broken: false,
            reads,
        })
    }

    /// What its programs may read.
    pub fn reads(&self) -> Option<&Reads> {
        self.reads.as_ref()
    }

    /// Whether it failed and must not be asked again.
    pub fn broken(&self) -> bool {
        self.broken
    }

    /// Hands it one run: `Err` (with the streams untouched) when it cannot
    /// take it; it is broken then.
    pub(crate) fn run(&mut self, spec: &Spec, theirs: &[OwnedFd; 3]) -> Result<Pid, String> {
        if self.broken {
            return Err("the resident keeper is broken".to_owned());
        }
        // Its rules bind every program it starts: a run that may read
        // otherwise needs another keeper (this one stays good).
        if spec.reads != self.reads {
            return Err("the resident keeper reads otherwise".to_owned());
        }
        let fds = [theirs[0].as_fd(), theirs[1].as_fd(), theirs[2].as_fd()];
        wire::send(&self.socket, spec, fds).map_err(|e| {
            self.broken = true;
            format!("the resident keeper is gone: {e}")
        })?;
        Ok(self.pid)
    }
}

impl Drop for Resident {
    fn drop(&mut self) {
        live().retain(|&p| p != self.pid);
        // Idle (or already killed with its run): its socket closed, it ends
        // at once, and its CPU time is reaped into the caller's as it would
        // be for a keeper per run. One that does not end in time is killed.
        let _ = self.socket.shutdown(std::net::Shutdown::Both);
        let ended = rustix::process::pidfd_open(self.pid, PidfdFlags::empty())
            .map_err(io::Error::from)
            .and_then(|fd| readable(&fd, Some(Duration::from_secs(2))));
        if !matches!(ended, Ok(true)) {
            let _ = self.outer.kill();
        }
        let _ = self.outer.wait();
    }
}

/// PID 1's side: serves runs until the socket (its stdin) closes.
///
/// Without namespaces, `outer` hangs up when the outer keeper is killed
/// (a run cut short): the watch then ends, and the caller kills the rest.
pub(crate) fn reside(
    files: &Files,
    own: &Spec,
    outer: Option<std::os::fd::BorrowedFd<'_>>,
) -> io::Result<()> {
    let socket = UnixStream::from(rustix::io::dup(rustix::stdio::stdin())?);
    loop {
        let Some((spec, [stdin, stdout, stderr])) = wire::receive(&socket) else {
            return Ok(());
        };
        // Held until the report is written: their closing tells the caller
        // the run is over.
        let ours = [own_link_of(&stdout), own_link_of(&stderr)];
        // Without namespaces the keeper holds no read rules of its own.
        let narrow = own.no_namespaces || spec.reads != own.reads;
        let ending = match program(&spec, narrow, stdin, &stdout, &stderr) {
            Err(e) => Reported::SpawnFailed(e.raw_os_error().unwrap_or(0), e.to_string()),
            Ok(child) => {
                let pid = Some(Pid::from_child(&child));
                spec.limits.apply(pid)?;
                if !spec.no_namespaces {
                    spec.limits.apply_processes(pid)?;
                }
                files.started.write_all_at(b"started\n", 0)?;
                let watch = watchdog::Watch {
                    limits: spec.limits,
                    folders: watched_folders(&spec),
                    stderr: Some(stderr.as_fd()),
                    gone: std::iter::once(socket.as_fd()).chain(outer).collect(),
                };
                watchdog::wait(child, &watch)?
            }
        };
        let left = linger_holding(Duration::from_millis(spec.grace_ms), &ours);
        kill_the_rest();
        let report = Report { ending, left }.render();
        files.status.write_all_at(report.as_bytes(), 0)?;
        files.status.set_len(report.len() as u64)?;
        drop((stdout, stderr));
    }
}

fn program(
    spec: &Spec,
    narrow: bool,
    stdin: OwnedFd,
    stdout: &OwnedFd,
    stderr: &OwnedFd,
) -> io::Result<std::process::Child> {
    // The socket is a `dup` without close-on-exec: the program must not
    // hold it.
    seal_inherited_fds();
    command(spec, narrow)?
        .stdin(stdin)
        .stdout(stdout.try_clone()?)
        .stderr(stderr.try_clone()?)
        .spawn()
}

/// Kills every process of the namespace but this one (PID 1) and reaps
/// them all.
fn kill_the_rest() {
    watchdog::kill_all();
    reap();
}
