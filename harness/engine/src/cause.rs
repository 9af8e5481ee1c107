//! The cause of a failure: a structural signature of how a run departs from
//! what was expected, shared by every case (or `diff` session) that fails
//! the same way. Two failures have the same cause when the same parts
//! differ, each by the same kind of edit at its first difference (lines
//! the program adds, lines it leaves out, a line it changes, another
//! ending) with the same lines once normalised: escaped, runs of digits
//! written `#`, cut short. "One extra `debug: move # #` line after each
//! move" is then one cause however many grids it lands in.

use std::fmt::{self, Write as _};
use std::time::{Duration, Instant};

use similar::{Algorithm, DiffTag};

use crate::compare::Mismatch;
use crate::run::Ending;

/// Characters of a normalised line kept in a signature.
const LINE_CHARS: usize = 60;

/// Lines of each side, after the first difference, looked at to tell an
/// added line from a changed one.
const WINDOW_LINES: usize = 48;

/// Bytes of each side, after the first difference, looked at.
const WINDOW_BYTES: usize = 16 * 1024;

/// Added or missing lines kept in a signature.
const EDIT_LINES: usize = 2;

/// Every part that differs, each with its edit: what makes failures "the
/// same".
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cause {
    /// The parts, in the order the comparison reports them.
    pub parts: Vec<PartCause>,
}

/// How one part differs.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PartCause {
    /// `status`, `stdout`, `stderr`, `file NAME` (digits normalised).
    pub part: String,
    /// The edit at its first difference.
    pub edit: Edit,
}

/// The kind of difference at a part's first differing byte, with its
/// normalised lines.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Edit {
    /// The run ended otherwise (normalised endings).
    Ending {
        /// Expected.
        expected: String,
        /// Actual.
        actual: String,
    },
    /// The program printed these lines in addition.
    Extra(Vec<String>),
    /// The program left these lines out.
    Missing(Vec<String>),
    /// The program printed one line where another was expected.
    Changed {
        /// Expected line (from the first differing byte on).
        expected: String,
        /// Actual line.
        actual: String,
    },
    /// A file that should exist does not.
    Absent,
    /// A file that should not exist does.
    Present,
    /// A process it started kept its output open.
    LeftProcess,
    /// In a conversation, an answer broke a rule (the rule and what was
    /// wrong, numbers normalised).
    Broke {
        /// The rule ID.
        rule: String,
        /// What was wrong.
        message: String,
    },
    /// The case was not run (why, in a few words).
    NotRun(String),
}

/// A line as a signature keeps it: escaped like [`crate::report::escape`],
/// digit runs replaced by `#`, cut to a few dozen characters.
pub fn normalise(line: &[u8]) -> String {
    let escaped = crate::report::escape(line);
    let mut out = String::new();
    let mut in_digits = false;
    for c in escaped.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('#');
            }
            in_digits = true;
            continue;
        }
        in_digits = false;
        out.push(c);
    }
    cut(out)
}

/// An ending as a signature keeps it: the exit status or signal exactly,
/// a timeout or a cap without its numbers.
pub fn ending(e: &Ending) -> String {
    match e {
        Ending::Exited(code) => format!("status {code}"),
        Ending::Signaled(_) => e.to_string(),
        Ending::TimedOut { .. } => "timed out".to_owned(),
        Ending::OutputCapExceeded { stream, .. } => format!("{} past the cap", stream.name()),
    }
}

