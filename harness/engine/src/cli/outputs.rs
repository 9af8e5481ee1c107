//! The machine outputs of a run: the `--results` JSON document and
//! Gradescope's `results.json` (`--gradescope`).

use std::path::Path;
use std::time::Instant;

use crate::report::{self, CaseResult};
use crate::results::RunInfo;
use crate::schema::Suite;

use super::args::Cli;

/// Writes `--results` and `--gradescope`, when asked for.
pub(super) fn write_machine_outputs(
    cli: &Cli,
    first_suite: Option<&Suite>,
    info: &RunInfo<'_>,
    results: &[CaseResult],
    started: Instant,
) -> Result<(), String> {
    if cli.results.is_none() && cli.gradescope.is_none() {
        return Ok(());
    }
    let rows = first_suite
        .map(|suite| report::score(suite, results, cli.strict))
        .unwrap_or_default();
    let doc = crate::results::build(info, results, &rows);
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
        let titles: Vec<(String, String)> = first_suite
            .map(|s| {
                s.categories
                    .iter()
                    .map(|c| (c.name.clone(), c.title.clone().unwrap_or_default()))
                    .collect()
            })
            .unwrap_or_default();
        let grade = crate::results::gradescope(&doc, &titles, started.elapsed().as_secs_f64());
        write(
            path,
            serde_json::to_string_pretty(&grade).unwrap_or_default() + "\n",
        )?;
    }
    Ok(())
}
