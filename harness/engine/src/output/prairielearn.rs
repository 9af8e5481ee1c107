//! PrairieLearn's external grader (`--prairielearn PATH`,
//! docs/prairielearn.md): the `results.json` its grader reads from
//! `/grade/results/`: `gradable`, `score` in 0..1 (the marks earned over
//! the marks available), `message`, `output` (the report's causes), and
//! one test per marking category with `name`, `points`, `max_points`,
//! `message` and `output`. Bounded under the 1 MB PrairieLearn takes.

use serde::{Deserialize, Serialize};

use crate::output::results::{Results, bounded};

/// Bytes of the whole `output` at most.
const OUTPUT_MAX: usize = 512 << 10;

/// Bytes of a test's `output` at most.
const TEST_OUTPUT_MAX: usize = 16 << 10;

/// The document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Grade {
    /// Whether the submission could be graded: false only when it could
    /// not be checked at all (it cannot be built or started).
    pub gradable: bool,
    /// The marks earned over the marks available, 0..1.
    pub score: f64,
    /// One line for the student.
    pub message: String,
    /// The report's failures by cause.
    pub output: String,
    /// One per marking category.
    pub tests: Vec<Test>,
}

/// A marking category.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Test {
    /// The category (its title and name).
    pub name: String,
    /// Marks earned.
    pub points: f64,
    /// Marks available.
    pub max_points: f64,
    /// Cases passed of those judged.
    pub message: String,
    /// The category's causes, each with its worked example.
    pub output: String,
}

/// The document for `doc`; `causes` are each category's causes as the
/// report renders them, `all` the whole report's. A run with a case not
/// judged ([`crate::output::results::not_gradable`]: the environment
/// struck it, or the harness could not run it) is not gradable:
/// PrairieLearn charges no attempt and shows why, rather than a score
/// the machine, not the program, lowered.
pub fn grade(
    doc: &Results,
    titles: &[(String, String)],
    causes: &[(String, String)],
    all: &str,
) -> Grade {
    if let Some(why) = crate::output::results::not_gradable(doc) {
        let mut grade = ungradable(&format!(
            "Not graded: {why}. Your course staff have been told by the grader's failure; \
             nothing was charged."
        ));
        grade.output = bounded(all, OUTPUT_MAX);
        return grade;
    }
    let mut tests = Vec::new();
    for row in &doc.score.categories {
        let Some(max) = row.marks else { continue };
        // Every case was judged here (else not gradable, above).
        let message = format!("{}/{} cases passed", row.passed, row.total);
        tests.push(Test {
            name: crate::output::results::test_name(titles, &row.name),
            points: row.earned.unwrap_or(0.0),
            max_points: max,
            message,
            output: crate::output::results::named(causes, &row.name)
                .map(|t| bounded(t, TEST_OUTPUT_MAX))
                .unwrap_or_default(),
        });
    }
    let score = if doc.score.max > 0.0 {
        (doc.score.earned / doc.score.max).clamp(0.0, 1.0)
    } else {
        0.0
    };
    Grade {
        gradable: true,
        score,
        message: format!(
            "{} of {} marks: {} checked against suite {} (content {})",
            trim(doc.score.earned),
            trim(doc.score.max),
            doc.program,
            doc.suite,
            doc.content_hash
        ),
        output: bounded(all, OUTPUT_MAX),
        tests,
    }
}

/// The document for a submission that could not be checked at all:
/// not gradable (PrairieLearn charges no attempt), `why` its message.
pub fn ungradable(why: &str) -> Grade {
    Grade {
        gradable: false,
        score: 0.0,
        message: bounded(why, TEST_OUTPUT_MAX),
        output: String::new(),
        tests: Vec::new(),
    }
}

fn trim(x: f64) -> String {
    let text = format!("{x:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ungradable_submission_scores_nothing_and_says_why() {
        let g = ungradable("cannot build: x.c:1: error");
        assert!(!g.gradable);
        assert!(g.score.abs() < f64::EPSILON);
        let json = serde_json::to_value(&g).expect("json");
        for key in ["gradable", "score", "message", "output", "tests"] {
            assert!(json.get(key).is_some(), "{key}");
        }
    }
}
