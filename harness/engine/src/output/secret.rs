//! What a student-facing output may show of a secret case
//! (`visibility: secret`, docs/folder-packs.md "Secret cases"): the one
//! place that decides it, so that every renderer (the report, JUnit,
//! `--results`, `--gradescope`, `--github`, `--prairielearn`) renders
//! the same redacted results and none needs to know secrets exist.
//!
//! A secret case keeps its name, category, rules, verdict, time and
//! weight (the score is the same), and loses everything that carries its
//! bytes: its differences, the stdin line answered, its summary and hint
//! (the lecturer's words may quote the input), its reproduce line and
//! kit, a checker's reason, what a tolerance forgave, a harness error's
//! text. Its cause keeps the part, the place (the model's span: a rule)
//! and the shape of the departure, never a line: a cause a public case
//! shares stays as it is (the public case shows it, and its worked
//! example is public: a secret failure weighs the most, so it is picked
//! last), a cause seen only on secret cases is named without values.
//!
//! The marker's outputs (`run --marker`, `mark`'s `marker/` folder and
//! class view) never pass through here.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::judge::cause::{Cause, Departure, Edit, Later, PartCause};
use crate::judge::failure::CaseFailure;
use crate::judge::verdict::{CaseResult, Verdict};

/// What a redacted case's reproduce line says.
pub const NOT_SHOWN: &str = "not shown: the case is secret (the marker has it)";

/// `results` as a student may see them: each secret case redacted
/// ([`redact`]), its cause kept where a public case shares it.
pub fn student_view(results: &[CaseResult]) -> Vec<CaseResult> {
    let public: BTreeSet<&Cause> = results
        .iter()
        .filter(|r| !r.secret)
        .flat_map(failures)
        .flat_map(|f| std::iter::once(&f.cause).chain(f.later.iter().map(|l| &l.cause)))
        .collect();
    results.iter().map(|r| redact(r, &public)).collect()
}

/// Whose outputs a run writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// A student's (the default): secret cases redacted.
    Student,
    /// The marker's (`--marker`): everything.
    Marker,
}

/// `results` as every output of the run shows them: the student's view
/// for a student, else as they are.
pub fn shown(results: Vec<CaseResult>, audience: Audience) -> Vec<CaseResult> {
    if audience == Audience::Student && results.iter().any(|r| r.secret) {
        student_view(&results)
    } else {
        results
    }
}

/// One result as a student may see it, with no public case beside it
/// (a case's own line in the report, before the run is over).
pub fn alone(result: &CaseResult) -> CaseResult {
    redact(result, &BTreeSet::new())
}

fn failures(r: &CaseResult) -> impl Iterator<Item = &CaseFailure> {
    let failed = match &r.verdict {
        Verdict::Failed(f) => Some(&**f),
        _ => None,
    };
    failed.into_iter().chain(r.warning.as_deref())
}

/// `result` with nothing of a secret case's bytes; a public case as it is.
fn redact(result: &CaseResult, public: &BTreeSet<&Cause>) -> CaseResult {
    if !result.secret {
        return result.clone();
    }
    let category = result.category.as_deref().unwrap_or("its category");
    let mut out = result.clone();
    out.verdict = match &result.verdict {
        Verdict::Passed => Verdict::Passed,
        Verdict::Failed(f) => Verdict::Failed(Box::new(failure(f, category, public))),
        Verdict::Error(_) => Verdict::Error(format!(
            "the harness could not run this secret case of {category} (the marker's report says \
             why)"
        )),
    };
    out.warning = result
        .warning
        .as_ref()
        .map(|w| Box::new(failure(w, category, public)));
    for d in &mut out.deductions {
        d.forgave.clear();
    }
    out
}

