//! The comparison under the tolerances a case's `match:` declares: what
//! is equal passes at once; a part that differs is compared as declared
//! (by part, by the reference's spans of stdout, by a checker program
//! the [`Oracle`] runs), and each departure is a [`Mismatch`] or a
//! [`Forgiven`] one.
//!
//! One piece: judging under `match:` is one decision per part (equal,
//! tolerated, by span, by a checker, or a mismatch) building the one
//! `Judgement` the verdict reads; the plain comparison and the
//! mismatches are the sibling modules.

use super::exact::{absent, ending, reads};
use super::mismatch::Mismatch;
use crate::exec::run::{Ending, Outcome, Stream};
use crate::judge::decided::By;
use crate::judge::provenance::Span;
use crate::judge::tolerance::{self, Segment};
use crate::model::case::Expectation;
use crate::model::matching::{Charge, Judging, Origin, StatusMatch, Tolerance};

/// A departure a tolerance forgave: the case passes on it, `--strict`
/// lists it, a `deduct:` charges it.
#[derive(Debug, Clone, PartialEq)]
pub struct Forgiven {
    /// The part: `stdout`, `stderr`, `status` or `file PATH`.
    pub part: String,
    /// How it was compared: `ignoring spacing (IO-1)`.
    pub how: String,
    /// What forgiving it costs.
    pub charges: Vec<Charge>,
    /// What was forgiven, one line: the program's first differing line
    /// for the reference's (`` `a  b` for `a b` ``), escaped and cut;
    /// empty when there are no bytes to show.
    pub forgave: String,
}

/// Characters of a forgiven line shown at most.
const FORGAVE_SHOWN: usize = 60;

/// [`Forgiven::forgave`] of a departure, as a charge in words: what the
/// program did at the first line where the bytes differ and what the
/// model does there (`` prints `[]` on stdout where the model prints
/// nothing ``); for an ending, both.
pub fn forgave_text(m: &Mismatch) -> String {
    let line = |bytes: &[u8], at: usize| {
        let start = bytes
            .get(..at)
            .and_then(|b| b.iter().rposition(|&c| c == b'\n'))
            .map_or(0, |p| p + 1);
        let shown =
            crate::bytes::visible::visible_line(crate::bytes::visible::rest_of_line(bytes, start));
        let mut chars = shown.chars();
        let cut: String = chars.by_ref().take(FORGAVE_SHOWN).collect();
        if chars.next().is_some() {
            format!("`{cut}…`")
        } else {
            format!("`{cut}`")
        }
    };
    // What the model has at `at`: nothing at all, nothing more, or a line.
    let model = |expected: &[u8], at: usize| {
        if expected.is_empty() {
            "nothing".to_owned()
        } else if at >= expected.len() {
            "nothing more".to_owned()
        } else {
            line(expected, at)
        }
    };
    match m {
        Mismatch::Stream {
            stream,
            expected,
            actual,
            ..
        } => {
            let at = crate::bytes::visible::locate(expected, actual).byte;
            let got = if at >= actual.len() && !actual.is_empty() {
                "nothing more".to_owned()
            } else {
                line(actual, at)
            };
            format!(
                "prints {got} on {} where the model prints {}",
                stream.name(),
                model(expected, at)
            )
        }
        Mismatch::FileDiffers {
            path,
            expected,
            actual,
        } => {
            let at = crate::bytes::visible::locate(expected, actual).byte;
            format!(
                "writes {} in `{path}` where the model writes {}",
                line(actual, at),
                model(expected, at)
            )
        }
        Mismatch::Ending { expected, actual } => {
            format!("ends with {actual} where the model ends with {expected}")
        }
        _ => String::new(),
    }
}

/// What judging one run found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Judgement {
    /// The departures no tolerance forgave.
    pub mismatches: Vec<Mismatch>,
    /// The departures a tolerance forgave.
    pub forgiven: Vec<Forgiven>,
    /// For each part that failed under a tolerance, how it was compared
    /// (`stdout compared ignoring spacing (IO-1)`), and a checker's
    /// reason.
    pub judged: Vec<String>,
    /// For each part that failed under a tolerance, what refused it: what
    /// its failure speaks of ([`crate::judge::decided`]).
    pub decided: Vec<crate::judge::decided::Decided>,
}

/// A checker's answer on one part: `Ok(None)` accepts, `Ok(Some(reason))`
/// rejects, `Err` is a fault of the checker (never the program's).
pub type Checked = Result<Option<String>, String>;

