//! The machine-readable results of a run, built from the structured case
//! results (never from rendered text): `--results PATH` writes a JSON
//! document whose schema is published as `cases/results.schema.json`, and
//! `--gradescope PATH` writes Gradescope's autograder `results.json` (one
//! test per marking category, each with its output; none for a run with
//! a case not judged: [`not_gradable`]).
//!
//! One piece: the `--results` and `--gradescope` documents are built
//! from the same records, and the published JSON schema is derived from
//! these types (`json_schema`): split, schema and writer could drift.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::judge::failure::{BytesPart, Difference};
use crate::judge::verdict::{CaseResult, Verdict};
use crate::output::report::ScoreRow;

/// The value of [`Results::format`].
pub const FORMAT: &str = "conformance-results/1";

/// The whole document.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "conformance run results")]
pub struct Results {
    /// Always `conformance-results/1`.
    pub format: String,
    /// The spec pack checked (`--spec`).
    pub spec: String,
    /// The program checked, as the header names it.
    pub program: String,
    /// The suite's name and version from `suite.yaml`.
    pub suite: String,
    /// The suite's content hash, as in the header.
    pub content_hash: String,
    /// Every case that ran, sorted by name.
    pub cases: Vec<CaseRecord>,
    /// The score by marking category.
    pub score: Score,
    /// The failures grouped by cause, in the report's order (the most
    /// cases first, crashes and hangs before wrong bytes at equal count):
    /// what `mark` compares across submissions.
    #[serde(default)]
    pub causes: Vec<CauseRecord>,
    /// Under `--memcheck …,warn`, the memory errors only warned about
    /// (no case failed by them, no marks lost), grouped by cause (kind
    /// and place) in the same order as `causes`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<CauseRecord>,
}

/// The failed cases that share one cause.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CauseRecord {
    /// The cause in one line, numbers as `#`: the same text for the same
    /// bug in another program (the key of the class view).
    pub cause: String,
    /// The failed cases, by name.
    pub cases: Vec<String>,
    /// The cause as its worked example tells it, with that case's values
    /// (`cause` masks them to group causes): what a row of `marks.csv`
    /// shows.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub example: String,
}

/// One case's result.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaseRecord {
    /// The case's name (its path without `.yaml`).
    pub name: String,
    /// Its marking category, when its file parsed.
    pub category: Option<String>,
    /// The rule IDs it cites.
    pub rules: Vec<String>,
    /// Its tags.
    pub tags: Vec<String>,
    /// `passed`, `failed` (the program is wrong), `environment` (the
    /// marker's environment struck it: a runtime that never started, a
    /// module the machine lacks; not judged, `environment` says why) or
    /// `error` (the harness or the suite could not run the case). Neither
    /// of the last two is ever counted against the program.
    pub verdict: VerdictKind,
    /// Wall time, seconds.
    pub duration: f64,
    /// The expected exit status, when known.
    pub expected_status: Option<i32>,
    /// How the program ended (`status 0`, `signal 11`, `timed out …`),
    /// when it ran.
    pub actual_status: Option<String>,
    /// Why the case is an error.
    pub error: Option<String>,
    /// For a case the environment struck (`verdict: environment`), what
    /// the marker's environment lacked or how it failed the run, one
    /// line (`the program's runtime could not start where the marks run
    /// (3 runs): …`); its `differences` still show the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<String>,
    /// For a failure, every difference with its first differing byte.
    pub differences: Vec<DifferenceRecord>,
    /// Under `--memcheck …,warn`, the memory error the case made (a
    /// `memory` difference), only warned about: the verdict is judged
    /// without it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<DifferenceRecord>,
    /// The score a problem package's output validator gave the case
    /// (`score.txt`), which its category's grader took.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
}

/// The kind of a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum VerdictKind {
    /// The program did what the case expects.
    Passed,
    /// The program departed from the case.
    Failed,
    /// The marker's environment struck the case (a runtime that never
    /// started, a module, class or library the machine lacks): not
    /// judged, nothing charged.
    Environment,
    /// The harness or the suite could not run the case: not judged.
    Error,
}

impl VerdictKind {
    /// Whether the case was judged (passed or failed): a case the
    /// environment struck or the harness could not run counts neither
    /// way.
    pub fn judged(self) -> bool {
        matches!(self, Self::Passed | Self::Failed)
    }
}

