//! One case as a libtest-mimic trial: run (or driven as a conversation),
//! compared, and judged into a verdict with its failure notes and the
//! commands that reproduce or re-bless it.
//!
//! One piece: one case's whole path from its run to its verdict
//! (judging under tolerance, other readings, memory errors, the notes and
//! reproduce lines) shares the context and the case's parts; split, each
//! piece would take them all as arguments. Preparing a case and a
//! conversation's path are `prepare.rs`; a timeout's confirmation is
//! `settle.rs` and `confirm.rs`.
//! What needs none of them lives in its layer (the deductions in
//! `judge/verdict.rs`, the parts a provenance is worth in
//! `judge/compare`, the re-bless command in `output/reproduce.rs`).

use std::path::Path;
use std::sync::{Arc, PoisonError};
use std::time::Instant;

use libtest_mimic::{Failed, Trial};

use crate::exec::run::{self, Invocation};
use crate::judge::budget::{Finish, Rerun};
use crate::judge::compare;
use crate::judge::failure::{CaseFailure, Notes};
use crate::judge::verdict::{CaseResult, Verdict};
use crate::model::schema::{Case, Suite};
use crate::model::suite::CaseFile;
use crate::output::reproduce;

use crate::judge::checker::CaseOracle;

use super::bless::bless_one;
use super::context::Context;
use super::pending::Unstarted;
use super::prepare::{Unprepared, converse, prepare};
use super::settle::{self, Aside};

/// One selected case, ready to run: under libtest-mimic (as a [`Trial`])
/// or under the harness's own runner ([`super::progress`]).
pub(super) struct Job {
    pub(super) name: String,
    /// Ambiguous: run only when asked for.
    pub(super) ignored: bool,
    run: Box<dyn FnOnce() -> Result<(), Failed> + Send>,
}

impl Job {
    /// Runs the case; its result goes to the run's context, the outcome to
    /// libtest.
    pub(super) fn run(self) -> Result<(), Failed> {
        (self.run)()
    }

    /// The case as a libtest-mimic trial.
    pub(super) fn into_trial(self) -> Trial {
        let run = self.run;
        Trial::test(self.name, run).with_ignored_flag(self.ignored)
    }

    /// A trial of the same name that runs nothing: what libtest's filters
    /// (`FILTER`, `--exact`, `--skip`, `--ignored`) are asked about.
    pub(super) fn probe(&self) -> Trial {
        Trial::test(self.name.clone(), || Ok(())).with_ignored_flag(self.ignored)
    }
}

/// How the plan sets one case up beside its file.
pub(super) struct Setting {
    /// Ambiguous: run only when asked for.
    pub(super) ignored: bool,
    /// What it weighs in its category, or why that cannot be known.
    pub(super) weight: Result<f64, String>,
}