/// What judging needs beyond the two runs' bytes: the reference's spans
/// of stdout (which rule produced which bytes) and checker programs.
pub trait Oracle {
    /// The spans of the expected stdout, when the reference marks them.
    fn spans(&self) -> Option<Vec<Span>>;

    /// Runs the checker `command` on one part (`stdout`, `stderr`,
    /// `file:PATH`).
    fn check(&self, command: &str, part: &str, expected: &[u8], actual: &[u8]) -> Checked;
}

/// The first other reading of an ambiguous rule (`expected`'s
/// alternatives) the run passes under, when it failed the main one. Each
/// is judged with the case's tolerances on whole streams (exactly when
/// `strict`): the model's spans were traced under the main reading only.
pub fn other_reading<'e>(
    expected: &'e Expectation,
    actual: &Outcome,
    oracle: &dyn Oracle,
    strict: bool,
) -> Result<Option<&'e crate::model::case::Alternative>, String> {
    for alternative in &expected.alternatives {
        let mut under = expected.under(alternative);
        if strict {
            under.matching = crate::model::matching::Matching::default();
        }
        let judged = judge_parts(&under, actual.clone(), oracle, false)?;
        if judged.mismatches.is_empty() {
            return Ok(Some(alternative));
        }
    }
    Ok(None)
}

/// An oracle with no spans that runs no checker: a checker declared where
/// it is used is a fault.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoOracle;

impl Oracle for NoOracle {
    fn spans(&self) -> Option<Vec<Span>> {
        None
    }

    fn check(&self, command: &str, _: &str, _: &[u8], _: &[u8]) -> Checked {
        Err(format!(
            "checker `{command}`: checkers run only under a case run"
        ))
    }
}

/// Judges a run under the expectation's tolerances ([`Expectation::matching`]):
/// what is equal passes at once, what differs is compared as declared.
/// `Err` is a fault of the suite or of a checker, never of the program.
pub fn judge_owned(
    expected: &Expectation,
    actual: Outcome,
    oracle: &dyn Oracle,
) -> Result<Judgement, String> {
    judge_parts(expected, actual, oracle, true)
}

/// [`judge_owned`], with stdout's `by_rule:` judged on the oracle's spans
/// only when `with_spans` (else on the whole stream: the spans were traced
/// under the main reading only).
fn judge_parts(
    expected: &Expectation,
    mut actual: Outcome,
    oracle: &dyn Oracle,
    with_spans: bool,
) -> Result<Judgement, String> {
    let mut out = Judgement {
        mismatches: ending(expected, &actual),
        ..Judgement::default()
    };
    status(expected, &actual, &mut out);
    let stdout = std::mem::take(&mut actual.stdout);
    let stderr = std::mem::take(&mut actual.stderr);
    for (stream, act, dropped) in [
        (Stream::Stdout, stdout, actual.dropped.stdout),
        (Stream::Stderr, stderr, actual.dropped.stderr),
    ] {
        let (exp, judging) = match stream {
            Stream::Stdout => (&expected.stdout, &expected.matching.stdout),
            Stream::Stderr => (&expected.stderr, &expected.matching.stderr),
        };
        if exp.as_slice() == act.as_slice() && dropped == 0 {
            continue;
        }
        let verdict =
            if with_spans && stream == Stream::Stdout && !expected.matching.by_rule.is_empty() {
                match oracle.spans() {
                    Some(spans) => by_span(expected, &spans, &act)?,
                    None => tolerate(judging, stream.name(), exp, &act, dropped, oracle)?,
                }
            } else {
                tolerate(judging, stream.name(), exp, &act, dropped, oracle)?
            };
        let which = crate::judge::decided::Part::Stream(stream);
        settle(verdict, stream.name(), which, &mut out, || {
            Mismatch::Stream {
                stream,
                expected: exp.clone(),
                actual: act,
                dropped,
            }
        });
    }
    for (path, bytes) in &expected.output_files {
        match (actual.files.get(path), expected.matching.files.get(path)) {
            (_, Some(j)) if j.tolerance == Tolerance::Any => {}
            (None, _) => out
                .mismatches
                .push(Mismatch::FileMissing { path: path.clone() }),
            (Some(got), _) if got == bytes => {}
            (Some(got), judging) => {
                let part = format!("file:{path}");
                let verdict = match judging {
                    Some(j) => tolerate(j, &part, bytes, got, 0, oracle)?,
                    None => Tolerated::Exact,
                };
                let which = crate::judge::decided::Part::File(path.clone());
                settle(verdict, &format!("file `{path}`"), which, &mut out, || {
                    Mismatch::FileDiffers {
                        path: path.clone(),
                        expected: bytes.clone(),
                        actual: got.clone(),
                    }
                });
            }
        }
    }
    absent(expected, &actual, &mut out.mismatches);
    reads(expected, &actual, &mut out.mismatches);
    Ok(out)
}

