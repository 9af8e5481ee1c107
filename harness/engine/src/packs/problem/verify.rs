//! `verify`: every jury submission of a package run against the whole
//! package and judged against the folder it was put in. Each program is
//! compiled once (all at once, on the cores); the accepted submissions
//! run first, with no time limit but a cap, and the slowest sets the
//! time limit by the format's multipliers (unless `limits.time_limit`
//! fixes it: [`limit`], which the default run and `mark` share through
//! [`derive_time_limit`]); then the rest run with that limit, killed at the limit
//! times the safety margin. Cases run in parallel on the cores; a
//! package's identical cases (same input; for an interactive problem
//! same input, answer and flags) run once per submission; a
//! submission whose verdict is decided (the first rejected case of a
//! pass-fail package) runs no further case, so a timeout is confirmed
//! once per submission and limit.
//!
//! One piece: the build, the timing of the accepted submissions (which
//! the default run and `mark` call alone) and the runs of the rest share
//! the built programs, the judge and the job pool; apart they would pass
//! each other every one.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::time::Duration;

use crate::packs::problem::grade::{self, Grade};
use crate::packs::problem::languages::Table;
use crate::packs::problem::limit::{self, TimeLimit};
use crate::packs::problem::package::{Problem, Submission};
use crate::packs::problem::programs::{self, Ready};
use crate::packs::problem::run::{self, CaseLimits, CaseResult, Fault, Judge, Verdict};
use crate::packs::problem::testdata::VerdictRule;

/// The time an accepted submission may take on a case before the time
/// limit is known (problemtools: 300 s).
pub const ACCEPTED_CAP: Duration = Duration::from_secs(60);

/// What became of one submission.
#[derive(Debug, Clone)]
pub enum Row {
    /// Not run: a tool is missing.
    Skipped(String),
    /// Its build failed.
    CompileError(String),
    /// Run and graded; its slowest case.
    Graded(Grade, Duration),
}

/// The whole verification.
#[derive(Debug)]
pub struct Report {
    /// The time limit used, where runs were killed, and why.
    pub time: TimeLimit,
    /// The full score (scoring problems).
    pub full_score: f64,
    /// Each submission and what became of it, in the package's order.
    pub rows: Vec<(Submission, Row)>,
}

/// Whether `row` agrees with `folder`, and what the folder expects in words.
pub fn agrees(folder: &str, row: &Row, scoring: bool, full: f64) -> Option<bool> {
    let Row::Graded(g, _) = row else {
        return match row {
            Row::Skipped(_) => None,
            _ => Some(false),
        };
    };
    let full_marks = !scoring || (g.score - full).abs() <= 1e-9 * full.abs().max(1.0);
    Some(match folder {
        "accepted" => g.verdict == Verdict::Accepted && full_marks,
        "partially_accepted" => g.verdict == Verdict::Accepted && !full_marks,
        "wrong_answer" => g.verdict == Verdict::WrongAnswer,
        "time_limit_exceeded" => g.verdict == Verdict::TimeLimitExceeded,
        "run_time_error" => g.verdict == Verdict::RunTimeError,
        _ => g.verdict != Verdict::Accepted,
    })
}

/// The programs of `problem` a command needs (the submissions `wanted`,
/// others `Skipped`; the output validator always), each compiled once,
/// all at once, in `stage`; and how outputs are judged.
fn build(
    problem: &Problem,
    stage: &std::path::Path,
    workers: usize,
    wanted: impl Fn(&Submission) -> bool + Sync,
) -> Result<(Vec<Ready>, Judge), String> {
    let table = Table::for_package(&problem.dir)?;
    let mut sources: Vec<(String, Option<std::path::PathBuf>)> = problem
        .submissions
        .iter()
        .map(|s| (s.name.clone(), wanted(s).then(|| s.path.clone())))
        .collect();
    if let Some(v) = &problem.validator {
        sources.push(("the output validator".to_owned(), Some(v.clone())));
    }
    let mut built = pool(workers, &sources, |(name, path)| match path {
        Some(path) => programs::prepare(path, name, &table, stage),
        None => Ok(Ready::Skipped("not needed".to_owned())),
    })?
    .into_iter()
    .collect::<Result<Vec<Ready>, String>>()?;
    let judge = match problem.validator.as_ref().map(|_| built.pop()) {
        None => Judge::Default,
        Some(Some(Ready::Built(t))) => Judge::Custom(t),
        Some(Some(Ready::Skipped(why))) => {
            return Err(format!("the output validator cannot run: {why}"));
        }
        Some(Some(Ready::CompileError(log))) => {
            return Err(format!("the output validator does not compile:\n{log}"));
        }
        Some(None) => return Err("the output validator was not built".to_owned()),
    };
    if problem.interactive && matches!(judge, Judge::Default) {
        return Err("an interactive problem needs its output validator".to_owned());
    }
    Ok((built, judge))
}

