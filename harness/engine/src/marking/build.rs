//! A submission's build, contained like a case: its files placed in a
//! fresh sandbox, the build line run by `sh -c` with the same limits and
//! containment as a program under test (no network, writes only inside,
//! a time limit, output capped), then the executable taken out.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::exec::run::{self, Ending, Invocation, Keep, Limits, Target};

use crate::model::files::Files;

/// Bytes of the build's output kept for `build.log`.
const LOG_KEPT: u64 = 256 << 10;
/// Bytes of output after which the build is killed; also the largest
/// program taken out of the sandbox (the survey reads files up to it).
const OUTPUT_CAP: u64 = 64 << 20;

/// How a build ended, as `marks.csv` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BuildStatus {
    /// It made the program.
    Ok,
    /// It failed (a non-zero status, a signal, too much output), or the
    /// submission could not be read.
    Failed,
    /// It ran past its time limit.
    Timeout,
    /// It succeeded without making the program (or made one that does
    /// not run).
    NoBinary,
}

impl fmt::Display for BuildStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Ok => "ok",
            Self::Failed => "failed",
            Self::Timeout => "timeout",
            Self::NoBinary => "no-binary",
        })
    }
}

/// What a build gave.
#[derive(Debug)]
pub struct Built {
    /// How it ended.
    pub status: BuildStatus,
    /// Why, in one line, when it is not `ok`.
    pub reason: Option<String>,
    /// Compiler warnings (lines with `warning:`).
    pub warnings: usize,
    /// The command and its output, for `build.log`.
    pub log: Vec<u8>,
    /// The program's bytes.
    pub program: Option<Vec<u8>>,
    /// Every file the build's folder holds afterwards (what it made
    /// executable marked so), when asked for: a program run by a course's
    /// run line (`python3 fuel.py`) may read its other files.
    pub folder: Option<Files>,
    /// The build's runtime (a `javac`'s or `kotlinc`'s JVM) never
    /// started, run again and still not: the machine's failure, told
    /// as an environment failure, never a build failed by the student.
    pub no_start: Option<run::NoStart>,
}

impl Built {
    /// The environment's failure the build met, as a row keeps it: its
    /// compiler's runtime never started.
    pub fn environment(&self) -> Option<String> {
        self.no_start.as_ref().map(|no| {
            format!(
                "the build's runtime could not start where the marks run ({} runs): {}",
                no.tries, no.said
            )
        })
    }
}

/// Lines of `log` that report a compiler warning. The JVM's own (`OpenJDK
/// 64-Bit Server VM warning: Options -Xverify:none ... deprecated`, which
/// Debian's `kotlinc` prints on every build) is the environment's, not
/// one about the student's code.
pub fn count_warnings(log: &[u8]) -> usize {
    log.split(|&b| b == b'\n')
        .filter(|line| {
            line.windows(9)
                .any(|w| w == b"warning: " || w == b"warning:\n")
                && !line.windows(12).any(|w| w == b" VM warning:")
        })
        .count()
}

/// The compiler's first error line (`…: error: …`, `…: fatal error: …`,
/// or make's `*** …`), else the last line the build printed; bounded.
pub fn first_error(log: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(log);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let line = lines
        .iter()
        .find(|l| l.contains("error:") || l.contains("Error:"))
        .or_else(|| lines.iter().find(|l| l.contains("***")))
        .or_else(|| lines.last())?;
    Some(line.chars().take(200).collect())
}

/// A submission with no build line: it runs as handed in, so it must hold
/// `program`.
fn as_handed_in(files: &Files, program: &str, keep_folder: bool) -> Built {
    let found = files.0.get(program).cloned();
    let reason = found.is_none().then(|| {
        format!("the submission holds no `{program}` (nothing is built: it runs as handed in)")
    });
    let mut log = b"no build: the submission runs as handed in\n".to_vec();
    if let Some(r) = &reason {
        log.extend_from_slice(format!("\n[{r}]\n").as_bytes());
    }
    Built {
        status: if found.is_some() {
            BuildStatus::Ok
        } else {
            BuildStatus::NoBinary
        },
        reason,
        warnings: 0,
        log,
        folder: (keep_folder && found.is_some()).then(|| files.clone()),
        program: found,
        no_start: None,
    }
}

