//! Memory checking (`--memcheck`): which tool watches a program's memory
//! and how a run is changed for it. `asan`: the program is built with
//! AddressSanitizer and UndefinedBehaviorSanitizer (by the student for
//! `run --bin`, by `mark` through `CFLAGS`), and runs with their options
//! set; `valgrind`: each run is the program under valgrind's memcheck,
//! its time limit scaled and its memory bounded by what it holds. With
//! `warn` a course only warns: the program must go on past its errors
//! (an ASan build made to recover), so that its output is judged as
//! though they were not there. What their reports mean is the judge's
//! ([`crate::judge`]).

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use super::run::{Invocation, Target};

/// Where valgrind is looked for (a contained program's `PATH` is
/// `/usr/bin:/bin`).
pub const VALGRIND: &str = "/usr/bin/valgrind";

/// The flags `mark` builds with under `asan` (through `CFLAGS`,
/// `CXXFLAGS` and `LDFLAGS`).
pub const ASAN_FLAGS: &str = "-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined";

/// The flags under `asan,warn`: ASan made to go on past an error (with
/// `halt_on_error=0`), so that the output is the program's whole output.
pub const ASAN_WARN_FLAGS: &str = "-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
                                   -fsanitize-recover=address";

/// The flags `mark` builds with under `valgrind`: debug information, for
/// the source line of each error.
pub const VALGRIND_FLAGS: &str = "-g";

/// How many times its time limit an ASan build is given: its checks slow
/// it about twice, and its report (symbolised) takes a moment more.
const ASAN_SLOWDOWN: u32 = 3;

/// How many times its time limit a run under valgrind is given, and the
/// seconds added for valgrind's start.
const VALGRIND_SLOWDOWN: u32 = 10;
const VALGRIND_START: Duration = Duration::from_secs(5);

/// The tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// AddressSanitizer (with LeakSanitizer) and
    /// UndefinedBehaviorSanitizer, built into the program.
    Asan,
    /// valgrind's memcheck, around an ordinary build.
    Valgrind,
}

/// `--memcheck`'s value: a tool, and whether leaks are charged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Memcheck {
    /// Which tool.
    pub tool: Tool,
    /// Leaks are errors too (off unless asked: many courses do not
    /// charge them).
    pub leaks: bool,
    /// Memory errors are warnings: reported, grouped by kind and place,
    /// and no case fails by them.
    pub warn: bool,
}

/// The words `--memcheck` takes, for its errors.
const WORDS: &str = "`asan` or `valgrind`, then optionally `leaks` and `warn`, by commas";

impl std::str::FromStr for Memcheck {
    type Err = String;

    /// `asan`, `valgrind`, each optionally with `,leaks` and `,warn`.
    fn from_str(text: &str) -> Result<Self, String> {
        let mut tool = None;
        let mut leaks = false;
        let mut warn = false;
        for word in text.split(',').map(str::trim) {
            match word {
                "asan" | "valgrind" if tool.is_some() => {
                    return Err(format!("`{text}` names two tools: give one, {WORDS}"));
                }
                "asan" => tool = Some(Tool::Asan),
                "valgrind" => tool = Some(Tool::Valgrind),
                "leaks" => leaks = true,
                "warn" => warn = true,
                other => return Err(format!("`{other}` is not a memcheck word: {WORDS}")),
            }
        }
        let tool = tool.ok_or_else(|| format!("`{text}` names no tool: {WORDS}"))?;
        Ok(Self { tool, leaks, warn })
    }
}

impl std::fmt::Display for Memcheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.tool {
            Tool::Asan => "asan",
            Tool::Valgrind => "valgrind",
        })?;
        if self.leaks {
            f.write_str(",leaks")?;
        }
        if self.warn {
            f.write_str(",warn")?;
        }
        Ok(())
    }
}

