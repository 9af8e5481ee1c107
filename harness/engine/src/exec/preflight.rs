//! The preflight: before the first case, `--bin` is started once (no
//! arguments, empty stdin, a short timeout, in the same sandbox as every
//! case). A program that cannot even be executed would otherwise fail every
//! case with the same cryptic error; this turns it into one set-up error
//! that says why: a carriage return at the end of the `#!` line, a missing
//! interpreter or dynamic loader, another architecture, not an executable
//! format, no permission. The same run says what the program prints
//! first (`mark`'s usage line) and makes a Java program's class-data
//! archive.
//!
//! One piece: the one run before the cases and every reading of it (why
//! it could not start, in words a student can act on, what it printed,
//! the archive it left) must agree on the same outcome.

use std::io::Read as _;
use std::path::Path;
use std::time::Duration;

use crate::exec::run::{self, Invocation, RunError, Target};

/// How long the preflight run may take: it only has to start. What it
/// looks for comes at once (the kernel refusing the exec, a shell or loader
/// saying so and exiting, a sanitizer's runtime failing before `main`); a
/// program still running after this has started, and one that waits for
/// other input than the empty one would otherwise delay every run by this
/// much.
const PREFLIGHT_TIMEOUT: Duration = Duration::from_secs(1);

/// `--bin` cannot be executed; the message explains why.
#[derive(Debug, thiserror::Error)]
#[error("{path} cannot be executed: {why}")]
pub struct PreflightError {
    /// The program.
    pub path: String,
    /// Why, in words a student can act on.
    pub why: String,
}

/// How long the preflight of a Java program may take: its run also
/// writes the class-data archive its cases start from
/// ([`crate::exec::run::jvm`]), which a busy machine slows.
pub const ARCHIVE_TIMEOUT: Duration = Duration::from_secs(3);

/// What the preflight's run gave besides the program starting: what it
/// printed first and, for a Java program, the class-data archive of its
/// start.
#[derive(Debug, Default)]
pub struct Started {
    /// The first line it printed (stderr, else stdout), trimmed: a
    /// program's usage line, run without arguments.
    pub said: Option<String>,
    /// The class-data archive this run made, whole.
    pub archive: Option<Vec<u8>>,
}

/// Starts `target` once; `Err` when it cannot be executed at all. How it
/// behaves once started (any status, any output) is the cases' business.
pub fn check(target: &Target) -> Result<(), PreflightError> {
    check_starting(target).map(drop)
}

/// [`check`], with what the run gave ([`start`]).
pub fn check_starting(target: &Target) -> Result<Started, PreflightError> {
    start(target, PREFLIGHT_TIMEOUT)
}

/// [`check`], given `timeout`, saying what the run printed first and,
/// for a Java program that starts quick ([`crate::exec::run::jvm`]),
/// making its class-data archive: the one run of the program before its
/// cases does both.
pub fn start(target: &Target, timeout: Duration) -> Result<Started, PreflightError> {
    start_caching(
        target,
        timeout,
        crate::exec::cache::Archives::get().as_ref(),
    )
}

