//! A cause derived from a case's mismatches: the stream causes (with the
//! reference's provenance when it has one), the ending, the files, and the
//! missed check that names the whole failure when there is one.

use super::edit::first_edit;
use super::grave::grave_place;
use super::missed::missed_check;
use super::raised::raised_place;
use super::signature::{Cause, Departure, Edit, Missed, PartCause, Place};
use super::text::{echoes, ending, exact, is_grave, normalise};
use crate::exec::run::Stream;
use crate::judge::compare::{Mismatch, ReadCount};
use crate::judge::provenance::{Record, Span};

/// The cause of a stream's difference: at a known place, the place and
/// the departure's shape (an extra line that repeats `answered`, the input
/// line the program had just read, is an echo wherever it lands);
/// otherwise the edit with its normalised lines.
pub(super) fn stream_cause(
    mask: bool,
    part: String,
    expected: &[u8],
    actual: &[u8],
    spans: Option<&[Span]>,
    answered: Option<&[u8]>,
) -> PartCause {
    let first = first_edit(expected, actual, mask);
    let Some(spans) = spans else {
        return PartCause {
            part,
            place: None,
            edit: first.edit,
        };
    };
    // The program printed the line it had just read (and a newline) where
    // the reference printed something else: an echo, wherever it lands.
    if echoes(actual, first.at, answered) {
        return PartCause {
            part,
            place: None,
            edit: Edit::Departed(Departure::Echo),
        };
    }
    if first.shape == Departure::ExtraLine && first.offset >= expected.len() {
        return PartCause {
            part,
            place: None,
            edit: Edit::Departed(Departure::ExtraAtEnd),
        };
    }
    // A line break inside a line (`A> ` then a newline where the reference
    // goes on) belongs to what was written before it: it ends that line
    // early, whatever was to follow.
    if line_break(expected, actual, first.at, spans)
        && let Some(span) = crate::judge::provenance::before(spans, first.at)
    {
        return PartCause {
            part,
            place: Some(Place::of(span)),
            edit: Edit::Departed(Departure::LineBreak),
        };
    }
    // An extra line is placed by what the reference writes next: a bug
    // departs at its first occasion, and what follows that occasion is the
    // same wherever it is (a debug line after every move comes before "the
    // grid after a valid move" whichever prompt took the move). At the very
    // end, by what was written last.
    let span = crate::judge::provenance::at(spans, first.offset);
    match span {
        Some(span) => PartCause {
            part,
            place: Some(Place::of(span)),
            edit: Edit::Departed(first.shape),
        },
        None => PartCause {
            part,
            place: None,
            edit: first.edit,
        },
    }
}

/// Whether the first difference, at `at`, is a line break the program
/// put inside a line: the reference goes on writing that line with a new
/// span (what follows a prompt), and the program writes a newline there
/// and then that span's text. A newline anywhere else is a value that
/// differs (`32` then a newline where `32.0` was expected: the number is
/// wrong, not the line's end).
fn line_break(expected: &[u8], actual: &[u8], at: usize, spans: &[Span]) -> bool {
    let spacing = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
    let mid_line = at > 0 && expected.get(at - 1).is_some_and(|&b| b != b'\n');
    let Some(skip) = actual
        .get(at..)
        .and_then(|a| a.iter().position(|b| !spacing(b)))
    else {
        return false;
    };
    if !mid_line || actual.get(at + skip) != Some(&b'\n') {
        return false;
    }
    // Where the reference's own text resumes past its spacing: a span
    // must start there, or the break splits something the reference
    // writes in one piece.
    let resumes = expected
        .get(at..)
        .and_then(|e| e.iter().position(|b| !spacing(b)))
        .map_or(expected.len(), |p| at + p);
    let starts_span =
        u64::try_from(resumes).is_ok_and(|r| spans.iter().any(|s| s.start == r && s.end > r));
    // ... and what the program writes after its newline is the rest of
    // the reference's line.
    let rest = crate::bytes::visible::rest_of_line(expected, resumes).trim_ascii();
    let next = actual.get(at + skip + 1..).unwrap_or_default();
    let next = next
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t'))
        .map_or(&[][..], |p| &next[p..]);
    starts_span && !rest.is_empty() && next.starts_with(rest)
}