pub(super) fn job(
    ctx: Arc<Context>,
    file: CaseFile,
    parsed: Result<Case, String>,
    suite: Result<Suite, String>,
    setting: Setting,
) -> Job {
    let Setting { ignored, weight } = setting;
    let name = file.name().to_owned();
    let job_name = name.clone();
    let run = Box::new(move || {
        if crate::exec::interrupt::interrupted() {
            return Err(Failed::from("not run: the harness was interrupted"));
        }
        let start = Instant::now();
        let mut result = CaseResult::new(name, Verdict::Passed);
        result.secret = is_secret(&file, parsed.as_ref(), suite.as_ref());
        match &parsed {
            Ok(c) => {
                result.category = Some(c.category.clone());
                result.rules.clone_from(&c.rules);
                result.tags.clone_from(&c.tags);
                // Judged against every reading, an ambiguous case is
                // charged like any other.
                result.ambiguous = c.is_ambiguous() && c.readings.is_empty();
                result.expected_status = c.status.map(i32::from);
            }
            Err(_) => result.category = file.folder().map(str::to_owned),
        }
        let weighed = weight.map(|w| result.weight = w);
        result.verdict = if let Err(e) = weighed {
            // The score would be wrong: the case is the suite's fault.
            Verdict::Error(e)
        } else if ctx.budget.admit() {
            if ctx.bless {
                bless_one(&ctx, &file, parsed, suite.as_ref().ok())
                    .err()
                    .map_or(Verdict::Passed, Verdict::Error)
            } else {
                let mut aside = Aside {
                    secret: result.secret
                        && ctx.audience == crate::output::secret::Audience::Student,
                    ..Aside::default()
                };
                // A secret case's hint is the case's words: a student never sees it.
                let hint = parsed
                    .as_ref()
                    .ok()
                    .filter(|_| !aside.secret)
                    .and_then(|c| c.hint.clone());
                let verdict = check_one(&ctx, &file, parsed, suite, &mut result.actual, &mut aside);
                set_aside(&mut result, aside, hint.as_ref());
                verdict
            }
        } else {
            let rerun = Rerun {
                program: ctx.program,
                spec: ctx.spec,
                bin: ctx.bin.as_deref(),
            };
            ctx.budget.verdict(&rerun, &file, parsed.as_ref().ok())
        };
        ctx.budget
            .record(Finish::of(&result.verdict, result.actual.as_ref()));
        result.time = start.elapsed();
        // A secret case's own line is the student's too.
        let redacted = (result.secret && ctx.audience == crate::output::secret::Audience::Student)
            .then(|| crate::output::secret::alone(&result));
        let verdict = &redacted.as_ref().unwrap_or(&result).verdict;
        let outcome = match verdict {
            Verdict::Passed => Ok(()),
            // One line per case: the full report comes once per cause,
            // after the run (crate::judge::group); libtest's JSON events
            // carry it whole. They know only `ok` and `failed`: a case
            // the environment struck says it was not judged.
            Verdict::Failed(f) => Err(Failed::from(match (verdict.struck(), ctx.full_messages) {
                (Some(lack), true) => {
                    format!("not judged: environment: {lack}\n{}", f.render(ctx.style))
                }
                (Some(lack), false) => format!("not judged: environment: {lack}"),
                (None, true) => f.render(ctx.style),
                (None, false) => f.headline(),
            })),
            Verdict::Error(e) => Err(Failed::from(format!("error: {e}"))),
        };
        ctx.results
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(result);
        outcome
    });
    Job {
        name: job_name,
        ignored,
        run,
    }
}

/// Puts in `result` what its verdict left `aside`: the departures forgiven
/// (as deductions under `--strict`, each with the case's `hint`) and the
/// warning.
pub(super) fn set_aside(result: &mut CaseResult, aside: Aside, hint: Option<&String>) {
    result.deductions = crate::judge::verdict::deductions(&aside.forgiven);
    for d in &mut result.deductions {
        d.hint = hint.cloned();
    }
    result.forgiven = aside
        .forgiven
        .iter()
        .map(|f| format!("{} compared {}", f.part, f.how))
        .collect();
    result.warning = aside.warning;
    result.score = aside.score;
}

/// Whether a case is secret: its own `visibility`, else its category's
/// (by its folder when its file does not parse).
fn is_secret(
    file: &CaseFile,
    parsed: Result<&Case, &String>,
    suite: Result<&Suite, &String>,
) -> bool {
    let category = parsed.map_or(file.folder(), |c| Some(c.category.as_str()));
    let categories = suite.map(|s| &s.categories[..]).unwrap_or_default();
    crate::model::schema::Visibility::of_case(
        parsed.ok().and_then(|c| c.visibility),
        categories
            .iter()
            .find(|k| Some(k.name.as_str()) == category),
    ) == crate::model::schema::Visibility::Secret
}

