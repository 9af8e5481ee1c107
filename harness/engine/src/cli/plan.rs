//! Which cases a run selects: `--cases` (or the built-in suite) gathered
//! and parsed, `--rule` / `--category` and the name filter applied, and
//! the trial list with the suites the cases belong to.

use std::path::PathBuf;
use std::sync::Arc;

use libtest_mimic::{Arguments, Trial};

use crate::case;
use crate::pack::Pack;
use crate::schema::{Case, Suite};
pub(super) use crate::suite::Selection;
use crate::suite::{self, CaseFile, Root};

use super::Defaults;
use super::args::Cli;
use super::runner::Context;
use super::trials::trial;

/// What `--cases` names; without it the pack's built-in suite (or, to
/// bless, the folder it was built from).
pub(super) fn selections(cli: &Cli, pack: &dyn Pack) -> Result<Vec<Selection>, String> {
    if cli.cases.is_empty() {
        if !cli.bless {
            return Ok(vec![Selection::Tree(Root::Embedded(pack.suite()))]);
        }
        let dir = PathBuf::from(pack.suite().source_dir);
        if !dir.is_dir() {
            return Err("--bless needs --cases: the suite's source folder is gone".to_owned());
        }
        return Ok(vec![Selection::Tree(Root::Dir(dir))]);
    }
    cli.cases
        .iter()
        .map(|path| suite::select(path).map_err(|e| format!("--cases {}: {e}", path.display())))
        .collect()
}

/// A name filter (`--exact NAME`, a substring) that selects no case is a
/// usage error: a mistyped name must not pass as an empty, successful run.
pub(super) fn unmatched_filter(args: &Arguments, trials: &[Trial]) -> Option<String> {
    let filter = args.filter.as_deref()?;
    let any = trials.iter().any(|t| !args.is_filtered_out(t));
    (!any).then(|| {
        format!(
            "no case matches {}`{filter}` (`--list` shows every case's name)",
            if args.exact { "exactly " } else { "" }
        )
    })
}

/// The trials of a run and what the report needs to know about them.
pub(super) struct Plan {
    pub(super) trials: Vec<Trial>,
    pub(super) roots: Vec<Root>,
    pub(super) suites: Vec<(Root, Result<Suite, String>)>,
    pub(super) ambiguous_ignored: usize,
}

pub(super) fn plan(
    cli: &Cli,
    pack: &dyn Pack,
    defaults: Defaults,
    selections: &[Selection],
    ctx: &Arc<Context>,
) -> Result<Plan, String> {
    let mut plan = Plan {
        trials: Vec::new(),
        roots: Vec::new(),
        suites: Vec::new(),
        ambiguous_ignored: 0,
    };
    let run_ambiguous = defaults.include_ambiguous || cli.strict || cli.bless;
    for selection in selections {
        let Some((root, cases)) = gather(selection)? else {
            continue;
        };
        // A mistyped folder must not pass as an empty, successful run.
        if cases.is_empty()
            && let Root::Dir(d) = &root
        {
            return Err(format!("no cases in {}", d.display()));
        }
        if !plan.roots.contains(&root) {
            plan.roots.push(root.clone());
        }
        let suite = if let Some((_, s)) = plan.suites.iter().find(|(r, _)| *r == root) {
            s.clone()
        } else {
            let s = suite::suite_for(&root, pack.suite()).map_err(|e| e.to_string());
            plan.suites.push((root.clone(), s.clone()));
            s
        };
        for (file, parsed) in cases {
            if !selected(cli, &file, parsed.as_ref().ok()) {
                continue;
            }
            let ambiguous = parsed.as_ref().is_ok_and(Case::is_ambiguous);
            if ambiguous && !run_ambiguous && !cli.test.include_ignored {
                plan.ambiguous_ignored += 1;
            }
            plan.trials.push(
                trial(Arc::clone(ctx), file, parsed, suite.clone())
                    .with_ignored_flag(ambiguous && !run_ambiguous),
            );
        }
    }
    Ok(plan)
}

/// The first suite of a run: the one its score is counted in.
pub(super) fn first_suite(plan: &Plan) -> Option<&Suite> {
    plan.suites.iter().find_map(|(_, s)| s.as_ref().ok())
}

pub(super) type Gathered = (Root, Vec<(CaseFile, Result<Case, String>)>);

/// The cases of one `--cases` selection, parsed (a file that does not parse
/// is still a case: it fails alone). `Err` is a set-up error.
pub(super) fn gather(selection: &Selection) -> Result<Option<Gathered>, String> {
    let parse_all = |files: Vec<CaseFile>| {
        files
            .into_iter()
            .map(|f| {
                let parsed = case::load(&f).map_err(|e| e.to_string());
                (f, parsed)
            })
            .collect::<Vec<_>>()
    };
    Ok(Some(match selection {
        Selection::Tree(root) => {
            let rels = root
                .case_files()
                .map_err(|e| format!("cannot list cases: {e}"))?;
            let files = rels
                .into_iter()
                .map(|rel| CaseFile {
                    root: root.clone(),
                    rel,
                })
                .collect();
            (root.clone(), parse_all(files))
        }
        Selection::Files(files) => match files.first() {
            Some(f) => (f.root.clone(), parse_all(files.clone())),
            None => return Ok(None),
        },
    }))
}

/// Applies `--rule` and `--category`; a case that does not parse is judged
/// by its folder.
pub(super) fn selected(cli: &Cli, file: &CaseFile, case: Option<&Case>) -> bool {
    let category = case.map(|c| c.category.as_str()).or_else(|| file.folder());
    let category_ok = cli.categories.is_empty()
        || category.is_some_and(|c| cli.categories.iter().any(|x| x == c));
    let rule_ok =
        cli.rules.is_empty() || case.is_some_and(|c| c.rules.iter().any(|r| cli.rules.contains(r)));
    category_ok && rule_ok
}
