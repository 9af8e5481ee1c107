//! What decided a failed part, so that the failure speaks of it: a
//! checker's verdict and the first line of its reason, the tolerance that
//! compared the part (`ignoring spacing`, `nonempty`) and the rules that
//! declared it. The judge records a [`Decided`] for each part a tolerance
//! compared and refused ([`crate::judge::compare::Judgement::decided`]);
//! [`crate::judge::cause::speak`] then makes the cause, its headline and
//! its label from it:
//! bytes a tolerance forgave (a CRLF a CSV checker ignores, spacing under
//! `spacing`) never head a cause, and causes group by the reason, so one
//! bug under a checker is one cause and two bugs are two.

use std::fmt;

use crate::exec::run::Stream;
use crate::model::matching::Tolerance;

/// Characters of a checker's reason kept.
const REASON_CHARS: usize = 160;

/// A part a tolerance compared and refused, and how.
#[derive(Debug, Clone, PartialEq)]
pub struct Decided {
    /// `stdout`, `stderr`, or a file's path.
    pub part: Part,
    /// What refused it.
    pub by: By,
    /// The rules that declared the tolerance (empty for a suite's or a
    /// case's own).
    pub rules: Vec<String>,
}

/// The part a decision is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// A stream.
    Stream(Stream),
    /// An output file, by its path in the sandbox.
    File(String),
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Stream(s) => f.write_str(s.name()),
            Self::File(path) => write!(
                f,
                "file `{}`",
                crate::bytes::visible::escape(path.as_bytes())
            ),
        }
    }
}

/// What refused a part.
#[derive(Debug, Clone, PartialEq)]
pub enum By {
    /// A checker program, with the first line of its reason.
    Checker {
        /// Its command line.
        command: String,
        /// The first line of what it said.
        reason: String,
    },
    /// A tolerance that runs no program.
    Tolerance(Tolerance),
    /// Stdout judged span by span (each rule's tolerance on its bytes):
    /// the reference's spans already name the rule it departs in.
    Spans,
    /// Stdout judged span by span, its text passing, a number of a span
    /// judged by `numbers` out of that tolerance: the first such number.
    SpanNumber(
        crate::model::matching::NumberTolerance,
        crate::judge::numbers::Refusal,
    ),
}

impl Decided {
    /// A checker's decision, its reason cut to its first line.
    pub fn checker(part: Part, command: &str, reason: &str, rules: Vec<String>) -> Self {
        let line = reason.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        let mut reason: String = line.trim().chars().take(REASON_CHARS).collect();
        if line.trim().chars().count() > REASON_CHARS {
            reason.push('…');
        }
        Self {
            part,
            by: By::Checker {
                command: command.to_owned(),
                reason,
            },
            rules,
        }
    }

    /// ` (IO-1)`: the rules that declared it, when some did.
    pub fn rules_said(&self) -> String {
        if self.rules.is_empty() {
            String::new()
        } else {
            format!(" ({})", self.rules.join(", "))
        }
    }
}

/// The reason as a cause's key keeps it: what is quoted in it (`'Le
/// Fay'`) and its numbers stand for any, so the same check failing on
/// other values is the same cause.
pub fn reason_key(reason: &str) -> String {
    let mut out = String::new();
    let mut quote: Option<char> = None;
    let mut digits = false;
    for c in reason.chars() {
        if let Some(q) = quote {
            if c == q {
                out.push(c);
                quote = None;
            }
            continue;
        }
        if matches!(c, '\'' | '"' | '`') {
            out.push(c);
            out.push('…');
            quote = Some(c);
            digits = false;
            continue;
        }
        if c.is_ascii_digit() {
            if !digits {
                out.push('#');
            }
            digits = true;
            continue;
        }
        digits = false;
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reasons_quotes_and_numbers_stand_for_any() {
        assert_eq!(
            reason_key("record 12: expected \"Le Fay\", got `x`"),
            "record #: expected \"…\", got `…`"
        );
    }
}