impl Cause {
    /// The cause of a run that failed for the marker's environment
    /// ([`crate::judge::environment`]): one part, `environment`.
    pub fn environment(why: String) -> Self {
        Self {
            parts: vec![PartCause {
                part: "environment".to_owned(),
                place: None,
                edit: Edit::Environment(why),
            }],
        }
    }

    /// Whether the run failed for the marker's environment.
    pub fn is_environment(&self) -> bool {
        self.environment_why().is_some()
    }

    /// What the marker's environment lacked or how it failed the run
    /// (`cannot import `tabulate`: not installed where the marks run`),
    /// when it did: what every machine output says of a case it struck.
    pub fn environment_why(&self) -> Option<&str> {
        self.parts.iter().find_map(|p| match &p.edit {
            Edit::Environment(why) => Some(why.as_str()),
            _ => None,
        })
    }

    /// How bad the departure is, for ordering causes met equally often:
    /// 0 a crash (a signal), a hang, a flood or a memory error; 1 anything else (wrong
    /// bytes, another status).
    pub fn severity(&self) -> u8 {
        let grave = self.parts.iter().any(|p| {
            matches!(&p.edit, Edit::Ending { actual, .. } if is_grave(actual))
                || matches!(p.edit, Edit::Memory { .. } | Edit::Raised { .. })
        });
        u8::from(!grave)
    }

    /// The failure as its header quotes it: each part's first edit with
    /// its lines exact (escaped, cut, numbers kept: `Player O wins`, not
    /// `Player O wins` with its digits masked).
    pub fn quote(mismatches: &[Mismatch]) -> Self {
        Self::parts_of(mismatches, None, None, false, false)
    }

    /// The cause of a case's mismatches; `record` is the reference's
    /// provenance of the expected stdout, `answered` the stdin line the
    /// program had just read when stdout departed.
    ///
    /// With provenance the cause is the primary part alone (a crash, hang
    /// or flood; else stdout; else the first part): the other parts of the
    /// same bug (a status, a save file named by the case) differ from case
    /// to case and would split it. The worked example shows them all.
    pub fn located(
        mismatches: &[Mismatch],
        record: Option<&Record>,
        answered: Option<&[u8]>,
    ) -> Self {
        Self::labelled(mismatches, record, answered).0
    }

    /// [`Self::located`], with the sentence a missed check is told in
    /// ("accepts `3 14 h`: TURN-3 rejects it (…)"), from this case's
    /// values: a cause's label, when its worked example is this case.
    pub fn labelled(
        mismatches: &[Mismatch],
        record: Option<&Record>,
        answered: Option<&[u8]>,
    ) -> (Self, Option<String>) {
        Self::labelled_with(mismatches, record, answered, None)
    }

    /// [`Self::labelled`], where the run's stderr, judged by no part
    /// (`stderr: any`), ends with the uncaught exception `unjudged`: the
    /// crash names the failure as a judged stderr's would.
    pub fn labelled_with(
        mismatches: &[Mismatch],
        record: Option<&Record>,
        answered: Option<&[u8]>,
        unjudged: Option<&crate::judge::exception::Raised>,
    ) -> (Self, Option<String>) {
        let spans = record.map(|r| r.spans.as_slice());
        let mut cause = Self::parts_of(mismatches, spans, answered, true, true);
        // A memory error is the bug whatever else differs: what the
        // program printed after it (or did not, aborted) follows from it.
        if let Some((part, Mismatch::Memory { error, .. })) = cause
            .parts
            .iter()
            .zip(mismatches)
            .find(|(_, m)| matches!(m, Mismatch::Memory { .. }))
        {
            let label = error.to_string();
            cause.parts = vec![part.clone()];
            return (cause, Some(label));
        }
        // An uncaught exception is a crash: what else differs (a status,
        // the stderr a `nonempty` refused) follows from it.
        if let Some((part, label)) = raised_place(mismatches, record, answered, unjudged) {
            cause.parts = vec![part];
            return (cause, Some(label));
        }
        let Some(record) = record else {
            return (cause, None);
        };
        // The reads first: a program that ended right after a line the
        // reference rejects accepted that line, whatever its stdout's first
        // difference says (under a tolerance, that can be a message whose
        // words were forgiven, before the real bug).
        if let Some((part, label)) = accepted_by_reads(mismatches)
            .or_else(|| missed_check(mismatches, record, answered))
            .or_else(|| grave_place(mismatches, record, answered))
        {
            cause.parts = vec![part];
            return (cause, Some(label));
        }
        if let Some(primary) = cause.primary() {
            cause.parts = vec![primary];
        }
        (cause, None)
    }

