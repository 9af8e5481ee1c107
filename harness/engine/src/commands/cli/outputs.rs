//! The machine outputs of a run: the `--results` JSON document and
//! Gradescope's `results.json` (`--gradescope`); `--github` and
//! `--prairielearn` are written from here too (`course_outputs`).

use std::path::Path;
use std::time::Instant;

use crate::bytes::visible;
use crate::judge::verdict::CaseResult;
use crate::model::schema::Suite;
use crate::output::report;
use crate::output::reproduce;
use crate::output::results::RunInfo;

use super::args::Cli;

/// What the machine outputs say of the run.
pub(super) fn run_info<'a>(
    pack: &dyn crate::packs::pack::Pack,
    program: &'a str,
    suite: &'a str,
    content_hash: &'a str,
) -> RunInfo<'a> {
    RunInfo {
        spec: pack.name(),
        program,
        suite,
        content_hash,
    }
}

/// Writes `--results` and `--gradescope`, when asked for.
pub(super) fn write_machine_outputs(
    cli: &Cli,
    first_suite: Option<&Suite>,
    info: &RunInfo<'_>,
    results: &[CaseResult],
    started: Instant,
) -> Result<(), String> {
    // `--github`, `--prairielearn`: the places courses mark.
    super::course_outputs::write(cli, first_suite, info, results, || category_causes(results))?;
    if cli.results.is_none() && cli.gradescope.is_none() {
        return Ok(());
    }
    let rows = first_suite
        .map(|suite| report::score(suite, results, cli.strict))
        .unwrap_or_default();
    let doc = crate::output::results::build(info, results, &rows, first_suite);
    let write = |path: &Path, text: String| {
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    if let Some(path) = &cli.results {
        write(
            path,
            serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n",
        )?;
    }
    if let Some(path) = &cli.gradescope {
        let titles = super::course_outputs::category_titles(first_suite);
        let causes = category_causes(results);
        let grade = crate::output::results::gradescope(
            &doc,
            &titles,
            &causes,
            started.elapsed().as_secs_f64(),
        );
        let mut grade = match grade {
            Ok(grade) => grade,
            Err(why) => return no_gradescope_mark(path, &why),
        };
        // A test of secret cases only is not shown to the student.
        let secret = crate::output::secret::secret_categories(results);
        let word = match first_suite.map(|s| s.secret_tests).unwrap_or_default() {
            crate::model::schema::SecretTests::Hidden => "hidden",
            crate::model::schema::SecretTests::AfterDueDate => "after_due_date",
        };
        for t in &mut grade.tests {
            if secret.iter().any(|c| t.name.ends_with(&format!("({c})"))) {
                word.clone_into(&mut t.visibility);
            }
        }
        write(
            path,
            serde_json::to_string_pretty(&grade).unwrap_or_default() + "\n",
        )?;
    }
    Ok(())
}

/// A run with a case not judged gets no Gradescope mark: no file at
/// `path` (an earlier run's removed, so that no stale mark is uploaded),
/// which Gradescope shows as an autograder failure with no score, and
/// why on stderr (the autograder's stdout and stderr are the staff's).
fn no_gradescope_mark(path: &Path, why: &str) -> Result<(), String> {
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("cannot remove {}: {e}", path.display())),
    }
    eprintln!(
        "--gradescope: no {} written: {why}. Gradescope shows the autograder failed (no \
         score, nothing charged); fix what failed (the machine, the suite) and re-run the \
         autograder (docs/staff.md, \"Gradescope autograder\")",
        path.display()
    );
    Ok(())
}

/// `--marker-copy DIR`: the run's `results.json` and its failures by
/// cause (`report.txt`) with secret cases whole, for the marker alone.
pub(super) fn write_marker_copy(
    cli: &Cli,
    first_suite: Option<&Suite>,
    info: &RunInfo<'_>,
    results: &[CaseResult],
) -> Result<(), String> {
    let Some(dir) = &cli.marker_copy else {
        return Ok(());
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    let rows = first_suite
        .map(|suite| report::score(suite, results, cli.strict))
        .unwrap_or_default();
    let doc = crate::output::results::build(info, results, &rows, first_suite);
    let plain = visible::Style { colour: false };
    let report = crate::judge::group::render(results, plain)
        + &crate::judge::group::render_warnings(results, plain, true);
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    write(
        "results.json",
        serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n",
    )?;
    write("report.txt", report.trim_start_matches('\n').to_owned())
}

/// Each category's failures grouped by cause, then its memory warnings,
/// as the report renders them (without colour, and no kit named as the
/// student's): a Gradescope test's output.
fn category_causes(results: &[CaseResult]) -> Vec<(String, String)> {
    let mut categories: Vec<&str> = results
        .iter()
        .filter_map(|r| r.category.as_deref())
        .collect();
    categories.sort_unstable();
    categories.dedup();
    categories
        .into_iter()
        .map(|name| {
            let mine: Vec<CaseResult> = results
                .iter()
                .filter(|r| r.category.as_deref() == Some(name))
                .cloned()
                .collect();
            let plain = visible::Style { colour: false };
            let text = crate::judge::group::render(&mine, plain)
                + &crate::judge::group::render_warnings(&mine, plain, true)
                + &crate::output::secret::note(&mine);
            // The student on Gradescope has neither report.txt nor its kits.
            let text = reproduce::for_gradescope(&text);
            (name.to_owned(), text.trim_start_matches('\n').to_owned())
        })
        .collect()
}

/// Gradescope's `results.json` for a run that could not check the
/// program at all (it cannot be built or started): score 0, `why` as the
/// output a student sees.
pub(super) fn gradescope_unrun(path: &Path, why: &str) -> Result<(), String> {
    let grade = serde_json::json!({
        "score": 0.0,
        "output": crate::output::results::bounded(why, crate::output::results::GRADESCOPE_TEST_MAX),
        "visibility": "visible",
        "stdout_visibility": "hidden",
            "output_format": "text",
        "tests": [],
    });
    std::fs::write(
        path,
        serde_json::to_string_pretty(&grade).unwrap_or_default() + "\n",
    )
    .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