/// The compilers a build line may start with, which take `--memcheck`'s
/// flags on the line itself when it names no `CFLAGS`.
const COMPILERS: [&str; 6] = ["gcc", "cc", "g++", "c++", "clang", "clang++"];

/// `line` as a build with `flags` runs it: a line that starts with a C or
/// C++ compiler and names no `CFLAGS` or `CXXFLAGS` (`gcc -Wall -o prog
/// *.c`, the built-in packs' lines) gets them after the compiler; any
/// other line (`make`, `cc $CFLAGS …`) takes them from the environment.
pub fn line_with_flags(line: &str, flags: &str) -> String {
    let trimmed = line.trim_start();
    let first = trimmed.split_whitespace().next().unwrap_or_default();
    let name = first.rsplit('/').next().unwrap_or(first);
    if COMPILERS.contains(&name) && !line.contains("CFLAGS") && !line.contains("CXXFLAGS") {
        format!("{first} {flags}{}", &trimmed[first.len()..])
    } else {
        line.to_owned()
    }
}

/// Builds `files` with `line` (run by `/bin/sh -c`), expecting `program`;
/// with `keep_folder`, every file the build leaves is kept too; with
/// `flags` (`--memcheck`'s), `CFLAGS`, `CXXFLAGS` and `LDFLAGS` hold them
/// (make's built-in rules and a Makefile's `CFLAGS +=` take them) and a
/// compiler's line takes them itself ([`line_with_flags`]). An empty line
/// ([`crate::packs::pack::NO_BUILD`]) builds nothing.
pub fn build(
    files: &Files,
    line: &str,
    program: &str,
    limit: Duration,
    keep_folder: bool,
    flags: Option<&str>,
) -> Result<Built, String> {
    if line == crate::packs::pack::NO_BUILD {
        return Ok(as_handed_in(files, program, keep_folder));
    }
    let sh = Target::binary(std::path::Path::new("/bin/sh")).map_err(|e| e.to_string())?;
    let line = &flags.map_or_else(|| line.to_owned(), |f| line_with_flags(line, f));
    let mut inv = Invocation::new(sh, vec!["-c".into(), line.into()], Vec::new());
    if let Some(f) = flags {
        inv.env = ["CFLAGS", "CXXFLAGS", "LDFLAGS"]
            .map(|name| (name.into(), f.into()))
            .to_vec();
    }
    inv.files = files
        .0
        .iter()
        .map(|(p, b)| (p.clone(), b.clone()))
        .collect();
    inv.executable = files.1.iter().cloned().collect();
    inv.timeout = limit;
    inv.limits = Limits::for_timeout(limit);
    inv.output_cap = OUTPUT_CAP;
    inv.keep = Keep {
        stdout: LOG_KEPT,
        stderr: LOG_KEPT,
    };
    let outcome = run::run(&inv).map_err(|e| format!("cannot run the build: {e}"))?;
    let mut log = match flags {
        Some(f) => format!("$ CFLAGS='{f}' CXXFLAGS='{f}' LDFLAGS='{f}' {line}\n"),
        None => format!("$ {line}\n"),
    }
    .into_bytes();
    log.extend_from_slice(&outcome.stdout);
    log.extend_from_slice(&outcome.stderr);
    let dropped = outcome.dropped.stdout + outcome.dropped.stderr;
    if dropped > 0 {
        log.extend_from_slice(format!("\n[{dropped} more bytes of output not kept]\n").as_bytes());
    }
    let warnings = count_warnings(&outcome.stderr) + count_warnings(&outcome.stdout);
    let (status, reason) = match &outcome.ending {
        Ending::Exited(0) => match outcome.files.get(program) {
            Some(_) => (BuildStatus::Ok, None),
            None => (
                BuildStatus::NoBinary,
                Some(format!("the build succeeded but made no `{program}`")),
            ),
        },
        Ending::TimedOut { after, .. } => (
            BuildStatus::Timeout,
            Some(format!(
                "the build was killed after {} s, its time limit",
                run::format_secs(*after)
            )),
        ),
        _ if outcome.no_start.is_some() => (
            BuildStatus::Failed,
            outcome.no_start.as_ref().map(|n| {
                format!(
                    "the build's runtime could not start where the marks run ({} runs): {} \
                     (the machine's failure; nothing charged)",
                    n.tries, n.said
                )
            }),
        ),
        ending @ Ending::Exited(_) => (
            BuildStatus::Failed,
            Some(
                match first_error(&outcome.stderr).or_else(|| first_error(&outcome.stdout)) {
                    Some(line) => format!("the build ended with {ending}: {line}"),
                    None => format!("the build ended with {ending}"),
                },
            ),
        ),
        ending => (BuildStatus::Failed, Some(format!("the build was {ending}"))),
    };
    if let Some(r) = &reason {
        log.extend_from_slice(format!("\n[{r}]\n").as_bytes());
    }
    let program = (status == BuildStatus::Ok)
        .then(|| outcome.files.get(program).cloned())
        .flatten();
    let folder =
        (keep_folder && program.is_some()).then(|| Files::after_build(files, outcome.files));
    Ok(Built {
        status,
        reason,
        warnings,
        log,
        program,
        folder,
        no_start: outcome.no_start,
    })
}

