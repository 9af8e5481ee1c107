//! Which cases a run selects: `--cases` (or the built-in suite) gathered
//! and parsed, `--rule` / `--category` and the name filter applied, and
//! the trial list with the suites the cases belong to.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use libtest_mimic::Trial;

use crate::model::case;
use crate::model::schema::{Case, Suite};
pub(super) use crate::model::suite::Selection;
use crate::model::suite::{self, CaseFile, Root};
use crate::model::weight::{self, Weights};
use crate::packs::pack::Pack;

use super::app::Defaults;
use super::args::Cli;
use super::context::Context;
use super::trials::{Job, Setting, job};

/// What `--cases` names; without it the pack's built-in suite (or, to
/// bless, the folder it was built from).
pub(super) fn selections(cli: &Cli, pack: &dyn Pack) -> Result<Vec<Selection>, String> {
    if cli.cases.is_empty() {
        if !cli.bless {
            return Ok(vec![Selection::Tree(Root::Embedded(pack.suite()))]);
        }
        // A folder pack's suite was named on the command line: that
        // folder is the one to rewrite.
        if let Some(dir) = pack.suite_folder() {
            return Ok(vec![Selection::Tree(Root::Dir(dir.to_owned()))]);
        }
        let dir = PathBuf::from(pack.suite().source_dir);
        let dir = dir.canonicalize().unwrap_or(dir);
        if !dir.is_dir() {
            return Err("--bless needs --cases: the suite's source folder is gone".to_owned());
        }
        if !inside_source_tree(&dir) {
            return Err(format!(
                "bless without --cases rewrites {}, the suite this binary was built from; run it \
                 from inside that source tree, or name the folder to rewrite with --cases",
                dir.display()
            ));
        }
        return Ok(vec![Selection::Tree(Root::Dir(dir))]);
    }
    cli.cases
        .iter()
        .map(|path| suite::select(path).map_err(|e| format!("--cases {}: {e}", path.display())))
        .collect()
}

/// Whether the current folder is inside the source tree `suite_dir`
/// (`…/cases/NAME`) belongs to: a binary installed and run elsewhere must
/// not write into the tree it happened to be built from.
fn inside_source_tree(suite_dir: &Path) -> bool {
    let (Ok(here), Ok(suite)) = (std::env::current_dir(), suite_dir.canonicalize()) else {
        return false;
    };
    let here = here.canonicalize().unwrap_or(here);
    suite
        .parent()
        .and_then(Path::parent)
        .is_some_and(|tree| here.starts_with(tree))
}