/// [`start`], with the archive kept in `archives` (a program checked
/// again unchanged: this run makes none) or, when made, kept there.
pub fn start_caching(
    target: &Target,
    timeout: Duration,
    archives: Option<&crate::exec::cache::Archives>,
) -> Result<Started, PreflightError> {
    use crate::exec::run::jvm;
    let dump = target
        .wants_archive()
        .then(|| jvm::dumping(target.words()))
        .flatten();
    let key = dump.as_ref().zip(archives).and_then(|((words, files), _)| {
        crate::exec::run::jdk::archive_key(target.path(), words, files)
    });
    let kept = key
        .as_deref()
        .zip(archives)
        .and_then(|(key, archives)| archives.load(key));
    let dump = dump.filter(|_| kept.is_none());
    let making = dump.is_some();
    let (run_target, files) = match dump {
        Some((words, files)) => (
            target
                .clone()
                .with_words(words)
                .with_archive(jvm::Archive::Make),
            files,
        ),
        None => (target.clone(), Vec::new()),
    };
    let mut inv = Invocation::new(run_target, Vec::new(), Vec::new());
    inv.files = files;
    inv.timeout = if making {
        timeout.max(ARCHIVE_TIMEOUT)
    } else {
        timeout
    };
    match run::run(&inv) {
        Ok(mut outcome) => {
            match sanitizer_failed(&outcome.stderr).or_else(|| cannot_start(target, &outcome)) {
                None => {
                    let made = outcome.files.remove(jvm::ARCHIVE).filter(|a| {
                        !a.is_empty()
                            && matches!(outcome.ending, run::Ending::Exited(_))
                            && outcome.no_start.is_none()
                    });
                    if let (Some(made), Some(key), Some(archives)) = (&made, &key, archives) {
                        archives.store(key, made);
                    }
                    Ok(Started {
                        said: first_line(&outcome.stderr).or_else(|| first_line(&outcome.stdout)),
                        archive: kept.or(made),
                    })
                }
                Some(why) => Err(PreflightError {
                    path: target.describe(),
                    why,
                }),
            }
        }
        Err(RunError::Interrupted) => Ok(Started::default()),
        Err(RunError::Spawn { path, source }) => Err(PreflightError {
            path: path.display().to_string(),
            why: diagnose(&path, &source),
        }),
        Err(other) => Err(PreflightError {
            path: target.path().display().to_string(),
            why: other.to_string(),
        }),
    }
}

/// The first line of `bytes`, trimmed, when it holds any.
pub fn first_line(bytes: &[u8]) -> Option<String> {
    let line = bytes.split(|&b| b == b'\n').next()?.trim_ascii();
    (!line.is_empty()).then(|| String::from_utf8_lossy(line).into_owned())
}

/// What a sanitizer's runtime prints when it cannot set itself up (its
/// shadow memory refused, a layout it cannot live with), before the
/// program's `main`: every case would fail with the same text.
const SANITIZER_START_FAILURES: [&str; 5] = [
    "failed to allocate",
    "ReserveShadowMemoryRange failed",
    "Shadow memory range interleaves",
    "failed to mmap",
    "ASan runtime does not come first",
];

/// Why a sanitizer could not start, from the first run's stderr: the
/// sanitizer's own line (bounded), and what commonly causes it.
fn sanitizer_failed(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr.get(..8192).unwrap_or(stderr));
    let line = text.lines().find(|l| {
        l.contains("Sanitizer")
            && !l.contains("SUMMARY")
            && SANITIZER_START_FAILURES.iter().any(|f| l.contains(f))
    })?;
    let line: String = line.trim().chars().take(300).collect();
    Some(format!(
        "its sanitizer cannot start in the sandbox (`{line}`), so every case would fail the \
         same way. The harness bounds a sanitized executable it is given by the memory it \
         holds; one started through a script or another program is bounded by its address \
         space, which a sanitizer's shadow memory exceeds: give the sanitized executable \
         itself (docs/containment.md, the memory bound)"
    ))
}

/// What interpreters say, on their first line of stderr, when they cannot
/// open the script they were given (Python, Perl, Node, Ruby, Java, sh).
const CANNOT_OPEN: [&str; 5] = [
    "can't open file",
    "Can't open perl script",
    "Cannot find module",
    "No such file or directory",
    "Could not find or load main class",
];

/// What a shell or the loader says, on its first line of stderr, of a
/// command it cannot run (status 126) or find (127).
const SHELL_CANNOT_RUN: [&str; 5] = [
    "not found",
    "cannot execute",
    "No such file or directory",
    "Exec format error",
    "Permission denied",
];

