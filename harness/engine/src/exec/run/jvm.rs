//! A Java program's start made cheap (issue 53): a program started by
//! `java` gets, before its own words, start-up options that change how
//! fast the JVM starts, never what the program does: the quick compiler
//! only (`-XX:TieredStopAtLevel=1`), compiling only what runs 5 times as
//! often as by default (`-XX:CompileThresholdScaling=5`), the serial
//! collector (fewer threads),
//! no shared-memory file for monitoring tools (`-XX:-UsePerfData`),
//! class-data sharing on (`-Xshare:auto`), and the class-data archive of
//! its own first run when one was made ([`Archive`]: by the run that
//! checks it starts, `exec::preflight`, and kept in the cache,
//! `exec::cache`, by `jdk::archive_key`: a program checked again unchanged
//! starts from it with no run to make it). An option the
//! program's own words already set is left to them (a collector of their
//! own would make two, which the JVM refuses), and a pack turns all of
//! this off (`java-start: plain` in `pack.yaml`: [`set_quick`]).
//!
//! Why the options are safe: an archive that is missing, cut short or
//! made by another JVM is ignored without a word under `-Xshare:auto`
//! (checked on JDK 17: nothing on stdout or stderr, the same status; one
//! whose jar changed since would warn on stdout, which `-Xlog` turns
//! off for sharing's messages alone), and
//! the archive holds the JDK's classes only (classes from a folder on the
//! class path are not archived), so it never stands for the program's own.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::exec::interrupt::Ticket;

/// The archive's file name: in the run's folder when it is made, beside
/// the program when kept.
pub const ARCHIVE: &str = ".conformance-classes.jsa";

/// Class-data sharing's own messages off (JDK 9 and later's `-Xlog`).
const QUIET_SHARING: &str = "-Xlog:cds*=off,class+path*=off";

static QUICK: AtomicBool = AtomicBool::new(true);

/// Whether programs started by `java` get the quick start-up options
/// (the default) or start as their command line says.
pub fn set_quick(quick: bool) {
    QUICK.store(quick, Ordering::SeqCst);
}

/// Whether the quick start is on.
pub fn quick() -> bool {
    QUICK.load(Ordering::SeqCst)
}

/// What a Java program's start does with a class-data archive.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Archive {
    /// None of its own: the JDK's.
    #[default]
    None,
    /// Make one at exit, [`ARCHIVE`] in the run's folder.
    Make,
    /// Start from this one.
    Use(PathBuf),
}

/// Archives kept for the command (a `--bin` checked with no build of
/// ours: the archive its first run made), each in a temporary folder
/// registered with the interrupt.
static KEPT: Mutex<Vec<(tempfile::TempDir, Ticket)>> = Mutex::new(Vec::new());

/// While alive, archives kept by [`keep`] stay; dropping it removes them.
#[derive(Debug)]
#[must_use = "archives are kept only while the scope lives"]
pub struct Scope(());

impl Scope {
    /// Starts the scope (the command line holds one for the command).
    pub fn enter() -> Self {
        Self(())
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let kept = std::mem::take(&mut *KEPT.lock().unwrap_or_else(PoisonError::into_inner));
        for (dir, _ticket) in kept {
            let _ = dir.close();
        }
    }
}

/// Writes `bytes` (an archive a run made) to a temporary folder kept
/// until the [`Scope`] ends, and says where; `None` if it cannot.
pub fn keep(bytes: &[u8]) -> Option<PathBuf> {
    let (ticket, dir) = Ticket::register(|| {
        let dir = tempfile::Builder::new()
            .prefix("conformance-jvm-")
            .tempdir()?;
        let path = dir.path().to_owned();
        Ok((dir, path))
    })
    .ok()?
    .ok()?;
    let path = dir.path().join(ARCHIVE);
    std::fs::write(&path, bytes).ok()?;
    KEPT.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push((dir, ticket));
    Some(path)
}

/// Files placed in a run's folder: each path and its bytes.
pub type Placed = Vec<(String, Vec<u8>)>;

/// Bytes of a program's class-path folder copied for the run that makes
/// its archive, at most.
const DUMP_COPY_CAP: u64 = 64 << 20;

