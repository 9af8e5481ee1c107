//! The case format: the serde types of one case file, of `suite.yaml` and of
//! `rules.yaml`, and their parsing with errors that name file, line and column.
//!
//! Where one value can come from several places, each place is its own key
//! (`stdout`, `stdout-file`, `stdout-base64`) rather than an untagged enum, so
//! that a mistake is reported against the exact key that holds it.
//!
//! One piece: these types are the published schema (`cases/schema.json`
//! is generated from them): a case, its suite and its rules are read
//! together and their keys refer to one another (`reads: off` on a rule
//! or a case), so they stay in the one file the schema is made from.

use std::collections::BTreeMap;
use std::fmt;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::exec::run::Mode;
use crate::model::matching::MatchSpec;

/// One case file, `cases/<category>/<name>.yaml`, as written.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
#[schemars(title = "conformance case")]
pub struct Case {
    /// What the case checks, one line.
    pub summary: String,
    /// A category of `suite.yaml`; must equal the name of the case's folder.
    pub category: String,
    /// The ruling IDs the case proves (`ARGS-1`, …).
    pub rules: Vec<String>,
    /// Free tags; `ambiguous` marks a case ignored unless `--include-ignored`.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Who may see the case's bytes: `public` (the default: its category's)
    /// or `secret` (judged and scored, but no student-facing output carries
    /// its input, expected or actual output, diff or reproduce line).
    #[serde(default)]
    pub visibility: Option<Visibility>,
    /// What the case weighs in its marking category (a positive number,
    /// default 1): a category's marks are shared by weight. Without it the
    /// case takes the largest `weight` of the rules it cites that have one.
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub weight: Option<f64>,
    /// The common mistake behind a failure, shown on failure.
    #[serde(default)]
    pub hint: Option<String>,
    /// How stdout is connected.
    #[serde(default)]
    pub mode: Mode,
    /// Seconds before the program is killed. Without it the limit comes
    /// from `reference-ms` (max(1 s, 20 × the reference's time)), and
    /// without that it is 10 s.
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub timeout: Option<f64>,
    /// The reference's wall time on this case when it was blessed, in
    /// milliseconds rounded up to a power of two (`bless` writes it).
    #[serde(default)]
    pub reference_ms: Option<u64>,
    /// How many stdin lines the model reads on this case, where a
    /// tolerance frees stdout and the count is judged instead
    /// (docs/matching.md): a number `bless` writes from several runs of
    /// the model, `varies` where those runs disagreed (`bless` says so),
    /// or `off`, written by the author: the count is not judged.
    #[serde(default)]
    pub reads: Option<CaseReads>,
    /// The model's trace of this case's stdout (which rule each span of
    /// it obeys, what it rejected), taken by `bless` so that `run` and
    /// `mark` name a failure by rule without running the model again:
    /// the sidecar holding it (`NAME.trace`), or `none` where the model
    /// writes no trace. Absent in a case blessed before traces were kept
    /// (the model then runs when a failure is named).
    #[serde(default)]
    pub trace: Option<String>,
    /// Bytes per output stream before the program is killed (default 16 MiB).
    #[serde(default)]
    pub output_cap: Option<u64>,
    /// Arguments after the program name.
    #[serde(default)]
    pub args: Vec<String>,
    /// Variables added to the cleared environment.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Standard input, inline.
    #[serde(default)]
    pub stdin: Option<String>,
    /// Standard input, from a sidecar file beside the case.
    #[serde(default)]
    pub stdin_file: Option<String>,
    /// Standard input, base64.
    #[serde(default)]
    pub stdin_base64: Option<String>,
    /// Files placed in the sandbox before the run.
    #[serde(default)]
    pub files: Vec<FileSpec>,
    /// Expected exit status (required to run; `--bless` fills it).
    #[serde(default)]
    #[schemars(range(min = 0, max = 255))]
    pub status: Option<u8>,
    /// Expected stdout, inline.
    #[serde(default)]
    pub stdout: Option<String>,
    /// Expected stdout, from a sidecar file beside the case.
    #[serde(default)]
    pub stdout_file: Option<String>,
    /// Expected stdout, base64.
    #[serde(default)]
    pub stdout_base64: Option<String>,
    /// Expected stderr, inline.
    #[serde(default)]
    pub stderr: Option<String>,
    /// Expected stderr, from a sidecar file beside the case.
    #[serde(default)]
    pub stderr_file: Option<String>,
    /// Expected stderr, base64.
    #[serde(default)]
    pub stderr_base64: Option<String>,
    /// Files that must exist after the run with exactly these bytes.
    #[serde(default)]
    pub output_files: Vec<FileSpec>,
    /// Files that must not exist after the run.
    #[serde(default)]
    pub absent_files: Vec<String>,
    /// How the outputs are judged where the rulings leave them free
    /// (docs/matching.md): overrides the cited rules' and the suite's.
    #[serde(default, rename = "match")]
    pub matching: Option<MatchSpec>,
    /// What the model does under each other reading of an ambiguous rule
    /// the case cites (`rules.yaml`'s `readings:`), by reading name:
    /// written by `--bless`; the case passes when the program matches the
    /// main expectation or any of these (docs/matching.md).
    #[serde(default)]
    pub readings: BTreeMap<String, ReadingSpec>,
    /// Pack-specific conversation data: a case holding it is not one run
    /// compared with expected bytes but a conversation the pack's driver
    /// holds with the program, checking each answer (`status` and the
    /// expected streams are then not used). Its content is the pack's to
    /// define (its cases' README documents it).
    #[serde(default)]
    pub script: Option<serde_json::Value>,
}

