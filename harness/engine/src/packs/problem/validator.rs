//! The default output validator of a problem package, judging as
//! problemtools' `default_validator` does: the answer and the output are
//! read as tokens separated by whitespace (C's `isspace`: space, tab,
//! newline, vertical tab, form feed, carriage return); tokens compare
//! without regard to ASCII case unless `case_sensitive`; any run of
//! whitespace matches any other unless `space_change_sensitive` (then
//! every whitespace byte must be the answer's); a token of the answer
//! that is a number is compared by value when a float tolerance is set
//! (`float_absolute_tolerance`, `float_relative_tolerance`,
//! `float_tolerance` for both: [`crate::judge::float_token`]); output
//! after the answer's last token is rejected ("trailing output"), trailing
//! whitespace is not (unless space changes count). An unknown flag is the
//! package's fault, not the program's.

use crate::bytes::visible;
use crate::judge::float_token::{self, Tolerance};

/// The flags of `output_validator_flags`, read.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Flags {
    /// Tokens compare byte for byte (else ASCII case is ignored).
    pub case_sensitive: bool,
    /// Every whitespace byte must be the answer's.
    pub space_change_sensitive: bool,
    /// Numbers of the answer compared by value within these.
    pub floats: Tolerance,
}

impl Flags {
    /// Reads the validator's words (`float_tolerance 1e-6
    /// case_sensitive`), as problemtools' validator does: an unknown word
    /// or a tolerance that is no number is refused.
    pub fn parse(words: &[String]) -> Result<Self, String> {
        let mut flags = Self::default();
        let mut words = words.iter();
        while let Some(word) = words.next() {
            let mut value = || {
                words
                    .next()
                    .and_then(|v| float_token::parse_number(v))
                    .ok_or_else(|| format!("`{word}` needs a number after it"))
            };
            match word.as_str() {
                "case_sensitive" => flags.case_sensitive = true,
                "space_change_sensitive" => flags.space_change_sensitive = true,
                "float_absolute_tolerance" => flags.floats.absolute = Some(value()?),
                "float_relative_tolerance" => flags.floats.relative = Some(value()?),
                "float_tolerance" => {
                    let v = value()?;
                    flags.floats = Tolerance {
                        absolute: Some(v),
                        relative: Some(v),
                    };
                }
                other => {
                    return Err(format!(
                        "the default output validator has no flag `{other}` (its flags: \
                         case_sensitive, space_change_sensitive, float_absolute_tolerance X, \
                         float_relative_tolerance X, float_tolerance X)"
                    ));
                }
            }
        }
        Ok(flags)
    }
}

/// Why the default validator rejected an output: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// The 1-based line of the output.
    pub output_line: usize,
    /// The 1-based line of the answer file.
    pub answer_line: usize,
    /// What differs, in words.
    pub what: String,
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {} of the output (line {} of the answer): {}",
            self.output_line, self.answer_line, self.what
        )
    }
}

/// C's `isspace` in the C locale.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Bytes shown to a person: escaped, at most 60 of them.
fn shown(bytes: &[u8]) -> String {
    const SHOWN: usize = 60;
    let cut = &bytes[..bytes.len().min(SHOWN)];
    let more = if bytes.len() > SHOWN { "…" } else { "" };
    format!("`{}`{more}", visible::escape(cut))
}

fn byte_name(b: Option<u8>) -> String {
    match b {
        None => "the end of the output".to_owned(),
        Some(b) => format!("`{}`", visible::escape(&[b])),
    }
}

/// A cursor over one side's bytes, counting lines.
struct Side<'a> {
    bytes: &'a [u8],
    at: usize,
    line: usize,
}

impl<'a> Side<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self {
            bytes,
            at: 0,
            line: 1,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        if b == b'\n' {
            self.line += 1;
        }
        Some(b)
    }

    fn token(&mut self) -> Option<&'a [u8]> {
        let start = self.at;
        while self.peek().is_some_and(|b| !is_space(b)) {
            self.at += 1;
        }
        (self.at > start).then(|| &self.bytes[start..self.at])
    }
}

/// The prefix of a `match:` checker name that is this validator (a
/// problem package's cases, `as_pack`); the group's flags follow it, one
/// space before each.
pub const DEFAULT_VALIDATOR: &str = "kattis-default";