/// The course's run line for `program` (`python3 {program}` →
/// `python3 fuel.py`), the file name quoted as a shell word.
pub fn run_line(run: &str, program: &str) -> String {
    run.replace("{program}", &crate::bytes::quote::shell_quote(program))
}

/// The program placed in `dir` as the check runs it, and its `--bin`:
/// the file itself, or the course's `run` line typed in `dir` (its words
/// naming the program's files become their paths there). `Err` says why
/// it cannot run: the submission's fault.
pub fn program_target(
    dir: &std::path::Path,
    program: &str,
    run: Option<&str>,
) -> Result<(Target, std::ffi::OsString), String> {
    let binary = dir.join(program);
    let Some(run) = run else {
        let target = Target::binary(&binary).map_err(|e| e.to_string())?;
        return Ok((target, binary.into_os_string()));
    };
    let line = run_line(run, program);
    let typed = run::typed_line(&line, dir).unwrap_or_default();
    Target::command_from(&line, dir)
        .map(|t| (t, typed.into()))
        .map_err(|e| format!("`{line}` cannot run: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_are_counted_per_line() {
        let log = b"a.c:3:5: warning: unused variable 'x' [-Wunused-variable]\n\
                    a.c:4:1: error: expected ';'\n\
                    b.c:9:2: warning: implicit declaration\n  note: warning: in a note\n";
        assert_eq!(count_warnings(log), 3);
        assert_eq!(count_warnings(b"all good\n"), 0);
        let jvm = b"OpenJDK 64-Bit Server VM warning: Options -Xverify:none and -noverify were \
                    deprecated in JDK 13\n";
        assert_eq!(count_warnings(jvm), 0);
    }

    #[test]
    fn a_compilers_line_takes_the_flags_itself_and_others_from_the_environment() {
        let flags = "-g -fsanitize=address";
        assert_eq!(
            line_with_flags("gcc -Wall -pedantic -std=gnu99 -o prog *.c", flags),
            "gcc -g -fsanitize=address -Wall -pedantic -std=gnu99 -o prog *.c"
        );
        assert_eq!(
            line_with_flags("/usr/bin/g++ -o game -g *.cpp", flags),
            "/usr/bin/g++ -g -fsanitize=address -o game -g *.cpp"
        );
        for line in ["make", "cc $CFLAGS -o shout *.c", "gccx -o a a.c", ""] {
            assert_eq!(line_with_flags(line, flags), line);
        }
    }

    #[test]
    fn the_first_error_line_is_named() {
        let log = b"a.c:3:5: warning: unused\na.c:4:1: error: expected ';'\nb.c:1: error: x\n";
        assert_eq!(
            first_error(log).as_deref(),
            Some("a.c:4:1: error: expected ';'")
        );
        let log = b"gcc: fatal error: no input files\n";
        assert_eq!(
            first_error(log).as_deref(),
            Some("gcc: fatal error: no input files")
        );
        assert_eq!(first_error(b"\n"), None);
        assert_eq!(
            first_error(b"sh: 1: cc: not found\n").as_deref(),
            Some("sh: 1: cc: not found")
        );
    }
}
