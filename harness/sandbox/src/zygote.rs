//! The keepers' zygote. At the Landlock level every run needs a keeper,
//! and starting one by `exec` of this executable costs about as much CPU
//! as the program under test itself (the dynamic loader, page faults of a
//! large binary, the runtime's start and end). Instead, while a caller
//! asks for it ([`Session`]), runs share one *zygote*: this executable,
//! single-threaded, which receives each run's spec and standard streams
//! over a socket and forks a keeper for it; a fork of a small process
//! costs a fraction of an exec.
//!
//! The zygote ends when its socket closes: when the session ends, or when
//! the caller dies however it dies. Each keeper asks to die with the
//! zygote, so nothing outlives the caller. Where anything fails, runs fall
//! back to an exec'd keeper ([`crate::start`]).
//!
//! Both sides are here: the caller's ([`Session`], and the request for a
//! keeper that [`crate::start`] makes) and the zygote's, which forks
//! keepers. In the sandbox's order (docs/architecture.md) it is above the
//! keeper it forks and below the start that asks it for one.

use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::process::ExitCode;
use std::sync::{Mutex, PoisonError};

use rustix::net::{AddressFamily, SocketFlags, SocketType};
use rustix::process::{Pid, PidfdFlags, WaitOptions};

use crate::process::{Forked as Side, SEALED, SEALED_ENV, fork, readable, seal};
use crate::spec::Spec;
use crate::{keeper, reads, wire};

/// Set (to the caller's PID) in the zygote's environment.
pub(crate) const ZYGOTE_ENV: &str = "CONFORMANCE_ZYGOTE";

/// The caller's end of a running zygote.
struct Client {
    socket: std::os::unix::net::UnixStream,
    child: std::process::Child,
}

/// The zygote while a session lives: `None` before the first run, or
/// once it failed (then runs exec their keepers).
struct State {
    sessions: usize,
    client: Option<Client>,
    failed: bool,
}

static STATE: Mutex<State> = Mutex::new(State {
    sessions: 0,
    client: None,
    failed: false,
});

fn state() -> std::sync::MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// While one lives, contained runs share a zygote; the last one to end
/// stops it (and waits for it).
#[derive(Debug)]
#[must_use = "the zygote serves only while the session lives"]
pub struct Session(());

impl Session {
    /// Starts sharing a zygote (sessions nest; it starts with the first
    /// run that needs it).
    pub fn enter() -> Self {
        state().sessions += 1;
        Self(())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let client = {
            let mut st = state();
            st.sessions = st.sessions.saturating_sub(1);
            if st.sessions > 0 {
                return;
            }
            st.failed = false;
            st.client.take()
        };
        if let Some(Client { socket, mut child }) = client {
            // Its socket closed, the zygote ends at once.
            drop(socket);
            let _ = child.wait();
        }
    }
}

/// Kills the zygote now (an interrupt: everything dies); its keepers die
/// with it.
pub fn kill() {
    if let Some(mut client) = state().client.take() {
        let _ = client.child.kill();
        let _ = client.child.wait();
    }
}

/// A keeper forked by the zygote: its PID and a pidfd (readable once it
/// ended).
pub(crate) struct Forked {
    pub pid: Pid,
    pub pidfd: OwnedFd,
}

