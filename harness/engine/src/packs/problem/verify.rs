//! `verify`: every jury submission of a package run against the whole
//! package and judged against the folder it was put in. Each program is
//! compiled once (all at once, on the cores); the accepted submissions
//! run first, with no time limit but a cap, and the slowest sets the
//! time limit by the format's multipliers (unless `limits.time_limit`
//! fixes it); then the rest run with that limit, killed at the limit
//! times the safety margin. Cases run in parallel on the cores; a
//! package's identical cases (same input; for an interactive problem
//! same input, answer and flags) run once per submission; a
//! submission whose verdict is decided (the first rejected case of a
//! pass-fail package) runs no further case, so a timeout is confirmed
//! once per submission and limit.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::time::Duration;

use crate::packs::problem::grade::{self, Grade};
use crate::packs::problem::languages::Table;
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
    /// The time limit used, and the margin past which runs were killed.
    pub time_limit: Duration,
    /// Where runs were killed.
    pub kill_after: Duration,
    /// The slowest accepted case time, if any accepted ran.
    pub slowest_accepted: Option<Duration>,
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

/// Verifies `problem`: a fault of the package is `Err` (exit 2).
pub fn verify(problem: &Problem, workers: usize) -> Result<Report, String> {
    let _scope = crate::packs::folder::model::Scope::enter();
    let table = Table::for_package(&problem.dir)?;
    let stage = tempfile::Builder::new()
        .prefix("conformance-verify-")
        .tempdir()
        .map_err(|e| format!("cannot make a staging folder: {e}"))?;
    // Every program compiled once, all at once.
    let mut sources: Vec<(String, std::path::PathBuf)> = problem
        .submissions
        .iter()
        .map(|s| (s.name.clone(), s.path.clone()))
        .collect();
    if let Some(v) = &problem.validator {
        sources.push(("the output validator".to_owned(), v.clone()));
    }
    let mut built = pool(workers, &sources, |(name, path)| {
        programs::prepare(path, name, &table, stage.path())
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
    let cases = problem.root.all_cases();
    let stop_early = !problem.scoring && stops_at_first(&problem.root);
    let output_cap = problem.output_cap;
    let run_all =
        |subs: &[usize], limits: CaseLimits| -> Result<Vec<BTreeMap<String, CaseResult>>, String> {
            run_submissions(
                problem, &built, &judge, subs, &cases, limits, stop_early, workers,
            )
        };
    let accepted: Vec<usize> = indices(problem, |s| s.folder == "accepted");
    let fixed = problem.time.fixed.map(Duration::from_secs_f64);
    let first = CaseLimits {
        time_limit: fixed.unwrap_or(ACCEPTED_CAP),
        kill_after: fixed.unwrap_or(ACCEPTED_CAP),
        output_cap,
    };
    let accepted_results = run_all(&accepted, first)?;
    let slowest = accepted_results
        .iter()
        .flat_map(|r| {
            r.values()
                .filter(|c| c.verdict == Verdict::Accepted)
                .map(|c| c.runtime)
        })
        .max();
    let (time_limit, kill_after) = time_limits(problem, fixed, slowest);
    let others: Vec<usize> = indices(problem, |s| s.folder != "accepted");
    let limits = CaseLimits {
        time_limit,
        kill_after,
        output_cap,
    };
    let other_results = run_all(&others, limits)?;
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
        time_limit,
        kill_after,
        slowest_accepted: slowest,
        full_score: grade::full_score(&problem.root),
        rows,
    })
}

fn indices(problem: &Problem, keep: impl Fn(&Submission) -> bool) -> Vec<usize> {
    (0..problem.submissions.len())
        .filter(|&i| keep(&problem.submissions[i]))
        .collect()
}

/// problemtools' rule: the limit is the slowest accepted time times
/// `ac_to_time_limit`, rounded to whole seconds (at least 1); runs are
/// killed at that times `time_limit_to_tle` (at least one second more).
fn time_limits(
    problem: &Problem,
    fixed: Option<Duration>,
    slowest: Option<Duration>,
) -> (Duration, Duration) {
    let margin = problem.time.time_limit_to_tle;
    if let Some(f) = fixed {
        return (f, f.mul_f64(margin).max(f));
    }
    let exact = slowest.unwrap_or_default().as_secs_f64() * problem.time.ac_to_time_limit;
    let limit = (exact + 0.5).floor().max(1.0);
    let kill = (exact * margin + 0.5).floor().max(limit + 1.0);
    (
        Duration::from_secs_f64(limit),
        Duration::from_secs_f64(kill),
    )
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
