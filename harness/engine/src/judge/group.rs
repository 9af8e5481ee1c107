//! The end-of-run report of failures grouped by [`Cause`]: one block per
//! cause, the largest first, naming what differs, how many cases and
//! which (a capped list), with one worked example in full. The score
//! stays per case; grouping only changes what people read.
//!
//! One piece: grouping by cause and rendering the groups are one report
//! (the rendering reads the groups' order and caps); 135 lines are tests.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::bytes::visible::Style;
use crate::judge::cause::{Cause, Edit, Missed};
use crate::judge::failure::CaseFailure;
use crate::judge::verdict::{CaseResult, Verdict};

/// Case names listed per cause before the rest is counted.
const NAMES_SHOWN: usize = 12;

/// The failed cases that share a cause.
#[derive(Debug)]
pub struct Group<'a> {
    /// The cause.
    pub cause: &'a Cause,
    /// The failed cases, by name.
    pub cases: Vec<(&'a str, &'a CaseFailure)>,
    /// The case shown in full: the lightest (fewest bytes of input and
    /// expected output), one no ambiguous ruling touches when there is
    /// one, then by name.
    pub example: (&'a str, &'a CaseFailure),
    /// Which of the example's causes this is: 0 its first, `i` its
    /// `i`-th later one ([`CaseFailure::later`]).
    pub slot: usize,
    /// Cases of this cause that count under another cause too.
    pub shared: usize,
    /// The causes merged into this one: other checks (another
    /// category's checker) refusing the very same runs, the same input
    /// and so the same output: one bug, seen by several checks.
    pub also: Vec<&'a Cause>,
}

/// The failures of `results` grouped by cause: the most cases first; at
/// equal count crashes, hangs and floods before wrong bytes; then by the
/// first case's name.
pub fn groups(results: &[CaseResult]) -> Vec<Group<'_>> {
    groups_of(results.iter().filter_map(|r| match &r.verdict {
        Verdict::Failed(f) => Some((r.name.as_str(), &**f, r.ambiguous)),
        _ => None,
    }))
}

/// The memory errors only warned about (`--memcheck …,warn`) grouped by
/// cause, as [`groups`] groups failures.
pub fn warning_groups(results: &[CaseResult]) -> Vec<Group<'_>> {
    groups_of(
        results
            .iter()
            .filter_map(|r| Some((r.name.as_str(), &**r.warning.as_ref()?, r.ambiguous))),
    )
}

/// `(case, failure, ambiguous)` grouped by cause, in [`groups`]' order.
fn groups_of<'a>(
    failures: impl Iterator<Item = (&'a str, &'a CaseFailure, bool)>,
) -> Vec<Group<'a>> {
    let mut by: BTreeMap<&Cause, Entries<'_>> = BTreeMap::new();
    for (name, f, ambiguous) in failures {
        by.entry(&f.cause)
            .or_default()
            .push((name, f, ambiguous, 0));
        for (i, l) in f.later.iter().enumerate() {
            by.entry(&l.cause)
                .or_default()
                .push((name, f, ambiguous, i + 1));
        }
    }
    let mut out: Vec<Group<'_>> = merge_same_runs(by)
        .into_iter()
        .filter_map(|(cause, mut cases, others, also)| {
            // The worked example is the heading cause's own: its label
            // and key speak of it.
            let &(name, failure, _, slot) =
                cases.iter().min_by_key(|(name, f, ambiguous, _)| {
                    (*ambiguous, f.weight, f.stdin_lines, *name)
                })?;
            cases.extend(others);
            cases.sort_by(|a, b| a.0.cmp(b.0));
            cases.dedup_by(|a, b| a.0 == b.0);
            Some(Group {
                cause,
                shared: cases.iter().filter(|c| !c.1.later.is_empty()).count(),
                cases: cases.iter().map(|&(n, f, _, _)| (n, f)).collect(),
                example: (name, failure),
                slot,
                also,
            })
        })
        .collect();
    // The environment's failures first: they say the marks are not the
    // program's, before any cause that is.
    out.sort_by(|a, b| {
        b.cause
            .is_environment()
            .cmp(&a.cause.is_environment())
            .then_with(|| b.cases.len().cmp(&a.cases.len()))
            .then_with(|| a.cause.severity().cmp(&b.cause.severity()))
            .then_with(|| a.cases[0].0.cmp(b.cases[0].0))
    });
    out
}

