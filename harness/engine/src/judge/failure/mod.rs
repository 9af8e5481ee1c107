//! How a case failed, kept structured and bounded: every difference with
//! its location, one-line excerpts and a capped unified diff (long lines
//! cut around the first difference with the count of bytes left out),
//! the failure's [`Cause`], the stdin line being answered, and the texts
//! around it. Whatever the program printed, a failure holds a few dozen
//! KiB at most and its report ([`CaseFailure::render`]) stays under
//! [`MAX_REPORT`]; the run's full outputs are dropped once it is built.
//!
//! The parts: each `difference` with its diff, the bounded `excerpt`s
//! it and the failure quote.
//!
//! One piece: `CaseFailure` with its notes and its bounded report
//! (`render`); its parts (`difference`, `excerpt`) are modules of their
//! own already, and about 155 lines are tests of the whole report's
//! bounds.

mod difference;
mod excerpt;

pub use difference::{BytesDifference, BytesPart, DiffLine, Difference, ExchangeDifference};
pub use excerpt::{InputNote, bound, input_note};

use std::fmt::Write as _;

use crate::bytes::visible::Style;
use crate::exec::run::Stream;
use crate::exec::terminal::PROMPT;
use crate::judge::cause::Cause;
use crate::judge::compare::Mismatch;

/// The most one failure's report takes, bytes.
pub const MAX_REPORT: usize = 64 * 1024;

/// How a case failed: what every reporter renders from.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseFailure {
    /// Every difference, bounded.
    pub differences: Vec<Difference>,
    /// What identifies the failure's kind across cases.
    pub cause: Cause,
    /// The failure's first edits with their lines exact: what a cause
    /// header quotes from its worked example when [`Self::cause`] names
    /// only the place and the shape.
    pub quoted: Cause,
    /// The stdin line being answered when stdout departed, if any.
    pub input: Option<InputNote>,
    /// The case's summary.
    pub summary: String,
    /// The rules it cites.
    pub rules: Vec<String>,
    /// Its hint.
    pub hint: Option<String>,
    /// How to reproduce it (bounded).
    pub reproduce: String,
    /// What to do when the expectation may be wrong, and the command.
    pub rebless: Option<(String, String)>,
    /// Lines of stdin the case feeds.
    pub stdin_lines: usize,
    /// Bytes of the case's input (stdin, files, arguments) and expected
    /// output: the fewer, the better a worked example of its cause.
    pub weight: usize,
    /// The sentence naming the check the program misses, with this case's
    /// values (`accepts `3 14 h`: TURN-3 rejects it (…)`): its cause's
    /// label when this case is the worked example.
    pub label: Option<String>,
    /// Departures after a first one confined to one line, each a cause
    /// of its own ([`crate::judge::cause::later`]).
    pub later: Vec<crate::judge::cause::Later>,
    /// The difference each of [`Self::later`] shows as a worked example:
    /// the stdout compared past the departures before it.
    pub later_differences: Vec<Difference>,
    /// How the parts that differ were compared, where a tolerance judged
    /// them (`stdout compared ignoring spacing (IO-1)`); the differences
    /// still show the raw bytes.
    pub judged: Vec<String>,
    /// The failure's first line as what decided it says it (a checker's
    /// reason), where a tolerance refused the part that names it.
    pub decided: Option<String>,
}

/// The texts of a failure besides its differences.
#[derive(Debug, Clone, Default)]
pub struct Notes {
    /// The case's summary.
    pub summary: String,
    /// The rules it cites.
    pub rules: Vec<String>,
    /// Its hint.
    pub hint: Option<String>,
    /// How to reproduce it.
    pub reproduce: String,
    /// The re-bless heading and command.
    pub rebless: Option<(String, String)>,
    /// What the program's prompts end with, when not [`PROMPT`].
    pub prompt: Option<Vec<u8>>,
    /// The reference's provenance of the expected stdout, when known.
    pub provenance: Option<crate::judge::provenance::Record>,
    /// Bytes of the case's input besides stdin (files, arguments) and of
    /// its expected output.
    pub weight: usize,
    /// How the parts that differ were compared under a tolerance.
    pub judged: Vec<String>,
    /// What refused each part a tolerance compared.
    pub decided: Vec<crate::judge::decided::Decided>,
    /// The rules that judge the case's output files (those declaring a
    /// `files:` tolerance; empty: the case's own rules).
    pub file_rules: Vec<String>,
    /// The output files the run left as the case placed them: not
    /// written, whatever a checker says of them.
    pub unchanged: Vec<String>,
    /// The uncaught exception the run's stderr ends with where no part
    /// judges stderr (`stderr: any`): the crash it names is the cause.
    pub raised: Option<crate::judge::exception::Raised>,
}