impl Memcheck {
    /// Whether it can run `target`: `Err` says why not (a fault of the
    /// command, exit 2): a program not built with AddressSanitizer under
    /// `asan`, valgrind missing under `valgrind`.
    pub fn check(self, target: &Target) -> Result<(), String> {
        if target.is_reference() {
            return Err("--memcheck checks a program under test: give --bin".to_owned());
        }
        match self.tool {
            Tool::Asan if !conformance_sandbox::reserves_address_space(target.path()) => {
                Err(format!(
                    "--memcheck asan: {} is not built with AddressSanitizer: build it with `{}`",
                    target.path().display(),
                    self.flags()
                ))
            }
            // A build that stops at its first error cuts its output
            // there: under `warn` that output would be judged, and fail.
            Tool::Asan if self.warn && halts_at_first_error(target.path()) => Err(format!(
                "--memcheck {self}: {} is built to stop at its first memory error, so its output \
                 past it could not be judged: build it with `{}`",
                target.path().display(),
                self.flags()
            )),
            Tool::Valgrind if !Path::new(VALGRIND).is_file() => Err(format!(
                "--memcheck valgrind: {VALGRIND} is not installed (Debian and Ubuntu: `apt-get \
                 install valgrind`)"
            )),
            _ => Ok(()),
        }
    }

    /// The compiler flags a build for this check takes.
    pub fn flags(self) -> &'static str {
        match self.tool {
            Tool::Asan if self.warn => ASAN_WARN_FLAGS,
            Tool::Asan => ASAN_FLAGS,
            Tool::Valgrind => VALGRIND_FLAGS,
        }
    }

    /// `inv` changed to run under this check: the sanitizers' options in
    /// its environment (a case's own `ASAN_OPTIONS` still decides), or
    /// the program under valgrind with its time limit scaled and its
    /// memory bounded by what it holds.
    pub fn apply(self, inv: &mut Invocation) -> Result<(), String> {
        match self.tool {
            Tool::Asan => {
                inv.timeout = self.scale(inv.timeout);
                inv.limits.cpu_seconds = Some(inv.timeout.as_secs() + 2);
                let asan = format!(
                    "detect_leaks={}:halt_on_error={}",
                    u8::from(self.leaks),
                    u8::from(!self.warn)
                );
                let own = |name: &str| inv.env.iter().any(|(k, _)| k == name);
                let mut add: Vec<(OsString, OsString)> = Vec::new();
                if !own("ASAN_OPTIONS") {
                    add.push(("ASAN_OPTIONS".into(), asan.into()));
                }
                if !own("UBSAN_OPTIONS") {
                    add.push(("UBSAN_OPTIONS".into(), "print_stacktrace=1".into()));
                }
                inv.env.extend(add);
            }
            Tool::Valgrind => {
                inv.target = self.wrap(inv.target.clone())?;
                inv.timeout = self.scale(inv.timeout);
                let mut limits = inv.limits.bounding_resident();
                // valgrind's own shadow memory beside the program's.
                limits.resident = limits.resident.map(|r| r.saturating_mul(2));
                limits.cpu_seconds = Some(inv.timeout.as_secs() + 2);
                // valgrind reads its descriptor limit once, at its start,
                // and keeps descriptors of its own at the top of it; a
                // limit lowered a moment later (as it is, right after the
                // start) leaves them out of range and valgrind stops
                // ("failed to move log file descriptor into safe range").
                // The limit stays the harness's own.
                limits.open_files = None;
                inv.limits = limits;
            }
        }
        Ok(())
    }

    /// The target as this check runs it: under valgrind, `valgrind
    /// OPTIONS PROGRAM`; otherwise itself.
    pub fn wrap(self, target: Target) -> Result<Target, String> {
        if self.tool != Tool::Valgrind {
            return Ok(target);
        }
        let leak = if self.leaks {
            "--leak-check=full"
        } else {
            "--leak-check=no"
        };
        let options: Vec<OsString> = [
            "-q",
            "--vgdb=no",
            // Full source paths, so that the C library's frames
            // (`libio/./libio/ioputs.c`) are told from the program's.
            "--fullpath-after=",
            "--show-leak-kinds=definite",
            leak,
        ]
        .into_iter()
        .map(OsString::from)
        .collect();
        target
            .under(Path::new(VALGRIND), options)
            .map_err(|e| e.to_string())
    }

    /// A time limit as this check gives it: three times under `asan`;
    /// ten times and five seconds more under valgrind (its start alone
    /// takes a second or more on a loaded machine).
    pub fn scale(self, limit: Duration) -> Duration {
        match self.tool {
            Tool::Asan => limit.saturating_mul(ASAN_SLOWDOWN),
            Tool::Valgrind => limit
                .saturating_mul(VALGRIND_SLOWDOWN)
                .saturating_add(VALGRIND_START),
        }
    }
}

