//! The end-of-run report of failures grouped by [`Cause`]: one block per
//! cause, the largest first, naming what differs, how many cases and
//! which (a capped list), with one worked example in full. The score
//! stays per case; grouping only changes what people read.
//!
//! One piece: grouping by cause and rendering the groups are one report
//! (the rendering reads the groups' order and caps); its tests are in
//! `group/tests.rs`.

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
    pub also: Vec<Also<'a>>,
}

/// A cause merged into a group, with the failure it is told by: the
/// worked example's own run where that run failed it too, so a student
/// reads the values of the example above it, never the key's `#`.
#[derive(Debug)]
pub struct Also<'a> {
    /// The cause (the key that grouped it).
    pub cause: &'a Cause,
    /// The failure telling it, and which of its causes this is.
    pub example: (&'a CaseFailure, usize),
}

impl Also<'_> {
    /// The cause as its failure tells it, part by part with that run's
    /// values: a check's sentence (a checker's reason, a missed check, a
    /// crash) as the failure says it; a part keyed by its bytes as the
    /// failure quotes it (`stdin: reads 4 stdin line(s) where 0 was
    /// expected`, never the key's `#`); a part keyed by place and shape
    /// with its quote beside it.
    pub fn told(&self) -> String {
        let (f, slot) = self.example;
        let (label, quoted) = texts(f, slot);
        let decided = f.decided.as_deref().filter(|_| slot == 0).or(label);
        let one = |p: &crate::judge::cause::PartCause| {
            Cause {
                parts: vec![p.clone()],
            }
            .to_string()
        };
        let mut said: Vec<String> = self
            .cause
            .parts
            .iter()
            .map(|p| {
                let sentence = match &p.edit {
                    Edit::Judged { .. } => decided,
                    Edit::Missed { .. } | Edit::Memory { .. } | Edit::Raised { .. } => label,
                    _ => None,
                };
                if let Some(sentence) = sentence {
                    return sentence.to_owned();
                }
                let quote = quoted.parts.iter().find(|q| q.part == p.part).map(one);
                match quote {
                    Some(q) if p.place.is_some() || matches!(p.edit, Edit::Departed(_)) => {
                        format!("{} (for example {q})", one(p))
                    }
                    Some(q) => q,
                    None => one(p),
                }
            })
            .collect();
        said.dedup();
        said.join("; ")
    }
}

/// A failure's label and quote for its cause in `slot` (0 its first,
/// `i` its `i`-th later one).
fn texts(f: &CaseFailure, slot: usize) -> (Option<&str>, &Cause) {
    match slot.checked_sub(1).and_then(|i| f.later.get(i)) {
        Some(l) => (l.label.as_deref(), &l.quoted),
        None => (f.label.as_deref(), &f.quoted),
    }
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
        .filter_map(|(cause, mut cases, others)| {
            // The worked example is the heading cause's own: its label
            // and key speak of it.
            let &(name, failure, _, slot) = cases.iter().min_by_key(|e| lightest(e))?;
            let run = same_run(failure, slot);
            let also = others
                .iter()
                .filter_map(|(cause, entries)| {
                    let own = entries
                        .iter()
                        .find(|(_, f, _, s)| run.is_some() && same_run(f, *s) == run)
                        .or_else(|| entries.iter().min_by_key(|e| lightest(e)))?;
                    Some(Also {
                        cause,
                        example: (own.1, own.3),
                    })
                })
                .collect();
            cases.extend(others.into_iter().flat_map(|(_, e)| e));
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

/// The order a worked example is picked in: one no ambiguous ruling
/// touches, the lightest, then by name.
fn lightest<'a>(
    (name, f, ambiguous, _): &(&'a str, &CaseFailure, bool, usize),
) -> (bool, usize, usize, &'a str) {
    (*ambiguous, f.weight, f.stdin_lines, *name)
}

/// Each cause with its cases, and the causes merged in with theirs.
type Merged<'a> = Vec<(&'a Cause, Entries<'a>, Vec<(&'a Cause, Entries<'a>)>)>;

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
        out.push((cause, entries, parts));
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
                "  the same runs (same input, same output) fail another check too: {}",
                other.told()
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
        texts(self.example.1, self.slot)
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
mod tests;
