//! Checker programs and spans for the judge ([`crate::judge::compare::Oracle`]):
//! a `match:` checker run contained like a program under test, bounded
//! in time and output, once per judged part, by the protocol of
//! docs/matching.md; the reference's spans of a case's stdout, from one
//! traced run shared with the failure's report.
//!
//! A checker's fault (a status other than 0 or 1, a signal, a timeout, a
//! flood, a checker that cannot start) is an error naming the checker,
//! never a failure of the program.
//!
//! One piece: the oracle a judgement asks (`CaseOracle`) holds both the
//! checkers and the model's kept or traced record, which one case's
//! judging and its report share.

use std::cell::OnceCell;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use crate::exec::run::{Ending, Invocation, Keep, Limits, Mode, Target};
use crate::judge::compare::{Checked, Oracle};
use crate::judge::provenance::{self, Record, Span};

/// A checker's time limit.
pub const CHECKER_TIMEOUT: Duration = Duration::from_secs(10);

/// A checker's output cap per stream: its reason is one line.
pub const CHECKER_OUTPUT_CAP: u64 = 64 * 1024;

/// The prefix naming a checker the pack registers.
pub const BUILTIN: &str = "builtin:";

/// The variable that turns a reference re-run into one of its pack's
/// built-in checkers: its value is the checker's name.
pub const CHECKER_ENV: &str = "CONFORMANCE_CHECKER";

/// The checker protocol's variables (docs/matching.md).
pub mod protocol {
    /// A file holding the arguments, each followed by a NUL byte.
    pub const ARGS: &str = "CONFORMANCE_ARGS";
    /// A file holding stdin.
    pub const STDIN: &str = "CONFORMANCE_STDIN";
    /// A folder holding the input files at their paths.
    pub const FILES: &str = "CONFORMANCE_FILES";
    /// `stdout`, `stderr` or `file:PATH`.
    pub const STREAM: &str = "CONFORMANCE_STREAM";
    /// A file holding the model's bytes.
    pub const EXPECTED: &str = "CONFORMANCE_EXPECTED";
    /// A file holding the program's bytes.
    pub const ACTUAL: &str = "CONFORMANCE_ACTUAL";
}

/// The placeholder standing for the pack's folder in a checker's command
/// line (`python3 {pack}/check.py {pack}/data/words.txt`).
pub const PACK_PLACEHOLDER: &str = "{pack}";

/// A checker's command line as its words, exactly as the lecturer wrote
/// them but for the one placeholder docs/matching.md names: every
/// `{pack}` is the pack's folder. No word is looked up or rewritten
/// (a checker runs in a fresh working folder, so its script is
/// `{pack}/check.py`): `python3 -u {pack}/check.py average` passes
/// `average`, whatever the pack's folder holds. `None` when the line
/// does not split.
pub fn checker_words(command: &str, pack: &std::path::Path) -> Option<Vec<String>> {
    let folder = pack.to_string_lossy();
    Some(
        shlex::split(command)?
            .into_iter()
            .map(|w| w.replace(PACK_PLACEHOLDER, &folder))
            .collect(),
    )
}

/// Refuses a checker line naming a file of the pack's folder by a bare
/// word and holding no `{pack}` (`python3 check.py`, as harnesses before
/// issue 53 took it): the checker runs in a fresh working folder, where
/// that word names nothing, so it would crash on every run. Nothing is
/// rewritten: the lecturer is told the line that works.
fn pack_file_without_placeholder(command: &str, home: &std::path::Path) -> Result<(), String> {
    if command.contains(PACK_PLACEHOLDER) {
        return Ok(());
    }
    let words = shlex::split(command).unwrap_or_default();
    let bare = words
        .iter()
        .skip(1)
        .find(|w| !w.starts_with('-') && !w.contains('/') && home.join(w).is_file());
    match bare {
        None => Ok(()),
        Some(word) => Err(format!(
            "checker `{command}`: `{word}` is a file of the pack, but a checker runs in a fresh \
             working folder: write `{PACK_PLACEHOLDER}/{word}` (the one placeholder for a path, \
             docs/matching.md)"
        )),
    }
}

