//! What a program under test may read: an allow-list, a Landlock ruleset
//! stacked on the keeper's own write rules. A resident keeper takes it on
//! itself, once, so that each of its programs starts by `posix_spawn`;
//! its rules then bind every program it starts, so it refuses a run whose
//! reads differ (the built-in reference, ours and not narrowed: it reads
//! the harness's executable, which embeds every expected output), and
//! that run goes to a keeper that reads as it does. A keeper of a single
//! run puts the rules on the program alone, between `fork` and `exec`.
//!
//! The list: the system's folders (`/usr`, `/lib*`, `/bin`, `/sbin`), the
//! world-readable part of `/etc` ([`etc_entries`]: `/etc/shadow`,
//! `gshadow`, `sudoers` stay out even when the harness runs as root), the
//! harmless devices, `/proc` (what another process's entry would reveal
//! is guarded by the kernel's ptrace check, which Landlock makes refuse
//! anything outside the sandbox), the CPU list of `/sys`, the run's own
//! folders, and what the caller names: the program's folder, the files a
//! command line names, `--allow-read`. Everything else (the harness, the
//! suite, home folders, the caller's folder, `/tmp`, other runs'
//! folders) fails to open with `EACCES`.
//!
//! A ruleset is built once per distinct list and kept: a resident keeper
//! runs many programs with the same list, and building one opens every
//! allowed path.
//!
//! At the bottom of the sandbox's order (docs/architecture.md): it
//! imports nothing of the crate.
//!
//! One piece: the read allow-list and the Landlock ruleset built from
//! it: what is shared with the caller decides what a program's own
//! files are, and the kept rulesets are keyed by the list; about 160
//! lines are tests.

use std::collections::HashMap;
use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};

use landlock::{
    ABI, AccessFs, BitFlags, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, RulesetStatus, Scope,
};

/// The system's folders a program may read and execute from.
const SYSTEM: [&str; 7] = [
    "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin",
];

/// Other readable places: devices a program may open (the ones it may
/// write, and the random sources), the process file system, the CPU list
/// (`sysconf(_SC_NPROCESSORS_ONLN)` reads it).
const OTHER: [&str; 9] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/random",
    "/dev/urandom",
    "/proc",
    "/sys/devices/system/cpu",
    "/dev/pts",
];

/// How deep `/etc` is searched for entries that are not world-readable.
const ETC_DEPTH: usize = 4;

/// The rights the read layer handles.
fn handled() -> BitFlags<AccessFs> {
    AccessFs::ReadFile | AccessFs::ReadDir | AccessFs::Execute
}

/// Every path the read layer allows besides the run's own: the system
/// part, computed once per process.
pub fn system() -> &'static [PathBuf] {
    static SYSTEM_READS: OnceLock<Vec<PathBuf>> = OnceLock::new();
    SYSTEM_READS.get_or_init(|| {
        let mut paths: Vec<PathBuf> = SYSTEM.iter().chain(&OTHER).map(PathBuf::from).collect();
        paths.extend(etc_entries(Path::new("/etc")));
        paths
    })
}

/// The world-readable part of `dir`: a folder whose whole tree anyone
/// may read is one entry; one holding something private is searched
/// further (a few levels down); a private file or folder is left out.
/// The rule is the file system's own: what an unprivileged user could
/// read, a program under test may read, whoever runs the harness.
pub fn etc_entries(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect_public(dir, ETC_DEPTH, &mut out);
    out
}

fn collect_public(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if !world_readable(&path) {
            continue;
        }
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if !is_dir || all_public(&path, depth) {
            out.push(path);
        } else if depth > 0 {
            collect_public(&path, depth - 1, out);
        }
    }
}

/// Whether anyone may read `path` (a folder: list and enter it). A
/// symbolic link is judged by what it points to.
fn world_readable(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| {
        let mode = m.permissions().mode();
        if m.is_dir() {
            mode & 0o005 == 0o005
        } else {
            mode & 0o004 != 0
        }
    })
}

/// Whether everything below the folder `dir` is world-readable (too deep
/// a tree counts as not).
fn all_public(dir: &Path, depth: usize) -> bool {
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().all(|entry| {
        let path = entry.path();
        world_readable(&path)
            && (!entry.file_type().is_ok_and(|t| t.is_dir())
                || (depth > 0 && all_public(&path, depth - 1)))
    })
}

