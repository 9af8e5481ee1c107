//! What a cause is: every part that differs with its edit ([`Cause`],
//! [`PartCause`], [`Edit`]), where a stream departs ([`Place`]), the common
//! kinds of departure ([`Departure`]) and the checks a program misses
//! ([`Missed`]), and how each reads in a report.

use std::fmt::{self, Write as _};

use crate::judge::provenance::Span;

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
    /// The span of the reference's output the first difference falls in
    /// (for an extra line: the span the program had just written), when
    /// the reference's provenance is known.
    pub place: Option<Place>,
    /// The edit at its first difference.
    pub edit: Edit,
}

/// A span of the reference's output by what it is and the rules it obeys.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place {
    /// What the reference was writing (`the prompt`).
    pub what: String,
    /// The rule IDs.
    pub rules: Vec<String>,
}

impl Place {
    pub(super) fn of(span: &Span) -> Self {
        Self {
            what: span.what.clone(),
            rules: span.rules.clone(),
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.what, self.rules.join(", "))
    }
}

/// A departure named by its shape, never by its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Departure {
    /// The extra line is the input line the program had just read.
    Echo,
    /// Lines the reference does not print.
    ExtraLine,
    /// Output after the reference's last byte.
    ExtraAtEnd,
    /// A line break inside a line the reference goes on writing.
    LineBreak,
    /// Output ends where the reference goes on.
    Stops,
    /// Lines the reference prints are left out, and output goes on.
    MissingLine,
    /// A line differs only in spaces or tabs (trailing ones included).
    Spacing,
    /// A line differs only in its numbers.
    Number,
    /// A line differs only in letter case.
    LetterCase,
    /// A line differs otherwise.
    OtherText,
}

impl fmt::Display for Departure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Echo => "the program echoes the input line it just read",
            Self::ExtraLine => "an extra line",
            Self::ExtraAtEnd => "extra output after the reference's last byte",
            Self::LineBreak => "an extra line break",
            Self::Stops => "the output stops here",
            Self::MissingLine => "a line is left out",
            Self::Spacing => "a line differs only in spaces or tabs",
            Self::Number => "a line differs in a number",
            Self::LetterCase => "a line differs in letter case",
            Self::OtherText => "a line differs",
        })
    }
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
    /// What the reference writes besides stdout at the part's place (a
    /// file it saves, a message on stderr) is not written
    /// ([`super::blame_asides`]).
    Undone,
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
    /// The marker's environment lacks what the program needs (a module,
    /// a class, a shared library: [`crate::judge::environment`]); the
    /// sentence naming it.
    Environment(String),
    /// A memory error a sanitizer or valgrind reported: its kind and the
    /// program's own frame, never what it did (the sizes and offsets
    /// differ from input to input; the worked example says them).
    Memory {
        /// `heap-buffer-overflow`, `leak`, ...
        kind: String,
        /// The program's frame (`` `shout` (shout.c:11) ``), empty when
        /// unknown.
        place: String,
    },
    /// A departure named by its shape, at a known place.
    Departed(Departure),
    /// The files a case checks are not the reference's: not written,
    /// written where the reference writes none, written otherwise, or a
    /// mix (in words).
    Files(String),
    /// A tolerance refused the part: how it compared (`by checker
    /// `csv_check``, `as nonempty`) and its reason, quoted values and
    /// numbers standing for any ([`crate::judge::decided`]).
    Judged {
        /// How it was compared.
        how: String,
        /// Why it failed.
        reason: String,
    },
    /// An uncaught exception ended the run (a Python traceback, a Java,
    /// Node.js or Ruby one): its type and the program's own frame, never
    /// its message (the worked example says it).
    Raised {
        /// `FileNotFoundError`.
        kind: String,
        /// `./scourgify.py:7`, empty when unknown.
        frame: String,
    },
    /// A check the program misses, named by the reference's ruling: its
    /// rule and reason kind, never the bytes of the line.
    Missed {
        /// How the program departs.
        shape: Missed,
        /// The rule of the check (for [`Missed::StopsOtherwise`], of the
        /// stop's message and status).
        rule: String,
        /// The reason kind (empty for [`Missed::StopsOtherwise`]).
        kind: String,
        /// The kind in words.
        says: String,
    },
}

/// How a cause's key names a line accepted that the reference rejects.
pub(super) const ACCEPTS: &str = "accepts what the reference rejects";

/// How a cause's key names going on where the reference stops.
pub(super) const GOES_ON: &str = "goes on where the reference stops";

/// What a stop is called as a place.
pub(super) const STOP: &str = "what it ends with";

/// What the reference's answer to a line it rejects is called as a place
/// (a crash by exception there has missed the rule's check).
pub(super) const REJECTS: &str = "its answer to a line it rejects";

/// How a cause's key names exiting 0 where the reference stops with an
/// error.
pub(super) const EXITS_ZERO: &str = "exits 0 where the reference stops with an error";

/// How a cause's key names a rejection without the reference's message.
pub(super) const SILENT: &str = "rejects without the message the reference prints";

/// How a cause's key names stopping after what the reference accepts.
pub(super) const REFUSES: &str = "refuses what the reference accepts";