/// Where a run's checkers come from: the pack's built-in ones and the
/// folder a checker command runs from.
#[derive(Debug, Clone, Default)]
pub struct Checkers {
    /// The pack, for `builtin:NAME` (re-executed as its reference is).
    pub pack: Option<&'static str>,
    /// The checkers the pack registers, by name.
    pub builtin: Vec<&'static str>,
    /// The folder a checker command runs from and may read.
    pub home: Option<PathBuf>,
    /// A folder pack's model: `builtin:NAME` runs it with
    /// `CONFORMANCE_CHECKER=NAME`, as a built-in pack's reference is run
    /// (a folder pack over a built-in suite, whose model is that pack's
    /// reference, keeps the suite's built-in checkers); made when a
    /// checker first needs it.
    pub model: Option<crate::exec::run::Later>,
    /// Variables every `builtin:NAME` checker run by re-running this
    /// binary gets besides the protocol's (a problem package's built
    /// output validator, which its checker runs).
    pub env: Vec<(OsString, OsString)>,
    /// What those checkers read besides the harness (the built output
    /// validator's folder and files): a mount namespace (`full`) shows
    /// them read-only, as it shows a program under test its own.
    pub reads: Vec<PathBuf>,
}

impl Checkers {
    /// With the folder pack's model, for its `builtin:NAME` checkers.
    #[must_use]
    pub fn with_model(mut self, model: Option<crate::exec::run::Later>) -> Self {
        if self.home.is_some() {
            self.model = model;
        }
        self
    }

    /// Whether `command` names a checker that can run here: a registered
    /// `builtin:NAME`, or a command where checker commands run. `Err`
    /// says why not, for an error at the declaration's line.
    pub fn usable(&self, command: &str) -> Result<(), String> {
        match command.strip_prefix(BUILTIN) {
            Some(name) if self.builtin.contains(&name) => Ok(()),
            // A folder pack's model says at its run whether it has the
            // checker (a fault of the checker, exit 2, if not).
            Some(_) if self.model.as_ref().is_some_and(|m| m.get().is_some()) => Ok(()),
            Some(name) => Err(format!(
                "checker `{command}`: the pack registers no checker `{name}` (it has: {})",
                if self.builtin.is_empty() {
                    "none".to_owned()
                } else {
                    self.builtin.join(", ")
                }
            )),
            None => match &self.home {
                Some(home) => pack_file_without_placeholder(command, home),
                None => Err(format!(
                    "checker `{command}`: a built-in pack runs only `{BUILTIN}NAME` checkers"
                )),
            },
        }
    }

    /// The target a checker command names.
    fn target(&self, command: &str) -> Result<(Target, Vec<(OsString, OsString)>), String> {
        if let Some(name) = command.strip_prefix(BUILTIN) {
            self.usable(command)?;
            if let (false, Some(model)) = (
                self.builtin.contains(&name),
                self.model.as_ref().and_then(crate::exec::run::Later::get),
            ) {
                return Ok((model.clone(), vec![(CHECKER_ENV.into(), name.into())]));
            }
            let pack = self
                .pack
                .ok_or_else(|| format!("checker `{command}`: no pack registers it"))?;
            let target = self.reads.iter().cloned().fold(
                Target::reference(pack).map_err(|e| format!("checker `{command}`: {e}"))?,
                Target::reading,
            );
            let mut env = vec![(CHECKER_ENV.into(), name.into())];
            env.extend(self.env.iter().cloned());
            return Ok((target, env));
        }
        self.usable(command)?;
        let home = self.home.clone().unwrap_or_default();
        let words = checker_words(command, &home)
            .ok_or_else(|| format!("checker `{command}`: cannot split it into words"))?;
        let target = Target::command_words(&words, &home)
            .map_err(|e| format!("checker `{command}`: {e}"))?
            .reading(home);
        Ok((target, Vec::new()))
    }

