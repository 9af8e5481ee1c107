//! GitHub Classroom and Actions (`--github`, docs/github-classroom.md):
//! the step's `result` output in the form GitHub Classroom's grading
//! reporter reads (a base64 JSON: `version`, `status`, `max_score`,
//! `tests` with `name`, `status`, `score`, `max_score`, `message`; one
//! test per marking category, its score and maximum the pack's marks,
//! its message the category's first cause with its reproduce line), the
//! step summary (markdown: the marks table, then each cause with its
//! worked example) and at most ten `::error` annotations, one per cause,
//! escaped as the runner's workflow commands require.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::bytes::visible::Style;
use crate::judge::group;
use crate::judge::verdict::CaseResult;
use crate::output::results::{Results, bounded};

/// Annotations written at most: GitHub shows ten errors per step.
pub const MAX_ANNOTATIONS: usize = 10;

/// Bytes of a test's message at most.
const MESSAGE_MAX: usize = 4096;

/// Bytes of the step summary's causes at most (GitHub takes 1 MiB per
/// step).
const SUMMARY_CAUSES_MAX: usize = 256 << 10;

/// The reporter's document for one runner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Classroom {
    /// The format's version: 1.
    pub version: u32,
    /// `pass` when every case passed, `error` when a case could not be
    /// run (the harness's or the suite's fault), else `fail`.
    pub status: String,
    /// The marks available.
    pub max_score: f64,
    /// One per marking category.
    pub tests: Vec<ClassroomTest>,
}

/// One marking category as a Classroom test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClassroomTest {
    /// The category (its title and name).
    pub name: String,
    /// `pass`, `fail`, or `error` when a case of it was not judged (the
    /// environment struck it, or it could not be run).
    pub status: String,
    /// Marks earned.
    pub score: f64,
    /// Marks available.
    pub max_score: f64,
    /// The category's first cause and its reproduce line; empty when
    /// every case passed.
    pub message: String,
}

/// Each category's first cause (most cases first) as one message: the
/// cause, its worked example's case and reproduce line.
fn first_causes(results: &[CaseResult]) -> Vec<(String, String)> {
    let mut names: Vec<&str> = results
        .iter()
        .filter_map(|r| r.category.as_deref())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
        .into_iter()
        .filter_map(|name| {
            let mine: Vec<CaseResult> = results
                .iter()
                .filter(|r| r.category.as_deref() == Some(name))
                .cloned()
                .collect();
            let groups = group::groups(&mine);
            let first = groups.first()?;
            Some((name.to_owned(), cause_message(first, groups.len())))
        })
        .collect()
}

/// A cause in a few lines: its label, how many cases, the example and
/// its reproduce line.
fn cause_message(g: &group::Group<'_>, of: usize) -> String {
    let mut m = format!(
        "{} ({} case(s){})\nfor example, case {}\nreproduce:\n{}",
        g.label(),
        g.cases.len(),
        if of > 1 {
            format!("; {} more cause(s) in this category", of - 1)
        } else {
            String::new()
        },
        g.example.0,
        g.example.1.reproduce
    );
    m = bounded(&m, MESSAGE_MAX);
    m
}

/// The reporter's document for `doc`.
pub fn classroom(doc: &Results, results: &[CaseResult], titles: &[(String, String)]) -> Classroom {
    let causes = first_causes(results);
    let mut tests = Vec::new();
    for row in &doc.score.categories {
        let Some(max) = row.marks else { continue };
        // A case not judged (the environment struck it, the harness could
        // not run it) makes the category's test `error`, never `fail`.
        let status = if row.errors > 0 {
            "error"
        } else if row.passed == row.total {
            "pass"
        } else {
            "fail"
        };
        tests.push(ClassroomTest {
            name: crate::output::results::test_name(titles, &row.name),
            status: status.to_owned(),
            score: row.earned.unwrap_or(0.0),
            max_score: max,
            message: crate::output::results::named(&causes, &row.name)
                .unwrap_or_default()
                .to_owned(),
        });
    }
    let errors = doc.score.categories.iter().any(|r| r.errors > 0);
    let status = if errors {
        "error"
    } else if tests.iter().all(|t| t.status == "pass") {
        "pass"
    } else {
        "fail"
    };
    Classroom {
        version: 1,
        status: status.to_owned(),
        max_score: doc.score.max,
        tests,
    }
}

/// The `result=…` line for `$GITHUB_OUTPUT`: the document as base64
/// JSON (one line: base64 holds no newline).
pub fn output_line(doc: &Classroom) -> String {
    use base64::Engine as _;
    let json = serde_json::to_string(doc).unwrap_or_default();
    format!(
        "result={}\n",
        base64::engine::general_purpose::STANDARD.encode(json)
    )
}