/// A file of the sandbox: its path and its bytes from exactly one source.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct FileSpec {
    /// Path relative to the sandbox (the program's working directory).
    pub path: String,
    /// The bytes, inline.
    #[serde(default)]
    pub text: Option<String>,
    /// The bytes, from a sidecar file beside the case.
    #[serde(default)]
    pub file: Option<String>,
    /// The bytes, base64.
    #[serde(default)]
    pub base64: Option<String>,
}

/// What the model does under one other reading of an ambiguous rule: its
/// exit status and streams (output files compare as the main expectation
/// says).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ReadingSpec {
    /// The exit status.
    #[serde(default)]
    pub status: Option<u8>,
    /// Stdout, inline.
    #[serde(default)]
    pub stdout: Option<String>,
    /// Stdout, base64 (bytes that are not UTF-8).
    #[serde(default)]
    pub stdout_base64: Option<String>,
    /// Stderr, inline.
    #[serde(default)]
    pub stderr: Option<String>,
    /// Stderr, base64.
    #[serde(default)]
    pub stderr_base64: Option<String>,
}

/// The tag that marks a case depending on an ambiguous ruling.
pub const AMBIGUOUS_TAG: &str = "ambiguous";

impl Case {
    /// Whether the case carries the `ambiguous` tag.
    pub fn is_ambiguous(&self) -> bool {
        self.tags.iter().any(|t| t == AMBIGUOUS_TAG)
    }
}