impl CaseFailure {
    /// Builds the bounded failure of `mismatches`; `stdin` is what the
    /// program was fed (for [`InputNote`]).
    pub fn new(mismatches: &[Mismatch], stdin: &[u8], notes: Notes) -> Self {
        let input = mismatches.iter().find_map(|m| match m {
            Mismatch::Stream {
                stream: Stream::Stdout,
                expected,
                actual,
                ..
            } if !stdin.is_empty() => {
                let prompt = notes.prompt.as_deref().unwrap_or(PROMPT);
                let note = input_note(stdin, expected, actual, prompt);
                // Lines are counted by the model's prompts: with none in
                // its output (a program reading all its input first) the
                // count says nothing of what was read, so nothing is said.
                let prompts =
                    !prompt.is_empty() && expected.windows(prompt.len()).any(|w| w == prompt);
                (note.line > 0 || prompts).then_some(note)
            }
            _ => None,
        });
        let killed = mismatches.iter().any(|m| {
            matches!(
                m,
                Mismatch::Ending {
                    actual: crate::exec::run::Ending::TimedOut { .. },
                    ..
                }
            )
        });
        let mut differences: Vec<Difference> = mismatches.iter().map(Difference::of).collect();
        for d in &mut differences {
            if let Difference::Bytes(b) = d {
                b.killed = killed;
            }
        }
        free_words(&mut differences, &notes.decided, &notes.judged);
        // The stdin line the program had just read, for an echo.
        let answered = input.as_ref().and_then(|note| {
            let index = note.line.checked_sub(1)?;
            stdin.split(|&b| b == b'\n').nth(index)
        });
        let (mut cause, mut label) = Cause::labelled_with(
            mismatches,
            notes.provenance.as_ref(),
            answered,
            notes.raised.as_ref(),
        );
        // What decided a part speaks for it: never the bytes it forgave.
        let decided =
            crate::judge::cause::speak(&mut cause, &mut label, mismatches, &notes.decided);
        // What the model writes besides stdout, left undone: one cause
        // by the rules that write it, whichever file or message.
        let asides = notes.provenance.as_ref().map_or(&[][..], |r| &r.asides);
        let undone = crate::judge::cause::blame_asides(
            &mut cause,
            &mut label,
            mismatches,
            asides,
            &notes.unchanged,
        );
        let decided = decided.filter(|_| !undone);
        // Files by rule: one bug, one cause, whichever file it misses.
        let file_rules = if notes.file_rules.is_empty() {
            &notes.rules
        } else {
            &notes.file_rules
        };
        crate::judge::cause::blame_files(&mut cause, &mut label, mismatches, file_rules);
        // Where the model marks its output, every cause names a rule.
        if let Some(record) = &notes.provenance {
            crate::judge::cause::name_case_rules(&cause, &mut label, record, &notes.rules);
        }
        // Only a departure before any input is read can be text alone.
        let mut later = if input.as_ref().is_none_or(|note| note.line == 0) {
            crate::judge::cause::later(mismatches, notes.provenance.as_ref(), &cause)
        } else {
            Vec::new()
        };
        // Each later cause's example shows its own departure, not the
        // first line again; the compared bytes are not kept past this.
        let later_differences = later
            .iter_mut()
            .filter_map(|l| l.stdout.take().map(|m| Difference::of(&m)))
            .collect();
        Self {
            decided,
            judged: notes.judged,
            later,
            later_differences,
            differences,
            cause,
            label,
            weight: notes.weight.saturating_add(stdin.len()),
            quoted: Cause::quote(mismatches),
            input,
            summary: notes.summary,
            rules: notes.rules,
            hint: notes.hint,
            reproduce: notes.reproduce,
            rebless: notes.rebless,
            stdin_lines: stdin.split_inclusive(|&b| b == b'\n').count(),
        }
    }