/// The edit at the first difference of two byte strings: a line diff of
/// what follows the first differing byte on each side (a bounded window),
/// whose first non-equal operation says whether lines were added, left out
/// or changed.
pub fn bytes_edit(expected: &[u8], actual: &[u8]) -> Edit {
    let at = expected
        .iter()
        .zip(actual)
        .take_while(|(a, b)| a == b)
        .count();
    // A changed line is shown whole, from the start of its line: the
    // bytes both sides share before the difference belong to it (`End of
    // user input`, not `nd of user input`).
    let line_start = expected[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let shared = &expected[line_start..at];
    let whole = |line: &[u8]| [shared, line].concat();
    let old = window(&expected[at..]);
    let new = window(&actual[at..]);
    let deadline = Instant::now() + Duration::from_millis(200);
    let ops = similar::capture_diff_slices_deadline(Algorithm::Myers, &old, &new, Some(deadline));
    let lines = |side: &[&[u8]], range: std::ops::Range<usize>| -> Vec<String> {
        side[range]
            .iter()
            .take(EDIT_LINES)
            .map(|l| normalise(l))
            .collect()
    };
    for op in ops {
        let (tag, o, n) = op.as_tag_tuple();
        match tag {
            DiffTag::Equal => {}
            DiffTag::Insert => return Edit::Extra(lines(&new, n)),
            DiffTag::Delete => return Edit::Missing(lines(&old, o)),
            DiffTag::Replace if o.start == 0 && n.start == 0 => {
                return changed(&whole(old[0]), &whole(new[0]));
            }
            DiffTag::Replace => return changed(old[o.start], new[n.start]),
        }
    }
    // Only possible when the window hid the difference; name the bytes.
    changed(
        &whole(crate::report::rest_of_line(expected, at)),
        &whole(crate::report::rest_of_line(actual, at)),
    )
}

/// A changed line; when only numbers differ, the numbers are the
/// difference and are kept.
fn changed(expected: &[u8], actual: &[u8]) -> Edit {
    let (e, a) = (normalise(expected), normalise(actual));
    if e == a {
        let keep = |b: &[u8]| cut(crate::report::escape(b));
        return Edit::Changed {
            expected: keep(expected),
            actual: keep(actual),
        };
    }
    Edit::Changed {
        expected: e,
        actual: a,
    }
}

fn cut(mut text: String) -> String {
    if text.chars().count() > LINE_CHARS {
        text = text.chars().take(LINE_CHARS).collect();
        text.push('…');
    }
    text
}

fn window(bytes: &[u8]) -> Vec<&[u8]> {
    let cut = &bytes[..bytes.len().min(WINDOW_BYTES)];
    cut.split_inclusive(|&b| b == b'\n')
        .take(WINDOW_LINES)
        .collect()
}

impl Cause {
    /// How bad the departure is, for ordering causes met equally often:
    /// 0 a crash (a signal), a hang or a flood; 1 anything else (wrong
    /// bytes, another status).
    pub fn severity(&self) -> u8 {
        let grave = self.parts.iter().any(|p| match &p.edit {
            Edit::Ending { actual, .. } => {
                actual.starts_with("killed by signal")
                    || actual == "timed out"
                    || actual.ends_with("past the cap")
            }
            _ => false,
        });
        u8::from(!grave)
    }

    /// The cause of a case's mismatches.
    pub fn of(mismatches: &[Mismatch]) -> Self {
        let parts = mismatches
            .iter()
            .map(|m| match m {
                Mismatch::Ending { expected, actual } => PartCause {
                    part: "status".to_owned(),
                    edit: Edit::Ending {
                        expected: ending(expected),
                        actual: ending(actual),
                    },
                },
                Mismatch::LeftProcess { .. } => PartCause {
                    part: "process".to_owned(),
                    edit: Edit::LeftProcess,
                },
                Mismatch::Stream {
                    stream,
                    expected,
                    actual,
                    ..
                } => PartCause {
                    part: stream.name().to_owned(),
                    edit: bytes_edit(expected, actual),
                },
                Mismatch::FileMissing { path } => PartCause {
                    part: format!("file {}", normalise(path.as_bytes())),
                    edit: Edit::Absent,
                },
                Mismatch::FileUnexpected { path } => PartCause {
                    part: format!("file {}", normalise(path.as_bytes())),
                    edit: Edit::Present,
                },
                Mismatch::FileDiffers {
                    path,
                    expected,
                    actual,
                } => PartCause {
                    part: format!("file {}", normalise(path.as_bytes())),
                    edit: bytes_edit(expected, actual),
                },
                Mismatch::Exchange(x) => PartCause {
                    part: "answer".to_owned(),
                    edit: Edit::Broke {
                        rule: x.rule.clone(),
                        message: normalise(x.message.as_bytes()),
                    },
                },
            })
            .collect();
        Self { parts }
    }
}

impl fmt::Display for Edit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |lines: &[String]| {
            lines
                .iter()
                .map(|l| format!("`{l}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Self::Ending { expected, actual } => {
                write!(f, "{actual} where {expected} was expected")
            }
            Self::Extra(lines) => write!(f, "extra output {}", list(lines)),
            Self::Missing(lines) => write!(f, "missing output {}", list(lines)),
            Self::Changed { expected, actual } => {
                write!(f, "`{actual}` where `{expected}` was expected")
            }
            Self::Absent => write!(f, "missing"),
            Self::Present => write!(f, "should not exist"),
            Self::LeftProcess => write!(f, "left running, holding the output open"),
            Self::Broke { rule, message } => write!(f, "broke {rule}: {message}"),
            Self::NotRun(why) => write!(f, "not run ({why})"),
        }
    }
}