/// Why a program that started could not run what it was given: the
/// shell's statuses for a command that cannot be executed (126) or found
/// (127), or an interpreter whose first line of stderr says it cannot open
/// a file its command line names (`python3: can't open file
/// '/x/fuel.py'`). A program's own behaviour (any other status, its own
/// error messages) is left to the cases.
pub fn cannot_start(target: &Target, outcome: &run::Outcome) -> Option<String> {
    let first = String::from_utf8_lossy(&outcome.stderr)
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(300)
        .collect::<String>();
    let said = if first.is_empty() {
        String::new()
    } else {
        format!(": `{first}`")
    };
    match outcome.ending {
        run::Ending::Exited(126) if first.contains("Permission denied") => {
            return Some(format!(
                "it ended with status 126 (a command it runs cannot be executed){said}: the \
                 sandbox lets a program read the system's folders and its own, nothing else; \
                 a program it runs from elsewhere needs that folder given to `--allow-read` \
                 (docs/containment.md)"
            ));
        }
        // A program may choose 126 or 127 itself: only a shell's or the
        // loader's own words say the command could not run.
        run::Ending::Exited(code @ (126 | 127))
            if SHELL_CANNOT_RUN.iter().any(|p| first.contains(p)) =>
        {
            return Some(format!(
                "it ended with status {code}, as a command that cannot be {} does{said}",
                if code == 126 { "executed" } else { "found" }
            ));
        }
        _ => {}
    }
    // Whole words of the line only: `sh` is not named by `shadow.txt`.
    let tokens: Vec<&str> = first
        .split(|c: char| c.is_whitespace() || "'\"`:()[]{},;".contains(c))
        .filter(|t| !t.is_empty())
        .collect();
    let names_a_word = target
        .words()
        .iter()
        .map(|w| w.to_string_lossy())
        .filter(|w| !w.starts_with('-') && w.len() > 1)
        .any(|w| {
            // The word itself, or a script's file name (`fuel.py` of
            // `/x/fuel.py`: interpreters name it either way).
            let word: &str = &w;
            let name = Path::new(word)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .filter(|n| n.contains('.') && n.len() > 2);
            tokens.iter().any(|t| {
                *t == word
                    || name.as_deref().is_some_and(|n| {
                        *t == n || t.strip_suffix(n).is_some_and(|d| d.ends_with('/'))
                    })
            })
        });
    (names_a_word && CANNOT_OPEN.iter().any(|p| first.contains(p))).then(|| {
        format!(
            "its interpreter cannot open what its command line names{said} (a path typed \
             relative to another folder, or a file the sandbox cannot read?)"
        )
    })
}

/// The first bytes of the file: enough for a `#!` line or an ELF header.
fn head(path: &Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(512).read_to_end(&mut bytes);
    }
    bytes
}