/// A selection that leaves no case to run is a usage error: a mistyped
/// name, category or rule must not pass as an empty, successful run.
/// `--category` and `--rule` are checked name by name against what the
/// selected suites hold; the name filter, `--skip` and `--ignored` by
/// whether any trial survives them.
pub(super) fn unmatched_selection(cli: &Cli, plan: &Plan) -> Option<String> {
    let unknown = |asked: &[String], seen: &BTreeSet<String>, what: &str| {
        let missing: Vec<&str> = asked
            .iter()
            .filter(|a| !seen.contains(a.as_str()))
            .map(String::as_str)
            .collect();
        (!missing.is_empty()).then(|| {
            format!(
                "no case of the selected suite has {what} {} (known: {})",
                missing.join(", "),
                seen.iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    };
    if let Some(e) = unknown(&cli.categories, &plan.seen_categories, "category") {
        return Some(e);
    }
    if let Some(e) = unknown(&cli.rules, &plan.seen_rules, "rule") {
        return Some(e);
    }
    let args = &cli.test;
    // nextest lists with `--ignored --list` to learn which tests are
    // ignored: an empty answer there is an answer, not a mistake.
    if args.list && cli.libtest.filters.is_empty() && args.skip.is_empty() {
        return None;
    }
    let survivors: Vec<Trial> = plan
        .trials
        .iter()
        .map(Job::probe)
        .filter(|t| !args.is_filtered_out(t))
        .collect();
    if survivors.is_empty() {
        let exactly = if args.exact { "exactly " } else { "" };
        return Some(match cli.libtest.filters.as_slice() {
            [filter] => {
                format!("no case matches {exactly}`{filter}` (`--list` shows every case's name)")
            }
            [_, _, ..] => format!(
                "no case matches {exactly}any of {} (`--list` shows every case's name)",
                cli.libtest
                    .filters
                    .iter()
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            [] if plan.trials.is_empty() => {
                "the selection (--category, --rule) leaves no case to run".to_owned()
            }
            [] if args.ignored => {
                "--ignored: none of the selected cases is ambiguous, so none would run".to_owned()
            }
            [] => "--skip leaves no case to run (`--list` shows every case's name)".to_owned(),
        });
    }
    if args.list {
        return None;
    }
    let runs = |t: &Trial| {
        if t.has_ignored_flag() {
            args.ignored || args.include_ignored
        } else {
            !args.ignored
        }
    };
    if !survivors.iter().any(runs) {
        return Some(if args.ignored {
            "--ignored: none of the selected cases is ambiguous, so none would run".to_owned()
        } else {
            "every selected case is ambiguous (ignored by default): --include-ignored runs them"
                .to_owned()
        });
    }
    None
}

/// The trials of a run and what the report needs to know about them.
pub(super) struct Plan {
    pub(super) trials: Vec<Job>,
    pub(super) roots: Vec<Root>,
    pub(super) suites: Vec<(Root, Result<Suite, String>)>,
    pub(super) ambiguous_ignored: usize,
    /// Cases left out by several name filters (one filter is libtest's).
    pub(super) filtered_by_name: usize,
    /// Every category and rule the gathered cases name, selected or not:
    /// what an unmatched `--category` or `--rule` is told exists.
    pub(super) seen_categories: BTreeSet<String>,
    pub(super) seen_rules: BTreeSet<String>,
    /// Selected cases with a `match:` of their own (the header says so).
    pub(super) cases_with_match: usize,
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
        filtered_by_name: 0,
        seen_categories: BTreeSet::new(),
        seen_rules: BTreeSet::new(),
        cases_with_match: 0,
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
            let s = suite::suite_with_rules(&root, pack.suite()).map_err(|e| e.to_string());
            plan.suites.push((root.clone(), s.clone()));
            s
        };
        let weights = weights_of(&root, pack)?;
        for (file, parsed) in cases {
            match parsed.as_ref() {
                Ok(c) => {
                    plan.seen_categories.insert(c.category.clone());
                    plan.seen_rules.extend(c.rules.iter().cloned());
                }
                Err(_) => {
                    if let Some(folder) = file.folder() {
                        plan.seen_categories.insert(folder.to_owned());
                    }
                }
            }
            if !selected(cli, &file, parsed.as_ref().ok()) {
                continue;
            }
            if parsed.as_ref().is_ok_and(|c| c.matching.is_some()) {
                plan.cases_with_match += 1;
            }
            // An ambiguous case with the rule's other readings blessed in is
            // judged against any reading and scored, not set aside.
            let ambiguous = parsed
                .as_ref()
                .is_ok_and(|c| c.is_ambiguous() && c.readings.is_empty());
            if ambiguous && !run_ambiguous && !cli.test.include_ignored && !cli.test.ignored {
                plan.ambiguous_ignored += 1;
            }
            let weight = parsed
                .as_ref()
                .map_or(Ok(weight::DEFAULT), |c| weights.of_case(&file.display(), c));
            plan.trials.push(job(
                Arc::clone(ctx),
                file,
                parsed,
                suite.clone(),
                Setting {
                    ignored: ambiguous && !run_ambiguous,
                    weight,
                },
            ));
        }
    }
    let before = plan.trials.len();
    plan.trials.retain(|j| cli.libtest.passes_filters(&j.name));
    plan.filtered_by_name = before - plan.trials.len();
    Ok(plan)
}

/// The weights the `rules.yaml` governing `root` gives its rules: a rules
/// file that does not parse, or weighs a rule wrongly, is a fault of the
/// suite (the score would be wrong), none at all weighs nothing.
fn weights_of(root: &Root, pack: &dyn Pack) -> Result<Weights, String> {
    match suite::rules_if_any(root, pack.suite()).map_err(|e| e.to_string())? {
        Some((file, rules)) => Weights::of_rules(&file, &rules),
        None => Ok(Weights::default()),
    }
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
