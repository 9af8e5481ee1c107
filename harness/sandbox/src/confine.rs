//! Landlock confinement, the file-system half of the default `pid`
//! containment level: the keeper restricts itself, and so the program it
//! then starts, to reading (and executing) the whole file system and
//! writing only where a run may write: its case folder, its private
//! temporary folder, and the harmless devices (`/dev/null`, `/dev/zero`,
//! `/dev/full`, `/dev/tty`). Where Landlock ABI 6 is there, signals and
//! abstract Unix sockets are scoped to the sandbox too.
//!
//! This replaces a mount namespace (read-only bind mounts of the whole
//! root, `pivot_root`, a private `/tmp`), whose set-up and tear-down cost
//! more than the rest of a run. Landlock needs no mount: a handful of
//! system calls in the keeper. ABI 3 at least is required: before it,
//! `truncate(2)` of any file escapes the rules, and the harness falls back
//! to the mount namespace.
//!
//! At the bottom of the sandbox's order (docs/architecture.md): it
//! imports nothing of the crate.

use std::path::Path;

use landlock::{
    ABI, Access, AccessFs, BitFlags, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope,
};

/// The most recent Landlock ABI whose rights the rules use.
const ABI_USED: ABI = ABI::V6;

/// The oldest Landlock ABI accepted (truncation controlled).
const ABI_NEEDED: ABI = ABI::V3;

/// Devices any program may open for writing (and truncate, as the shell's
/// `>` does).
const DEVICES: [&str; 4] = ["/dev/null", "/dev/zero", "/dev/full", "/dev/tty"];

/// Why a confinement could not be put in place.
#[derive(Debug, thiserror::Error)]
pub enum ConfineError {
    /// The kernel refused the rules, or lacks a required ABI.
    #[error("Landlock: {0}")]
    Ruleset(#[from] landlock::RulesetError),
    /// A folder to leave writable cannot be opened.
    #[error("Landlock: cannot open {path}: {source}")]
    Path {
        /// The folder.
        path: String,
        /// Why.
        source: landlock::PathFdError,
    },
    /// The kernel accepted the rules but enforces none of them.
    #[error("Landlock is not enforced by this kernel")]
    NotEnforced,
}

/// Restricts the calling thread, and every process it starts from now
/// on, to reading the whole file system and writing only beneath
/// `writable` and to `DEVICES`.
pub fn restrict(writable: &[&Path]) -> Result<(), ConfineError> {
    let read: BitFlags<AccessFs> = AccessFs::from_read(ABI_USED);
    let all: BitFlags<AccessFs> = AccessFs::from_all(ABI_USED);
    let device = AccessFs::from_file(ABI_USED) & !AccessFs::Execute;
    let open = |path: &Path| {
        PathFd::new(path).map_err(|source| ConfineError::Path {
            path: path.display().to_string(),
            source,
        })
    };
    let mut rules = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_all(ABI_NEEDED))?
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(all)?
        .scope(Scope::Signal | Scope::AbstractUnixSocket)?
        .create()?
        .add_rule(PathBeneath::new(open(Path::new("/"))?, read))?;
    for dir in writable {
        rules = rules.add_rule(PathBeneath::new(open(dir)?, all))?;
    }
    for dev in DEVICES {
        // A container may lack `/dev/tty`: then nobody can open it anyway.
        if let Ok(fd) = PathFd::new(dev) {
            rules = rules.add_rule(PathBeneath::new(fd, device))?;
        }
    }
    match rules.restrict_self()?.ruleset {
        RulesetStatus::NotEnforced => Err(ConfineError::NotEnforced),
        RulesetStatus::FullyEnforced | RulesetStatus::PartiallyEnforced => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_land_only_beneath_the_writable_folders() {
        let inside = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let (inside_path, outside_path) = (inside.path().to_owned(), outside.path().to_owned());
        std::fs::write(outside_path.join("old"), b"kept").unwrap();
        // Landlock restricts the calling thread only: a thread of its own
        // keeps the rest of the test process free.
        let results = std::thread::spawn(move || {
            restrict(&[&inside_path]).map(|()| {
                (
                    std::fs::write(inside_path.join("new"), b"x").is_ok(),
                    std::fs::write(outside_path.join("new"), b"x").is_ok(),
                    std::fs::OpenOptions::new()
                        .write(true)
                        .truncate(true)
                        .open(outside_path.join("old"))
                        .is_ok(),
                    std::fs::read(outside_path.join("old")).ok(),
                    std::fs::write("/dev/null", b"x").is_ok(),
                )
            })
        })
        .join()
        .unwrap();
        match results {
            Ok(r) => assert_eq!(r, (true, false, false, Some(b"kept".to_vec()), true)),
            // A kernel without Landlock: the harness falls back to a mount
            // namespace there, and this test has nothing to check.
            Err(ConfineError::Ruleset(e)) => eprintln!("no Landlock here: {e}"),
            Err(e) => panic!("{e}"),
        }
        assert!(!outside.path().join("new").exists());
    }
}
