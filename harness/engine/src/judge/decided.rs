//! What decided a failed part, so that the failure speaks of it: a
//! checker's verdict and the first line of its reason, the tolerance that
//! compared the part (`ignoring spacing`, `nonempty`) and the rules that
//! declared it. The judge records a [`Decided`] for each part a tolerance
//! compared and refused ([`crate::judge::compare::Judgement::decided`]);
//! [`speak`] then makes the cause, its headline and its label from it:
//! bytes a tolerance forgave (a CRLF a CSV checker ignores, spacing under
//! `spacing`) never head a cause, and causes group by the reason, so one
//! bug under a checker is one cause and two bugs are two.

use std::fmt;

use crate::exec::run::Stream;
use crate::judge::cause::{Cause, Edit, bytes_edit, bytes_shape};
use crate::judge::compare::Mismatch;
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

    fn rules_said(&self) -> String {
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

/// The cause, label and headline of a failure made from what decided its
/// parts. A cause already named by the bug (a crash, a memory error, a
/// missed check: `label` is set) is left as it is.
pub fn speak(
    cause: &mut Cause,
    label: &mut Option<String>,
    mismatches: &[Mismatch],
    decided: &[Decided],
) -> Option<String> {
    if label.is_some() || decided.is_empty() {
        return None;
    }
    let mut said: Option<String> = None;
    for part in &mut cause.parts {
        let Some((d, expected, actual)) = decision(&part.part, mismatches, decided) else {
            continue;
        };
        let (edit, sentence) = match &d.by {
            By::Checker { command, reason } => (
                Edit::Judged {
                    how: format!("by checker `{command}`"),
                    reason: reason_key(reason),
                },
                format!(
                    "{}: {reason} (by checker `{command}`{})",
                    d.part,
                    rules_of(d)
                ),
            ),
            By::Tolerance(Tolerance::Nonempty | Tolerance::NonemptyOrTraceback) => {
                let reason = if expected.is_empty() {
                    "a message where the reference prints none"
                } else {
                    "no message where the reference prints one"
                };
                (
                    Edit::Judged {
                        how: "as nonempty".to_owned(),
                        reason: reason.to_owned(),
                    },
                    format!("{}: {reason}{}", d.part, d.rules_said()),
                )
            }
            By::Tolerance(t @ Tolerance::Loose { spacing, case }) => {
                // The first difference the tolerance did not forgive.
                let e = crate::judge::tolerance::normalise(expected, *spacing, *case);
                let a = crate::judge::tolerance::normalise(actual, *spacing, *case);
                let sentence = format!(
                    "{}, compared {}{}: {}",
                    d.part,
                    t.describe(),
                    d.rules_said(),
                    bytes_edit(&e, &a)
                );
                // A cause at a place keeps its shape there.
                let edit = if part.place.is_some() {
                    Edit::Departed(bytes_shape(&e, &a))
                } else {
                    bytes_edit(&e, &a)
                };
                (edit, sentence)
            }
            By::Tolerance(_) | By::Spans => continue,
        };
        part.edit = edit;
        if said.is_none() {
            said = Some(sentence);
        }
    }
    label.clone_from(&said);
    said
}

fn rules_of(d: &Decided) -> String {
    if d.rules.is_empty() {
        String::new()
    } else {
        format!(", {}", d.rules.join(", "))
    }
}

/// The decision about a cause's part (`stdout`, `stderr`, `file` or
/// `file NAME`) and the bytes it compared.
fn decision<'a>(
    part: &str,
    mismatches: &'a [Mismatch],
    decided: &'a [Decided],
) -> Option<(&'a Decided, &'a [u8], &'a [u8])> {
    decided.iter().find_map(|d| {
        let bytes = mismatches.iter().find_map(|m| match (m, &d.part) {
            (
                Mismatch::Stream {
                    stream,
                    expected,
                    actual,
                    ..
                },
                Part::Stream(s),
            ) if stream == s && part == s.name() => Some((expected.as_slice(), actual.as_slice())),
            (
                Mismatch::FileDiffers {
                    path,
                    expected,
                    actual,
                },
                Part::File(p),
            ) if path == p && part.starts_with("file") => {
                Some((expected.as_slice(), actual.as_slice()))
            }
            _ => None,
        })?;
        Some((d, bytes.0, bytes.1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::cause::PartCause;

    fn file(expected: &[u8], actual: &[u8]) -> Mismatch {
        Mismatch::FileDiffers {
            path: "after.csv".to_owned(),
            expected: expected.to_vec(),
            actual: actual.to_vec(),
        }
    }

    #[test]
    fn a_checkers_reason_heads_the_cause_not_the_bytes_it_forgave() {
        let checked = |e: &[u8], a: &[u8], reason: &str| {
            let m = [file(e, a)];
            let (mut cause, mut label) = Cause::labelled(&m, None, None);
            let d = [Decided::checker(
                Part::File("after.csv".to_owned()),
                "python3 csv_check.py",
                reason,
                vec!["WRITE-1".to_owned()],
            )];
            let said = speak(&mut cause, &mut label, &m, &d);
            (cause, label, said)
        };
        let (cause, label, _) = checked(
            b"first,last\r\nMorgan,Le Fay\r\n",
            b"first,last\nMorgan,LeFay\n",
            "record 1: expected 'Le Fay', got 'LeFay'\nmore",
        );
        assert_eq!(
            label.as_deref(),
            Some(
                "file `after.csv`: record 1: expected 'Le Fay', got 'LeFay' (by checker \
                 `python3 csv_check.py`, WRITE-1)"
            )
        );
        assert!(!cause.to_string().contains("\\r"), "{cause}");
        // The same check on other values: the same cause; another: another.
        let (same, ..) = checked(b"a\n", b"b\n", "record 7: expected 'Potter', got 'Poter'");
        assert_eq!(same, cause);
        let (other, ..) = checked(b"a\n", b"b\n", "3 records where 4 were expected");
        assert_ne!(other, cause);
    }

    #[test]
    fn under_spacing_the_first_difference_left_heads_the_cause() {
        let m = [Mismatch::Stream {
            stream: Stream::Stdout,
            expected: b"Fahrenheit: 212.0\n".to_vec(),
            actual: b"Fahrenheit:  212\n".to_vec(),
            dropped: 0,
        }];
        let (mut cause, mut label) = Cause::labelled(&m, None, None);
        let d = [Decided {
            part: Part::Stream(Stream::Stdout),
            by: By::Tolerance(Tolerance::Loose {
                spacing: true,
                case: false,
            }),
            rules: vec!["IO-1".to_owned()],
        }];
        speak(&mut cause, &mut label, &m, &d);
        let PartCause { edit, .. } = &cause.parts[0];
        assert_eq!(
            edit.to_string(),
            "`Fahrenheit: #\\n` where `Fahrenheit: #.#\\n` was expected"
        );
        assert!(label.is_some_and(|l| l.contains("compared ignoring spacing (IO-1)")));
    }

    #[test]
    fn a_reasons_quotes_and_numbers_stand_for_any() {
        assert_eq!(
            reason_key("record 12: expected \"Le Fay\", got `x`"),
            "record #: expected \"…\", got `…`"
        );
    }
}