/// What a program may read of its own, given the files that make it (the
/// program, the files and folders its command line names): for a file,
/// the folder holding it, or the file alone where that folder is shared
/// (`Shared`); for a folder (`java -cp /x/classes`), that folder itself,
/// never its parent, and nothing where it is shared itself.
pub fn own_of(named: impl IntoIterator<Item = PathBuf>) -> Vec<PathBuf> {
    Shared::of_this_process().own_of(named)
}

/// Folders that are not a program's own even when it lives in one: a
/// program there reads its file alone.
struct Shared {
    /// The caller's working folder: a folder holding it holds the suite
    /// and the caller's other files.
    cwd: Option<PathBuf>,
    /// The caller's home.
    home: Option<PathBuf>,
    /// The harness's own executable (every expected output is embedded in
    /// it): a folder holding it (`target/debug`, `~/.cargo/bin`) is ours.
    exe: Option<PathBuf>,
    /// `/tmp` and the system's temporary folder: every other user's and
    /// run's files.
    temp: Vec<PathBuf>,
}

impl Shared {
    fn of_this_process() -> Self {
        let real = |p: PathBuf| fs::canonicalize(&p).unwrap_or(p);
        let mut temp = vec![PathBuf::from("/tmp"), real(std::env::temp_dir())];
        temp.dedup();
        Self {
            cwd: std::env::current_dir().ok().map(real),
            home: std::env::var_os("HOME").map(|h| real(PathBuf::from(h))),
            exe: std::env::current_exe().ok().map(real),
            temp,
        }
    }

    /// Whether `dir` is not the program's own: the root, a temporary
    /// folder itself, the caller's home, or a folder holding the caller's
    /// working folder or the harness.
    fn holds(&self, dir: &Path) -> bool {
        dir.parent().is_none()
            || self.temp.iter().any(|t| t == dir)
            || self.home.as_deref() == Some(dir)
            || self.cwd.as_ref().is_some_and(|c| c.starts_with(dir))
            || self.exe.as_ref().is_some_and(|e| e.starts_with(dir))
    }

    fn own_of(&self, named: impl IntoIterator<Item = PathBuf>) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for path in named {
            let path = fs::canonicalize(&path).unwrap_or(path);
            let own = if path.is_dir() {
                // A named folder is the program's own; its parent may hold
                // anything (a pack's suite beside its model's classes).
                // The caller's working folder named itself (`java -cp .
                // Main` typed where the classes are) is the program's
                // own: the caller named it; a folder above it is not.
                let named_here = self.cwd.as_deref() == Some(path.as_path())
                    && path.parent().is_some()
                    && !self.temp.contains(&path)
                    && self.home.as_deref() != Some(path.as_path())
                    && !self.exe.as_ref().is_some_and(|e| e.starts_with(&path));
                if self.holds(&path) && !named_here {
                    continue;
                }
                path
            } else {
                match path.parent() {
                    Some(dir) if !self.holds(dir) => dir.to_owned(),
                    _ => path.clone(),
                }
            };
            if !out.contains(&own) {
                out.push(own);
            }
        }
        out
    }
}

/// Rulesets a process keeps at most.
const MAX_KEPT: usize = 16;

/// Built rulesets by their list of the run's own paths.
static BUILT: Mutex<Option<HashMap<Vec<PathBuf>, RulesetCreated>>> = Mutex::new(None);

/// Why the read rules could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReadsError {
    /// The kernel refused the rules.
    #[error("Landlock (reads): {0}")]
    Ruleset(#[from] landlock::RulesetError),
    /// The kernel accepted them but enforces none.
    #[error("Landlock (reads) is not enforced by this kernel")]
    NotEnforced,
    /// A ruleset could not be duplicated.
    #[error("Landlock (reads): {0}")]
    Io(#[from] std::io::Error),
}

/// A ruleset allowing the system part and `own` (the run's folders and
/// what the caller named), ready to be put on a process: built on first
/// use, then duplicated.
pub fn ruleset(own: &[PathBuf]) -> Result<RulesetCreated, ReadsError> {
    let mut built = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
    let map = built.get_or_insert_with(HashMap::new);
    if let Some(r) = map.get(own) {
        return Ok(r.try_clone()?);
    }
    // A keeper that ran many different programs keeps a few lists only.
    if map.len() >= MAX_KEPT {
        map.clear();
    }
    // Signals and abstract sockets scoped to this layer too (where the
    // kernel has Landlock ABI 6): the keeper's own scope leaves the keeper
    // in reach, being inside it, and with no PID namespace nothing else
    // keeps a program from stopping its keeper.
    let mut rules = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(handled())?
        .set_compatibility(CompatLevel::BestEffort)
        .scope(Scope::Signal | Scope::AbstractUnixSocket)?
        .create()?;
    for path in system().iter().chain(own) {
        // A path that does not exist (no `/lib32` here, a `--allow-read`
        // that is gone) allows nothing.
        let Ok(fd) = PathFd::new(path) else { continue };
        let rights = if fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            handled()
        } else {
            AccessFs::from_file(ABI::V1) & handled()
        };
        rules = rules.add_rule(PathBeneath::new(fd, rights))?;
    }
    let copy = rules.try_clone()?;
    map.insert(own.to_vec(), rules);
    Ok(copy)
}

