//! What decided a failed part speaks for it ([`crate::judge::decided`]):
//! a checker's reason, the tolerance that compared it, the rules that
//! declared it make the cause, its label and the failure's headline.

use super::edit::{bytes_edit, bytes_shape};
use super::signature::{Cause, Edit};
use crate::judge::compare::Mismatch;
use crate::judge::decided::{By, Decided, Part, reason_key};
use crate::model::matching::Tolerance;

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
            By::Tolerance(t @ Tolerance::Numbers(n)) => {
                let Some(refusal) = crate::judge::numbers::first_refusal(n, expected, actual)
                else {
                    continue;
                };
                (
                    Edit::Judged {
                        how: t.describe(),
                        reason: refusal.key().to_owned(),
                    },
                    format!("{}{}: {}", d.part, d.rules_said(), refusal.say(n)),
                )
            }
            By::SpanNumber(n, refusal) => (
                Edit::Judged {
                    how: Tolerance::Numbers(*n).describe(),
                    reason: refusal.key().to_owned(),
                },
                format!("{}{}: {}", d.part, d.rules_said(), refusal.say(n)),
            ),
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
    use super::super::signature::PartCause;
    use super::*;
    use crate::exec::run::Stream;
    use crate::judge::decided::{By, Decided, Part};
    use crate::model::matching::Tolerance;

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
}