/// The accepted submissions of `problem` run (with no limit but the
/// cap, unless the package fixes one) and the time limit they give:
/// their results by submission, and the limit.
fn time_accepted(
    problem: &Problem,
    built: &[Ready],
    judge: &Judge,
    workers: usize,
) -> Result<(Vec<BTreeMap<String, CaseResult>>, TimeLimit), String> {
    let accepted: Vec<usize> = indices(problem, |s| s.folder == "accepted");
    let fixed = limit::of(&problem.time, Err(String::new()));
    let cap = match fixed.origin {
        limit::Origin::Fixed => fixed.limit,
        _ => ACCEPTED_CAP,
    };
    let first = CaseLimits {
        time_limit: cap,
        kill_after: cap,
        output_cap: problem.output_cap,
    };
    let cases = problem.root.all_cases();
    let stop_early = !problem.scoring && stops_at_first(&problem.root);
    let results = run_submissions(
        problem, built, judge, &accepted, &cases, first, stop_early, workers,
    )?;
    let slowest = accepted
        .iter()
        .zip(&results)
        .flat_map(|(&s, r)| {
            r.iter()
                .filter(|(_, c)| c.verdict == Verdict::Accepted)
                .map(move |(case, c)| limit::Slowest {
                    time: c.runtime,
                    submission: problem.submissions[s].name.clone(),
                    case: case.clone(),
                })
        })
        .max_by_key(|s| s.time)
        .ok_or_else(|| {
            let ran = accepted
                .iter()
                .any(|&s| matches!(built[s], Ready::Built(_)));
            if accepted.is_empty() {
                "the package has no accepted submission".to_owned()
            } else if ran {
                "no accepted submission was accepted on any case".to_owned()
            } else {
                let why: Vec<String> = accepted
                    .iter()
                    .map(|&s| match &built[s] {
                        Ready::Skipped(w) => format!("{}: {w}", problem.submissions[s].name),
                        Ready::CompileError(_) => {
                            format!("{}: does not compile", problem.submissions[s].name)
                        }
                        Ready::Built(_) => String::new(),
                    })
                    .collect();
                format!("no accepted submission could run ({})", why.join("; "))
            }
        });
    Ok((results, limit::of(&problem.time, slowest)))
}

/// The time limit of `problem` as `verify` sets it, for the default run
/// and `mark`: its accepted submissions compiled and timed (nothing
/// else built but the output validator that judges them).
pub fn derive_time_limit(problem: &Problem, workers: usize) -> Result<TimeLimit, String> {
    let _scope = crate::packs::folder::model::Scope::enter();
    if limit::of(&problem.time, Err(String::new())).origin == limit::Origin::Fixed {
        return Ok(limit::of(&problem.time, Err(String::new())));
    }
    let stage = staging()?;
    let (built, judge) = build(problem, stage.path(), workers, |s| s.folder == "accepted")?;
    Ok(time_accepted(problem, &built, &judge, workers)?.1)
}

fn staging() -> Result<tempfile::TempDir, String> {
    tempfile::Builder::new()
        .prefix("conformance-verify-")
        .tempdir()
        .map_err(|e| format!("cannot make a staging folder: {e}"))
}