/// Runs one case and judges it; `actual` receives how the program ended,
/// `aside` what the verdict leaves aside.
pub(super) fn check_one(
    ctx: &Context,
    file: &CaseFile,
    parsed: Result<Case, String>,
    suite: Result<Suite, String>,
    actual: &mut Option<crate::exec::run::Ending>,
    aside: &mut Aside,
) -> Verdict {
    if let Ok(case) = &parsed
        && let Some(script) = &case.script
    {
        return converse(ctx, file, case, script, suite, aside);
    }
    let summary = parsed
        .as_ref()
        .ok()
        .map(|c| (c.summary.clone(), c.rules.clone()));
    match prepare(ctx, file, parsed, suite) {
        Err(Unprepared::Fault(e)) => Verdict::Error(e),
        Err(Unprepared::Environment(lack)) => {
            let (summary, rules) = summary.unwrap_or_default();
            let notes = Notes {
                summary,
                rules,
                ..Notes::default()
            };
            Verdict::Failed(Box::new(crate::judge::environment::failure(
                &lack,
                &[],
                notes,
            )))
        }
        Ok((case, mut inv, expected)) => {
            // Only what the comparison and its report can use is kept: a
            // flood to the cap costs the window, not 16 MiB per stream.
            inv.keep = run::Keep::around(expected.stdout.len(), expected.stderr.len());
            // A program found stuck for ever on one case is stopped by its
            // CPU time on the others (confirm.rs, settle.rs).
            if ctx.causes.spins() {
                inv.cpu_stop = super::confirm::cpu_stop(
                    inv.timeout,
                    reference_time(&case),
                    ctx.causes.finished_cpu(),
                );
            }
            match run::run_with_activity(&inv) {
                Err(e) => Verdict::Error(format!("{}: {e}", file.display())),
                // A timeout is charged only once confirmed (confirm.rs),
                // as few times per cause as settle.rs allows.
                Ok((outcome, how)) => {
                    // A run that never started is decided once every case
                    // has run (unstarted.rs).
                    ctx.note_start(outcome.no_start.as_ref(), || Unstarted::Run {
                        file: file.clone(),
                        case: Box::new(case.clone()),
                        inv: Box::new(inv.clone()),
                        expected: Box::new(expected.clone()),
                        secret: aside.secret,
                    });
                    let run = settle::Run {
                        name: file.name(),
                        reference: reference_time(&case),
                        inv: &inv,
                    };
                    let mut judge_run = |outcome, aside: &mut Aside| {
                        judge(ctx, file, &case, &inv, &expected, outcome, aside)
                    };
                    settle::settle(ctx, &run, outcome, how, &mut judge_run, actual, aside)
                }
            }
        }
    }
}

/// What the reference takes on `case`, as it records it (`reference-ms`;
/// 1 stands for anything under 50 ms).
fn reference_time(case: &Case) -> Option<std::time::Duration> {
    case.reference_ms.map(std::time::Duration::from_millis)
}

/// The kit `--keep-failed` writes for a failed case, if one is wanted: a
/// student's report inlines what fits in its reproduce line, so a kit
/// only for inputs too long to paste (or stdin lines too many to list
/// for typing; kits the report does not name are removed after), and
/// never for a secret case.
fn kit(
    ctx: &Context,
    file: &CaseFile,
    inv: &Invocation,
    expected: &crate::model::case::Expectation,
    secret: bool,
) -> Option<std::path::PathBuf> {
    let inputs = inv.files.iter().map(|(_, b)| b.len()).sum::<usize>() + inv.stdin.len();
    let wanted = ctx.reproduce_as.is_none()
        || inputs > reproduce::MAX_INLINE
        || inv.mode == crate::exec::run::Mode::Interactive;
    let dir = ctx.keep_failed.as_ref().filter(|_| wanted && !secret)?;
    crate::output::kit::write(dir, file.name(), inv, expected, ctx.reproduce_as.as_deref())
        .map_err(|e| eprintln!("{}: --keep-failed: {}: {e}", ctx.program, file.name()))
        .ok()
}