/// The rule and the check of a cause's key ([`Cause`]'s one line) when it
/// names a missed check: (`TURN-3`, `accepts what the reference rejects:
/// a horizontal edge's row past H`). What `mark`'s class view lists.
pub fn missed_check_of(key: &str) -> Option<(&str, String)> {
    [ACCEPTS, GOES_ON, REFUSES]
        .iter()
        .find_map(|shape| {
            let (_, rest) = key.split_once(&format!("{shape}: "))?;
            let (rule, says) = rest.split_once(", ")?;
            Some((rule, format!("{shape}: {says}")))
        })
        .or_else(|| crashed_at_check(key))
        .or_else(|| {
            let (_, rest) = key.split_once(&format!("{EXITS_ZERO} ("))?;
            Some((rest.split(')').next()?, EXITS_ZERO.to_owned()))
        })
}

/// A crash (by signal or exception) where the reference stops with its
/// message, or at its answer to a line it rejects: that rule's check is
/// missed, whatever the crash.
fn crashed_at_check(key: &str) -> Option<(&str, String)> {
    [
        (
            STOP,
            "crashes where the reference ends (its output or its message)",
        ),
        (REJECTS, "crashes on a line the reference rejects"),
    ]
    .iter()
    .find_map(|(place, check)| {
        let (_, rest) = key.split_once(&format!(", where the reference writes {place} ("))?;
        let rules = rest.split(')').next()?;
        let rule = rules.split(", ").next()?;
        Some((rule, (*check).to_owned()))
    })
}

/// The part a memory error's cause names.
pub(super) const MEMORY: &str = "memory";

/// The kind and place of a cause's key ([`Cause`]'s one line) when it
/// names a memory error: (`heap-buffer-overflow`, `` `shout` (shout.c:11) ``),
/// the place empty when unknown. What `mark`'s class view lists.
pub fn memory_error_of(key: &str) -> Option<(&str, &str)> {
    let rest = key.strip_prefix(MEMORY)?.strip_prefix(": ")?;
    Some(rest.split_once(" in ").unwrap_or((rest, "")))
}

/// How a program departs where the reference rejects a line or stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Missed {
    /// It answers a line the reference rejected as if it were valid.
    Accepts,
    /// It goes on where the reference stops with an error.
    GoesOn,
    /// It stops there too, with another status or message.
    StopsOtherwise,
    /// It exits 0 where the reference stops with an error status (its
    /// message perhaps one a tolerance accepts): the check is missed.
    ExitsZero,
    /// It stops where the reference accepted the input and went on.
    Refuses,
    /// It rejects the line but says nothing where the reference answers
    /// with a message (its output goes on as the reference's does after
    /// the message: the prompt again).
    Silent,
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
            Self::Ending { expected, actual } if expected.is_empty() => write!(f, "{actual}"),
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
            Self::Undone => write!(f, "not written"),
            Self::LeftProcess => write!(f, "left running, holding the output open"),
            // A conversation judged whole cites no rule (a problem
            // package's validator): its message alone.
            Self::Broke { rule, message } if rule.is_empty() => f.write_str(message),
            Self::Broke { rule, message } => write!(f, "broke {rule}: {message}"),
            Self::NotRun(why) => write!(f, "not run ({why})"),
            Self::Environment(why) => f.write_str(why),
            Self::Memory { kind, place } if place.is_empty() => f.write_str(kind),
            Self::Memory { kind, place } => write!(f, "{kind} in {place}"),
            Self::Departed(d) => write!(f, "{d}"),
            Self::Judged { how, reason } => write!(f, "{reason} ({how})"),
            Self::Files(how) => f.write_str(how),
            Self::Raised { kind, frame } if frame.is_empty() => write!(f, "raises {kind}"),
            Self::Raised { kind, frame } => write!(f, "raises {kind} (`{frame}`)"),
            Self::Missed {
                shape: Missed::StopsOtherwise,
                rule,
                ..
            } => write!(f, "stops otherwise where the reference stops ({rule})"),
            Self::Missed {
                shape: Missed::ExitsZero,
                rule,
                ..
            } => write!(f, "{EXITS_ZERO} ({rule})"),
            Self::Missed {
                shape, rule, says, ..
            } => {
                let what = match shape {
                    Missed::Accepts => ACCEPTS,
                    Missed::Refuses => REFUSES,
                    Missed::Silent => SILENT,
                    _ => GOES_ON,
                };
                write!(f, "{what}: {rule}, {says}")
            }
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
            let _ = match (&p.place, &p.edit) {
                (Some(place), Edit::Departed(d @ Departure::ExtraLine)) => {
                    write!(text, "{}, before {place}: {d}", p.part)
                }
                (Some(place), Edit::Departed(d @ Departure::LineBreak)) => {
                    write!(text, "{}, after {place}: {d}", p.part)
                }
                (Some(place), edit @ (Edit::Ending { .. } | Edit::Raised { .. })) => {
                    write!(
                        text,
                        "{}: {edit}, where the reference writes {place}",
                        p.part
                    )
                }
                (Some(place), Edit::Undone) => write!(text, "does not {place}"),
                (Some(place), edit) => write!(text, "{}, in {place}: {edit}", p.part),
                (None, edit) => write!(text, "{}: {edit}", p.part),
            };
        }
        if text.is_empty() {
            text.push_str("no difference");
        }
        f.write_str(&text)
    }
}