/// Asks the zygote for a keeper running `spec` with these standard
/// streams. `None`: no session, or the zygote failed (the caller execs a
/// keeper instead).
pub(crate) fn fork_keeper(spec: &Spec, streams: [BorrowedFd<'_>; 3]) -> Option<Forked> {
    let mut st = state();
    if st.sessions == 0 || st.failed {
        return None;
    }
    if st.client.is_none() {
        if let Ok(client) = start() {
            st.client = Some(client);
        } else {
            st.failed = true;
            return None;
        }
    }
    let client = st.client.as_mut()?;
    if let Ok(forked) = request(&client.socket, spec, streams) {
        return Some(forked);
    }
    // A zygote that failed once is not trusted again.
    st.failed = true;
    if let Some(mut client) = st.client.take() {
        let _ = client.child.kill();
        let _ = client.child.wait();
    }
    None
}

fn start() -> io::Result<Client> {
    let exe = crate::process::own_exe()?;
    let (ours, theirs) = rustix::net::socketpair(
        AddressFamily::UNIX,
        SocketType::STREAM,
        SocketFlags::CLOEXEC,
        None,
    )?;
    let mut cmd = std::process::Command::new(exe);
    cmd.env_clear()
        .env(ZYGOTE_ENV, std::process::id().to_string());
    if SEALED.load(std::sync::atomic::Ordering::Relaxed) {
        cmd.env(SEALED_ENV, "1");
    }
    let child = cmd
        .stdin(std::process::Stdio::from(theirs))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()?;
    Ok(Client {
        socket: std::os::unix::net::UnixStream::from(ours),
        child,
    })
}

/// One request (see [`crate::wire`]); the answer: the keeper's PID (4
/// bytes) with its pidfd attached, or a PID of 0 when it could not start.
fn request(
    socket: &std::os::unix::net::UnixStream,
    spec: &Spec,
    streams: [BorrowedFd<'_>; 3],
) -> io::Result<Forked> {
    wire::send(socket, spec, streams)?;
    let mut pid = [0u8; 4];
    let pidfd = wire::receive_with_fds(socket, &mut pid)?.into_iter().next();
    match (Pid::from_raw(i32::from_le_bytes(pid)), pidfd) {
        (Some(pid), Some(pidfd)) => Ok(Forked { pid, pidfd }),
        _ => Err(io::Error::other("the zygote could not fork a keeper")),
    }
}

/// The zygote's side, when this process was started as one: serves
/// requests until the socket (its stdin) closes. Returns in a forked
/// keeper too, with that keeper's exit status.
pub(crate) fn serve() -> ExitCode {
    let _ = rustix::thread::set_name(c"conformance-zyg");
    if std::env::var_os(SEALED_ENV).is_some() {
        seal();
    }
    let socket = match rustix::io::dup(rustix::stdio::stdin()) {
        Ok(fd) => std::os::unix::net::UnixStream::from(fd),
        Err(_) => return ExitCode::FAILURE,
    };
    let own = rustix::process::getpid();
    // Found once here, not in every keeper forked from here.
    let _ = reads::system();
    loop {
        while let Ok(Some(_)) = rustix::process::wait(WaitOptions::NOHANG) {}
        // Finished keepers are reaped at least this often.
        match readable(&socket, Some(std::time::Duration::from_millis(200))) {
            Ok(false) => continue,
            Ok(true) => {}
            Err(_) => return ExitCode::FAILURE,
        }
        let Some((spec, streams)) = wire::receive(&socket) else {
            // The caller closed the socket (or broke the protocol): done.
            while let Ok(Some(_)) = rustix::process::wait(WaitOptions::empty()) {}
            return ExitCode::SUCCESS;
        };
        let mut spec = spec;
        spec.caller = u32::try_from(own.as_raw_nonzero().get()).unwrap_or(0);
        let answered = match fork() {
            Ok(Side::Child) => {
                drop(socket);
                return keeper::run_forked(&spec, streams);
            }
            Ok(Side::Parent(child)) => {
                drop(streams);
                // Without a pidfd the caller could not watch the keeper:
                // it ends at once.
                if let Ok(pidfd) = rustix::process::pidfd_open(child, PidfdFlags::empty()) {
                    answer(&socket, Some((child, pidfd.as_fd())))
                } else {
                    let _ = rustix::process::kill_process(child, rustix::process::Signal::KILL);
                    answer(&socket, None)
                }
            }
            Err(_) => {
                drop(streams);
                answer(&socket, None)
            }
        };
        if answered.is_err() {
            return ExitCode::FAILURE;
        }
    }
}

/// The answer to a request: the keeper's PID and pidfd, or a PID of 0
/// (no keeper).
fn answer(
    socket: &std::os::unix::net::UnixStream,
    keeper: Option<(Pid, BorrowedFd<'_>)>,
) -> io::Result<()> {
    let raw = keeper.map_or(0, |(pid, _)| pid.as_raw_nonzero().get());
    let fds: Vec<BorrowedFd<'_>> = keeper.map(|(_, fd)| fd).into_iter().collect();
    wire::send_with_fds(socket, &raw.to_le_bytes(), &fds)
}