/// What a tolerance made of a part that differs.
enum Tolerated {
    /// No tolerance: a mismatch.
    Exact,
    /// Forgiven, compared as said.
    Forgiven { how: String, charges: Vec<Charge> },
    /// Still a departure, compared as said (and why, from a checker), and
    /// what refused it with the rules that declared it.
    Failed(String, Option<(By, Vec<String>)>),
}

fn settle(
    verdict: Tolerated,
    part: &str,
    which: crate::judge::decided::Part,
    out: &mut Judgement,
    mismatch: impl FnOnce() -> Mismatch,
) {
    match verdict {
        Tolerated::Exact => out.mismatches.push(mismatch()),
        Tolerated::Forgiven { how, charges } => out.forgiven.push(Forgiven {
            part: part.to_owned(),
            how,
            // Only a deduction shows it: no bytes copied for a free pass.
            forgave: if charges.is_empty() {
                String::new()
            } else {
                forgave_text(&mismatch())
            },
            charges,
        }),
        Tolerated::Failed(how, by) => {
            out.judged.push(format!("{part} compared {how}"));
            if let Some((by, rules)) = by {
                out.decided.push(crate::judge::decided::Decided {
                    part: which,
                    by,
                    rules,
                });
            }
            out.mismatches.push(mismatch());
        }
    }
}

/// One whole part under its tolerance.
fn tolerate(
    judging: &Judging,
    part: &str,
    expected: &[u8],
    actual: &[u8],
    dropped: u64,
    oracle: &dyn Oracle,
) -> Result<Tolerated, String> {
    let accepted = match &judging.tolerance {
        Tolerance::Exact => return Ok(Tolerated::Exact),
        Tolerance::Any => true,
        // Bytes not kept are a flood past what any comparison reads.
        _ if dropped > 0 => false,
        Tolerance::Checker(command) => {
            if let Some(reason) = oracle.check(command, part, expected, actual)? {
                let d = crate::judge::decided::Decided::checker(
                    crate::judge::decided::Part::Stream(Stream::Stdout),
                    command,
                    &reason,
                    Vec::new(),
                );
                return Ok(Tolerated::Failed(
                    format!("{}: {reason}", judging.describe()),
                    Some((d.by, rules_of(judging))),
                ));
            }
            true
        }
        t => tolerance::accepts(t, expected, actual)?,
    };
    Ok(if accepted {
        Tolerated::Forgiven {
            how: judging.describe(),
            charges: judging.charges.clone(),
        }
    } else {
        Tolerated::Failed(
            judging.describe(),
            Some((By::Tolerance(judging.tolerance.clone()), rules_of(judging))),
        )
    })
}

/// The rules that declared a tolerance.
fn rules_of(judging: &Judging) -> Vec<String> {
    match &judging.origin {
        Origin::Rules(rules) => rules.clone(),
        _ => Vec::new(),
    }
}