/// Whether this kernel can narrow reads (Landlock of any ABI), asked
/// once: making a ruleset restricts nothing.
pub fn available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        Ruleset::default()
            .set_compatibility(CompatLevel::HardRequirement)
            .handle_access(handled())
            .and_then(Ruleset::create)
            .is_ok()
    })
}

/// Whether this kernel's Landlock scopes signals (ABI 6): without it, a
/// program at the `landlock` level, where no PID namespace hides them, may
/// signal the harness and its keeper.
pub fn scopes_signals() -> bool {
    static SCOPES: OnceLock<bool> = OnceLock::new();
    *SCOPES.get_or_init(|| {
        Ruleset::default()
            .set_compatibility(CompatLevel::HardRequirement)
            .scope(Scope::Signal)
            .and_then(Ruleset::create)
            .is_ok()
    })
}

/// Puts `ruleset` on the calling process and all it starts from then on
/// (a resident keeper, once; or a program alone, between `fork` and
/// `exec`).
pub fn enforce(ruleset: RulesetCreated) -> Result<(), ReadsError> {
    match ruleset.restrict_self()?.ruleset {
        RulesetStatus::NotEnforced => Err(ReadsError::NotEnforced),
        RulesetStatus::FullyEnforced | RulesetStatus::PartiallyEnforced => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_entries_of_etc_are_left_out() {
        let etc = tempfile::tempdir().unwrap();
        let p = etc.path();
        fs::write(p.join("passwd"), b"x").unwrap();
        fs::write(p.join("shadow"), b"x").unwrap();
        fs::set_permissions(p.join("shadow"), fs::Permissions::from_mode(0o640)).unwrap();
        fs::create_dir_all(p.join("ssl/certs")).unwrap();
        fs::write(p.join("ssl/certs/ca.pem"), b"x").unwrap();
        fs::create_dir(p.join("ssl/private")).unwrap();
        fs::set_permissions(p.join("ssl/private"), fs::Permissions::from_mode(0o700)).unwrap();
        fs::create_dir(p.join("open")).unwrap();
        fs::write(p.join("open/a"), b"x").unwrap();
        let mut got = etc_entries(p);
        got.sort();
        let want: Vec<PathBuf> = ["open", "passwd", "ssl/certs"]
            .iter()
            .map(|n| p.join(n))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn a_programs_own_files_are_its_folder_unless_that_holds_the_callers() {
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().join("ass1");
        fs::write(&program, b"x").unwrap();
        let here = std::env::current_dir().unwrap().join("Cargo.toml");
        // Named twice: listed once.
        let got = own_of([program.clone(), here.clone(), program]);
        assert_eq!(
            got,
            [
                fs::canonicalize(dir.path()).unwrap(),
                fs::canonicalize(&here).unwrap()
            ]
        );
    }

    /// A [`Shared`] with the given folders, none of this process's.
    fn shared(cwd: &Path, home: &Path, exe: &Path) -> Shared {
        Shared {
            cwd: Some(cwd.to_owned()),
            home: Some(home.to_owned()),
            exe: Some(exe.to_owned()),
            temp: vec![PathBuf::from("/tmp"), PathBuf::from("/var/tmp")],
        }
    }

    #[test]
    fn a_program_in_a_temporary_folder_itself_reads_its_file_alone() {
        let s = shared(
            Path::new("/w/suite"),
            Path::new("/home/u"),
            Path::new("/o/h"),
        );
        let named = [PathBuf::from("/tmp/prog"), PathBuf::from("/var/tmp/other")];
        assert_eq!(s.own_of(named.clone()), named);
        // A folder of its own below /tmp is its own.
        assert_eq!(
            s.own_of([PathBuf::from("/tmp/run1/prog")]),
            [PathBuf::from("/tmp/run1")]
        );
    }

    #[test]
    fn a_program_beside_the_harness_reads_its_file_alone() {
        let s = shared(
            Path::new("/w/suite"),
            Path::new("/home/u"),
            Path::new("/src/target/debug/boxes-harness"),
        );
        for named in ["/src/target/debug/prog", "/src/target/prog", "/src/prog"] {
            assert_eq!(s.own_of([PathBuf::from(named)]), [PathBuf::from(named)]);
        }
        // A sibling folder of the harness's is not ours.
        assert_eq!(
            s.own_of([PathBuf::from("/src/target/release/prog")]),
            [PathBuf::from("/src/target/release")]
        );
    }

    #[test]
    fn a_program_in_the_home_or_above_the_callers_folder_reads_its_file_alone() {
        let s = shared(
            Path::new("/home/u/course"),
            Path::new("/home/u"),
            Path::new("/o/h"),
        );
        for named in ["/home/u/prog", "/home/u/course/prog", "/prog"] {
            assert_eq!(s.own_of([PathBuf::from(named)]), [PathBuf::from(named)]);
        }
        assert_eq!(
            s.own_of([PathBuf::from("/home/u/course/bin/prog")]),
            [PathBuf::from("/home/u/course/bin")]
        );
    }

    #[test]
    fn a_named_folder_is_its_own_never_its_parent() {
        let parent = tempfile::tempdir().unwrap();
        let classes = parent.path().join("classes");
        fs::create_dir(&classes).unwrap();
        let real = fs::canonicalize(&classes).unwrap();
        let s = shared(
            Path::new("/w/suite"),
            Path::new("/home/u"),
            Path::new("/o/h"),
        );
        assert_eq!(s.own_of([classes.join(".")]), std::slice::from_ref(&real));
        // A folder that holds the caller's (or is the root) is nobody's.
        let s = shared(
            &real.join("course"),
            Path::new("/home/u"),
            Path::new("/o/h"),
        );
        assert!(s.own_of([classes, PathBuf::from("/")]).is_empty());
        // The caller's own folder named (`java -cp . Main` typed in a
        // folder under /tmp) is the program's; not when it is the home,
        // a temporary folder itself, or holds the harness.
        let s = shared(&real, Path::new("/home/u"), Path::new("/o/h"));
        assert_eq!(s.own_of([real.clone()]), std::slice::from_ref(&real));
        let s = shared(&real, &real, Path::new("/o/h"));
        assert!(s.own_of([real.clone()]).is_empty());
        let s = shared(&real, Path::new("/home/u"), &real.join("boxes-harness"));
        assert!(s.own_of([real.clone()]).is_empty());
        let s = shared(Path::new("/tmp"), Path::new("/home/u"), Path::new("/o/h"));
        assert!(s.own_of([PathBuf::from("/tmp")]).is_empty());
    }

    #[test]
    fn a_program_reads_the_system_and_its_own_folder_only() {
        let own = tempfile::tempdir().unwrap();
        let other = tempfile::tempdir().unwrap();
        fs::write(own.path().join("mine"), b"m").unwrap();
        fs::write(other.path().join("theirs"), b"t").unwrap();
        let (own_path, other_path) = (own.path().to_owned(), other.path().to_owned());
        let results = std::thread::spawn(move || {
            ruleset(std::slice::from_ref(&own_path))
                .and_then(enforce)
                .map(|()| {
                    (
                        fs::read(own_path.join("mine")).is_ok(),
                        fs::read(other_path.join("theirs"))
                            .map_err(|e| e.kind())
                            .err(),
                        fs::read("/etc/passwd").is_ok(),
                        fs::read("/etc/shadow").is_ok(),
                    )
                })
        })
        .join()
        .unwrap();
        match results {
            Ok(r) => assert_eq!(
                r,
                (
                    true,
                    Some(std::io::ErrorKind::PermissionDenied),
                    true,
                    false
                )
            ),
            Err(ReadsError::Ruleset(e)) => eprintln!("no Landlock here: {e}"),
            Err(e) => panic!("{e}"),
        }
    }
}