    /// Runs the checker `command` on one part of a case run by `inv`.
    pub fn check(
        &self,
        command: &str,
        inv: &Invocation,
        part: &str,
        expected: &[u8],
        actual: &[u8],
    ) -> Checked {
        let (target, mut env) = self.target(command)?;
        let dir = ".conformance";
        let mut args = Vec::new();
        for a in &inv.args {
            args.extend_from_slice(a.as_encoded_bytes());
            args.push(0);
        }
        let mut files: Vec<(String, Vec<u8>)> = inv.files.clone();
        files.extend([
            (format!("{dir}/args"), args),
            (format!("{dir}/stdin"), inv.stdin.clone()),
            (format!("{dir}/expected"), expected.to_vec()),
            (format!("{dir}/actual"), actual.to_vec()),
        ]);
        env.extend(
            [
                (protocol::ARGS, format!("{dir}/args")),
                (protocol::STDIN, format!("{dir}/stdin")),
                (protocol::FILES, ".".to_owned()),
                (protocol::STREAM, part.to_owned()),
                (protocol::EXPECTED, format!("{dir}/expected")),
                (protocol::ACTUAL, format!("{dir}/actual")),
            ]
            .map(|(k, v)| (OsString::from(k), OsString::from(v))),
        );
        let run = Invocation {
            target,
            args: Vec::new(),
            env,
            stdin: Vec::new(),
            files,
            executable: Vec::new(),
            mode: Mode::Pipe,
            timeout: CHECKER_TIMEOUT,
            output_cap: CHECKER_OUTPUT_CAP,
            limits: Limits::for_timeout(CHECKER_TIMEOUT),
            keep: Keep::ALL,
            prompt: inv.prompt.clone(),
            count_reads: false,
            cpu_stop: None,
        };
        let fault = |why: String| {
            format!(
                "checker `{command}` on {part}: {why} (a fault of the checker, not of the program)"
            )
        };
        let outcome = crate::exec::run::run(&run).map_err(|e| fault(e.to_string()))?;
        // A checker that crashed (an uncaught exception exits 1 in Python
        // and Java) has not rejected anything: its traceback says why.
        if crate::judge::exception::is_traceback(&outcome.stderr) {
            return Err(fault(format!(
                "ended {} with a traceback:\n{}",
                outcome.ending,
                traceback_tail(&outcome.stderr)
            )));
        }
        match outcome.ending {
            Ending::Exited(0) if outcome.dropped.stdout == 0 => Ok(None),
            Ending::Exited(1) if outcome.dropped.stdout == 0 => {
                let first = outcome
                    .stdout
                    .split(|&b| b == b'\n')
                    .next()
                    .unwrap_or_default();
                let reason = String::from_utf8_lossy(first).trim().to_owned();
                Ok(Some(if reason.is_empty() {
                    "rejected (the checker gave no reason)".to_owned()
                } else {
                    crate::judge::failure::bound(reason, 200)
                }))
            }
            ending => {
                let said = String::from_utf8_lossy(&outcome.stderr);
                let said = said.lines().next().unwrap_or_default();
                Err(fault(if said.is_empty() {
                    format!("ended {ending}")
                } else {
                    format!(
                        "ended {ending}: {}",
                        crate::judge::failure::bound(said.to_owned(), 200)
                    )
                }))
            }
        }
    }
}

/// The last lines of a checker's traceback (where it crashed), bounded.
fn traceback_tail(stderr: &[u8]) -> String {
    const LINES: usize = 20;
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().collect();
    let skip = lines.len().saturating_sub(LINES);
    let tail: Vec<String> = lines[skip..]
        .iter()
        .map(|l| format!("  {}", crate::judge::failure::bound((*l).to_owned(), 200)))
        .collect();
    tail.join("\n")
}

/// The oracle of one case: its checkers and the reference's record of
/// its stdout, traced at most once and kept for the failure's report.
pub struct CaseOracle<'a> {
    /// The run's checkers.
    pub checkers: &'a Checkers,
    /// The case's run.
    pub inv: &'a Invocation,
    /// The pack's reference, when it runs (made when first traced).
    pub reference: Option<&'a crate::exec::run::Later>,
    /// The case's expected stdout.
    pub expected_stdout: &'a [u8],
    record: OnceCell<Option<Record>>,
}

impl<'a> CaseOracle<'a> {
    /// An oracle that has traced nothing yet.
    pub fn new(
        checkers: &'a Checkers,
        inv: &'a Invocation,
        reference: Option<&'a crate::exec::run::Later>,
        expected_stdout: &'a [u8],
    ) -> Self {
        Self {
            checkers,
            inv,
            reference,
            expected_stdout,
            record: OnceCell::new(),
        }
    }