/// Stdout by span: each rule's tolerance on the bytes its spans produced,
/// the suite's (or exact) on the rest. A span citing several rules takes
/// their tolerance when those declaring one agree, else compares exactly.
fn by_span(expected: &Expectation, spans: &[Span], actual: &[u8]) -> Result<Tolerated, String> {
    let m = &expected.matching;
    let exact = Judging::default();
    let bytes = &expected.stdout;
    let mut parts: Vec<Part<'_>> = Vec::new();
    let mut at = 0usize;
    let mut sorted: Vec<&Span> = spans.iter().collect();
    sorted.sort_by_key(|s| s.start);
    for span in sorted {
        let start = usize::try_from(span.start)
            .unwrap_or(usize::MAX)
            .min(bytes.len());
        let end = usize::try_from(span.end)
            .unwrap_or(usize::MAX)
            .min(bytes.len());
        if start < at {
            continue;
        }
        add(&m.span_default, at..start, &mut parts);
        let declaring: Vec<&Judging> = span.rules.iter().filter_map(|r| m.by_rule.get(r)).collect();
        let j = match declaring.first() {
            None => &m.span_default,
            Some(first) if declaring.iter().all(|d| d.tolerance == first.tolerance) => first,
            Some(_) => &exact,
        };
        add(j, start..end, &mut parts);
        at = end.max(at);
    }
    add(&m.span_default, at..bytes.len(), &mut parts);
    if parts.iter().all(|p| p.judging.tolerance.is_exact()) {
        // A cited rule's tolerance no span names frees nothing: said.
        let note = unmarked(m, spans);
        return Ok(if note.is_empty() {
            Tolerated::Exact
        } else {
            Tolerated::Failed(format!("exactly{note}"), None)
        });
    }
    let segments: Vec<Segment<'_>> = parts
        .iter()
        .map(|p| Segment {
            tolerance: &p.judging.tolerance,
            expected: bytes.get(p.range.clone()).unwrap_or_default(),
        })
        .collect();
    let loose: Vec<&Judging> = parts
        .iter()
        .map(|p| p.judging)
        .filter(|j| !j.tolerance.is_exact())
        .collect();
    let mut how: Vec<String> = Vec::new();
    let mut charges: Vec<Charge> = Vec::new();
    for j in &loose {
        let d = j.describe();
        if !how.contains(&d) {
            how.push(d);
            charges.extend(j.charges.iter().cloned());
        }
    }
    let how = format!("by span: {}, the rest exactly", how.join("; "));
    Ok(match tolerance::judge_segments(&segments, actual)? {
        tolerance::Segments::Accepted => Tolerated::Forgiven { how, charges },
        tolerance::Segments::Refused => {
            let how = format!("{how}{}", unmarked(m, spans));
            Tolerated::Failed(how, Some((By::Spans, Vec::new())))
        }
        // The text passed: the number is the departure, named by the rules
        // whose span holds it.
        tolerance::Segments::OutOfTolerance(n, refusal, i) => {
            let rules = parts
                .get(i)
                .map(|p| rules_of(p.judging))
                .unwrap_or_default();
            Tolerated::Failed(how, Some((By::SpanNumber(n, refusal), rules)))
        }
    })
}

/// What a failure by span says of the rules the case cites whose stdout
/// tolerance the model's spans never name: it freed nothing here, which is
/// never left unsaid (an `any` after the last prompt needs the model to
/// mark an empty span where it prints nothing).
fn unmarked(m: &crate::model::matching::Matching, spans: &[Span]) -> String {
    let missing: Vec<String> = rules_of(&m.stdout)
        .into_iter()
        .filter(|r| m.by_rule.get(r).is_some_and(|j| !j.tolerance.is_exact()))
        .filter(|r| !spans.iter().any(|s| s.rules.contains(r)))
        .collect();
    if missing.is_empty() {
        return String::new();
    }
    format!(
        "; {} freed nothing: the model marks no span of {} in this case (where it prints \
         nothing, an empty one: span.empty / span_empty)",
        missing.join(", "),
        if missing.len() == 1 { "it" } else { "them" }
    )
}

/// One run of expected stdout bytes judged by one tolerance.
struct Part<'a> {
    judging: &'a Judging,
    range: std::ops::Range<usize>,
}

/// Appends a part, joining it to the last when the same declaration
/// judges both (a line split over two spans is still one line).
fn add<'a>(judging: &'a Judging, range: std::ops::Range<usize>, parts: &mut Vec<Part<'a>>) {
    if range.is_empty() {
        // An empty span judged `any` still frees what the program prints
        // there (the model printed nothing after the last prompt).
        if judging.tolerance == Tolerance::Any && parts.last().is_none_or(|l| l.judging != judging)
        {
            parts.push(Part { judging, range });
        }
        return;
    }
    match parts.last_mut() {
        Some(last) if last.judging == judging => last.range.end = range.end,
        _ => parts.push(Part { judging, range }),
    }
}

/// The exit status under a `status:` tolerance.
fn status(expected: &Expectation, actual: &Outcome, out: &mut Judgement) {
    let s = &expected.matching.status;
    if s.status == StatusMatch::Exact {
        return;
    }
    let (Ending::Exited(want), Ending::Exited(got)) = (&expected.ending, &actual.ending) else {
        return;
    };
    if want == got || !s.status.accepts(*want, *got) {
        if want != got && !expected.any_status {
            out.judged.push(format!(
                "status compared as {}{}",
                s.status,
                origin(&s.origin)
            ));
        }
        return;
    }
    let before = out.mismatches.len();
    out.mismatches
        .retain(|m| !matches!(m, Mismatch::Ending { .. }));
    if out.mismatches.len() < before || expected.any_status {
        out.forgiven.push(Forgiven {
            part: "status".to_owned(),
            how: format!("as {}{}", s.status, origin(&s.origin)),
            charges: s.charges.clone(),
            forgave: format!("ends with status {got} where the model ends with status {want}"),
        });
    }
}

fn origin(o: &Origin) -> String {
    match o {
        Origin::Default => String::new(),
        o => format!(" ({o})"),
    }
}