/// A secret case's failure: its cause and rules, none of its bytes.
fn failure(f: &CaseFailure, category: &str, public: &BTreeSet<&Cause>) -> CaseFailure {
    let keep = |c: &Cause| {
        if public.contains(c) {
            c.clone()
        } else {
            valueless(c)
        }
    };
    let cause = keep(&f.cause);
    let later = f
        .later
        .iter()
        .map(|l| {
            let cause = keep(&l.cause);
            Later {
                quoted: cause.clone(),
                cause,
                label: None,
                stdout: None,
            }
        })
        .collect();
    CaseFailure {
        differences: Vec::new(),
        decided: Some(format!("a secret case of {category}: {cause}")),
        quoted: cause.clone(),
        cause,
        input: None,
        summary: format!("a secret case of {category}: its input and output are not shown"),
        rules: f.rules.clone(),
        hint: None,
        reproduce: NOT_SHOWN.to_owned(),
        rebless: None,
        stdin_lines: 0,
        // The lightest case is a cause's worked example: a public one first.
        weight: usize::MAX,
        label: None,
        later,
        later_differences: Vec::new(),
        judged: Vec::new(),
    }
}

/// `cause` without a byte of the case: each part keeps its name, its
/// place and the shape of its edit; lines, messages and reasons go.
pub fn valueless(cause: &Cause) -> Cause {
    Cause {
        parts: cause
            .parts
            .iter()
            .map(|p| PartCause {
                part: p.part.clone(),
                place: p.place.clone(),
                edit: shape(&p.edit),
            })
            .collect(),
    }
}

fn shape(edit: &Edit) -> Edit {
    match edit {
        Edit::Extra(_) => Edit::Departed(Departure::ExtraLine),
        Edit::Missing(_) => Edit::Departed(Departure::MissingLine),
        Edit::Changed { .. } => Edit::Departed(Departure::OtherText),
        Edit::Broke { rule, .. } => Edit::Broke {
            rule: rule.clone(),
            message: "(a secret case: not shown)".to_owned(),
        },
        Edit::Judged { how, .. } => Edit::Judged {
            how: how.clone(),
            reason: "refused (a secret case: the reason is not shown)".to_owned(),
        },
        // The rest name a shape, an exit status, a rule's check or the
        // program's own frame: nothing of the case's input or output.
        other => other.clone(),
    }
}

/// The lines saying how many failed cases are secret, by category:
/// what a student-facing report adds after its causes (empty when none).
pub fn note(results: &[CaseResult]) -> String {
    let mut by: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for r in results.iter().filter(|r| r.secret) {
        if matches!(r.verdict, Verdict::Failed(_) | Verdict::Error(_)) {
            *by.entry(r.category.as_deref().unwrap_or("?")).or_default() += 1;
        }
    }
    if by.is_empty() {
        return String::new();
    }
    let total: usize = by.values().sum();
    let each: Vec<String> = by.iter().map(|(c, n)| format!("{c}: {n}")).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n{total} secret case(s) failed ({}): their category, rules and cause are shown, never \
         their input or output.",
        each.join(", ")
    );
    out
}

