//! Uncaught exceptions are crashes, in every language: a run whose
//! stream ends with a Python traceback, a Java `Exception in thread`, a
//! Node.js stack or a Ruby backtrace ([`crate::judge::exception`]) where
//! the reference printed none is keyed by the exception's type and the
//! program's own line, placed as a crash by signal is
//! ([`super::grave`]): at the reference's stop ("raises FileNotFoundError
//! (`./scourgify.py:7`) where the reference stops with its message
//! (READ-1)"), at its answer to a line it rejects, or in the span the
//! output stops in. Whatever else differs (a status, the stderr a
//! `nonempty` refused) follows from the crash.
//!
//! The hook for the environment: [`raised_of`] gives the parsed
//! exception of a case's mismatches, so a cause can tell a module the
//! course's machines have from a student's bug.

use super::grave::placed;
use super::signature::STOP;
use super::signature::{Edit, PartCause};
use super::text::{ending, is_grave};
use crate::judge::compare::Mismatch;
use crate::judge::exception::{self, Raised};
use crate::judge::provenance::Record;

/// What a crash by exception is called in a cause's key.
pub(super) const CRASH: &str = "crash";

/// The uncaught exception a run's output ends with where the expected
/// output holds none: stderr's first, then stdout's, then a file's.
pub fn raised_of(mismatches: &[Mismatch]) -> Option<Raised> {
    let streams = mismatches.iter().filter_map(|m| match m {
        Mismatch::Stream {
            stream,
            expected,
            actual,
            ..
        } => Some((
            *stream == crate::exec::run::Stream::Stdout,
            expected,
            actual,
        )),
        _ => None,
    });
    let mut found: Vec<(bool, Raised)> = streams
        .filter(|(_, e, _)| !exception::is_traceback(e))
        .filter_map(|(out, _, a)| exception::parse(a).map(|r| (out, r)))
        .collect();
    found.sort_by_key(|(out, _)| *out);
    found.into_iter().next().map(|(_, r)| r)
}

/// Whose fault an uncaught exception is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Blame {
    /// The program's own bug: a crash cause.
    Program,
    /// The environment the marks run in, not the student (why, in words:
    /// "cannot import `tabulate`: not installed where the marks run").
    Environment(String),
}

/// The hook where an exception is classified: an import that fails
/// (`ModuleNotFoundError`, `ImportError`, `ClassNotFoundException`,
/// `NoClassDefFoundError`, a shared object that cannot open) may be a
/// module the course's machines have and the marker's do not. Every
/// exception is the program's until the environment's causes are told
/// apart here.
pub fn blame(_raised: &Raised) -> Blame {
    Blame::Program
}

/// What an environment failure is called in a cause's key.
const ENVIRONMENT: &str = "environment";

/// The cause part and label of a crash by an uncaught exception; `None`
/// when the run printed none (or was killed: a signal, a hang or a flood
/// is [`super::grave`]'s). `unjudged` is the exception a stderr no part
/// judges ends with (`stderr: any`): a crash all the same, named alike,
/// where the judged streams show none.
pub(super) fn raised_place(
    mismatches: &[Mismatch],
    record: Option<&Record>,
    answered: Option<&[u8]>,
    unjudged: Option<&Raised>,
) -> Option<(PartCause, String)> {
    let killed = mismatches
        .iter()
        .any(|m| matches!(m, Mismatch::Ending { actual, .. } if is_grave(&ending(actual))));
    if killed {
        return None;
    }
    let raised = raised_of(mismatches).or_else(|| unjudged.cloned())?;
    let edit = Edit::Raised {
        kind: raised.kind.clone(),
        frame: raised
            .frame
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default(),
    };
    if let Blame::Environment(why) = blame(&raised) {
        // Not the student's: one cause for every case it stops, whatever
        // the rule.
        return Some((
            PartCause {
                part: ENVIRONMENT.to_owned(),
                place: None,
                edit,
            },
            why,
        ));
    }
    // The exception's own words go inside the parenthesis naming the
    // program's line: they are the program's, never the reference's.
    let what = match (&raised.frame, raised.message.is_empty()) {
        (Some(frame), false) => format!(
            "raises {} (`{frame}`, saying `{}`)",
            raised.kind, raised.message
        ),
        (None, false) => format!("raises {} (saying `{}`)", raised.kind, raised.message),
        _ => format!("raises {}", raised.headline()),
    };
    let Some((place, sentence)) = record.and_then(|r| placed(mismatches, r, answered, &what, true))
    else {
        return Some((
            PartCause {
                part: CRASH.to_owned(),
                place: None,
                edit,
            },
            what,
        ));
    };
    let label = if place.what == STOP {
        format!(
            "{what} where the reference {} ({})",
            reference_at_stop(mismatches),
            place.rules.join(", ")
        )
    } else {
        sentence
    };
    Some((
        PartCause {
            part: CRASH.to_owned(),
            place: Some(place),
            edit,
        },
        label,
    ))
}