impl fmt::Display for Cause {
    /// One line: each part with its edit (`#` stands for any number).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::new();
        for (i, p) in self.parts.iter().enumerate() {
            if i > 0 {
                text.push_str("; ");
            }
            let _ = write!(text, "{}: {}", p.part, p.edit);
        }
        if text.is_empty() {
            text.push_str("no difference");
        }
        f.write_str(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Stream;

    fn stdout(expected: &[u8], actual: &[u8]) -> Cause {
        Cause::of(&[Mismatch::Stream {
            stream: Stream::Stdout,
            expected: expected.to_vec(),
            actual: actual.to_vec(),
            dropped: 0,
        }])
    }

    #[test]
    fn digits_become_hashes_and_long_lines_are_cut() {
        assert_eq!(normalise(b"move 12 3 h\n"), "move # # h\\n");
        assert_eq!(normalise(b"\xff\t7"), "\\xff\\t#");
        let long = normalise(&[b'x'; 500]);
        assert_eq!(long.chars().count(), LINE_CHARS + 1);
        assert!(long.ends_with('…'));
    }

    #[test]
    fn an_extra_line_after_a_move_is_one_cause_in_any_grid() {
        let a = stdout(
            b"+ +\nA> +-+\n| |\nB> ",
            b"+ +\nA> debug: move 0 0\n+-+\n| |\nB> ",
        );
        let b = stdout(
            b"+ + +\n\nA> +-+ +\nB> ",
            b"+ + +\n\nA> debug: move 13 2\n+-+ +\nB> ",
        );
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "stdout: extra output `debug: move # #\\n`");
    }

    #[test]
    fn missing_changed_and_endings_are_told_apart() {
        let missing = stdout(b"+ +\nA> ", b"+ +\n");
        assert_eq!(missing.parts[0].edit, Edit::Missing(vec!["A> ".into()]));
        let changed = stdout(b"+-+ \n| |\n", b"+-+\n|x|\n");
        assert_eq!(
            changed.parts[0].edit,
            Edit::Changed {
                expected: "+-+ \\n".into(),
                actual: "+-+\\n".into()
            }
        );
        // A changed message is quoted whole, not from its first
        // differing byte.
        let words = stdout(b"Error reading grid contents\n", b"End of user input\n");
        assert_eq!(
            words.to_string(),
            "stdout: `End of user input\\n` where `Error reading grid contents\\n` was expected"
        );
        let status = Cause::of(&[Mismatch::Ending {
            expected: Ending::Exited(0),
            actual: Ending::Exited(5),
        }]);
        assert_eq!(
            status.to_string(),
            "status: status 5 where status 0 was expected"
        );
        let other = Cause::of(&[Mismatch::Ending {
            expected: Ending::Exited(0),
            actual: Ending::Exited(6),
        }]);
        assert_ne!(status, other);
        let numbers = stdout(b"1\n", b"2\n");
        assert_eq!(
            numbers.to_string(),
            "stdout: `2\\n` where `1\\n` was expected"
        );
    }
}