/// Verifies `problem`: a fault of the package is `Err` (exit 2).
pub fn verify(problem: &Problem, workers: usize) -> Result<Report, String> {
    let _scope = crate::packs::folder::model::Scope::enter();
    let stage = staging()?;
    let (built, judge) = build(problem, stage.path(), workers, |_| true)?;
    let (accepted_results, time) = time_accepted(problem, &built, &judge, workers)?;
    let accepted: Vec<usize> = indices(problem, |s| s.folder == "accepted");
    let others: Vec<usize> = indices(problem, |s| s.folder != "accepted");
    let limits = CaseLimits {
        time_limit: time.limit,
        kill_after: time.kill_after,
        output_cap: problem.output_cap,
    };
    let cases = problem.root.all_cases();
    let stop_early = !problem.scoring && stops_at_first(&problem.root);
    let other_results = run_submissions(
        problem, &built, &judge, &others, &cases, limits, stop_early, workers,
    )?;
    let mut results: HashMap<usize, BTreeMap<String, CaseResult>> =
        accepted.iter().copied().zip(accepted_results).collect();
    results.extend(others.iter().copied().zip(other_results));
    let rows = problem
        .submissions
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let row = match &built[i] {
                Ready::Skipped(why) => Row::Skipped(why.clone()),
                Ready::CompileError(log) => Row::CompileError(log.clone()),
                Ready::Built(_) => {
                    let r = results.remove(&i).unwrap_or_default();
                    let slowest = r.values().map(|c| c.runtime).max().unwrap_or_default();
                    match grade::grade(&problem.root, &r) {
                        Some(g) => Row::Graded(g, slowest),
                        None => Row::Skipped("no case".to_owned()),
                    }
                }
            };
            (s.clone(), row)
        })
        .collect();
    Ok(Report {
        time,
        full_score: grade::full_score(&problem.root),
        rows,
    })
}

fn indices(problem: &Problem, keep: impl Fn(&Submission) -> bool) -> Vec<usize> {
    (0..problem.submissions.len())
        .filter(|&i| keep(&problem.submissions[i]))
        .collect()
}

/// Whether every group stops at its first rejection, that rejection its
/// verdict (the first or the worst error of the children run so far):
/// then a submission's first rejected case decides it.
fn stops_at_first(group: &crate::packs::problem::package::Group) -> bool {
    group.flags.on_reject_break
        && !group.flags.accept_if_any_accepted
        && group.flags.verdict != VerdictRule::AlwaysAccept
        && group.groups.iter().all(stops_at_first)
}

/// What makes two runs the same: the input, and for an interactive
/// problem the answer and the validator's flags.
type RunKey<'a> = (&'a [u8], &'a [u8], &'a [String]);