/// One difference of a failed case.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DifferenceRecord {
    /// `status`, `stdout`, `stderr`, `file`, `file-missing`,
    /// `file-unexpected`, `left-process`, `exchange` (an answer in a
    /// conversation that broke a rule), `memory` (under `--memcheck`, a
    /// memory error: `message` names its kind and place, `actual` holds
    /// the report's first lines), `reads` (another number of stdin lines
    /// read than the model's), or `not-run` (the early verdict on a
    /// program that hangs left the case out; `message` says why and how
    /// to run it anyway).
    pub part: String,
    /// For `exchange`: the rule ID broken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// For `exchange`: the 1-based number of the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_number: Option<u32>,
    /// For `exchange`: the request sent, escaped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
    /// The file's sandbox path, for the file parts.
    pub path: Option<String>,
    /// 1-based line of the first differing byte (streams and files).
    pub line: Option<usize>,
    /// 1-based column of that byte.
    pub column: Option<usize>,
    /// 0-based offset of that byte.
    pub byte: Option<usize>,
    /// The expected side there, escaped (`\n`, `\xNN`): the rest of its
    /// line, or the expected ending.
    pub expected: Option<String>,
    /// The actual side there, escaped likewise; for `exchange`, the answer
    /// received.
    pub actual: Option<String>,
    /// The difference in one line, as a person reads it.
    pub message: String,
}

/// The score by marking category.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Score {
    /// One row per category of `suite.yaml`, then `ambiguous`.
    pub categories: Vec<ScoreRecord>,
    /// Marks earned over all categories.
    pub earned: f64,
    /// Marks available.
    pub max: f64,
}

/// One row of the score: [`ScoreRow`].
pub type ScoreRecord = ScoreRow;

/// The JSON Schema of [`Results`], as published in
/// `cases/results.schema.json`.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(Results);
    serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n"
}

/// The facts of a run that are not per case.
#[derive(Debug, Clone)]
pub struct RunInfo<'a> {
    /// The pack.
    pub spec: &'a str,
    /// The program checked.
    pub program: &'a str,
    /// The suite's name and version.
    pub suite: &'a str,
    /// The content hash.
    pub content_hash: &'a str,
}

/// The results document of a run: its score the rows' sum, or the
/// suite's `grading:` tree's ([`super::graded::total`]).
pub fn build(
    info: &RunInfo<'_>,
    results: &[CaseResult],
    rows: &[ScoreRow],
    suite: Option<&crate::model::schema::Suite>,
) -> Results {
    let mut cases: Vec<CaseRecord> = results.iter().map(record).collect();
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    let categories: Vec<ScoreRecord> = rows.to_vec();
    Results {
        format: FORMAT.to_owned(),
        spec: info.spec.to_owned(),
        program: info.program.to_owned(),
        suite: info.suite.to_owned(),
        content_hash: info.content_hash.to_owned(),
        cases,
        score: {
            let (earned, max) = suite
                .and_then(|s| super::report::tree_total(s, rows))
                .unwrap_or_else(|| {
                    (
                        categories.iter().filter_map(|c| c.earned).sum(),
                        categories.iter().filter_map(|c| c.marks).sum(),
                    )
                });
            Score {
                categories,
                earned,
                max,
            }
        },
        causes: cause_records(&crate::judge::group::groups(results)),
        warnings: cause_records(&crate::judge::group::warning_groups(results)),
    }
}