/// The machine of this harness as ELF's `e_machine`.
fn host_machine() -> Option<u16> {
    match std::env::consts::ARCH {
        "x86_64" => Some(62),
        "x86" => Some(3),
        "aarch64" => Some(183),
        "arm" => Some(40),
        "riscv64" => Some(243),
        "powerpc64" => Some(21),
        "s390x" => Some(22),
        _ => None,
    }
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

/// Why executing `path` failed with `error`, in words.
pub fn diagnose(path: &Path, error: &std::io::Error) -> String {
    let bytes = head(path);
    let errno = error.raw_os_error().unwrap_or(0);
    if let Some(rest) = bytes.strip_prefix(b"#!") {
        let line = rest.split(|&b| b == b'\n').next().unwrap_or(rest);
        if line.ends_with(b"\r") {
            return "its `#!` line ends in a carriage return (the file has Windows line \
                    endings), so the kernel looks for an interpreter whose name ends in \
                    `\\r`; convert the file to Unix line endings (`sed -i 's/\\r$//' FILE` \
                    or `dos2unix FILE`)"
                .to_owned();
        }
        let text = String::from_utf8_lossy(line);
        let interpreter = text.split_whitespace().next().unwrap_or("");
        if !Path::new(interpreter).exists() {
            return format!(
                "its `#!` line names the interpreter `{interpreter}`, which does not exist \
                 (inside the sandbox the file system is the machine's own, read-only)"
            );
        }
    }
    if let Some(header) = bytes.strip_prefix(b"\x7fELF") {
        let machine = header.get(14..16).map(|m| u16::from_le_bytes([m[0], m[1]]));
        if let (Some(m), Some(host)) = (machine, host_machine())
            && m != host
        {
            return format!(
                "it is a program for another architecture (ELF machine {m}; this machine \
                 is {} = {host}): build it here",
                std::env::consts::ARCH
            );
        }
        if errno == 2 {
            return "its dynamic loader or a library it needs is missing (built for another \
                    system or C library?): build it here"
                .to_owned();
        }
    }
    match errno {
        8 => "it is neither a program (ELF) nor a script with a `#!` line (exec format \
              error): build it, or give the script a `#!` first line"
            .to_owned(),
        13 if is_executable(path) => "permission denied: the file is executable, so the \
               sandbox refused to read it or what it runs (its interpreter, its libraries): \
               a program under test may read the system's folders and its own, nothing \
               else; give the folder it needs to `--allow-read` (docs/containment.md)"
            .to_owned(),
        13 => "permission denied: it needs execute permission (`chmod +x`) on a file \
               system that allows executing"
            .to_owned(),
        _ => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(bytes: &[u8]) -> tempfile::TempPath {
        let mut f = tempfile::NamedTempFile::new().unwrap_or_else(|e| panic!("{e}"));
        std::io::Write::write_all(&mut f, bytes).unwrap_or_else(|e| panic!("{e}"));
        f.into_temp_path()
    }

    #[test]
    fn a_program_that_cannot_start_what_it_was_given_is_named() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(dir.path().join("fuel.py"), b"").unwrap_or_else(|e| panic!("{e}"));
        let target =
            Target::command_from("sh fuel.py", dir.path()).unwrap_or_else(|e| panic!("{e}"));
        let mut o = run::Outcome::exited_with(b"");
        assert_eq!(cannot_start(&target, &o), None);
        o.ending = run::Ending::Exited(2);
        o.stderr = format!(
            "/usr/bin/python3: can't open file '{}': [Errno 2] No such file or directory\n",
            dir.path().join("fuel.py").display()
        )
        .into_bytes();
        let why = cannot_start(&target, &o).unwrap_or_default();
        assert!(why.contains("can't open file"), "{why}");
        // The program's own words about a file it was not given are its own.
        o.stderr = b"Traceback (most recent call last):\n".to_vec();
        assert_eq!(cannot_start(&target, &o), None);
        o.stderr = b"data.txt: No such file or directory\n".to_vec();
        assert_eq!(cannot_start(&target, &o), None);
        // `sh`, a word of the command line, is not named by `shadow.txt`.
        o.stderr = b"shadow.txt: No such file or directory\n".to_vec();
        assert_eq!(cannot_start(&target, &o), None);
        // A status 127 the program chose, with words of its own.
        o.ending = run::Ending::Exited(127);
        o.stderr = b"usage: fuel FRACTION\n".to_vec();
        assert_eq!(cannot_start(&target, &o), None);
        o.ending = run::Ending::Exited(126);
        o.stderr = b"./run.sh: 2: exec: /x/prog: Permission denied\n".to_vec();
        let why = cannot_start(&target, &o).unwrap_or_default();
        assert!(
            why.contains("--allow-read") && why.contains("status 126"),
            "{why}"
        );
        o.ending = run::Ending::Exited(127);
        o.stderr = b"sh: 1: nope: not found\n".to_vec();
        let why = cannot_start(&target, &o).unwrap_or_default();
        assert!(
            why.contains("status 127") && why.contains("not found"),
            "{why}"
        );
    }

    #[test]
    fn causes_are_named() {
        let enoent = std::io::Error::from_raw_os_error(2);
        let cr = script(b"#!/bin/sh\r\necho hi\r\n");
        assert!(diagnose(&cr, &enoent).contains("carriage return"));
        let missing = script(b"#!/no/such/interp -x\n");
        assert!(diagnose(&missing, &enoent).contains("`/no/such/interp`, which does not exist"));
        let mut elf = b"\x7fELF\x02\x01\x01".to_vec();
        elf.resize(18, 0);
        elf.extend_from_slice(&999u16.to_le_bytes());
        let foreign = script(&elf);
        let enoexec = std::io::Error::from_raw_os_error(8);
        assert!(diagnose(&foreign, &enoexec).contains("another architecture (ELF machine 999"));
        let text = script(b"hello\n");
        assert!(diagnose(&text, &enoexec).contains("neither a program"));
        let eacces = std::io::Error::from_raw_os_error(13);
        assert!(diagnose(&text, &eacces).contains("`chmod +x`"));
        std::fs::set_permissions(&text, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(diagnose(&text, &eacces).contains("`--allow-read`"));
    }
}

#[cfg(test)]
mod archive_tests {
    use super::*;

    /// A stand-in `java` (a script: no JVM in a unit test) that says on
    /// stderr whether it was asked to make an archive, and makes one.
    const JAVA: &str = "#!/bin/sh\nfor a; do case $a in -XX:ArchiveClassesAtExit=*) \
                        printf jsa > \"${a#*=}\"; echo making >&2; exit 0;; esac; done\n\
                        echo plain >&2\n";

    #[test]
    fn a_program_checked_again_unchanged_starts_from_its_kept_archive() {
        let dir = tempfile::tempdir().expect("a folder");
        let bin = dir.path().join("bin");
        let classes = dir.path().join("classes");
        std::fs::create_dir_all(&bin).expect("bin");
        std::fs::create_dir_all(&classes).expect("classes");
        std::fs::write(classes.join("Main.class"), b"one").expect("a class");
        let java = bin.join("java");
        std::fs::write(&java, JAVA).expect("java");
        std::fs::set_permissions(&java, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .expect("executable");
        let words = [
            java.to_string_lossy().into_owned(),
            "-cp".to_owned(),
            classes.to_string_lossy().into_owned(),
            "Main".to_owned(),
        ];
        let target = Target::command_words(&words, dir.path()).expect("a target");
        let archives = crate::exec::cache::Archives::in_folder(dir.path().join("cache"));
        let check = || start_caching(&target, ARCHIVE_TIMEOUT, Some(&archives)).expect("started");
        let first = check();
        assert_eq!(first.said.as_deref(), Some("making"));
        assert_eq!(first.archive.as_deref(), Some(&b"jsa"[..]));
        // The same classes: the kept archive, and a plain start.
        let again = check();
        assert_eq!(
            again.said.as_deref(),
            Some("plain"),
            "no archive made again"
        );
        assert_eq!(again.archive.as_deref(), Some(&b"jsa"[..]));
        // Other classes: another archive.
        std::fs::write(classes.join("Main.class"), b"two").expect("a class");
        assert_eq!(check().said.as_deref(), Some("making"));
        // No cache: made every time, as before it.
        let uncached = start_caching(&target, ARCHIVE_TIMEOUT, None).expect("started");
        assert_eq!(uncached.said.as_deref(), Some("making"));
    }
}

#[cfg(test)]
mod sanitizer_tests {
    use super::*;

    #[test]
    fn a_sanitizer_that_cannot_start_is_named() {
        let stderr = b"==12==ERROR: AddressSanitizer failed to allocate 0xdfff0001000 (15392894357504) \
bytes at address 2008fff7000 (errno: 12)\n==12==ReserveShadowMemoryRange failed while trying to map \
0xdfff0001000 bytes. Perhaps you're using ulimit -v\n";
        let why = sanitizer_failed(stderr).unwrap();
        assert!(why.contains("AddressSanitizer failed to allocate"), "{why}");
        assert_eq!(
            sanitizer_failed(b"==1==ERROR: AddressSanitizer: heap-buffer-overflow\n"),
            None
        );
        assert_eq!(sanitizer_failed(b"Usage: prog height width\n"), None);
    }
}