    /// The part that names the bug: a crash, hang or flood, else stdout,
    /// else the first.
    fn primary(&self) -> Option<PartCause> {
        let grave =
            |p: &&PartCause| matches!(&p.edit, Edit::Ending { actual, .. } if is_grave(actual));
        self.parts
            .iter()
            .find(grave)
            .or_else(|| self.parts.iter().find(|p| p.part == "stdout"))
            .or_else(|| self.parts.first())
            .cloned()
    }

    /// Each part's cause; `shapes`: files keyed by the shape of their
    /// first difference, not by their names and bytes (a save file's name
    /// is the case's choice).
    fn parts_of(
        mismatches: &[Mismatch],
        spans: Option<&[Span]>,
        answered: Option<&[u8]>,
        shapes: bool,
        mask: bool,
    ) -> Self {
        let file = |path: &str| {
            if shapes {
                "file".to_owned()
            } else if mask {
                format!("file {}", normalise(path.as_bytes()))
            } else {
                format!("file {}", exact(path.as_bytes()))
            }
        };
        let parts = mismatches
            .iter()
            .map(|m| match m {
                Mismatch::Ending { expected, actual } => {
                    let actual = ending(actual);
                    // A crash, hang or flood is the bug whatever status the
                    // case expected.
                    let expected = if spans.is_some() && is_grave(&actual) {
                        String::new()
                    } else {
                        ending(expected)
                    };
                    PartCause {
                        part: "status".to_owned(),
                        place: None,
                        edit: Edit::Ending { expected, actual },
                    }
                }
                Mismatch::LeftProcess { .. } => PartCause {
                    part: "process".to_owned(),
                    place: None,
                    edit: Edit::LeftProcess,
                },
                Mismatch::Stream {
                    stream: Stream::Stdout,
                    expected,
                    actual,
                    ..
                } => stream_cause(mask, "stdout".to_owned(), expected, actual, spans, answered),
                Mismatch::Stream {
                    stream,
                    expected,
                    actual,
                    ..
                } => stream_cause(mask, stream.name().to_owned(), expected, actual, None, None),
                Mismatch::FileMissing { path } => PartCause {
                    part: file(path),
                    place: None,
                    edit: Edit::Absent,
                },
                Mismatch::FileUnexpected { path } => PartCause {
                    part: file(path),
                    place: None,
                    edit: Edit::Present,
                },
                Mismatch::FileDiffers {
                    path,
                    expected,
                    actual,
                } if shapes => PartCause {
                    part: file(path),
                    place: None,
                    edit: Edit::Departed(first_edit(expected, actual, true).shape),
                },
                Mismatch::FileDiffers {
                    path,
                    expected,
                    actual,
                } => stream_cause(mask, file(path), expected, actual, None, None),
                Mismatch::Memory { error, .. } => PartCause {
                    part: super::signature::MEMORY.to_owned(),
                    place: None,
                    edit: Edit::Memory {
                        kind: error.kind.clone(),
                        place: error
                            .frame
                            .as_ref()
                            .map(ToString::to_string)
                            .unwrap_or_default(),
                    },
                },
                Mismatch::Reads(r) => reads_cause(r, mask),
                Mismatch::Exchange(x) => PartCause {
                    part: "answer".to_owned(),
                    place: None,
                    edit: Edit::Broke {
                        rule: x.rule.clone(),
                        message: if mask {
                            normalise(x.message.as_bytes())
                        } else {
                            exact(x.message.as_bytes())
                        },
                    },
                },
            })
            .collect();
        Self { parts }
    }
}

/// The cause of another number of stdin lines read: the check it misses
/// when the reference's record rejects the line it accepted, else the
/// counts (numbers as `#` in a key).
fn reads_cause(r: &ReadCount, mask: bool) -> PartCause {
    if let (Some(ruling), true) = (&r.ruling, r.actual < r.expected) {
        return PartCause {
            part: "stdin".to_owned(),
            place: None,
            edit: Edit::Missed {
                shape: Missed::Accepts,
                rule: ruling.rule.clone(),
                kind: ruling.kind.clone(),
                says: ruling.says.clone(),
            },
        };
    }
    let count = |n: usize| if mask { "#".to_owned() } else { n.to_string() };
    PartCause {
        part: "stdin".to_owned(),
        place: None,
        edit: Edit::Ending {
            expected: count(r.expected),
            actual: format!("reads {} stdin line(s)", count(r.actual)),
        },
    }
}