/// Runs the submissions `subs` over `cases`: one job per submission and
/// distinct run, on `workers` threads.
#[expect(
    clippy::too_many_arguments,
    clippy::too_many_lines,
    reason = "one call site, each argument distinct; the jobs made, run and gathered"
)]
fn run_submissions(
    problem: &Problem,
    built: &[Ready],
    judge: &Judge,
    subs: &[usize],
    cases: &[(
        &crate::packs::problem::package::Group,
        &crate::packs::problem::package::TestCase,
    )],
    limits: CaseLimits,
    stop_early: bool,
    workers: usize,
) -> Result<Vec<BTreeMap<String, CaseResult>>, String> {
    // The first case of each distinct run, and the cases sharing it.
    let mut first_of: HashMap<RunKey<'_>, usize> = HashMap::new();
    let mut shared: Vec<usize> = Vec::with_capacity(cases.len());
    for (i, (g, c)) in cases.iter().enumerate() {
        let key: RunKey<'_> = if problem.interactive {
            (&c.input, &c.answer, &g.flags.validator_flags)
        } else {
            (&c.input, &[], &[])
        };
        shared.push(*first_of.entry(key).or_insert(i));
    }
    let runnable: Vec<usize> = subs
        .iter()
        .copied()
        .filter(|&s| matches!(built[s], Ready::Built(_)))
        .collect();
    // The first rejected case of each submission so far.
    let decided: Mutex<HashMap<usize, usize>> = Mutex::new(HashMap::new());
    let jobs: Vec<(usize, usize)> = runnable
        .iter()
        .flat_map(|&s| {
            (0..cases.len())
                .filter(|&i| shared[i] == i)
                .map(move |i| (s, i))
        })
        .collect();
    // The cases each distinct run stands for.
    let mut sharing: HashMap<usize, Vec<usize>> = HashMap::new();
    for (j, &i) in shared.iter().enumerate() {
        sharing.entry(i).or_default().push(j);
    }
    let outputs = pool(
        workers,
        &jobs,
        |&(s, i)| -> Result<Vec<(usize, CaseResult)>, String> {
            if stop_early
                && decided
                    .lock()
                    .ok()
                    .and_then(|d| d.get(&s).copied())
                    .is_some_and(|d| d < i)
            {
                return Ok(Vec::new());
            }
            let Ready::Built(program) = &built[s] else {
                return Ok(Vec::new());
            };
            let at =
                |c: &str, Fault(f): Fault| format!("{} on {c}: {f}", problem.submissions[s].name);
            let mut out = Vec::new();
            if let (true, Judge::Custom(v)) = (problem.interactive, judge) {
                let (g, c) = cases[i];
                let r = crate::packs::problem::interactive::run_case(
                    program,
                    v,
                    &c.input,
                    &c.answer,
                    &g.flags.validator_flags,
                    limits,
                )
                .and_then(|r| r.scored(problem.scoring))
                .map_err(|f| at(&c.name, f))?;
                out.extend(
                    sharing
                        .get(&i)
                        .into_iter()
                        .flatten()
                        .map(|&j| (j, r.clone())),
                );
            } else {
                let executed = run::execute(program, &cases[i].1.input, limits)
                    .map_err(|f| at(&cases[i].1.name, f))?;
                for &j in sharing.get(&i).into_iter().flatten() {
                    let (g, c) = cases[j];
                    let r = match &executed {
                        run::Executed::Failed(r) => r.clone(),
                        run::Executed::Output(bytes, time) => run::judge_output(
                            judge,
                            &c.input,
                            &c.answer,
                            &g.flags.validator_flags,
                            bytes,
                            *time,
                        )
                        .and_then(|r| r.scored(problem.scoring))
                        .map_err(|f| at(&c.name, f))?,
                    };
                    out.push((j, r));
                }
            }
            if let Some(&(j, _)) = out.iter().find(|(_, r)| r.verdict != Verdict::Accepted)
                && let Ok(mut d) = decided.lock()
            {
                let e = d.entry(s).or_insert(j);
                *e = (*e).min(j);
            }
            Ok(out)
        },
    )?;
    let mut by_sub: HashMap<usize, BTreeMap<String, CaseResult>> = HashMap::new();
    for ((s, _), results) in jobs.iter().zip(outputs) {
        let map = by_sub.entry(*s).or_default();
        for (j, r) in results? {
            map.insert(cases[j].1.name.clone(), r);
        }
    }
    Ok(subs
        .iter()
        .map(|s| by_sub.remove(s).unwrap_or_default())
        .collect())
}

/// Runs `work` on each item on `workers` threads; results in the items'
/// order (`Err` when a worker stopped short, which a panic would do).
fn pool<T: Sync, R: Send>(
    workers: usize,
    items: &[T],
    work: impl Fn(&T) -> R + Sync,
) -> Result<Vec<R>, String> {
    let next = Mutex::new(0usize);
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = {
                        let Ok(mut n) = next.lock() else { return };
                        let i = *n;
                        *n += 1;
                        i
                    };
                    let Some(item) = items.get(i) else { return };
                    let r = work(item);
                    if let Ok(mut slot) = slots[i].lock() {
                        *slot = Some(r);
                    }
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|s| {
            s.into_inner()
                .ok()
                .flatten()
                .ok_or_else(|| "a worker of verify stopped short".to_owned())
        })
        .collect()
}