/// The run that makes a Java program's archive, from `words` (its command
/// line's): JDK 17 refuses to write an archive (status 1, "Cannot have
/// non-empty directory in paths") while a non-empty folder is on the
/// class path, unless the class path is `.` alone, which it skips as the
/// launcher's default. So that run gets the files of the program's one
/// class-path folder copied into its own folder, and `.` for the class
/// path: the words to run with and the files to place. `None` for any
/// other class path (several parts, a jar), or a folder too big to copy:
/// no archive is made.
pub fn dumping(words: &[OsString]) -> Option<(Vec<OsString>, Placed)> {
    let at = words.iter().position(|w| {
        ["-cp", "-classpath", "--class-path"]
            .iter()
            .any(|o| w == *o)
    })? + 1;
    let folder = PathBuf::from(words.get(at)?);
    if !folder.is_absolute() || !folder.is_dir() {
        return None;
    }
    let mut files = Vec::new();
    let mut total = 0u64;
    for entry in walkdir::WalkDir::new(&folder)
        .max_depth(16)
        .follow_links(false)
    {
        let entry = entry.ok()?;
        if !entry.file_type().is_file() || entry.file_name() == ARCHIVE {
            continue;
        }
        total += entry.metadata().ok()?.len();
        if total > DUMP_COPY_CAP {
            return None;
        }
        let rel = entry
            .path()
            .strip_prefix(&folder)
            .ok()?
            .to_str()?
            .to_owned();
        files.push((rel, std::fs::read(entry.path()).ok()?));
    }
    let mut dump_words = words.to_vec();
    dump_words[at] = OsString::from(".");
    Some((dump_words, files))
}

/// Whether `program` is a JVM's launcher.
pub fn is_java(program: &Path) -> bool {
    program.file_name().is_some_and(|n| n == "java")
}

