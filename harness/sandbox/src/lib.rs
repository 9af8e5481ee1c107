//! Containment of a run: where the kernel allows it, each program runs in
//! namespaces of its own:
//!
//! - a PID namespace, so that every process the program starts (`setsid`
//!   daemons included) dies with the case, and none can see or signal the
//!   harness;
//! - at the default `pid` level, a user namespace and Landlock rules
//!   ([`confine`]) that leave the file system read-only except the case
//!   folder and a private temporary folder (named by `TMPDIR`; `/tmp`
//!   itself is read-only); the keeper makes these itself (`keeper`);
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
//!
//! This file is the crate's facade: it declares the modules and names
//! what other crates use. The modules import one another in one
//! direction, lowest first (docs/architecture.md draws it; the engine's
//! layers test refuses a circle, and a `crate::` path that goes through
//! this facade instead of naming a module):
//!
//! - this process, the policy, the Landlock and seccomp rules, the
//!   process tree (`process`, [`policy`], [`confine`], `network`,
//!   [`reads`], `tree`): nothing of the crate;
//! - `limits`, the containment `level`s, the `spec` a keeper is given,
//!   its `report`, the `wire` runs travel on;
//! - the `watchdog` that watches a running program, knowing nothing of
//!   who started it, and the `program` a keeper runs under it;
//! - the [`resident`] keeper that waits for runs; the `keeper` that
//!   starts a program (and becomes a resident one when asked); the
//!   [`zygote`] that forks keepers; `start`, which spawns a keeper for a
//!   caller; the `probe` that tries a level by starting one;
//! - at the top, the `mode` a re-run executable takes ([`keeper_mode`]).

pub mod confine;
mod keeper;
mod level;
mod limits;
mod mode;
mod network;
pub mod policy;
mod probe;
mod process;
mod program;
pub mod reads;
mod report;
pub mod resident;
mod spec;
mod start;
mod tree;
mod watchdog;
mod wire;
pub mod zygote;

pub use level::*;
pub use limits::{Limits, reserves_address_space, runtime_reserves_address_space};
pub use mode::keeper_mode;
pub use policy::Bounds;
pub use probe::{containment, shortfall};
pub use process::{own_exe, seal_inherited_fds};
pub use report::{LeftBehind, Report, Reported, read_report, started};
pub use spec::*;
pub use start::{Io, Kept, Streams, start, start_with};

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
        fs::write(layout.control.join(spec::STATUS_FILE), b"exited 0\n").unwrap();
        fs::write(layout.control.join(spec::STARTED_FILE), b"started\n").unwrap();
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