    /// With what `bless` kept of the model's trace: a record, or that it
    /// writes none, is used as it is, and the model is not run.
    #[must_use]
    pub fn knowing(self, kept: provenance::Kept) -> Self {
        match kept {
            provenance::Kept::Unknown => {}
            provenance::Kept::NoTrace => {
                let _ = self.record.set(None);
            }
            provenance::Kept::Record(record) => {
                let _ = self.record.set(Some(record));
            }
        }
        self
    }

    /// The reference's record of the case (one traced run at most).
    pub fn record(&self) -> Option<&Record> {
        self.record
            .get_or_init(|| {
                self.reference
                    .and_then(crate::exec::run::Later::get)
                    .and_then(|r| provenance::of_case(r, self.inv, self.expected_stdout))
            })
            .as_ref()
    }

    /// The record, when it was traced or is worth tracing (`wanted`).
    pub fn take_record(self, wanted: bool) -> Option<Record> {
        if wanted {
            let _ = self.record();
        }
        self.record.into_inner().flatten()
    }
}

impl Oracle for CaseOracle<'_> {
    fn spans(&self) -> Option<Vec<Span>> {
        self.record().map(|r| {
            let mut spans = r.spans.clone();
            // A stop is an empty span of its rules at the point it
            // happened: what the model prints after it (nothing, at the end
            // of input) is judged by those rules' tolerance, so "any output
            // after the last prompt" is said where it happens.
            spans.extend(
                r.rulings
                    .iter()
                    .filter(|x| x.verdict == crate::judge::provenance::Verdict::Stopped)
                    .map(|x| Span {
                        start: x.at,
                        end: x.at,
                        rules: [&x.rule, &x.exit_rule]
                            .into_iter()
                            .filter(|r| !r.is_empty() && r.as_str() != "-")
                            .cloned()
                            .collect(),
                        what: x.says.clone(),
                    }),
            );
            spans
        })
    }

    fn check(&self, command: &str, part: &str, expected: &[u8], actual: &[u8]) -> Checked {
        self.checkers
            .check(command, self.inv, part, expected, actual)
    }
}

#[cfg(test)]
mod tests {
    use super::{checker_words, pack_file_without_placeholder};

    #[test]
    fn a_bare_word_naming_a_pack_file_is_refused_with_the_line_that_works() {
        let dir = tempfile::tempdir().expect("a folder");
        let pack = dir.path();
        std::fs::write(pack.join("check.py"), "").expect("check.py");
        std::fs::create_dir(pack.join("average")).expect("average/");
        let e = pack_file_without_placeholder("python3 -u check.py average", pack)
            .expect_err("refused");
        assert!(e.contains("write `{pack}/check.py`"), "{e}");
        for fine in [
            "python3 {pack}/check.py check.py",
            "python3 other.py average",
            "./names average",
            "sh -c 'exit 0'",
        ] {
            assert_eq!(pack_file_without_placeholder(fine, pack), Ok(()), "{fine}");
        }
    }

    #[test]
    fn a_checkers_words_are_the_lecturers_but_for_the_pack_placeholder() {
        let dir = tempfile::tempdir().expect("a folder");
        let pack = dir.path();
        std::fs::write(pack.join("check.py"), "").expect("check.py");
        std::fs::create_dir(pack.join("average")).expect("average/");
        std::fs::write(pack.join("data.txt"), "").expect("data.txt");
        let shown = pack.display().to_string();
        let words = |ws: &[&str]| ws.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        // Files and folders of the pack are not looked at, whatever the
        // interpreter's options: only the placeholder names a path.
        assert_eq!(
            checker_words("python3 check.py average data.txt", pack),
            Some(words(&["python3", "check.py", "average", "data.txt"]))
        );
        assert_eq!(
            checker_words("python3 -u {pack}/check.py average", pack),
            Some(vec![
                "python3".to_owned(),
                "-u".to_owned(),
                format!("{shown}/check.py"),
                "average".to_owned(),
            ])
        );
        assert_eq!(
            checker_words("python3 {pack}/check.py {pack}/data.txt", pack),
            Some(vec![
                "python3".to_owned(),
                format!("{shown}/check.py"),
                format!("{shown}/data.txt"),
            ])
        );
        assert_eq!(
            checker_words("./names check.py", pack),
            Some(words(&["./names", "check.py"]))
        );
        assert_eq!(checker_words("python3 'open", pack), None);
    }
}
