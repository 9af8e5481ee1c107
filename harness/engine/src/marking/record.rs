//! One submission's mark as `mark` keeps it (`mark.json` in its folder):
//! the row of `marks.csv`, the verdict of every case and the causes, and
//! the hash of what was marked, so that a re-run can skip it and `mark
//! merge` can rebuild the class view from the folders alone.

use serde::{Deserialize, Serialize};

use crate::output::report::DeductionRecord;
use crate::output::results::{CauseRecord, Results, VerdictKind};

use super::build::BuildStatus;
use super::intake::Student;

/// The value of [`SubmissionMark::format`].
pub const FORMAT: &str = "conformance-mark/4";

/// A submission's mark.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmissionMark {
    /// Always [`FORMAT`].
    pub format: String,
    /// The submission's id (its entry's name, `\xNN` for bytes that are
    /// not UTF-8).
    pub id: String,
    /// Its folder under `submissions/`.
    pub slug: String,
    /// The students the course export names.
    pub students: Vec<Student>,
    /// How its build ended.
    pub build: BuildStatus,
    /// Why it has no mark from the suite, when it has none.
    pub reason: Option<String>,
    /// Compiler warnings.
    pub warnings: usize,
    /// The hash of everything that decides the mark (its files, the build
    /// line, the suite, the model, the pack, the environment, the
    /// options, this harness).
    pub inputs: String,
    /// Each part of [`Self::inputs`] hashed apart, by its name to people
    /// (`the model`): what a re-mark names as changed.
    #[serde(default)]
    pub depends: std::collections::BTreeMap<String, String>,
    /// The environment failures its run met (`cannot import `tabulate`:
    /// not installed where the marks run`): its marks are not the
    /// program's and must not be published.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub environment: Vec<String>,
    /// Marks per category of `suite.yaml`, in its order; a category of
    /// [`Self::unjudged`] is not among them.
    pub categories: Vec<CategoryMark>,
    /// The categories none of whose cases was judged (the environment
    /// struck them all): no mark, and so no total, rather than 0.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unjudged: Vec<String>,
    /// Marks earned.
    pub total: f64,
    /// Marks available.
    pub max: f64,
    /// Cases passed, failed and not judged (the harness could not run
    /// them, or the environment struck them; ambiguous cases left out
    /// unless `--strict`).
    pub passed: usize,
    /// See [`Self::passed`].
    pub failed: usize,
    /// See [`Self::passed`].
    pub errors: usize,
    /// Every case's verdict, by name (ambiguous ones included, flagged).
    pub cases: Vec<CaseMark>,
    /// The failures by cause, the report's order.
    pub causes: Vec<CauseRecord>,
    /// Under `--memcheck …,warn`, the memory errors only warned about,
    /// by cause (kind and place): no marks lost by them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub memory_warnings: Vec<CauseRecord>,
    /// Wall time of its build and check, seconds.
    pub seconds: f64,
    /// The one-time deductions the score took, each rule's once.
    #[serde(default)]
    pub deductions: Vec<DeductionRecord>,
    /// The first line its program prints run without arguments (what
    /// tells a class marked against the wrong pack), when it built.
    #[serde(default)]
    pub usage: Option<String>,
}

/// Marks of one category.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CategoryMark {
    /// The category.
    pub name: String,
    /// Marks earned.
    pub earned: f64,
    /// Marks available.
    pub marks: f64,
}

/// One case's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseMark {
    /// The case.
    pub name: String,
    /// Its category.
    pub category: Option<String>,
    /// Whether it rests on an ambiguous ruling.
    pub ambiguous: bool,
    /// The rule IDs it cites.
    #[serde(default)]
    pub rules: Vec<String>,
    /// Its verdict.
    pub verdict: VerdictKind,
}

/// A category of the suite with the marks it is worth.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Category {
    /// Its name.
    pub name: String,
    /// Its title, if `suite.yaml` gives one.
    pub title: String,
    /// Marks.
    pub marks: f64,
}