/// The verdict on one run of a case; `aside` receives what a tolerance
/// forgave (under `--strict`, what it would have) and the memory error
/// only warned about.
pub(super) fn judge(
    ctx: &Context,
    file: &CaseFile,
    case: &Case,
    inv: &Invocation,
    expected: &crate::model::case::Expectation,
    outcome: crate::exec::run::Outcome,
    aside: &mut Aside,
) -> Verdict {
    let killed_after = match outcome.ending {
        crate::exec::run::Ending::TimedOut { after, .. } => Some(after),
        _ => None,
    };
    let crashed = matches!(outcome.ending, crate::exec::run::Ending::Signaled(_));
    let case_folder = outcome.folder.clone();
    // Read before the comparison takes the run, used only if it fails. A
    // runtime that never started is the machine's, not the program's.
    let lack = match &outcome.no_start {
        Some(no_start) => Some(crate::judge::environment::Lack::Start(no_start.clone())),
        None => environment_lack(ctx, &outcome.stderr),
    };
    let (outcome, memory) = match &ctx.memcheck {
        Some(memcheck) => compare::memory_error(outcome, memcheck.leaks),
        None => (outcome, None),
    };
    // Under `warn` the memory error is no part of the verdict.
    let (memory, mut warning) = match ctx.memcheck {
        Some(m) if m.warn => (None, memory.map(|m| vec![m])),
        _ => (memory, None),
    };
    // What `bless` kept of the model's trace: the model is not run again.
    let kept = match crate::judge::provenance::kept(case, file, &expected.stdout) {
        Ok(kept) => kept,
        Err(e) => return Verdict::Error(e),
    };
    let oracle =
        CaseOracle::new(&ctx.checkers, inv, ctx.reference_later(), &expected.stdout).knowing(kept);
    // `--strict` judges exactly and lists what the tolerance forgave: the
    // run is compared both ways only where a tolerance is declared.
    let exact_copy = (ctx.strict && !expected.matching.is_exact()).then(|| outcome.clone());
    let other_copy = (!expected.alternatives.is_empty()).then(|| outcome.clone());
    let unjudged = unjudged_stderr(expected, &outcome.stderr);
    let judgement = match compare::judge_owned(expected, outcome, &oracle) {
        Ok(j) => j,
        Err(e) => return Verdict::Error(format!("{}: {e}", file.display())),
    };
    aside.forgiven = judgement.forgiven;
    let (mut mismatches, mut judged, decided) = match exact_copy {
        Some(copy) if !aside.forgiven.is_empty() => (
            compare::compare_owned(expected, copy),
            Vec::new(),
            Vec::new(),
        ),
        _ => (judgement.mismatches, judgement.judged, judgement.decided),
    };
    // An ambiguous rule's other reading: the case passes when the run
    // matches what the model does under it (a memory error still fails).
    if let Err(e) = super::readings::other_reading(
        ctx,
        expected,
        other_copy,
        &oracle,
        &mut mismatches,
        aside,
        &mut judged,
    ) {
        return Verdict::Error(format!("{}: {e}", file.display()));
    }
    mismatches.extend(memory);
    if mismatches.is_empty() && warning.is_none() {
        return Verdict::Passed;
    }
    // What a student reads names their folder as `./`, never the marker's.
    let folders = crate::judge::mask::Folders::of(ctx.target.home().as_deref(), &case_folder);
    folders.mask_all(&mut mismatches);
    if let Some(warning) = &mut warning {
        folders.mask_all(warning);
    }
    let kit = kit(ctx, file, inv, expected, aside.secret);
    let rebless = rebless(ctx, file);
    let notes = Notes {
        summary: case.summary.clone(),
        rules: case.rules.clone(),
        hint: case.hint.clone(),
        reproduce: reproduce_line(ctx, file, case, inv, kit.as_deref(), killed_after, crashed),
        rebless,
        prompt: Some(inv.prompt.clone()),
        provenance: None,
        weight: weight(inv, expected),
        judged,
        decided,
        file_rules: file_rules(expected),
        unchanged: unchanged(&mismatches, &inv.files),
        raised: unjudged.and_then(|tail| crate::judge::exception::parse(&folders.mask(&tail))),
    };
    aside.warning = warning.map(|w| Box::new(CaseFailure::new(&w, &inv.stdin, notes.clone())));
    if mismatches.is_empty() {
        return Verdict::Passed;
    }
    let provenance = oracle.take_record(compare::ruled(&mismatches));
    // A read counted apart is named by the line it accepted.
    compare::place_reads(&mut mismatches, &inv.stdin, provenance.as_ref());
    let notes = Notes {
        provenance,
        ..notes
    };
    let mut failure = CaseFailure::new(&mismatches, &inv.stdin, notes);
    // The environment's failure is its own cause, whatever else differs
    // (the differences still show the run: its status, its traceback).
    if let Some(lack) = lack {
        crate::judge::environment::strike(&mut failure, &lack);
    }
    Verdict::Failed(Box::new(failure))
}

/// The end of a stderr no part judges (`stderr: any`), where an
/// uncaught exception would be: what names a crash the comparison never
/// sees. `None` where stderr is judged (its difference names the crash)
/// or where the reference's own stderr is a traceback.
fn unjudged_stderr(expected: &crate::model::case::Expectation, stderr: &[u8]) -> Option<Vec<u8>> {
    let any = expected.matching.stderr.tolerance == crate::model::matching::Tolerance::Any;
    (any && !stderr.is_empty() && !crate::judge::exception::is_traceback(&expected.stderr))
        .then(|| stderr[stderr.len().saturating_sub(crate::judge::exception::WINDOW)..].to_vec())
}

/// Files of a program's folder looked at for a class of its own, at most.
const CLASS_FILES: usize = 10_000;