/// Whether the ASan build `program` stops at its first memory error: it
/// calls ASan's reports of a load or a store that abort (`__asan_report_
/// load4`), not those that go on (`__asan_report_load4_noabort`, built
/// with `-fsanitize-recover=address`). A program with no checked access
/// at all calls neither and goes on.
fn halts_at_first_error(program: &Path) -> bool {
    use std::io::Read as _;
    /// Bytes read of a program (its dynamic symbols come first).
    const SEARCHED: u64 = 64 << 20;
    let mut bytes = Vec::new();
    if std::fs::File::open(program)
        .and_then(|f| f.take(SEARCHED).read_to_end(&mut bytes))
        .is_err()
    {
        return false;
    }
    halting_reports(&bytes)
}

/// Whether `bytes` name an ASan report of an access that aborts.
fn halting_reports(bytes: &[u8]) -> bool {
    const PREFIX: &[u8] = b"__asan_report_";
    bytes
        .windows(PREFIX.len())
        .enumerate()
        .filter(|(_, w)| *w == PREFIX)
        .any(|(at, _)| {
            let name: Vec<u8> = bytes[at + PREFIX.len()..]
                .iter()
                .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_')
                .copied()
                .collect();
            (name.starts_with(b"load") || name.starts_with(b"store"))
                && !name.ends_with(b"_noabort")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_parse_and_print_back() {
        for text in ["asan", "valgrind", "asan,leaks", "valgrind,leaks"] {
            let m: Memcheck = text.parse().unwrap();
            assert_eq!(m.to_string(), text);
        }
        assert!(
            "leaks"
                .parse::<Memcheck>()
                .unwrap_err()
                .contains("names no tool")
        );
        assert!(
            "asan,valgrind"
                .parse::<Memcheck>()
                .unwrap_err()
                .contains("two tools")
        );
        assert!(
            "msan"
                .parse::<Memcheck>()
                .unwrap_err()
                .contains("`msan` is not")
        );
        let warn: Memcheck = "asan,leaks,warn".parse().unwrap();
        assert!(warn.warn && warn.leaks);
        assert_eq!(warn.to_string(), "asan,leaks,warn");
        assert!(warn.flags().ends_with("-fsanitize-recover=address"));
    }

    #[test]
    fn a_build_that_aborts_at_its_first_error_is_told_from_one_that_recovers() {
        assert!(halting_reports(b"\0__asan_report_store1\0__asan_init\0"));
        assert!(halting_reports(b"\0__asan_report_load_n\0"));
        assert!(!halting_reports(
            b"\0__asan_report_store1_noabort\0__asan_report_load8_noabort\0"
        ));
        // Only interceptors (strcpy, puts): nothing aborts but the options.
        assert!(!halting_reports(
            b"\0__asan_init\0__asan_version_mismatch\0"
        ));
    }

    #[test]
    fn a_valgrind_run_is_given_time_and_memory() {
        let target = Target::binary(Path::new("/bin/sh")).unwrap();
        let mut inv = Invocation::new(target, vec!["-c".into(), "true".into()], Vec::new());
        inv.timeout = Duration::from_secs(2);
        inv.limits = conformance_sandbox::Limits::for_timeout(inv.timeout);
        let m: Memcheck = "valgrind".parse().unwrap();
        m.apply(&mut inv).unwrap();
        assert_eq!(inv.target.path(), Path::new(VALGRIND));
        assert!(inv.target.words().iter().any(|w| w == "/bin/sh"));
        assert_eq!(inv.timeout, Duration::from_secs(25));
        assert_eq!(inv.limits.address_space, None);
        assert!(inv.limits.resident.is_some());
        assert_eq!(inv.limits.open_files, None);
    }
}