/// The categories every one of whose cases in `results` is secret:
/// their Gradescope tests are hidden (or shown after the due date).
pub fn secret_categories(results: &[CaseResult]) -> Vec<String> {
    let mut all: Vec<&str> = results
        .iter()
        .filter_map(|r| r.category.as_deref())
        .collect();
    all.sort_unstable();
    all.dedup();
    all.into_iter()
        .filter(|c| {
            results
                .iter()
                .filter(|r| r.category.as_deref() == Some(*c))
                .all(|r| r.secret)
        })
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::run::Stream;
    use crate::judge::compare::Mismatch;
    use crate::judge::failure::Notes;

    const SECRET_IN: &str = "zebra-quartz 17\n";
    const SECRET_OUT: &str = "Average: 8.5 zebra-quartz\n";

    fn result(name: &str, secret: bool, expected: &str, actual: &str) -> CaseResult {
        let m = [Mismatch::Stream {
            stream: Stream::Stdout,
            expected: expected.as_bytes().to_vec(),
            actual: actual.as_bytes().to_vec(),
            dropped: 0,
        }];
        let notes = Notes {
            summary: format!("summary quoting {SECRET_IN}"),
            rules: vec!["AVG-1".to_owned()],
            hint: Some(format!("hint quoting {SECRET_OUT}")),
            reproduce: format!("printf '{SECRET_IN}' | ./avg"),
            ..Notes::default()
        };
        let failure = CaseFailure::new(&m, SECRET_IN.as_bytes(), notes);
        CaseResult {
            category: Some(if secret { "hidden" } else { "basic" }.to_owned()),
            rules: vec!["AVG-1".to_owned()],
            secret,
            expected_status: Some(0),
            ..CaseResult::new(name, Verdict::Failed(Box::new(failure)))
        }
    }

    fn everything(results: &[CaseResult]) -> String {
        let plain = crate::bytes::visible::Style { colour: false };
        let mut text = crate::judge::group::render(results, plain);
        for r in results {
            text.push_str(&r.verdict.to_string());
            if let Verdict::Failed(f) = &r.verdict {
                text.push_str(&f.render(plain));
            }
        }
        text
    }

    #[test]
    fn a_secret_case_shows_no_byte_of_its_input_or_output() {
        let results = [result("s1", true, SECRET_OUT, "Average: 9 zebra-quartz\n")];
        let full = everything(&results);
        assert!(
            full.contains("zebra-quartz"),
            "the marker's view has it: {full}"
        );
        let shown = everything(&student_view(&results));
        assert!(!shown.contains("zebra"), "{shown}");
        assert!(!shown.contains("8.5"), "{shown}");
        assert!(shown.contains("a secret case of hidden"), "{shown}");
        assert!(shown.contains("AVG-1"), "{shown}");
        assert!(shown.contains(NOT_SHOWN), "{shown}");
        assert!(note(&results).contains("1 secret case(s) failed (hidden: 1)"));
    }

    #[test]
    fn a_cause_a_public_case_shares_keeps_its_public_worked_example() {
        let results = [
            result("a-public", false, "Total: 3\n", "Total: 4\n"),
            result("b-secret", true, "Total: 3\n", "Total: 4\n"),
        ];
        let view = student_view(&results);
        let groups = crate::judge::group::groups(&view);
        let keys: Vec<String> = groups.iter().map(|g| format!("{:?}", g.cause)).collect();
        assert_eq!(groups.len(), 1, "one bug, one cause: {keys:?}");
        assert_eq!(groups[0].example.0, "a-public");
        assert_eq!(groups[0].cases.len(), 2);
        // Alone, the same secret cause is named without its lines.
        let Verdict::Failed(f) = &alone(&results[1]).verdict else {
            panic!("still failed");
        };
        assert!(!f.cause.to_string().contains("Total"), "{}", f.cause);
        assert_eq!(
            view[0].verdict, results[0].verdict,
            "a public case as it is"
        );
    }

    #[test]
    fn a_secret_cases_crash_names_its_exception_and_line_never_its_words() {
        let mut crashed = result("s1", true, SECRET_OUT, "");
        let raised = crate::judge::exception::parse(
            b"Traceback (most recent call last):\n  File \"./avg.py\", line 3, in <module>\n\
              ValueError: could not convert string to float: 'zebra-quartz'\n",
        );
        let m = [Mismatch::Stream {
            stream: Stream::Stdout,
            expected: SECRET_OUT.as_bytes().to_vec(),
            actual: Vec::new(),
            dropped: 0,
        }];
        let notes = Notes {
            raised,
            ..Notes::default()
        };
        crashed.verdict = Verdict::Failed(Box::new(CaseFailure::new(&m, b"", notes)));
        let full = everything(std::slice::from_ref(&crashed));
        assert!(full.contains("saying `could not convert"), "{full}");
        let shown = everything(&student_view(&[crashed]));
        assert!(!shown.contains("zebra"), "{shown}");
        assert!(
            shown.contains("raises ValueError (`./avg.py:3`)"),
            "{shown}"
        );
    }

    #[test]
    fn a_category_is_secret_when_all_its_cases_are() {
        let mut results = vec![
            result("a", false, "x\n", "y\n"),
            result("b", true, "x\n", "y\n"),
        ];
        assert_eq!(secret_categories(&results), ["hidden"]);
        results[0].category = Some("hidden".to_owned());
        assert!(secret_categories(&results).is_empty());
    }
}