/// The step summary: the marks table, then each cause with its worked
/// example (the report's own text, bounded).
pub fn summary(doc: &Results, results: &[CaseResult]) -> String {
    let mut md = format!(
        "## {}: {} / {}\n\n{} against suite {} (content {})\n\n| category | cases passed | \
         marks |\n|---|---|---|\n",
        doc.spec,
        marks(doc.score.earned),
        marks(doc.score.max),
        cell(&doc.program),
        cell(&doc.suite),
        doc.content_hash
    );
    for row in &doc.score.categories {
        let earned = match (row.earned, row.marks) {
            (Some(e), Some(m)) => format!("{} / {}", marks(e), marks(m)),
            _ => "not marked".to_owned(),
        };
        let _ = writeln!(
            md,
            "| {} | {}/{}{} | {earned} |",
            cell(&row.name),
            row.passed,
            row.total,
            if row.errors > 0 {
                format!(" ({} not judged)", row.errors)
            } else {
                String::new()
            }
        );
    }
    let text = group::render(results, Style { colour: false });
    if !text.trim().is_empty() {
        // A fence longer than any run of backticks in the text.
        let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
        let fence = "`".repeat(longest.max(2) + 1);
        let _ = write!(
            md,
            "\n### Failures by cause\n\n{fence}text\n{}\n{fence}\n",
            bounded(text.trim_matches('\n'), SUMMARY_CAUSES_MAX)
        );
    }
    md
}

/// Marks as the report writes them: no `.0` on whole numbers.
fn marks(x: f64) -> String {
    let text = format!("{x:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Text safe in a markdown table's cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// At most [`MAX_ANNOTATIONS`] `::error` lines, one per cause (most
/// cases first), each titled by the cause and saying its example and
/// reproduce line.
pub fn annotations(results: &[CaseResult]) -> String {
    let groups = group::groups(results);
    let total = groups.len();
    let mut out = String::new();
    for (i, g) in groups.iter().take(MAX_ANNOTATIONS).enumerate() {
        let title = format!("cause {} of {total}: {}", i + 1, g.label());
        let title: String = title.chars().take(200).collect();
        let _ = writeln!(
            out,
            "::error title={}::{}",
            escape_property(&title),
            escape_data(&cause_message(g, 1))
        );
    }
    out
}

/// A workflow command's message: `%`, `\r` and `\n` escaped.
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property (`title=…`): as [`escape_data`], and
/// `:` and `,` too.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// Whether `--github` is chosen without being asked for: under GitHub
/// Actions (`GITHUB_ACTIONS=true` with `GITHUB_OUTPUT` set), unless
/// `CONFORMANCE_GITHUB=0`, and never under `cargo test` (a test of this
/// harness, or a course's, run by CI) nor in the harnesses `mark` starts.
pub fn chosen_by_environment(marking: bool) -> bool {
    let var = |name: &str| std::env::var_os(name);
    var("GITHUB_ACTIONS").is_some_and(|v| v == "true")
        && var("GITHUB_OUTPUT").is_some_and(|v| !v.is_empty())
        && var("CONFORMANCE_GITHUB").is_none_or(|v| v != "0")
        && var("CARGO_MANIFEST_DIR").is_none()
        && !marking
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_commands_are_escaped_as_the_runner_reads_them() {
        assert_eq!(escape_data("50% a\r\nb"), "50%25 a%0D%0Ab");
        assert_eq!(escape_property("cause 1: a, b\n"), "cause 1%3A a%2C b%0A");
    }

    #[test]
    fn marks_are_written_without_trailing_zeros() {
        assert_eq!(marks(3.0), "3");
        assert_eq!(marks(2.5), "2.5");
        assert_eq!(marks(1.0 / 3.0), "0.33");
    }

    #[test]
    fn the_output_line_decodes_to_the_document() {
        use base64::Engine as _;
        let doc = Classroom {
            version: 1,
            status: "fail".into(),
            max_score: 3.0,
            tests: vec![ClassroomTest {
                name: "basics".into(),
                status: "fail".into(),
                score: 1.5,
                max_score: 3.0,
                message: "x\ny".into(),
            }],
        };
        let line = output_line(&doc);
        let b64 = line
            .strip_prefix("result=")
            .and_then(|l| l.strip_suffix('\n'))
            .unwrap_or_default();
        assert!(!b64.contains('\n'));
        let json = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .expect("base64");
        let back: Classroom = serde_json::from_slice(&json).expect("the reporter's JSON");
        assert_eq!(back, doc);
        assert!((back.tests[0].score - 1.5).abs() < f64::EPSILON);
    }
}
