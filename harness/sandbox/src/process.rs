//! This process itself, as every side of the sandbox needs it: its
//! descriptors kept from the programs it starts ([`seal_inherited_fds`]),
//! its `/proc` entries closed to them ([`seal`]), whether it can act as a
//! keeper ([`KEEPER_CAPABLE`]), waiting on one descriptor ([`readable`]),
//! reaping its children ([`reap`]), what `/proc` names its descriptors,
//! the file it re-runs itself from ([`own_exe`]), and forking it
//! ([`fork`]).
//!
//! The bottom of the sandbox's order (docs/architecture.md): it imports
//! nothing of the crate, and every module may import it.

use std::fs;
use std::io;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rustix::process::{Pid, WaitOptions};

/// Marks every descriptor above 2 close-on-exec, so that no program this
/// process starts inherits one: a program under test gets its fds 0, 1 and
/// 2 and nothing else, whatever the caller of the harness left open
/// (a shell's `7>file`, a CI runner's pipes, a socket). Called first thing
/// by every binary that runs programs and by every keeper before it starts
/// one; the program's own streams are dup'ed onto 0-2 by `spawn`.
pub fn seal_inherited_fds() {
    close_fds::set_fds_cloexec_threadsafe(3, &[]);
}

/// Set once runs are kept at the `landlock` level: the keepers' zygote
/// this process starts seals itself too ([`seal`]).
pub(crate) static SEALED: AtomicBool = AtomicBool::new(false);

/// The environment variable that tells a zygote to [`seal`] itself.
pub(crate) const SEALED_ENV: &str = "CONFORMANCE_SEALED";

/// Makes this process (the harness, a keeper, the zygote: every one holds
/// the harness's executable, and so the embedded suite, in its memory)
/// non-dumpable, so that a program under test of the same user cannot
/// read its `/proc` entries (`mem`, `maps`, `environ`): the kernel's
/// ptrace check refuses them to a process without `CAP_SYS_PTRACE`, which
/// a keeper at the `landlock` level takes away from its programs. With no
/// PID namespace, this is what hides them.
pub(crate) fn seal() {
    let _ = rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable);
}

/// Set by `keeper_mode`: this executable's `main` hands control to the
/// keeper when started as one, so it can be re-run as a sandbox's keeper.
pub(crate) static KEEPER_CAPABLE: AtomicBool = AtomicBool::new(false);

/// Whether `fd` is readable (or hung up), waiting up to `timeout` (`None`:
/// as long as it takes). An interrupted wait counts as not yet.
pub(crate) fn readable(fd: impl std::os::fd::AsFd, timeout: Option<Duration>) -> io::Result<bool> {
    let timeout = timeout.map(|t| rustix::event::Timespec {
        tv_sec: i64::try_from(t.as_secs()).unwrap_or(i64::MAX),
        tv_nsec: i64::from(t.subsec_nanos()),
    });
    let mut fds = [rustix::event::PollFd::new(
        &fd,
        rustix::event::PollFlags::IN,
    )];
    match rustix::event::poll(&mut fds, timeout.as_ref()) {
        Ok(n) => Ok(n > 0),
        Err(rustix::io::Errno::INTR) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Reaps every child of this process that has ended, without waiting.
pub(crate) fn reap() {
    while let Ok(Some(_)) = rustix::process::wait(WaitOptions::NOHANG) {}
}

/// What `/proc` names the descriptor `fd` of this process.
pub(crate) fn own_link_of(fd: &std::os::fd::OwnedFd) -> Option<PathBuf> {
    use std::os::fd::AsRawFd as _;
    fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd())).ok()
}

/// What `/proc` names the descriptor numbered `fd` of this process.
pub(crate) fn own_link(fd: u32) -> Option<PathBuf> {
    fs::read_link(format!("/proc/self/fd/{fd}")).ok()
}

/// The kernel's link to the file this process runs.
const PROC_SELF_EXE: &str = "/proc/self/exe";

/// The path this process re-runs itself by (a keeper, the zygote, a
/// resident keeper, `mark`'s check of each submission): `/proc/self/exe`
/// itself, which the kernel resolves to the very file this process was
/// started from, and never the text that link reads. On a cluster the
/// harness lives on a shared file system and is updated while jobs run:
/// a binary replaced by `mv` (or deleted) leaves the link reading
/// `PATH (deleted)`, a path that starts nothing, while the link itself
/// still execs the old file. A forked child (which every spawn is until
/// it execs) runs the same file, so the link means the same there. Where
/// `/proc` is missing, the path the executable was started by.
pub fn own_exe() -> io::Result<PathBuf> {
    let link = PathBuf::from(PROC_SELF_EXE);
    if fs::metadata(&link).is_ok() {
        return Ok(link);
    }
    std::env::current_exe()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_re_runs_the_file_it_runs_from_not_a_path() {
        let own = own_exe().expect("own executable");
        assert_eq!(own, PathBuf::from(PROC_SELF_EXE));
        // The link names the same file as the path this process was
        // started by (while that path is unchanged).
        let by_path = std::env::current_exe().expect("current_exe");
        assert_eq!(
            fs::metadata(&own)
                .map(|m| std::os::unix::fs::MetadataExt::ino(&m))
                .ok(),
            fs::metadata(&by_path)
                .map(|m| std::os::unix::fs::MetadataExt::ino(&m))
                .ok()
        );
    }
}