fn cause_records(groups: &[crate::judge::group::Group<'_>]) -> Vec<CauseRecord> {
    groups
        .iter()
        .map(|g| CauseRecord {
            cause: g.cause.to_string(),
            cases: g.cases.iter().map(|(name, _)| (*name).to_owned()).collect(),
            example: g.told(),
        })
        .collect()
}

fn record(r: &CaseResult) -> CaseRecord {
    let (verdict, error, differences) = match &r.verdict {
        Verdict::Passed => (VerdictKind::Passed, None, Vec::new()),
        Verdict::Failed(f) => (
            if r.verdict.struck().is_some() {
                VerdictKind::Environment
            } else {
                VerdictKind::Failed
            },
            None,
            f.differences.iter().map(difference).collect(),
        ),
        Verdict::Error(e) => (VerdictKind::Error, Some(e.clone()), Vec::new()),
    };
    CaseRecord {
        name: r.name.clone(),
        category: r.category.clone(),
        rules: r.rules.clone(),
        tags: r.tags.clone(),
        verdict,
        duration: r.time.as_secs_f64(),
        expected_status: r.expected_status,
        actual_status: r.actual.as_ref().map(ToString::to_string),
        error,
        environment: r.verdict.struck().map(str::to_owned),
        differences,
        warnings: r
            .warning
            .iter()
            .flat_map(|w| w.differences.iter().map(difference))
            .collect(),
        score: r.score,
    }
}

fn difference(m: &Difference) -> DifferenceRecord {
    let mut d = DifferenceRecord {
        part: String::new(),
        rule: None,
        request_number: None,
        request: None,
        path: None,
        line: None,
        column: None,
        byte: None,
        expected: None,
        actual: None,
        message: m.to_string(),
    };
    let part = match m {
        Difference::Ending { expected, actual } => {
            d.expected = Some(expected.clone());
            d.actual = Some(actual.clone());
            "status"
        }
        Difference::LeftProcess { .. } => "left-process",
        Difference::Bytes(b) => {
            d.line = Some(b.at.line);
            d.column = Some(b.at.column);
            d.byte = Some(b.at.byte);
            d.expected = Some(b.expected_rest.clone());
            d.actual = Some(b.actual_rest.clone());
            match &b.part {
                BytesPart::Stream(s) => s.name(),
                BytesPart::File(path) => {
                    d.path = Some(path.clone());
                    "file"
                }
            }
        }
        Difference::FileMissing { path } => {
            d.path = Some(path.clone());
            "file-missing"
        }
        Difference::FileUnexpected { path } => {
            d.path = Some(path.clone());
            "file-unexpected"
        }
        Difference::Exchange(x) => {
            d.rule = Some(x.rule.clone());
            d.request_number = Some(x.number);
            d.request = Some(x.request.clone());
            d.actual = Some(x.answer.clone());
            "exchange"
        }
        Difference::NotRun { .. } => "not-run",
        Difference::Memory { quoted, .. } => {
            d.actual = Some(quoted.join("\n"));
            "memory"
        }
        Difference::Reads { .. } => "reads",
    };
    part.clone_into(&mut d.part);
    d
}

/// Gradescope's autograder `results.json`: the run's score, one test per
/// marking category (its score, its maximum and an output with its
/// failures grouped by cause, as the report shows them), as documented at
/// <https://gradescope-autograders.readthedocs.io/en/latest/specs/>.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Gradescope {
    /// The total score.
    pub score: f64,
    /// Wall time of the run, seconds.
    pub execution_time: f64,
    /// Text shown above the tests.
    pub output: String,
    /// Who sees the tests' results.
    pub visibility: String,
    /// Who sees the autograder's stdout.
    pub stdout_visibility: String,
    /// How Gradescope shows the outputs: `text` (preformatted: diffs keep
    /// their columns).
    pub output_format: String,
    /// One test per category.
    pub tests: Vec<GradescopeTest>,
}

/// One Gradescope test: a marking category.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GradescopeTest {
    /// The category's title.
    pub name: String,
    /// Its number, for sorting.
    pub number: String,
    /// Marks earned.
    pub score: f64,
    /// Marks available.
    pub max_score: f64,
    /// `passed` or `failed`.
    pub status: String,
    /// The category's failures grouped by cause (bounded), and the cases
    /// that could not be run.
    pub output: String,
    /// Who sees the test.
    pub visibility: String,
    /// `text`, as [`Gradescope::output_format`].
    pub output_format: String,
}

/// Bytes of one Gradescope test's output at most: the causes past it are
/// counted, not shown.
pub const GRADESCOPE_TEST_MAX: usize = 4096;

/// `text` cut to `max` bytes at a line's end (a char's, for a single long
/// line), with what was left out counted.
pub fn bounded(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut cut = max;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    if let Some(nl) = text[..cut].rfind('\n') {
        cut = nl + 1;
    }
    format!(
        "{}[{} more bytes not shown here; the instructor has the whole report]\n",
        &text[..cut],
        text.len() - cut
    )
}

/// The text `pairs` hold for `name` (a category's title, its causes).
pub fn named<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, t)| t.as_str())
}