/// The hint to re-bless a failed case: only the reference's runs can be
/// blessed, so a student whose program fails gets no hint they cannot use.
fn rebless(ctx: &Context, file: &CaseFile) -> Option<(String, String)> {
    ctx.target.is_reference().then(|| {
        (
            "re-bless from the reference (if the expectation is wrong):".to_owned(),
            // A folder pack is named: without it the default pack's
            // reference would bless.
            reproduce::rebless_command(
                ctx.program,
                ctx.target.is_model().then_some(ctx.spec),
                file,
            ),
        )
    })
}

/// What the marker's environment lacks, told on `stderr` (a module, a
/// shared library, a class the program's folder does not hold).
fn environment_lack(ctx: &Context, stderr: &[u8]) -> Option<crate::judge::environment::Lack> {
    let home = ctx.target.home();
    crate::judge::environment::detect(stderr, &|class| {
        home.as_deref().is_some_and(|h| holds_class(h, class))
    })
}

/// Whether the program's folder `home` holds the Java class `simple` (its
/// `.class` or `.java` file): a class of its own it cannot load is the
/// program's bug, not the environment's.
fn holds_class(home: &Path, simple: &str) -> bool {
    let names = [format!("{simple}.class"), format!("{simple}.java")];
    walkdir::WalkDir::new(home)
        .max_depth(8)
        .into_iter()
        .filter_map(Result::ok)
        .take(CLASS_FILES)
        .any(|e| names.iter().any(|n| e.file_name() == n.as_str()))
}

/// The output files that differ and hold what the case placed there: the
/// run never wrote them.
fn unchanged(mismatches: &[compare::Mismatch], placed: &[(String, Vec<u8>)]) -> Vec<String> {
    mismatches
        .iter()
        .filter_map(|m| match m {
            compare::Mismatch::FileDiffers { path, actual, .. }
                if placed.iter().any(|(p, b)| p == path && b == actual) =>
            {
                Some(path.clone())
            }
            _ => None,
        })
        .collect()
}

/// The rules that declared a tolerance for the case's output files.
fn file_rules(expected: &crate::model::case::Expectation) -> Vec<String> {
    let mut rules: Vec<String> = Vec::new();
    for j in expected.matching.files.values() {
        if let crate::model::matching::Origin::Rules(r) = &j.origin {
            for rule in r {
                if !rules.contains(rule) {
                    rules.push(rule.clone());
                }
            }
        }
    }
    rules
}

/// The command that reproduces a failed case: the student's (their
/// program, a kit when the inputs do not fit a line) or the marker's.
fn reproduce_line(
    ctx: &Context,
    file: &CaseFile,
    case: &Case,
    inv: &Invocation,
    kit: Option<&std::path::Path>,
    killed_after: Option<std::time::Duration>,
    crashed: bool,
) -> String {
    let stdin_path = case
        .stdin_file
        .as_ref()
        .map(|s| file.root.disk_path(&file.sidecar(s)).display().to_string());
    let case_file = reproduce::pathdiff_cwd(&file.root.disk_path(&file.rel));
    // A case judged on output files shows them before its folder goes.
    let outputs: Vec<&str> = case.output_files.iter().map(|f| f.path.as_str()).collect();
    let line = match &ctx.reproduce_as {
        Some(program) => {
            // The kit as the student finds it: in the folder shipped
            // with the report, named by its last component.
            let shown = kit.as_ref().and(ctx.keep_failed.as_ref()).map(|dir| {
                let last = dir.file_name().map_or_else(
                    || "reproduce".to_owned(),
                    |n| n.to_string_lossy().into_owned(),
                );
                format!("{last}/{}", file.name())
            });
            reproduce::student_reproduce(inv, program, shown.as_deref(), killed_after, crashed)
        }
        None => reproduce::reproduce_command(
            inv,
            reproduce::Sources {
                case_file: &case_file,
                stdin_path: stdin_path.as_deref(),
                kit,
                killed_after,
                crashed,
            },
        ),
    };
    reproduce::showing_files(&line, &outputs)
}

/// Bytes of a case's input besides stdin (files, arguments) and of its
/// expected output: how big a worked example it makes.
fn weight(inv: &Invocation, expected: &crate::model::case::Expectation) -> usize {
    let files: usize = inv.files.iter().map(|(_, bytes)| bytes.len()).sum();
    let args: usize = inv.args.iter().map(|a| a.len()).sum();
    files + args + expected.stdout.len() + expected.stderr.len()
}