/// What the reference does where it stops, from what the case expects:
/// its output written and status 0, or a stop with an error message (or
/// status alone). A crash leaves a status other than 0, so a status that
/// matched (no ending among the mismatches) was not 0 either.
fn reference_at_stop(mismatches: &[Mismatch]) -> String {
    let expected = mismatches.iter().find_map(|m| match m {
        Mismatch::Ending { expected, .. } => Some(expected),
        _ => None,
    });
    let message = mismatches.iter().any(|m| {
        matches!(m, Mismatch::Stream { stream: crate::exec::run::Stream::Stderr, expected, .. }
            if !expected.is_empty())
    });
    match expected {
        Some(crate::exec::run::Ending::Exited(0)) => "writes its output and exits 0".to_owned(),
        _ if message => "stops with an error message".to_owned(),
        Some(e) => format!("stops with {e}"),
        None => "stops with a status other than 0".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::signature::{Cause, missed_check_of};
    use super::*;
    use crate::exec::run::Ending;
    use crate::judge::provenance::{Ruling, Span, Verdict};

    const TRACEBACK: &[u8] = b"Traceback (most recent call last):\n  File \"./scourgify.py\", \
        line 7, in <module>\n    open(sys.argv[1])\nFileNotFoundError: [Errno 2] No such file \
        or directory: 'before.csv'\n";

    use crate::judge::cause::test_mismatch::stderr;

    fn stopping() -> Record {
        Record {
            asides: Vec::new(),
            spans: vec![Span {
                start: 0,
                end: 0,
                rules: vec!["READ-1".to_owned()],
                what: "nothing".to_owned(),
            }],
            rulings: vec![Ruling {
                verdict: Verdict::Stopped,
                at: 0,
                rule: "READ-1".to_owned(),
                kind: "missing-file".to_owned(),
                says: "a missing input file".to_owned(),
                detail: "a missing input file: READ-1 exits with a message".to_owned(),
                line: Vec::new(),
                exit_rule: "READ-1".to_owned(),
            }],
        }
    }

    #[test]
    fn a_traceback_is_a_crash_named_by_its_type_and_own_line() {
        let m = [stderr(b"Could not read before.csv\n", TRACEBACK)];
        let (cause, label) = Cause::labelled(&m, None, None);
        assert_eq!(
            cause.to_string(),
            "crash: raises FileNotFoundError (`./scourgify.py:7`)"
        );
        assert_eq!(
            label.as_deref(),
            Some(
                "raises FileNotFoundError (`./scourgify.py:7`, saying `[Errno 2] No such file \
                 or directory: 'before.csv'`)"
            )
        );
        assert_eq!(cause.severity(), 0);
        // The status that differs too follows from it.
        let status = Mismatch::Ending {
            expected: Ending::Exited(0),
            actual: Ending::Exited(1),
        };
        let (both, _) = Cause::labelled(&[status, m[0].clone()], None, None);
        assert_eq!(both, cause);
        // The model's own traceback is no crash of the program's.
        assert_eq!(raised_of(&[stderr(TRACEBACK, b"x\n")]), None);
    }

    #[test]
    fn a_crash_where_the_reference_stops_misses_its_check() {
        let m = [stderr(b"Could not read before.csv\n", TRACEBACK)];
        let (cause, label) = Cause::labelled(&m, Some(&stopping()), None);
        assert_eq!(
            label.as_deref(),
            Some(
                "raises FileNotFoundError (`./scourgify.py:7`, saying `[Errno 2] No such file \
                 or directory: 'before.csv'`) where the reference stops with an error message \
                 (READ-1)"
            )
        );
        assert_eq!(
            missed_check_of(&cause.to_string()),
            Some((
                "READ-1",
                "crashes where the reference ends (its output or its message)".to_owned()
            ))
        );
    }

    #[test]
    fn a_crash_where_the_reference_writes_its_output_says_so_and_marks_the_programs_words() {
        let index = b"Traceback (most recent call last):\n  File \"./scourgify.py\", line 60, in \
            <module>\n    rows[0]\nIndexError: list index out of range\n";
        let status = Mismatch::Ending {
            expected: Ending::Exited(0),
            actual: Ending::Exited(1),
        };
        let m = [status, stderr(b"", index)];
        let (_, label) = Cause::labelled(&m, Some(&stopping()), None);
        let label = label.unwrap_or_default();
        assert_eq!(
            label,
            "raises IndexError (`./scourgify.py:60`, saying `list index out of range`) where the \
             reference writes its output and exits 0 (READ-1)"
        );
        assert!(!label.contains("its message"), "{label}");
    }
    #[test]
    fn an_unjudged_stderrs_exception_names_the_crash_as_a_judged_ones_would() {
        let index = b"Traceback (most recent call last):\n  File \"./prog.py\", line 15, in \
            <module>\n    print(xs[3])\nIndexError: list index out of range\n";
        let raised = exception::parse(index);
        let status = Mismatch::Ending {
            expected: Ending::Exited(0),
            actual: Ending::Exited(1),
        };
        let stdout = Mismatch::Stream {
            stream: crate::exec::run::Stream::Stdout,
            expected: b"1\n2\n".to_vec(),
            actual: b"1\n".to_vec(),
            dropped: 0,
        };
        let m = [status.clone(), stdout];
        let (cause, label) = Cause::labelled_with(&m, None, None, raised.as_ref());
        assert_eq!(
            cause.to_string(),
            "crash: raises IndexError (`./prog.py:15`)"
        );
        assert_eq!(
            label.as_deref(),
            Some("raises IndexError (`./prog.py:15`, saying `list index out of range`)")
        );
        assert_eq!(cause.severity(), 0);
        // Placed where the reference stops, as a judged stderr's crash is.
        let (_, label) = Cause::labelled_with(&[status], Some(&stopping()), None, raised.as_ref());
        assert_eq!(
            label.as_deref(),
            Some(
                "raises IndexError (`./prog.py:15`, saying `list index out of range`) where the \
                 reference writes its output and exits 0 (READ-1)"
            )
        );
        // Without one, the failure is what it was; a signal stays grave's.
        let (plain, label) = Cause::labelled(&m, None, None);
        assert!(!plain.to_string().contains("raises"), "{plain}");
        assert_eq!(label, None);
        let killed = Mismatch::Ending {
            expected: Ending::Exited(0),
            actual: Ending::Signaled(11),
        };
        let (grave, _) = Cause::labelled_with(&[killed], None, None, raised.as_ref());
        assert!(!grave.to_string().contains("IndexError"), "{grave}");
    }
}
