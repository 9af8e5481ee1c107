//! A package's custom output validator as a `match:` checker, for `run`,
//! `mark` and the course outputs: `builtin:kattis-validator [FLAGS]`
//! ([`CUSTOM_VALIDATOR`]), this binary re-run contained as the default
//! validator's checker is, which runs the validator (built once by the
//! command, [`super::programs::prepare_in_place`]; its command line in
//! [`VALIDATOR_ENV`]) inside that same sandbox, as problemtools does:
//! `validator input answer feedback_dir [flags] < output`.
//!
//! - The program never meets it: it runs after the program's run, in the
//!   checker's own sandbox, on the checker protocol's files (the case's
//!   stdin is `input`, its expected stdout the `.ans`, the program's
//!   stdout what the validator reads).
//! - 42 accepts (exit 0), 43 rejects (exit 1, `judgemessage.txt` the
//!   reason on stdout, as a checker gives it); any other ending is a fault
//!   of the package (exit 2, the validator's stderr passed on: a
//!   traceback is shown as a crashing checker's is), never the program's.
//! - Only a pass-fail problem's cases are judged here (a scoring
//!   problem's are run by its driver, [`super::conversation`], which takes
//!   the validator's score): a score here is a fault of the package, as
//!   problemtools judges it ([`super::run::not_scoring`]); a rejection's
//!   `score.txt` is not read.

use std::ffi::OsString;
use std::io::Read as _;
use std::process::{Command, ExitCode, Stdio};

use crate::judge::checker::protocol;

/// The prefix of a `match:` checker name that is the package's own
/// output validator; the group's flags follow it, one space before each.
pub const CUSTOM_VALIDATOR: &str = "kattis-validator";

/// The variable holding the built validator's command line (shell
/// words), which the command that built it passes to its checkers.
pub const VALIDATOR_ENV: &str = "CONFORMANCE_OUTPUT_VALIDATOR";

/// Bytes of the validator's message or stderr read at most.
const READ_CAP: u64 = 64 << 10;

/// The checker name of a group whose flags are `flags`: the package's
/// own validator (`custom`) or the default one, then the flags.
pub fn checker_name(flags: &[String], custom: bool) -> String {
    let validator = if custom {
        CUSTOM_VALIDATOR
    } else {
        super::validator::DEFAULT_VALIDATOR
    };
    std::iter::once(validator)
        .chain(flags.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The variable naming `validator` for the checkers ([`VALIDATOR_ENV`]).
pub fn checker_env(validator: &crate::exec::run::Target) -> Result<(OsString, OsString), String> {
    let words: Vec<String> = std::iter::once(validator.path().as_os_str())
        .chain(validator.words().iter().map(OsString::as_os_str))
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let line = shlex::try_join(words.iter().map(String::as_str))
        .map_err(|e| format!("the output validator's command `{words:?}`: {e}"))?;
    Ok((VALIDATOR_ENV.into(), line.into()))
}

/// What the checker re-run reads of `validator` besides the harness: its
/// folder and the files its command line names (shown read-only at
/// `full`, whose mount namespace shows nothing else of the host).
pub fn checker_reads(validator: &crate::exec::run::Target) -> Vec<std::path::PathBuf> {
    let mut reads: Vec<std::path::PathBuf> =
        validator.model_home().map(Into::into).into_iter().collect();
    reads.extend(validator.own_paths());
    reads
}

/// How the validator's run went: its status, its message, its score
/// (`score.txt`), its stderr.
struct Ran {
    status: std::process::ExitStatus,
    message: String,
    score: String,
    stderr: String,
}

/// Reads at most [`READ_CAP`] bytes of `path`, as text.
fn read_bounded(path: &std::path::Path) -> String {
    let mut bytes = Vec::new();
    if let Ok(file) = std::fs::File::open(path) {
        let _ = file.take(READ_CAP).read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).trim().to_owned()
}

/// Runs the validator named by the environment with `flags` on the
/// checker protocol's files, from the current folder (the checker's
/// sandbox).
fn run_validator(flags: &[&str]) -> Result<Ran, String> {
    let var = |name: &str| std::env::var_os(name).ok_or_else(|| format!("{name} is not set"));
    let line = var(VALIDATOR_ENV)?;
    let words = shlex::split(&line.to_string_lossy())
        .filter(|w| !w.is_empty())
        .ok_or_else(|| format!("{VALIDATOR_ENV}: not a command line"))?;
    let feedback = std::path::Path::new("feedback");
    std::fs::create_dir_all(feedback).map_err(|e| format!("a feedback folder: {e}"))?;
    let stderr_path = std::path::Path::new("validator-stderr");
    let stderr = std::fs::File::create(stderr_path).map_err(|e| format!("its stderr: {e}"))?;
    let output = std::fs::File::open(var(protocol::ACTUAL)?)
        .map_err(|e| format!("the program's output: {e}"))?;
    let status = Command::new(&words[0])
        .args(&words[1..])
        .arg(var(protocol::STDIN)?)
        .arg(var(protocol::EXPECTED)?)
        .arg("feedback/")
        .args(flags)
        .stdin(Stdio::from(output))
        .stdout(Stdio::null())
        .stderr(Stdio::from(stderr))
        .status()
        .map_err(|e| format!("cannot start the output validator `{}`: {e}", words[0]))?;
    Ok(Ran {
        status,
        message: read_bounded(&feedback.join("judgemessage.txt")),
        score: read_bounded(&feedback.join("score.txt")),
        stderr: read_bounded(stderr_path),
    })
}

/// The reason a rejection gives: the message's lines on one line.
fn reason(message: &str) -> String {
    let lines: Vec<&str> = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        "the output validator: rejected (no judgemessage.txt)".to_owned()
    } else {
        format!("the output validator: {}", lines.join("; "))
    }
}

/// This process as the checker `name` ([`CUSTOM_VALIDATOR`] and flags):
/// exit 0 accepts, 1 rejects (the reason on stdout), 2 is a fault of the
/// package (why on stderr).
pub fn checker_main(name: &str) -> ExitCode {
    let flags: Vec<&str> = name
        .strip_prefix(CUSTOM_VALIDATOR)
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    let fault = |why: String| {
        eprintln!("{why}");
        crate::output::exit::code(crate::output::exit::USAGE)
    };
    let ran = match run_validator(&flags) {
        Ok(ran) => ran,
        Err(e) => return fault(e),
    };
    match ran.status.code() {
        Some(42) if !ran.score.is_empty() => fault(super::run::not_scoring(&ran.score)),
        Some(42) => ExitCode::SUCCESS,
        Some(43) => {
            println!("{}", reason(&ran.message));
            ExitCode::from(1)
        }
        _ => {
            let mut why = format!(
                "the output validator ended with {} (42 accepts, 43 rejects)",
                ran.status
            );
            if !ran.message.is_empty() {
                why.push_str("; judgemessage.txt: ");
                why.push_str(&ran.message);
            }
            // Its own words last: a traceback is seen as one.
            if !ran.stderr.is_empty() {
                why.push('\n');
                why.push_str(&ran.stderr);
            }
            fault(why)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rejections_reason_is_the_message_on_one_line() {
        assert_eq!(
            reason("  sums to 9, not 10\n\nexpected 10\n"),
            "the output validator: sums to 9, not 10; expected 10"
        );
        assert_eq!(
            reason(""),
            "the output validator: rejected (no judgemessage.txt)"
        );
        assert_eq!(
            checker_name(&["float_tolerance".into(), "1e-6".into()], true),
            "kattis-validator float_tolerance 1e-6"
        );
        assert_eq!(checker_name(&[], false), "kattis-default");
    }
}