    /// The one-line form: the first difference.
    pub fn headline(&self) -> String {
        if let Some(said) = &self.decided {
            return said.clone();
        }
        self.differences
            .first()
            .map_or_else(|| "failed".to_owned(), ToString::to_string)
    }

    /// The full report for people, at most [`MAX_REPORT`] bytes.
    pub fn render(&self, style: Style) -> String {
        self.render_hinted(style, self.hint.as_deref())
    }

    /// [`Self::render`] with `hint` in place of the case's own: a worked
    /// example shows the hint of its whole cause.
    pub fn render_hinted(&self, style: Style, hint: Option<&str>) -> String {
        self.render_example(style, hint, 0)
    }

    /// [`Self::render_hinted`] as the worked example of the case's cause
    /// `slot`: 0 its first departure, `k` the `k`th of [`Self::later`],
    /// whose difference is shown in place of the first one's.
    pub fn render_example(&self, style: Style, hint: Option<&str>, slot: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} {} [{}]",
            style.paint("1", "case:"),
            self.summary,
            self.rules.join(", ")
        );
        let later = slot
            .checked_sub(1)
            .and_then(|i| self.later_differences.get(i));
        // The input note places the first departure, not a later one.
        if let Some(note) = self.input.as_ref().filter(|_| later.is_none()) {
            let _ = writeln!(out, "{} {note}", style.paint("1", "input:"));
        }
        for how in &self.judged {
            let _ = writeln!(out, "{} {how}", style.paint("1", "judged:"));
        }
        match later {
            Some(d) => {
                let _ = writeln!(
                    out,
                    "{} the output compared past its earlier difference(s):",
                    style.paint("1", "later:")
                );
                d.render(&mut out, style);
            }
            None => {
                for d in &self.differences {
                    d.render(&mut out, style);
                }
            }
        }
        if let Some(hint) = hint {
            let _ = writeln!(out, "{} {hint}", style.paint("33;1", "hint:"));
        }
        let _ = writeln!(
            out,
            "{}\n  {}",
            style.paint("1", "reproduce:"),
            self.reproduce
        );
        if let Some((label, command)) = &self.rebless {
            let _ = writeln!(out, "{}\n  {command}", style.paint("1", label));
        }
        bound(out, MAX_REPORT)
    }
}

