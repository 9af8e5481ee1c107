//! Containment of a run: where the kernel allows it, each program runs in
//! namespaces of its own:
//!
//! - a PID namespace, so that every process the program starts (`setsid`
//!   daemons included) dies with the case, and none can see or signal the
//!   harness;
//! - at the default `pid` level, a user namespace and Landlock rules
//!   ([`confine`]) that leave the file system read-only except the case
//!   folder and a private temporary folder (named by `TMPDIR`; `/tmp`
//!   itself is read-only); the keeper makes these itself ([`keeper`]);
//!   where the kernel lacks Landlock (ABI 3 or later), a mount namespace
//!   instead;
//! - with `full` (opt-in: it costs more than the rest of a run), a mount
//!   namespace in which the file system is read-only except the case
//!   folder and a private `/tmp`, and IPC and network namespaces with no
//!   interface up. The `hakoniwa` crate builds these (our crates deny
//!   `unsafe`, and mount set-up needs much of it);
//! - at every namespace level: a program under test reads only an
//!   allow-list ([`reads`]: Landlock rules it puts on itself before
//!   `exec`, so the keeper can still start the built-in reference), no
//!   socket can be made (`network`: a seccomp filter, unless
//!   [`policy`] allows the network), and the keeper's `watchdog` holds
//!   the run to its process and folder limits ([`Limits`]).
//!
//! Inside, the first process (PID 1) is not the program but this very
//! executable in *keeper* mode ([`keeper_mode`]), which starts the program
//! and reports how it ended ([`Report`]). Callers start a sandbox with
//! [`start`]; a caller that reuses a run's folders keeps a [`resident`]
//! keeper with them, and one that runs many keepers shares a [`zygote`].
//!
//! Where namespaces are refused (some containers, Gradescope's), runs
//! fall back to the `landlock` level: no namespace, but the same Landlock
//! read and write rules and seccomp filter, the limits, a process group
//! of the keeper's own, and a keeper that is the *subreaper* of what the
//! program starts (so `setsid` daemons come back to it and die with the
//! run). Where Landlock is missing too, a process group only; the harness
//! says so once.

pub mod confine;
mod keeper;
mod level;
mod limits;
mod network;
pub mod policy;
pub mod reads;
mod report;
pub mod resident;
mod spec;
mod start;
mod tree;
mod watchdog;
mod wire;
pub mod zygote;

pub use keeper::keeper_mode;
pub use level::*;
pub use limits::{Bounds, Limits, reserves_address_space};
pub use report::{LeftBehind, Report, Reported, read_report, started};
pub use spec::*;
pub use start::{Io, Kept, Streams, start, start_with};

/// Marks every descriptor above 2 close-on-exec, so that no program this
/// process starts inherits one: a program under test gets its fds 0, 1 and
/// 2 and nothing else, whatever the caller of the harness left open
/// (a shell's `7>file`, a CI runner's pipes, a socket). Called first thing
/// by every binary that runs programs and by every keeper before it starts
/// one; the program's own streams are dup'ed onto 0-2 by `spawn`.
pub fn seal_inherited_fds() {
    close_fds::set_fds_cloexec_threadsafe(3, &[]);
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt as _;

    use std::fs;

    use super::*;

    #[test]
    fn a_recycled_layout_is_empty_and_open_again() {
        let root = tempfile::tempdir().unwrap();
        let layout = Layout::confined(root.path()).unwrap();
        fs::create_dir_all(layout.work.join("deep/er")).unwrap();
        fs::write(layout.work.join("deep/er/file"), b"x").unwrap();
        fs::write(layout.work.join("file"), b"x").unwrap();
        let tmp = layout.tmp.clone().unwrap();
        fs::write(tmp.join("scratch"), b"x").unwrap();
        fs::set_permissions(&layout.work, fs::Permissions::from_mode(0o500)).unwrap();
        fs::write(layout.control.join(report::STATUS_FILE), b"exited 0\n").unwrap();
        fs::write(layout.control.join(report::STARTED_FILE), b"started\n").unwrap();
        layout.recycle().unwrap();
        assert_eq!(fs::read_dir(&layout.work).unwrap().count(), 0);
        assert_eq!(fs::read_dir(&tmp).unwrap().count(), 0);
        let mode = fs::metadata(&layout.work).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        assert_eq!(read_report(&layout), None);
        assert!(!started(&layout));
    }

    #[test]
    fn a_group_layout_is_emptied_whole() {
        let root = tempfile::tempdir().unwrap();
        let layout = Layout::group(root.path());
        fs::write(layout.work.join("file"), b"x").unwrap();
        fs::create_dir(layout.work.join("dir")).unwrap();
        layout.recycle().unwrap();
        assert_eq!(fs::read_dir(root.path()).unwrap().count(), 0);
    }
}