/// `suite.yaml`: the suite's identity and its marking categories.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Suite {
    /// Short name of the suite.
    pub name: String,
    /// Version of the suite, shown in the run's header.
    #[serde(default)]
    pub version: Option<String>,
    /// The specification the suite checks.
    #[serde(default)]
    pub spec: Option<String>,
    /// The marking categories, in report order.
    pub categories: Vec<Category>,
    /// The total by a tree of groups' graders (a problem package's
    /// parent groups over their subgroups) rather than the categories'
    /// sum.
    #[serde(default)]
    pub grading: Option<crate::model::grader::Grading>,
    /// The rulings call the exit status ambiguous (the text never gives
    /// one): a case not tagged `ambiguous` then accepts any exit status (a
    /// signal, a timeout or the output cap still fail it); an ambiguous
    /// case checks the status the reference gives.
    #[serde(default)]
    pub status_ambiguous: bool,
    /// What every prompt of the program ends with (default `> `): an
    /// interactive case types each stdin line once stdout showed one more,
    /// and a failure names the stdin line by counting them.
    #[serde(default)]
    pub prompt: Option<String>,
    /// The suite's default `match:` (docs/matching.md), for every case
    /// whose rules and own declaration say nothing.
    #[serde(default, rename = "match")]
    pub matching: Option<MatchSpec>,
    /// How Gradescope shows a test (a marking category) whose cases are
    /// all secret: `hidden` (the default: never shown to the student) or
    /// `after_due_date` (shown once the due date is past).
    #[serde(default)]
    pub secret_tests: SecretTests,
    /// The `match:` of every rule of `rules.yaml` declaring one, by rule
    /// ID: attached when the run loads the suite, never written here.
    #[serde(skip)]
    #[schemars(skip)]
    pub rule_matching: BTreeMap<String, MatchSpec>,
    /// The `readings:` of every rule of `rules.yaml` naming some, by rule
    /// ID: attached when the run loads the suite, never written here.
    #[serde(skip)]
    #[schemars(skip)]
    pub rule_readings: BTreeMap<String, Readings>,
    /// The rules of `rules.yaml` declaring `reads: off`: attached when the
    /// run loads the suite, never written here.
    #[serde(skip)]
    #[schemars(skip)]
    pub reads_off: std::collections::BTreeSet<String>,
}

/// An ambiguous rule's other readings: each reading's name and the
/// environment variables that make the model follow it.
pub type Readings = BTreeMap<String, BTreeMap<String, String>>;

/// One marking category of `suite.yaml`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Category {
    /// The category's name, also its folder's name.
    pub name: String,
    /// Marks the category is worth.
    pub marks: f64,
    /// A human title.
    #[serde(default)]
    pub title: Option<String>,
    /// Whether the category's cases are shown to students (`public`, the
    /// default) or kept secret; a case's own `visibility` wins.
    #[serde(default)]
    pub visibility: Visibility,
    /// How its marks follow from its cases (a problem package's test
    /// group: its grader's rules); without one, shared by weight.
    #[serde(default)]
    pub grader: Option<crate::model::grader::Grader>,
}

/// Who may see a case's bytes (docs/folder-packs.md, "Secret cases").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Visibility {
    /// Everyone: the student's report shows the case whole.
    #[default]
    Public,
    /// The marker only: a student-facing output names the case's category
    /// and rules and counts it, never its bytes.
    Secret,
}

/// How Gradescope shows a test of secret cases only (`secret-tests`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SecretTests {
    /// Never shown to the student.
    #[default]
    Hidden,
    /// Shown once the assignment's due date is past.
    AfterDueDate,
}

impl Visibility {
    /// A case's visibility: its own if it states one, else its category's.
    pub fn of_case(case: Option<Visibility>, category: Option<&Category>) -> Visibility {
        case.or_else(|| category.map(|c| c.visibility))
            .unwrap_or_default()
    }
}

/// `rules.yaml`: every rule ID of the rulings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The rules in document order.
    pub rules: Vec<Rule>,
}

/// One rule of `rules.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// The rule ID (`ARGS-1`).
    pub id: String,
    /// A one-line summary.
    pub summary: String,
    /// `no`, `part` or `whole`.
    pub ambiguous: Ambiguity,
    /// How the outputs of every case citing the rule are judged, and
    /// with spans the bytes the rule produced (docs/matching.md).
    #[serde(default, rename = "match")]
    pub matching: Option<MatchSpec>,
    /// What each case citing the rule weighs in its category (a positive
    /// number; a case's own `weight` wins, and a case citing several
    /// weighted rules takes the largest).
    #[serde(default)]
    pub weight: Option<f64>,
    /// For a rule marked ambiguous, its other accepted readings: each
    /// name with the environment variables the model reads to follow it
    /// (`lenient: {CELSIUS_READING: lenient}`); the model's plain run is
    /// the reading the rulings chose.
    #[serde(default)]
    pub readings: Readings,
    /// `off`: the stdin lines a program reads are not judged on any case
    /// citing the rule (docs/matching.md).
    #[serde(default)]
    pub reads: Option<ReadsOff>,
}