/// The entries of a cause: (case, failure, ambiguous, slot).
type Entries<'a> = Vec<(&'a str, &'a CaseFailure, bool, usize)>;

/// Each cause with its cases, those of the causes merged in, and those.
type Merged<'a> = Vec<(&'a Cause, Entries<'a>, Entries<'a>, Vec<&'a Cause>)>;

/// The run a checker's decision is about, as its reproduce line names it
/// (the case's input, inline): two cases with the same one ran the same
/// program on the same input. `None` for a failure no checker decided or
/// whose inputs are not inline.
fn same_run(f: &CaseFailure, slot: usize) -> Option<&str> {
    (slot == 0 && f.decided.is_some() && !f.reproduce.contains("too long to paste"))
        .then_some(f.reproduce.as_str())
}

/// The representative of `i` in a union of indices.
fn root(rep: &mut [usize], mut i: usize) -> usize {
    while rep[i] != i {
        rep[i] = rep[rep[i]];
        i = rep[i];
    }
    i
}

/// Causes merged where their checkers refused the same runs: a bug seen
/// by several categories' checkers on the same input (and so the same
/// output) is one cause, kept under the cause with the most cases (the
/// first by key on a tie), the others named beside it.
fn merge_same_runs<'a>(by: BTreeMap<&'a Cause, Entries<'a>>) -> Merged<'a> {
    let mut causes: Vec<(&'a Cause, Entries<'a>)> = by.into_iter().collect();
    // Each cause's representative: union by shared runs.
    let mut rep: Vec<usize> = (0..causes.len()).collect();
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, (_, entries)) in causes.iter().enumerate() {
        for (_, f, _, slot) in entries {
            let Some(run) = same_run(f, *slot) else {
                continue;
            };
            match seen.get(run) {
                Some(&j) => {
                    let (a, b) = (root(&mut rep, i), root(&mut rep, j));
                    rep[a.max(b)] = a.min(b);
                }
                None => {
                    seen.insert(run, i);
                }
            }
        }
    }
    let mut sets: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..causes.len() {
        let r = root(&mut rep, i);
        sets.entry(r).or_default().push(i);
    }
    let mut taken: Vec<Option<(&'a Cause, Entries<'a>)>> = causes.drain(..).map(Some).collect();
    let mut out = Vec::new();
    for members in sets.into_values() {
        let mut parts: Vec<(&'a Cause, Entries<'a>)> =
            members.iter().filter_map(|&i| taken[i].take()).collect();
        // The cause with the most cases heads; the first by key on a tie.
        let head = parts
            .iter()
            .enumerate()
            .max_by_key(|(i, (_, e))| (e.len(), std::cmp::Reverse(*i)))
            .map_or(0, |(i, _)| i);
        let (cause, entries) = parts.remove(head);
        let also = parts.iter().map(|(c, _)| *c).collect();
        let others = parts.into_iter().flat_map(|(_, e)| e).collect();
        out.push((cause, entries, others, also));
    }
    out
}

/// The grouped report; empty when nothing failed.
pub fn render(results: &[CaseResult], style: Style) -> String {
    render_with(results, style, true)
}

/// The grouped report's headline and each cause's one line (`-q`).
pub fn render_labels(results: &[CaseResult], style: Style) -> String {
    render_with(results, style, false)
}

/// The memory errors only warned about (`--memcheck …,warn`), grouped
/// as the failures are, each with its worked example (one line each
/// with `examples` false); empty when there are none.
pub fn render_warnings(results: &[CaseResult], style: Style, examples: bool) -> String {
    let warned = results.iter().filter(|r| r.warning.is_some()).count();
    if warned == 0 {
        return String::new();
    }
    let groups = warning_groups(results);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n{} {warned} case(s) made a memory error, {} cause(s), the most common first (warnings \
         only: no case fails by them, no marks are lost):",
        style.paint("1", "memory warnings by cause:"),
        groups.len()
    );
    render_groups(&mut out, &groups, style, examples);
    out
}