/// Where a rule frees the words, the differences say what was judged
/// instead of showing the model's words as a target: a stream refused by
/// `nonempty` (or a checker on stderr, the messages' stream), and a
/// status judged `nonzero` or one of a list.
fn free_words(
    differences: &mut [Difference],
    decided: &[crate::judge::decided::Decided],
    judged: &[String],
) {
    use crate::judge::decided::{By, Part};
    use crate::model::matching::Tolerance;
    let status = judged
        .iter()
        .find_map(|j| j.strip_prefix("status compared as "));
    for d in differences {
        match d {
            Difference::Bytes(b) => {
                let Some(why) = decided.iter().find(|x| x.part == b.part) else {
                    continue;
                };
                let rules = if why.rules.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", why.rules.join(", "))
                };
                b.free = match (&why.by, &b.part) {
                    // The model printed nothing there: no words of its to
                    // mistake for a target, the plain diff says it all.
                    _ if b.expected_len == 0 => None,
                    (By::Tolerance(Tolerance::Nonempty), _) => Some(format!(
                        "a message in the program's own words{rules}, never a traceback"
                    )),
                    (By::Tolerance(Tolerance::NonemptyOrTraceback), _) => {
                        Some(format!("a message in the program's own words{rules}"))
                    }
                    (By::Checker { reason, .. }, Part::Stream(Stream::Stderr)) => {
                        Some(format!("by a checker{rules}: {reason}"))
                    }
                    _ => None,
                };
            }
            Difference::Ending { expected, .. } => {
                let Some(how) = status else { continue };
                let (what, rules) = how.split_once(" (").map_or((how, ""), |(w, r)| (w, r));
                let rules = rules.trim_end_matches(')');
                let rules = if rules.is_empty() {
                    String::new()
                } else {
                    format!(" ({rules})")
                };
                let free = if what == "nonzero" {
                    "any status but 0".to_owned()
                } else {
                    what.replacen("one of", "a status, one of", 1)
                };
                *expected = format!("{free}{rules}");
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::difference::*;
    use super::excerpt::*;
    use super::*;

    fn stdout(expected: &[u8], actual: &[u8]) -> Mismatch {
        Mismatch::Stream {
            stream: Stream::Stdout,
            expected: expected.to_vec(),
            actual: actual.to_vec(),
            dropped: 0,
        }
    }

    fn plain(f: &CaseFailure) -> String {
        f.render(Style { colour: false })
    }

    #[test]
    fn a_flood_gives_a_bounded_report_that_shows_the_first_difference() {
        let expected = b"+ +\nA> ".to_vec();
        let mut actual = b"+ +\nA> ".to_vec();
        actual.extend(b"A> ".repeat(5 << 20));
        let lines: Vec<u8> = b"A> \n".repeat(1 << 20);
        let mismatches = [
            stdout(&expected, &actual),
            Mismatch::Stream {
                stream: Stream::Stderr,
                expected: Vec::new(),
                actual: lines,
                dropped: 0,
            },
        ];
        let f = CaseFailure::new(&mismatches, b"0 0 h\n", Notes::default());
        let text = plain(&f);
        assert!(text.len() < MAX_REPORT, "{}", text.len());
        assert!(text.contains("first difference at line 2, column 4, byte 7"));
        assert!(text.contains("bytes]"), "long line cut with a count");
        assert!(text.contains("more differing lines not shown"));
        assert_eq!(f.input.as_ref().map(|n| n.line), Some(1));
    }

    #[test]
    fn bytes_not_kept_count_in_the_lengths_shown() {
        let mismatch = Mismatch::Stream {
            stream: Stream::Stdout,
            expected: b"A> ".to_vec(),
            actual: b"A> A> A> ".to_vec(),
            dropped: 1000,
        };
        let text = plain(&CaseFailure::new(&[mismatch], b"", Notes::default()));
        assert!(text.contains("+ actual 1009 bytes"), "{text}");
        let Difference::Bytes(d) = Difference::of(&Mismatch::Stream {
            stream: Stream::Stdout,
            expected: b"A> \n".to_vec(),
            actual: b"A> A> A> ".to_vec(),
            dropped: 1000,
        }) else {
            panic!("not a bytes difference");
        };
        assert_eq!(
            d.actual_rest,
            "A> A> …[1000 more bytes: the rest of the output, not kept]"
        );
        assert!(
            d.diff.contains(&DiffLine::Actual(
                "A> A> A>·…[1000 more bytes: the rest of the output, not kept]".to_owned()
            )),
            "{:?}",
            d.diff
        );
    }

    #[test]
    fn a_long_line_is_cut_around_its_first_difference() {
        let mut e = vec![b'x'; 10_000];
        let mut a = e.clone();
        a[9_000] = b'y';
        e.push(b'\n');
        a.push(b'\n');
        let cut = visible_cut(&a, Some(9_000));
        assert!(cut.starts_with(&format!("…[{} bytes]", 9_000 - MAX_LINE / 3)));
        assert!(cut.contains('y'));
        assert!(cut.len() < 2 * MAX_LINE);
    }

    #[test]
    fn free_words_are_said_free_and_the_models_are_no_target() {
        let m = [
            Mismatch::Ending {
                expected: crate::exec::run::Ending::Exited(1),
                actual: crate::exec::run::Ending::Exited(0),
            },
            Mismatch::Stream {
                stream: Stream::Stderr,
                expected: b"Could not read x.csv\n".to_vec(),
                actual: Vec::new(),
                dropped: 0,
            },
        ];
        let notes = Notes {
            decided: vec![crate::judge::decided::Decided {
                part: BytesPart::Stream(Stream::Stderr),
                by: crate::judge::decided::By::Tolerance(
                    crate::model::matching::Tolerance::Nonempty,
                ),
                rules: vec!["ERR-1".to_owned()],
            }],
            judged: vec!["status compared as nonzero (ERR-1)".to_owned()],
            ..Notes::default()
        };
        let text = plain(&CaseFailure::new(&m, b"", notes));
        assert!(
            text.contains("ending: expected any status but 0 (ERR-1), got status 0"),
            "{text}"
        );
        assert!(text.contains("stderr: the words are free"), "{text}");
        assert!(!text.contains("Could not read"), "{text}");
    }

    #[test]
    fn a_program_without_prompts_is_never_said_to_have_read_nothing() {
        // It reads every number, then prints: the model's output holds no
        // prompt to count lines by.
        let m = [stdout(b"Sum: -4\n", b"Sum: 3\n")];
        let f = CaseFailure::new(&m, b"3\n-7\n-1\n", Notes::default());
        assert_eq!(f.input, None);
        assert!(
            !plain(&f).contains("before reading any stdin"),
            "{}",
            plain(&f)
        );
        // With prompts, before the first one is before any read.
        let m = [stdout(b"usage\nA> ", b"oops\n")];
        let f = CaseFailure::new(&m, b"0 0 h\n", Notes::default());
        assert_eq!(f.input.as_ref().map(|n| n.line), Some(0));
    }

    #[test]
    fn the_input_line_is_named_by_counting_prompts() {
        let stdin = b"0 0 h\n-0 1 h\n";
        let note = input_note(
            stdin,
            b"grid\nA> grid\nB> B> ",
            b"grid\nA> grid\nB> grid\n",
            PROMPT,
        );
        assert_eq!(note.line, 2);
        assert_eq!(note.text, "-0 1 h");
        assert_eq!(note.expected, "B> ");
        assert_eq!(note.actual, "grid\\n");
        assert_eq!(
            note.to_string(),
            "after stdin line 2 `-0 1 h`: expected the prompt `B> `, got `grid\\n`"
        );
        let before = input_note(stdin, b"usage\n", b"", PROMPT);
        assert_eq!(before.line, 0);
        assert!(before.to_string().starts_with("before reading any stdin"));
    }

    #[test]
    fn bound_cuts_on_a_character_boundary() {
        let text = "é".repeat(100);
        let cut = bound(text, 51);
        assert!(cut.contains("report cut"));
    }

    #[test]
    fn file_names_are_escaped_everywhere() {
        let mismatches = [
            Mismatch::FileMissing {
                path: "out\r.txt".to_owned(),
            },
            Mismatch::FileDiffers {
                path: "save\tme".to_owned(),
                expected: b"1\n".to_vec(),
                actual: b"2\n".to_vec(),
            },
        ];
        let f = CaseFailure::new(&mismatches, b"", Notes::default());
        let text = plain(&f);
        assert!(text.contains("`out\\r.txt`"), "{text}");
        assert!(text.contains("`save\\tme`"), "{text}");
        assert!(!text.contains('\r') && !text.contains('\t'), "{text}");
        let quoted = f.quoted.to_string();
        assert!(
            quoted.contains("out\\r.txt") && quoted.contains("`2\\n` where `1\\n`"),
            "{quoted}"
        );
    }

    #[test]
    fn a_long_run_of_one_side_is_cut_to_the_first_difference() {
        let expected: Vec<u8> = (0..80)
            .flat_map(|i| format!("line {i}\n").into_bytes())
            .collect();
        let d = bytes_difference(BytesPart::Stream(Stream::Stdout), &expected, b"", 0);
        let shown = d
            .diff
            .iter()
            .filter(|l| matches!(l, DiffLine::Expected(_)))
            .count();
        assert_eq!(shown, RUN_SHOWN);
        assert_eq!(d.hidden, 80 - RUN_SHOWN);
        let short = bytes_difference(BytesPart::Stream(Stream::Stdout), b"a\nb\n", b"", 0);
        assert_eq!(short.hidden, 0);
    }
}