/// A program that read fewer stdin lines than the reference, the last one
/// a line the reference rejects: the check it misses, told with this
/// case's line (its output may be free text, so the read is the evidence).
fn accepted_by_reads(mismatches: &[Mismatch]) -> Option<(PartCause, String)> {
    let grave = mismatches
        .iter()
        .any(|m| matches!(m, Mismatch::Ending { actual, .. } if is_grave(&ending(actual))));
    if grave {
        return None;
    }
    mismatches.iter().find_map(|m| match m {
        Mismatch::Reads(r) if r.ruling.is_some() && r.actual < r.expected => {
            let (_, line) = r.line.as_ref()?;
            let ruling = r.ruling.as_ref()?;
            let label = format!(
                "accepts `{}`: {} (it reads {} stdin line(s) where the reference reads {})",
                crate::bytes::visible::escape(line),
                ruling.detail,
                r.actual,
                r.expected
            );
            Some((reads_cause(r, true), label))
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: u64, end: u64, what: &str, rule: &str) -> Span {
        Span {
            start,
            end,
            rules: vec![rule.to_owned()],
            what: what.to_owned(),
        }
    }

    fn stdout(spans: Vec<Span>, expected: &[u8], actual: &[u8]) -> Cause {
        let m = [Mismatch::Stream {
            stream: Stream::Stdout,
            expected: expected.to_vec(),
            actual: actual.to_vec(),
            dropped: 0,
        }];
        let record = Record {
            asides: Vec::new(),
            spans,
            rulings: Vec::new(),
        };
        Cause::located(&m, Some(&record), None)
    }

    /// examples/celsius: the prompt (IO-1), then the result (IO-4).
    fn celsius(expected: &[u8], actual: &[u8]) -> Cause {
        let end = u64::try_from(expected.len()).unwrap_or(u64::MAX);
        let spans = vec![
            span(0, 9, "the prompt", "IO-1"),
            span(9, end, "the temperature in Fahrenheit", "IO-4"),
        ];
        stdout(spans, expected, actual)
    }

    #[test]
    fn a_number_cut_short_before_its_newline_is_a_value_not_a_line_break() {
        // ivan prints the result without its decimal: `32` where `32.0`,
        // `98` where `97.9`; one bug, one cause.
        let short = celsius(b"Celsius: Fahrenheit: 32.0\n", b"Celsius: Fahrenheit: 32\n");
        let rounded = celsius(b"Celsius: Fahrenheit: 97.9\n", b"Celsius: Fahrenheit: 98\n");
        assert_eq!(
            short.to_string(),
            "stdout, in the temperature in Fahrenheit (IO-4): a line differs"
        );
        assert_eq!(short, rounded);
        // The values are in the quote the worked example shows.
        let m = [Mismatch::Stream {
            stream: Stream::Stdout,
            expected: b"Celsius: Fahrenheit: 32.0\n".to_vec(),
            actual: b"Celsius: Fahrenheit: 32\n".to_vec(),
            dropped: 0,
        }];
        assert_eq!(
            Cause::quote(&m).to_string(),
            "stdout: `Celsius: Fahrenheit: 32\\n` where `Celsius: Fahrenheit: 32.0\\n` was expected"
        );
    }

    #[test]
    fn a_line_break_is_one_where_the_reference_starts_a_span_and_goes_on() {
        let spans = || {
            vec![
                span(0, 3, "the prompt", "TURN-1"),
                span(3, 7, "the grid", "DISP-1"),
            ]
        };
        let broken = stdout(spans(), b"A> +-+\n", b"A> \n+-+\n");
        assert_eq!(
            broken.to_string(),
            "stdout, after the prompt (TURN-1): an extra line break"
        );
        // The prompt's space left out too: the same break.
        assert_eq!(broken, stdout(spans(), b"A> +-+\n", b"A>\n+-+\n"));
        // A newline, then something else than the grid: the grid differs.
        let other = stdout(spans(), b"A> +-+\n", b"A> \nxyz\n");
        assert_ne!(other.parts[0].edit, Edit::Departed(Departure::LineBreak));
    }
}