impl SubmissionMark {
    /// The first cause, in the report's order, with its worked example's
    /// values whenever the example has them: a key that masks them (the
    /// key writes numbers as `#` and cuts text as `…` to group causes) is
    /// told as its example tells it; a key named by place and shape (no
    /// bytes in it) is followed by its example (`…; for example stdout:
    /// `32` where `32.0` was expected`), so a row names the bug and the
    /// values without opening the report.
    pub fn first_cause(&self) -> Option<String> {
        self.causes.first().map(|c| {
            let masked = c.cause.contains('#') || c.cause.contains('…');
            if c.example.is_empty() || c.example == c.cause {
                c.cause.clone()
            } else if masked {
                c.example.clone()
            } else {
                format!("{}; for example {}", c.cause, c.example)
            }
        })
    }

    /// Marks earned in `category`: `None` when none of its cases was
    /// judged (the environment struck them all).
    pub fn earned_in(&self, category: &str) -> Option<f64> {
        (!self.not_built_for_the_machine() && !self.unjudged.iter().any(|u| u == category)).then(
            || {
                self.categories
                    .iter()
                    .find(|x| x.name == category)
                    .map_or(0.0, |x| x.earned)
            },
        )
    }

    /// The total: `None` when a category had no case judged.
    pub fn judged_total(&self) -> Option<f64> {
        (self.unjudged.is_empty() && !self.not_built_for_the_machine()).then_some(self.total)
    }

    /// Whether it was not built for what the machine lacks (a compiler):
    /// no mark at all, so a gradebook reads none rather than 0, as for a
    /// `not marked` row.
    fn not_built_for_the_machine(&self) -> bool {
        self.build != BuildStatus::Ok && !self.environment.is_empty()
    }

    /// The mark of a submission the suite never ran on: every category at
    /// zero.
    pub fn unmarked(categories: &[Category]) -> Vec<CategoryMark> {
        categories
            .iter()
            .map(|c| CategoryMark {
                name: c.name.clone(),
                earned: 0.0,
                marks: c.marks,
            })
            .collect()
    }

    /// Fills the marks from a `--results` document.
    pub fn take_results(&mut self, results: &Results, strict: bool) {
        // Cases it had and judged none of: no mark, not 0.
        self.unjudged = results
            .score
            .categories
            .iter()
            .filter(|row| row.marks.is_some() && row.total == 0 && row.errors > 0)
            .map(|row| row.name.clone())
            .collect();
        self.categories = results
            .score
            .categories
            .iter()
            .filter(|row| !self.unjudged.contains(&row.name))
            .filter_map(|row| {
                Some(CategoryMark {
                    name: row.name.clone(),
                    earned: row.earned.unwrap_or(0.0),
                    marks: row.marks?,
                })
            })
            .collect();
        self.deductions = results
            .score
            .categories
            .iter()
            .flat_map(|row| row.deductions.iter().cloned())
            .collect();
        self.total = results.score.earned;
        self.max = results.score.max;
        // A case the environment struck is not judged, like one the
        // harness could not run: neither passed nor failed (its verdict
        // says so: `environment`).
        self.cases = results
            .cases
            .iter()
            .map(|c| CaseMark {
                name: c.name.clone(),
                category: c.category.clone(),
                ambiguous: c.tags.iter().any(|t| t == "ambiguous"),
                rules: c.rules.clone(),
                verdict: c.verdict,
            })
            .collect();
        let charged = self.cases.iter().filter(|c| strict || !c.ambiguous);
        let (mut passed, mut failed, mut errors) = (0, 0, 0);
        for c in charged {
            match c.verdict {
                VerdictKind::Passed => passed += 1,
                VerdictKind::Failed => failed += 1,
                VerdictKind::Environment | VerdictKind::Error => errors += 1,
            }
        }
        (self.passed, self.failed, self.errors) = (passed, failed, errors);
        self.causes.clone_from(&results.causes);
        self.environment = results
            .causes
            .iter()
            .filter_map(|c| crate::judge::environment::told(&c.cause))
            .map(str::to_owned)
            .collect();
        // A case the suite could not run (a checker that crashed, a model
        // run that failed) is no verdict on the program: the mark is
        // struck as an environment failure, never kept or published.
        self.environment.extend(
            results
                .cases
                .iter()
                .filter(|c| c.verdict == VerdictKind::Error)
                .filter_map(|c| c.error.as_deref())
                .map(|e| {
                    let first = e.lines().next().unwrap_or_default();
                    format!("a fault of the pack, not of the program: {first}")
                }),
        );
        self.environment.dedup();
        self.memory_warnings.clone_from(&results.warnings);
    }
}