fn render_with(results: &[CaseResult], style: Style, examples: bool) -> String {
    let groups = groups(results);
    // A case may count under several causes: count it once. A case the
    // environment struck is not the program's failure: counted apart.
    let struck = results
        .iter()
        .filter(|r| r.verdict.struck().is_some())
        .count();
    let failed = results
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Failed(_)))
        .count()
        - struck;
    if failed + struck == 0 {
        return String::new();
    }
    let not_judged = if struck > 0 {
        format!(", {struck} case(s) not judged (the environment's failure, not the program's)")
    } else {
        String::new()
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n{} {failed} failed case(s){not_judged}, {} cause(s), the most common first (`#` \
         stands for any number; the score still counts every case):",
        style.paint("1", "failures by cause:"),
        groups.len()
    );
    render_groups(&mut out, &groups, style, examples);
    out
}

/// Each group's block: its line, and with `examples` its cases and
/// worked example.
fn render_groups(out: &mut String, groups: &[Group<'_>], style: Style, examples: bool) {
    for (i, g) in groups.iter().enumerate() {
        let n = g.cases.len();
        let _ = writeln!(
            out,
            "{}{} {} case(s): {}",
            if examples { "\n" } else { "" },
            style.paint("1;4", &format!("cause {} of {}:", i + 1, groups.len())),
            n,
            g.label()
        );
        if !examples {
            continue;
        }
        let (label, quoted) = g.example_texts();
        if label.is_some() {
            // The label is the example's; the key is every case's.
            let _ = writeln!(out, "  the check, in every case of it: {}", g.cause);
        } else if quoted != g.cause {
            // A cause named by place and shape quotes its worked example's
            // lines once, so the header still shows the bytes.
            let _ = writeln!(out, "  for example: {quoted}");
        }
        for other in &g.also {
            let _ = writeln!(
                out,
                "  the same runs (same input, same output) fail another check too: {other}"
            );
        }
        if g.shared > 0 {
            let _ = writeln!(
                out,
                "  {} of these case(s) count under another cause too: past a difference \
                 confined to one line, the rest of the output is compared on",
                g.shared
            );
        }
        let mut names: Vec<&str> = g.cases.iter().take(NAMES_SHOWN).map(|c| c.0).collect();
        let more = n.saturating_sub(NAMES_SHOWN);
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        if n > 1 {
            names.sort_unstable();
            // A case's name is a file name: any byte may be in it.
            let shown: Vec<String> = names
                .iter()
                .map(|n| crate::bytes::visible::escape(n.as_bytes()))
                .collect();
            let _ = writeln!(out, "  cases: {}{more}", shown.join(", "));
        }
        for (case, hint) in g.other_hints().into_iter().take(NAMES_SHOWN) {
            let case = crate::bytes::visible::escape(case.as_bytes());
            let _ = writeln!(
                out,
                "  {} {hint}",
                style.paint("33", &format!("hint of {case}:"))
            );
        }
        let (name, example) = g.example;
        let name = crate::bytes::visible::escape(name.as_bytes());
        let _ = writeln!(
            out,
            "  {} {name}:",
            if n > 1 { "worked example," } else { "case" }
        );
        out.push_str(&example.render_example(style, g.hint().as_deref(), g.slot));
    }
}

impl Group<'_> {
    /// The cause's one line: the sentence of the check it misses, told on
    /// its worked example, else the cause itself.
    pub fn label(&self) -> String {
        self.example_texts()
            .0
            .map_or_else(|| self.cause.to_string(), str::to_owned)
    }

    /// The cause as its worked example tells it, values exact: the
    /// sentence of its check, else its first edits quoted.
    pub fn told(&self) -> String {
        let (label, quoted) = self.example_texts();
        label.map_or_else(|| quoted.to_string(), str::to_owned)
    }

    /// The cases whose own hint is not the one heading the cause, each
    /// with it: a lecturer's hint is shown with its case.
    pub fn other_hints(&self) -> Vec<(&str, &str)> {
        let head = self.hint();
        self.cases
            .iter()
            .filter_map(|(name, f)| Some((*name, f.hint.as_deref()?)))
            .filter(|(_, h)| head.as_deref() != Some(*h))
            .collect()
    }

    /// The example's label and quote for this cause.
    fn example_texts(&self) -> (Option<&str>, &Cause) {
        let f = self.example.1;
        match self.slot.checked_sub(1).and_then(|i| f.later.get(i)) {
            Some(l) => (l.label.as_deref(), &l.quoted),
            None => (f.label.as_deref(), &f.quoted),
        }
    }

    /// The hint that heads the cause: the one its cases all share; else
    /// its worked example's own (the other cases' own are listed with
    /// them: [`Self::other_hints`]); else, for a missed check, the
    /// check's own.
    pub fn hint(&self) -> Option<String> {
        let shared = self.cases.first().and_then(|c| c.1.hint.as_deref());
        if let Some(first) = shared
            && self
                .cases
                .iter()
                .all(|(_, f)| f.hint.as_deref() == Some(first))
        {
            return Some(first.to_owned());
        }
        if let Some(own) = &self.example.1.hint {
            return Some(own.clone());
        }
        self.cause.parts.iter().find_map(|p| match &p.edit {
            Edit::Missed {
                shape: Missed::Accepts,
                rule,
                says,
                ..
            } => Some(format!(
                "{rule} rejects a line with {says}: check for it where the line is read, \
                 and answer such a line as the rulings say (the worked example shows how)"
            )),
            Edit::Missed {
                shape: Missed::Silent,
                rule,
                says,
                ..
            } => Some(format!(
                "{rule} answers a line with {says} with a message: print one (its words are \
                 yours where the rulings leave them free) before asking again"
            )),
            Edit::Missed {
                shape: Missed::GoesOn,
                rule,
                says,
                ..
            } => Some(format!(
                "{rule} stops the program at {says}: check for it, then print the message and \
                 exit with the status the rulings give (the worked example shows both)"
            )),
            Edit::Missed {
                shape: Missed::ExitsZero,
                rule,
                says,
                ..
            } => Some(format!(
                "{rule} stops the program at {says} with an error status: after the message, \
                 exit with the status the rulings give, not 0"
            )),
            Edit::Missed {
                shape: Missed::Refuses,
                rule,
                says,
                ..
            } => Some(format!(
                "{rule} accepts {says}: find the check that refuses it and drop or widen it (the \
                 worked example names the value)"
            )),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::run::{Ending, Stream};
    use crate::judge::{compare::Mismatch, failure::Notes};
    use std::time::Duration;

    fn result(name: &str, mismatches: &[Mismatch]) -> CaseResult {
        let failure = CaseFailure::new(mismatches, b"", Notes::default());
        CaseResult::new(name, Verdict::Failed(Box::new(failure)))
    }

    fn extra(grid: &[u8], n: u8) -> Mismatch {
        let mut actual = grid.to_vec();
        actual.extend(format!("debug {n}\n").bytes());
        actual.extend(b"A> ");
        let mut expected = grid.to_vec();
        expected.extend(b"A> ");
        Mismatch::Stream {
            stream: Stream::Stdout,
            expected,
            actual,
            dropped: 0,
        }
    }

    #[test]
    fn same_shaped_failures_make_one_group_with_one_example() {
        let status = Mismatch::Ending {
            expected: Ending::Exited(0),
            actual: Ending::Exited(5),
        };
        let results: Vec<CaseResult> = (0..20)
            .map(|i| result(&format!("c/{i:02}"), &[extra(b"+ +\n", i)]))
            .chain([result("d/status", &[status])])
            .collect();
        let g = groups(&results);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].cases.len(), 20);
        let text = render(&results, Style { colour: false });
        assert!(text.contains("21 failed case(s), 2 cause(s)"), "{text}");
        assert!(text.contains("cause 1 of 2: 20 case(s): stdout: extra output `debug #\\n`"));
        assert!(text.contains("and 8 more"));
        assert_eq!(text.matches("case: ").count(), 2, "one example per cause");
    }

    #[test]
    fn at_equal_count_a_crash_or_a_hang_comes_before_wrong_bytes() {
        let ending = |actual| Mismatch::Ending {
            expected: Ending::Exited(0),
            actual,
        };
        let results = vec![
            result("a/bytes", &[extra(b"+ +\n", 1)]),
            result("b/status", &[ending(Ending::Exited(3))]),
            result(
                "c/hang",
                &[ending(Ending::TimedOut {
                    after: Duration::from_secs(1),
                    awaiting_prompt: None,
                })],
            ),
            result("d/crash", &[ending(Ending::Signaled(11))]),
        ];
        let order: Vec<&str> = groups(&results).iter().map(|g| g.cases[0].0).collect();
        assert_eq!(order, ["c/hang", "d/crash", "a/bytes", "b/status"]);
    }

    #[test]
    fn the_worked_example_is_the_shortest_unambiguous_case() {
        let mismatch = |n| extra(b"+ +\n", n);
        let with_stdin = |name: &str, stdin: &[u8], ambiguous: bool| {
            let mut r = result(name, &[mismatch(1)]);
            r.ambiguous = ambiguous;
            r.verdict = Verdict::Failed(Box::new(CaseFailure::new(
                &[mismatch(1)],
                stdin,
                Notes::default(),
            )));
            r
        };
        let results = vec![
            with_stdin("a/long", b"1\n2\n3\n", false),
            with_stdin("b/short-but-ambiguous", b"1\n", true),
            with_stdin("c/short", b"1\n2\n", false),
            with_stdin("d/short-too", b"1\n2\n", false),
        ];
        let g = groups(&results);
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].example.0, "c/short");
    }

    #[test]
    fn the_worked_example_is_the_lightest_case_and_its_hint_the_causes() {
        let with = |name: &str, weight: usize, hint: &str| {
            let mut r = result(name, &[extra(b"+ +\n", 1)]);
            let notes = Notes {
                hint: Some(hint.to_owned()),
                weight,
                ..Notes::default()
            };
            r.verdict = Verdict::Failed(Box::new(CaseFailure::new(
                &[extra(b"+ +\n", 1)],
                b"",
                notes,
            )));
            r
        };
        let results = vec![with("a/heavy", 9000, "one"), with("b/light", 3, "two")];
        let g = groups(&results);
        assert_eq!(g[0].example.0, "b/light");
        // The cases' hints differ: the worked example's heads the cause,
        // the other case's is shown with it.
        assert_eq!(g[0].hint().as_deref(), Some("two"));
        assert_eq!(g[0].other_hints(), [("a/heavy", "one")]);
        let same = vec![with("a/heavy", 9000, "one"), with("b/light", 3, "one")];
        assert_eq!(groups(&same)[0].hint().as_deref(), Some("one"));
    }

    #[test]
    fn one_run_refused_by_several_categories_checkers_is_one_cause() {
        let checked = |name: &str, reason: &str, reproduce: &str| {
            let mut r = result(name, &[]);
            let m = [Mismatch::Stream {
                stream: Stream::Stdout,
                expected: b"Sum: 5\nCount: 2\n".to_vec(),
                actual: b"Sum: 8\nCount: 1\n".to_vec(),
                dropped: 0,
            }];
            let notes = Notes {
                decided: vec![crate::judge::decided::Decided::checker(
                    crate::judge::decided::Part::Stream(Stream::Stdout),
                    "python3 check.py",
                    reason,
                    vec!["OUT-1".to_owned()],
                )],
                reproduce: reproduce.to_owned(),
                ..Notes::default()
            };
            r.verdict = Verdict::Failed(Box::new(CaseFailure::new(&m, b"3\n-4\n-1\n", notes)));
            r
        };
        let results = vec![
            checked("sum/negatives", "the sum: expected 5, got 8", "(run 3 -4)"),
            checked(
                "count/negatives",
                "the count: expected 2, got 1",
                "(run 3 -4)",
            ),
            checked("count/other", "the count: expected 2, got 1", "(run 7 -8)"),
            checked("sum/alone", "the sum is missing", "(run 9)"),
        ];
        let g = groups(&results);
        // The count's cause (2 cases) takes the sum's run in; the sum
        // missing elsewhere is another run, another cause.
        assert_eq!(g.len(), 2, "{g:?}");
        let names: Vec<&str> = g[0].cases.iter().map(|c| c.0).collect();
        assert_eq!(names, ["count/negatives", "count/other", "sum/negatives"]);
        assert_eq!(g[0].also.len(), 1);
        let text = render(&results, Style { colour: false });
        assert!(
            text.contains("the same runs (same input, same output) fail another check too:"),
            "{text}"
        );
        assert!(text.contains("2 cause(s)"), "{text}");
    }
}