/// A case's `reads:`: the model's blessed count, or why none is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum CaseReads {
    /// The model reads this many lines on every run (`bless` wrote it).
    Count(u64),
    /// Not judged: `off` (the author's) or `varies` (`bless`'s).
    Not(ReadsNot),
}

impl CaseReads {
    /// Whether the author turned read counting off.
    pub fn is_off(self) -> bool {
        self == Self::Not(ReadsNot::Off)
    }
}

/// Why a case's read count is not judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ReadsNot {
    /// The author turned read counting off.
    Off,
    /// The model's count differed between the runs of `bless`: it stays
    /// on later blesses until the author deletes it.
    Varies,
    /// The model's count could not be taken with certainty (a run not
    /// seen waiting for a line, or one that did not end as the first):
    /// the machine's, so the next bless counts again.
    Uncertain,
}

/// A rule's `reads: off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReadsOff {
    /// Read counting is off for every case citing the rule.
    Off,
}

/// How much of a rule is marked ambiguous in the rulings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ambiguity {
    /// Not at all.
    No,
    /// In part.
    Part,
    /// Wholly.
    Whole,
}

impl fmt::Display for Ambiguity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ambiguity::No => "no",
            Ambiguity::Part => "part",
            Ambiguity::Whole => "whole",
        })
    }
}

/// A YAML file that does not parse as its type.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{file}{}: {message}", location.map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default())]
pub struct ParseError {
    /// The file, as shown to people.
    pub file: String,
    /// 1-based line and column, when known.
    pub location: Option<(usize, usize)>,
    /// What was wrong.
    pub message: String,
}

/// Parses YAML bytes as `T`, naming `file` in the error.
pub fn parse<T: serde::de::DeserializeOwned>(file: &str, bytes: &[u8]) -> Result<T, ParseError> {
    yaml_serde::from_slice(bytes).map_err(|e| {
        let location = e.location().map(|l| (l.line(), l.column()));
        let mut message = e.to_string();
        // yaml_serde appends " at line L column C": the location is already
        // in front, in the file:line:col form editors jump to.
        if let Some(at) = message.find(" at line ") {
            message.truncate(at);
        }
        ParseError {
            file: file.to_owned(),
            location,
            message,
        }
    })
}

/// The JSON Schema of the case format, pretty-printed with a final newline.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(Case);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_key_names_line_and_column() {
        let text = b"summary: s\ncategory: c\nrules: []\nstatuss: 1\n";
        let err = parse::<Case>("x.yaml", text).unwrap_err();
        assert_eq!(err.location, Some((4, 1)), "{err}");
        let shown = err.to_string();
        assert!(shown.starts_with("x.yaml:4:1: "), "{shown}");
        assert!(shown.contains("statuss"), "{shown}");
    }

    #[test]
    fn wrong_type_names_the_key() {
        let text = b"summary: s\ncategory: c\nrules: []\nstatus: many\n";
        let err = parse::<Case>("x.yaml", text).unwrap_err();
        assert!(err.to_string().contains("status"), "{err}");
    }

    #[test]
    fn modes_parse() {
        let case: Case = parse(
            "x",
            b"summary: s\ncategory: c\nrules: []\nmode: stdout-full\n",
        )
        .unwrap();
        assert_eq!(case.mode, Mode::StdoutFull);
        assert!(parse::<Case>("x", b"summary: s\ncategory: c\nrules: []\nmode: tty\n").is_err());
    }
}