/// The options put before the words of `program` (started with `words`)
/// for a quick start; none for a program that is not `java`, or when the
/// quick start is off.
pub fn start_options(program: &Path, words: &[OsString], archive: &Archive) -> Vec<OsString> {
    if !quick() || !is_java(program) {
        return Vec::new();
    }
    let own: Vec<String> = words
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let sets = |prefixes: &[&str]| {
        own.iter()
            .any(|w| prefixes.iter().any(|p| w.starts_with(p)))
    };
    let mut options = Vec::new();
    if !sets(&[
        "-XX:TieredStopAtLevel",
        "-XX:-TieredCompilation",
        "-Xint",
        "-Xcomp",
    ]) {
        options.push(OsString::from("-XX:TieredStopAtLevel=1"));
    }
    // Methods compiled after 5 times as many calls as by default: a
    // case's run is over before most of what the JVM compiles at start
    // would pay (its compiler took a fifth of a check's CPU); a program
    // that runs long compiles its hot loops a few milliseconds later.
    if !sets(&[
        "-XX:CompileThreshold",
        "-XX:Tier0",
        "-XX:Tier2",
        "-XX:Tier3",
        "-XX:Tier4",
        "-Xint",
        "-Xcomp",
    ]) {
        options.push(OsString::from("-XX:CompileThresholdScaling=5"));
    }
    let collector = own.iter().any(|w| {
        w.strip_prefix("-XX:+Use")
            .or_else(|| w.strip_prefix("-XX:-Use"))
            .is_some_and(|rest| rest.ends_with("GC"))
    });
    if !collector {
        options.push(OsString::from("-XX:+UseSerialGC"));
    }
    // The shared-memory file monitoring tools read (`jps`, `jstat`):
    // written at every start, in a sandbox's folder no tool looks at.
    if !sets(&["-XX:+UsePerfData", "-XX:-UsePerfData"]) {
        options.push(OsString::from("-XX:-UsePerfData"));
    }
    let sharing_own = sets(&[
        "-Xshare",
        "-XX:SharedArchiveFile",
        "-XX:ArchiveClassesAtExit",
        "-XX:+AutoCreateSharedArchive",
    ]);
    if !sharing_own {
        // An archive the JVM cannot use (a jar of the class path changed
        // since) is said as a warning on stdout by default: never the
        // program's words.
        options.push(OsString::from(QUIET_SHARING));
        options.push(OsString::from("-Xshare:auto"));
        match archive {
            Archive::None => {}
            Archive::Make => {
                options.push(OsString::from(format!(
                    "-XX:ArchiveClassesAtExit={ARCHIVE}"
                )));
            }
            Archive::Use(path) => {
                let mut option = OsString::from("-XX:SharedArchiveFile=");
                option.push(path);
                options.push(option);
            }
        }
    }
    options
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(program: &str, words: &[&str], archive: &Archive) -> Vec<String> {
        let words: Vec<OsString> = words.iter().map(OsString::from).collect();
        start_options(Path::new(program), &words, archive)
            .into_iter()
            .map(|o| o.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn the_archive_is_made_from_a_copy_of_the_one_class_path_folder_as_dot() {
        let dir = tempfile::tempdir().expect("a folder");
        std::fs::create_dir(dir.path().join("mooc")).expect("a package");
        std::fs::write(dir.path().join("mooc/Main.class"), b"class").expect("a class");
        std::fs::write(dir.path().join(ARCHIVE), b"old").expect("an old archive");
        let words = |cp: &std::path::Path| -> Vec<OsString> {
            vec!["-cp".into(), cp.into(), "mooc.Main".into()]
        };
        let (dump, files) = dumping(&words(dir.path())).expect("one folder");
        assert_eq!(dump, ["-cp", ".", "mooc.Main"]);
        assert_eq!(files, [("mooc/Main.class".to_owned(), b"class".to_vec())]);
        let jar = dir.path().join("lib.jar");
        assert!(dumping(&words(&jar)).is_none(), "not a folder");
        let two = OsString::from(format!("{}:/x", dir.path().display()));
        assert!(dumping(&["-cp".into(), two, "Main".into()]).is_none());
    }

    #[test]
    fn java_starts_quick_and_its_own_options_win() {
        let kept = Archive::Use(PathBuf::from("/p/.conformance-classes.jsa"));
        assert_eq!(
            options("/usr/bin/java", &["-cp", "/p", "Main"], &kept),
            [
                "-XX:TieredStopAtLevel=1",
                "-XX:CompileThresholdScaling=5",
                "-XX:+UseSerialGC",
                "-XX:-UsePerfData",
                QUIET_SHARING,
                "-Xshare:auto",
                "-XX:SharedArchiveFile=/p/.conformance-classes.jsa"
            ]
        );
        assert_eq!(
            options("/usr/bin/java", &["-cp", ".", "Main"], &Archive::Make),
            [
                "-XX:TieredStopAtLevel=1",
                "-XX:CompileThresholdScaling=5",
                "-XX:+UseSerialGC",
                "-XX:-UsePerfData",
                QUIET_SHARING,
                "-Xshare:auto",
                "-XX:ArchiveClassesAtExit=.conformance-classes.jsa"
            ]
        );
        // A collector, a compiler choice or sharing of the program's own.
        assert_eq!(
            options(
                "/usr/bin/java",
                &[
                    "-XX:+UseG1GC",
                    "-Xint",
                    "-Xshare:off",
                    "-XX:+UsePerfData",
                    "-cp",
                    ".",
                    "Main"
                ],
                &kept
            ),
            Vec::<String>::new()
        );
        // The run line's compiler level leaves the thresholds to us; its
        // own threshold does not.
        let level = options("/usr/bin/java", &["-XX:TieredStopAtLevel=1", "Main"], &kept);
        assert!(
            level.contains(&"-XX:CompileThresholdScaling=5".to_owned()),
            "{level:?}"
        );
        let own = options(
            "/usr/bin/java",
            &["-XX:Tier3InvocationThreshold=9", "M"],
            &kept,
        );
        assert!(
            !own.iter().any(|o| o.starts_with("-XX:CompileThreshold")),
            "{own:?}"
        );
        assert!(options("/usr/bin/python3", &["fuel.py"], &kept).is_empty());
        assert!(options("/usr/bin/javac", &["Main.java"], &kept).is_empty());
    }
}
