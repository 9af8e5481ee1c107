//! The outputs for the places courses already mark, written after a
//! run: GitHub Classroom and Actions (`--github`, or chosen by
//! `GITHUB_ACTIONS=true`) and PrairieLearn (`--prairielearn PATH`), from
//! the same score as `--score`, `--results` and `--gradescope`.

use std::io::Write as _;
use std::path::Path;

use crate::bytes::visible;
use crate::judge::verdict::CaseResult;
use crate::model::schema::Suite;
use crate::output::results::RunInfo;
use crate::output::{github, prairielearn, report};

use super::args::Cli;

/// Whether this run writes GitHub's outputs: asked for, or chosen by
/// the environment (never in the harnesses `mark` starts).
pub(super) fn github_wanted(cli: &Cli, marking: bool) -> bool {
    cli.github || github::chosen_by_environment(marking)
}

/// Writes `--github`'s and `--prairielearn`'s outputs when wanted
/// (`category_causes`: each category's causes as the report renders
/// them, asked for only when PrairieLearn's document is written). The
/// annotations go to stdout in the report's own format and to stderr in
/// a machine format (`--format json` stays parseable).
pub(super) fn write(
    cli: &Cli,
    first_suite: Option<&Suite>,
    info: &RunInfo<'_>,
    results: &[CaseResult],
    category_causes: impl FnOnce() -> Vec<(String, String)>,
) -> Result<(), String> {
    // `mark`'s checks are told how to name the program (`--reproduce-as`).
    let github = github_wanted(cli, cli.reproduce_as.is_some());
    // As the runner decides where the report goes.
    let chatty =
        !(cli.test.list || matches!(cli.test.format, Some(libtest_mimic::FormatSetting::Json)));
    if !github && cli.prairielearn.is_none() {
        return Ok(());
    }
    let rows = first_suite
        .map(|suite| report::score(suite, results, cli.strict))
        .unwrap_or_default();
    let doc = crate::output::results::build(info, results, &rows, first_suite);
    let titles = category_titles(first_suite);
    if github {
        let classroom = github::classroom(&doc, results, &titles);
        append_to("GITHUB_OUTPUT", &github::output_line(&classroom))?;
        append_to("GITHUB_STEP_SUMMARY", &github::summary(&doc, results))?;
        let notes = github::annotations(results);
        if chatty {
            print!("{notes}");
            let _ = std::io::stdout().flush();
        } else {
            eprint!("{notes}");
        }
    }
    if let Some(path) = &cli.prairielearn {
        let causes = category_causes();
        let all = crate::judge::group::render(results, visible::Style { colour: false });
        let all = crate::output::reproduce::for_gradescope(&all);
        let grade = prairielearn::grade(&doc, &titles, &causes, all.trim_start_matches('\n'));
        write_json(path, &grade)?;
    }
    Ok(())
}

/// PrairieLearn's document for a program that could not be checked at
/// all (not gradable: no attempt charged), when asked for.
pub(super) fn unrunnable(cli: &Cli, why: &str) -> Result<(), String> {
    match &cli.prairielearn {
        Some(path) => write_json(path, &prairielearn::ungradable(why)),
        None => Ok(()),
    }
}

fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        // PrairieLearn does not make `/grade/results` itself.
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    }
    std::fs::write(
        path,
        serde_json::to_string_pretty(value).unwrap_or_default() + "\n",
    )
    .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Appends `text` to the file the variable `var` names (GitHub's
/// environment files); a variable unset is an error naming it, since
/// `--github` was asked for.
fn append_to(var: &str, text: &str) -> Result<(), String> {
    let Some(path) = std::env::var_os(var).filter(|p| !p.is_empty()) else {
        return Err(format!(
            "--github: ${var} is not set (GitHub Actions sets it for every step)"
        ));
    };
    let path = Path::new(&path);
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| format!("--github: cannot write {} (${var}): {e}", path.display()))
}

/// Each category's name and title (empty when it has none), in the
/// suite's order: what every course's format heads a test with.
pub(super) fn category_titles(first_suite: Option<&Suite>) -> Vec<(String, String)> {
    first_suite
        .map(|s| {
            s.categories
                .iter()
                .map(|c| (c.name.clone(), c.title.clone().unwrap_or_default()))
                .collect()
        })
        .unwrap_or_default()
}