/// This validator as a checker named `name` (its flags after
/// [`DEFAULT_VALIDATOR`]): `Ok(None)` accepts, `Ok(Some(reason))`
/// rejects, `Err` is a bad flag (the package's fault, never the
/// program's); `None` when `name` is not this validator's.
pub fn as_checker(
    name: &str,
    answer: &[u8],
    output: &[u8],
) -> Option<Result<Option<String>, String>> {
    let flags: Vec<String> = name
        .strip_prefix(DEFAULT_VALIDATOR)?
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    Some(Flags::parse(&flags).map(|parsed| {
        judge(answer, output, &parsed)
            .err()
            .map(|r| format!("the default output validator: {r}"))
    }))
}

/// This validator run as the `match:` checker `name` on the checker
/// protocol's files, read by the caller as `(expected, actual)` (this
/// binary re-run contained, `reference_mode`): exit 0 accepts, 1 rejects
/// (the reason on stdout), 2 is a fault (a bad flag, a file that cannot
/// be read).
pub fn checker_main(
    name: &str,
    sides: Result<(Vec<u8>, Vec<u8>), String>,
) -> std::process::ExitCode {
    let judged = sides.and_then(|(expected, actual)| {
        as_checker(name, &expected, &actual)
            .unwrap_or_else(|| Err(format!("{name}: not the default output validator")))
    });
    match judged {
        Ok(None) => std::process::ExitCode::SUCCESS,
        Ok(Some(reason)) => {
            println!("{}", reason.lines().next().unwrap_or("rejected"));
            std::process::ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("{}={name}: {e}", crate::judge::checker::CHECKER_ENV);
            crate::output::exit::code(crate::output::exit::USAGE)
        }
    }
}

/// Judges `output` against `answer` under `flags`: `Ok` accepts.
pub fn judge(answer: &[u8], output: &[u8], flags: &Flags) -> Result<(), Rejection> {
    let mut ans = Side::new(answer);
    let mut out = Side::new(output);
    let reject = |ans: &Side, out: &Side, what: String| Rejection {
        output_line: out.line,
        answer_line: ans.line,
        what,
    };
    loop {
        while let Some(c) = ans.peek().filter(|&b| is_space(b)) {
            if flags.space_change_sensitive {
                let d = out.peek();
                if d != Some(c) {
                    return Err(reject(
                        &ans,
                        &out,
                        format!(
                            "space change: expected {}, got {}",
                            byte_name(Some(c)),
                            byte_name(d)
                        ),
                    ));
                }
                out.bump();
            }
            ans.bump();
        }
        while let Some(d) = out.peek().filter(|&b| is_space(b)) {
            if flags.space_change_sensitive {
                return Err(reject(
                    &ans,
                    &out,
                    format!(
                        "space change: {} where the answer has none",
                        byte_name(Some(d))
                    ),
                ));
            }
            out.bump();
        }
        let Some(expected) = ans.token() else { break };
        let Some(got) = out.token() else {
            return Err(reject(
                &ans,
                &out,
                format!(
                    "the output ends where the answer goes on with {}",
                    shown(expected)
                ),
            ));
        };
        compare_tokens(expected, got, flags).map_err(|what| reject(&ans, &out, what))?;
    }
    match out.token() {
        Some(extra) => Err(reject(
            &ans,
            &out,
            format!("trailing output {}", shown(extra)),
        )),
        None => Ok(()),
    }
}

/// One token of the answer against the output's.
fn compare_tokens(expected: &[u8], got: &[u8], flags: &Flags) -> Result<(), String> {
    let number = |t: &[u8]| {
        std::str::from_utf8(t)
            .ok()
            .and_then(float_token::parse_number)
    };
    if flags.floats.is_set()
        && let Some(e) = number(expected)
    {
        let Some(g) = number(got) else {
            return Err(format!(
                "expected a number ({}), got {}",
                shown(expected),
                shown(got)
            ));
        };
        if flags.floats.admits(e, g) {
            return Ok(());
        }
        return Err(format!(
            "expected {}, got {}: they differ by {:.3e}, beyond the tolerance ({})",
            shown(expected),
            shown(got),
            (e - g).abs(),
            flags.floats.describe()
        ));
    }
    let same = if flags.case_sensitive {
        expected == got
    } else {
        expected.eq_ignore_ascii_case(got)
    };
    if same {
        Ok(())
    } else {
        Err(format!("expected {}, got {}", shown(expected), shown(got)))
    }
}

#[cfg(test)]
#[path = "validator_tests.rs"]
mod tests;