/// A course format's test name for a category: `Title (name)`, or the
/// name alone when the category has no title.
pub fn test_name(titles: &[(String, String)], name: &str) -> String {
    match named(titles, name).filter(|t| !t.is_empty()) {
        Some(t) => format!("{t} ({name})"),
        None => name.to_owned(),
    }
}

/// Why a run's marks are no mark to hand a course's marking system, if
/// they are not: a case of a marked category was not judged (the
/// marker's environment struck it, or the harness or the suite could not
/// run it). A mark over the other cases could be another program's (the
/// case not judged may be the one it fails), and a category with none
/// judged has no mark at all: such a run's mark is re-taken once the
/// machine is fixed, never published. One line: how many cases, and each
/// distinct reason.
pub fn not_gradable(doc: &Results) -> Option<String> {
    let struck: usize = doc
        .score
        .categories
        .iter()
        .filter(|row| row.marks.is_some())
        .map(|row| row.errors)
        .sum();
    if struck == 0 {
        return None;
    }
    let charged = |c: &&CaseRecord| {
        doc.score.categories.iter().any(|row| {
            row.marks.is_some() && row.errors > 0 && c.category.as_deref() == Some(&row.name)
        })
    };
    let mut reasons: Vec<String> = Vec::new();
    for case in doc
        .cases
        .iter()
        .filter(|c| !c.verdict.judged())
        .filter(charged)
    {
        let why = match (&case.environment, &case.error) {
            (Some(lack), _) => format!("environment: {lack}"),
            (None, Some(e)) => format!(
                "the harness or the suite could not run it: {}",
                e.lines().next().unwrap_or_default()
            ),
            (None, None) => "not run".to_owned(),
        };
        if !reasons.contains(&why) {
            reasons.push(why);
        }
    }
    Some(format!(
        "{struck} case(s) not judged ({}): not the program's failure, so no mark",
        reasons.join("; ")
    ))
}

/// The Gradescope document of a run: ambiguous cases carry no marks, so
/// only the suite's categories are tests. `causes` holds, per category,
/// its failures grouped by cause as the report renders them (labels,
/// worked example with its diff and hint); each test shows at most
/// [`GRADESCOPE_TEST_MAX`] bytes of it.
///
/// A run with a case not judged ([`not_gradable`]) has none: `Err`
/// says why. Gradescope honours no mark left blank (every test needs a
/// number, and the assignment's total counts a missing one as 0), and a
/// mark over the judged cases alone could be wrong; a missing
/// `results.json` is what it shows as "the autograder failed to execute
/// correctly", no score, for staff to re-run.
pub fn gradescope(
    doc: &Results,
    titles: &[(String, String)],
    causes: &[(String, String)],
    seconds: f64,
) -> Result<Gradescope, String> {
    if let Some(why) = not_gradable(doc) {
        return Err(why);
    }
    let mut tests = Vec::new();
    for (i, row) in doc.score.categories.iter().enumerate() {
        let Some(max) = row.marks else {
            continue;
        };
        let title = named(titles, &row.name).unwrap_or(row.name.as_str());
        let mut output = format!("{}: {}/{} cases passed\n", row.name, row.passed, row.total);
        for d in &row.deductions {
            let _ = writeln!(output, "{}", d.line());
        }
        if let Some((_, text)) = causes.iter().find(|(n, _)| *n == row.name) {
            output.push_str(&bounded(text, GRADESCOPE_TEST_MAX));
        }
        let score = row.earned.unwrap_or(0.0);
        tests.push(GradescopeTest {
            name: format!("{} ({})", title, row.name),
            number: (i + 1).to_string(),
            score,
            max_score: max,
            status: if row.passed == row.total {
                "passed".to_owned()
            } else {
                "failed".to_owned()
            },
            output,
            visibility: "visible".to_owned(),
            output_format: "text".to_owned(),
        });
    }
    Ok(Gradescope {
        // The run's total: the tests' sum, unless a grading tree (a
        // problem package's parent groups' graders) makes it; Gradescope
        // takes this over its tests' sum.
        score: doc.score.earned,
        execution_time: seconds,
        output: format!(
            "{} checked against suite {} (content {})",
            doc.program, doc.suite, doc.content_hash
        ),
        visibility: "visible".to_owned(),
        stdout_visibility: "hidden".to_owned(),
        output_format: "text".to_owned(),
        tests,
    })
}

#[cfg(test)]
mod tests;
