//! One run of the selected cases: the pack and environment resolved, the
//! program checked, the shared trial context built, libtest-mimic run, and
//! the score, reports and exit status after it.
//!
//! One piece: what a run prints after its cases (causes, charges, the
//! early verdict, the score, the result line) follows the run's order and
//! shares its results; about 40 lines are the charges and notes.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, PoisonError};
use std::time::{Duration, Instant};

use libtest_mimic::FormatSetting;

use crate::bytes::visible::Style;
use crate::exec::run::Target;
use crate::judge::verdict::{CaseResult, Verdict};
use crate::model::suite;
use crate::output::exit;
use crate::output::report;
use crate::packs::pack::Pack;

use super::app::{App, Defaults, usage_error};
use super::args::Cli;
use super::context::{Context, context};
use super::coverage::coverage;
use super::header::{install_interrupt_report, print_header, suite_name};
use super::outputs::{gradescope_unrun, write_machine_outputs};
use super::plan::{first_suite, plan, selections, unmatched_selection};
use super::progress;
use super::trials::Job;

/// The note on the cases the early verdict left out, if any.
fn print_early_verdict(ctx: &Context, chatty: bool) {
    if let Some(note) = ctx.budget.summary() {
        // JSON output stays parseable: the note goes to stderr then.
        if chatty {
            println!("\n{note}");
        } else {
            eprintln!("{note}");
        }
    }
}

/// The run's results by name, each cause's worked example charged at
/// once as a timeout noted slow or stuck as its cause was told in the
/// pool (`confirm::tell_examples`).
fn finished(ctx: &Context) -> Vec<CaseResult> {
    let mut results =
        std::mem::take(&mut *ctx.results.lock().unwrap_or_else(PoisonError::into_inner));
    results.sort_by(|a, b| a.name.cmp(&b.name));
    super::unstarted::decide(ctx, &mut results);
    let spent = std::mem::take(&mut *ctx.spent.lock().unwrap_or_else(PoisonError::into_inner));
    super::confirm::tell_examples(&mut results, spent, &ctx.causes);
    results
}

pub(super) fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

pub(super) fn run_cases(app: &App<'_>, cli: Cli, defaults: Defaults) -> ExitCode {
    let program = app.program;
    let (cli, pack) = match resolve(app, cli, defaults) {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    let selections = match selections(&cli, pack) {
        Ok(s) => s,
        Err(e) => return usage_error(program, &e),
    };
    if cli.coverage {
        return coverage(program, pack, &selections);
    }
    let (target, timeout) = match target(&cli, pack) {
        Ok(t) => t,
        Err(e) => return unrunnable(program, &cli, &e),
    };
    let ctx = match context(&cli, pack, program, target, timeout) {
        Ok(c) => Arc::new(c),
        Err(e) => return usage_error(program, &e),
    };
    if let Err(e) = driver_preflight(&ctx, &cli) {
        return usage_error(program, &e);
    }
    let mut plan = match plan(&cli, pack, defaults, &selections, &ctx) {
        Ok(p) => p,
        Err(e) => return usage_error(program, &e),
    };
    if let Some(e) = unmatched_selection(&cli, &plan) {
        return usage_error(program, &e);
    }
    if cli.test.list && matches!(cli.test.format, Some(FormatSetting::Json)) {
        println!("{}", list_json(&cli, &plan.trials));
        return exit::code(exit::PASSED);
    }
    install_interrupt_report(&ctx, &cli, &plan);
    let libtest = cli.libtest.libtest_output(defaults.libtest_output);
    let chatty = !(cli.test.list || matches!(cli.test.format, Some(FormatSetting::Json)));
    // `-q` of the report: the causes and the score, nothing around them.
    let narrate = chatty && (libtest || !cli.libtest.quiet);
    if narrate {
        print_header(program, &cli, &ctx, &plan);
    }

    let started = Instant::now();
    let content_hash = suite::content_hash(&plan.roots);
    let suite_name = suite_name(&plan);
    let jobs = std::mem::take(&mut plan.trials);
    let (failed, tally) = if libtest {
        let trials = jobs.into_iter().map(Job::into_trial).collect();
        (libtest_mimic::run(&cli.test, trials).has_failed(), None)
    } else {
        let mut tally = progress::run(&cli.test, jobs, narrate);
        tally.filtered_out += plan.filtered_by_name;
        (tally.failed + tally.panicked > 0, Some(tally))
    };

    if plan.ambiguous_ignored > 0 && narrate {
        print_ambiguous_note(pack, plan.ambiguous_ignored, ctx.reader());
    }
    let results = finished(&ctx);
    let first_suite = first_suite(&plan);
    let described = ctx.reproduce_as.clone();
    let described = described.unwrap_or_else(|| ctx.target.describe());
    let info = super::outputs::run_info(pack, &described, &suite_name, &content_hash);
    if let Err(e) = super::outputs::write_marker_copy(&cli, first_suite, &info, &results) {
        return usage_error(program, &e);
    }
    let results = crate::output::secret::shown(results, ctx.audience);
    if chatty {
        let shown = (narrate, libtest);
        // No probe of other packs for a program that hangs (its failures
        // are cases not run, and each probe would wait out its limit), nor
        // under `mark` (`--reproduce-as`): a student cannot act on
        // `--spec`, and mark checks the class as a whole.
        let probe = !ctx.budget.fired() && ctx.reproduce_as.is_none();
        print_causes(app, pack, &ctx.target, &results, ctx.style, shown, probe);
    }
    print_early_verdict(&ctx, chatty);
    print_forgiven(&results, chatty && cli.strict);
    let deducted = charges(first_suite, &results, cli.strict, chatty);
    if let Err(e) = write_machine_outputs(&cli, first_suite, &info, &results, started) {
        return usage_error(program, &e);
    }
    if cli.score
        && let Some(suite) = first_suite
    {
        let rows = report::score(suite, &results, cli.strict);
        let table = report::score_table(suite, &rows, cli.strict, ctx.reader());
        // JSON output stays parseable: the table goes to stderr then.
        if chatty {
            print!("{table}");
        } else {
            eprint!("{table}");
        }
    }
    if let Some(path) = &cli.junit
        && let Err(e) = std::fs::write(path, report::junit(program, &results))
    {
        return usage_error(program, &format!("cannot write {}: {e}", path.display()));
    }
    if let Some(tally) = &tally
        && chatty
    {
        println!("\n{}{deducted}", tally.line(&results));
    }
    exit_status(program, &results, tally.as_ref(), failed)
}

/// The one-time deductions of the run's first suite, printed (when
/// `shown`) each as a charge in words with the hint of the case it was
/// first taken in: the cases pass, so no cause names them, yet they cost
/// marks. What the result line adds: the marks deducted, if any.
fn charges(
    suite: Option<&crate::model::schema::Suite>,
    results: &[CaseResult],
    strict: bool,
    shown: bool,
) -> String {
    let charged: Vec<report::DeductionRecord> = suite.map_or_else(Vec::new, |suite| {
        let rows = report::score(suite, results, strict);
        rows.into_iter().flat_map(|r| r.deductions).collect()
    });
    if charged.is_empty() {
        return String::new();
    }
    if shown {
        print_charges(&charged, results);
    }
    let deducted: f64 = charged.iter().map(|d| d.marks).sum();
    format!("; {deducted} mark(s) deducted, see the charges above")
}

fn print_charges(charged: &[report::DeductionRecord], results: &[CaseResult]) {
    println!(
        "\ncharges: {} rule(s) let your output pass at a cost, each charged once however many \
         cases it is in:",
        charged.len()
    );
    for d in charged {
        println!("  {}", d.line());
        let hint = results
            .iter()
            .filter(|r| r.name == d.case)
            .flat_map(|r| &r.deductions)
            .find(|x| x.rule == d.rule)
            .and_then(|x| x.hint.as_deref());
        if let Some(hint) = hint {
            println!("    hint: {hint}");
        }
    }
}

/// Under `--strict`: every departure a tolerance would have forgiven, by
/// case (the cases fail, judged exactly; a normal run passes them).
fn print_forgiven(results: &[CaseResult], shown: bool) {
    let forgiven: Vec<&CaseResult> = results.iter().filter(|r| !r.forgiven.is_empty()).collect();
    if forgiven.is_empty() || !shown {
        return;
    }
    println!(
        "\n--strict: what the tolerances forgive, judged exactly here ({} case(s); a run \
         without --strict forgives these parts):",
        forgiven.len()
    );
    for r in forgiven {
        println!("  {}: {}", r.name, r.forgiven.join("; "));
    }
}

/// A program that cannot be checked at all: a usage error, and for an
/// autograder a Gradescope document saying why (never nothing).
fn unrunnable(program: &str, cli: &Cli, why: &str) -> ExitCode {
    if let Some(path) = &cli.gradescope
        && let Err(e) = gradescope_unrun(path, &format!("Your program could not be checked: {why}"))
    {
        eprintln!("{program}: {e}");
    }
    if let Err(e) =
        super::course_outputs::unrunnable(cli, &format!("Your program could not be checked: {why}"))
    {
        eprintln!("{program}: {e}");
    }
    usage_error(program, why)
}

/// The exit status: a case the harness could not run is its fault (exit
/// 2) before any failure of the program.
fn exit_status(
    program: &str,
    results: &[CaseResult],
    tally: Option<&progress::Tally>,
    failed: bool,
) -> ExitCode {
    let errors = results
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Error(_)))
        .count()
        + tally.map_or(0, |t| t.panicked);
    if errors > 0 {
        eprintln!(
            "{program}: {errors} case(s) could not be run (a fault of the suite or the harness, \
             not of the program); they count neither way"
        );
        exit::code(exit::USAGE)
    } else if let Some(why) = results.iter().find_map(|r| r.verdict.struck()) {
        // The environment's failure is no verdict on the program: a
        // status of its own, so that no script takes it for one.
        eprintln!(
            "{program}: ENVIRONMENT FAILURE: {why}; the failures under it are this machine's, \
             not the program's (exit {})",
            exit::ENVIRONMENT
        );
        exit::code(exit::ENVIRONMENT)
    } else if failed {
        exit::code(exit::FAILED)
    } else {
        exit::code(exit::PASSED)
    }
}

/// A program driven in conversations is started once first: one that
/// cannot take part at all is one set-up error, not every case failing.
fn driver_preflight(ctx: &Context, cli: &Cli) -> Result<(), String> {
    match &ctx.driver {
        Some(driver) if !ctx.target.is_reference() && !cli.test.list => {
            driver.preflight(&ctx.target, ctx.settings)
        }
        _ => Ok(()),
    }
}

/// The cases the harness could not run, each with why: libtest prints
/// them among its failures; the report lists them apart, since they are
/// never the program's fault.
/// The causes, after the note naming the pack the program looks like when
/// that is another one (when `probe`): each with its worked example, or for `-q` (neither
/// narrating nor libtest's lines) each cause's one line; then the memory
/// warnings likewise; then, unless libtest printed them, the cases the
/// harness could not run.
fn print_causes(
    app: &App<'_>,
    pack: &dyn Pack,
    target: &Target,
    results: &[CaseResult],
    style: Style,
    (narrate, libtest): (bool, bool),
    probe: bool,
) {
    let failures = results
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Failed(_)))
        .count();
    if probe
        && let Some(note) = super::likeness::note(app.packs, pack, target, failures, results.len())
    {
        println!("\n{note}");
    }
    if narrate || libtest {
        let secret = crate::output::secret::note(results);
        print!("{}{secret}", crate::judge::group::render(results, style));
    } else {
        print!("{}", crate::judge::group::render_labels(results, style));
    }
    print!(
        "{}",
        crate::judge::group::render_warnings(results, style, narrate || libtest)
    );
    if !libtest {
        print!("{}", errors_report(results));
    }
}

fn errors_report(results: &[CaseResult]) -> String {
    let mut out = String::new();
    for r in results {
        if let Verdict::Error(e) = &r.verdict {
            if out.is_empty() {
                out.push_str(
                    "\ncases that could not be run (a fault of the suite or the harness, not of \
                     the program):\n",
                );
            }
            let _ = writeln!(
                out,
                "  {}: {e}",
                crate::bytes::visible::escape(r.name.as_bytes())
            );
        }
    }
    out
}

/// The note on the ambiguous cases a run left out.
fn print_ambiguous_note(pack: &dyn Pack, count: usize, reader: report::Reader) {
    // Where the ambiguous rulings are explained depends on the pack:
    // a list of its own when its suite has one, else its rulings page.
    let explained = if pack.suite().get("AMBIGUITIES.md").is_some() {
        "AMBIGUITIES.md beside the cases".to_owned()
    } else {
        match pack.rulings_file() {
            Some(file) => format!("the (ambiguous) marks of {file}"),
            None => "the rules marked ambiguous in rules.yaml".to_owned(),
        }
    };
    // A marked student cannot rerun `mark`: no option to offer.
    let offer = match reader {
        report::Reader::Own => "; --include-ignored runs them",
        report::Reader::Marked => "; they never cost marks",
    };
    println!(
        "{count} ambiguous cases ignored: their expected bytes rest on a ruling marked \
         ambiguous, where careful programs differ ({explained}){offer}",
    );
}

/// `--list --format json`: the selected cases as one JSON array, each with
/// its name and whether it is ambiguous (ignored unless asked for).
fn list_json(cli: &Cli, jobs: &[Job]) -> String {
    let cases: Vec<serde_json::Value> = jobs
        .iter()
        .filter(|j| !cli.test.is_filtered_out(&j.probe()))
        .map(|j| serde_json::json!({ "name": j.name, "ambiguous": j.ignored }))
        .collect();
    serde_json::Value::Array(cases).to_string()
}

/// Picks the pack (`--spec`) and folds in the environment (`NAME_BLESS`,
/// `NAME_BIN`, `NO_COLOR`); `Err` is the exit code of a usage error,
/// already reported.
pub(super) fn resolve<'a>(
    app: &App<'a>,
    mut cli: Cli,
    defaults: Defaults,
) -> Result<(Cli, &'a dyn Pack), ExitCode> {
    cli.test = cli.libtest.to_arguments();
    let pack = app
        .pack(cli.spec.as_deref())
        .map_err(|e| usage_error(app.program, &e))?;
    cli.bless |= env_flag(&pack.bless_env());
    if cli.bin.is_none() && !defaults.ignore_bin_env {
        cli.bin = std::env::var_os(pack.bin_env())
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
    }
    cli.test.color = Some(if cli.libtest.colour() {
        libtest_mimic::ColorSetting::Always
    } else {
        libtest_mimic::ColorSetting::Never
    });
    Ok((cli, pack))
}

/// The program to run and the `--timeout` override, checked before any
/// case runs (a `--bin` is started once: [`crate::exec::preflight`]).
pub(super) fn target(cli: &Cli, pack: &dyn Pack) -> Result<(Target, Option<Duration>), String> {
    if cli.bless && cli.bin.is_some() {
        return Err(format!(
            "--bless writes expectations from the reference only; drop --bin / {}",
            pack.bin_env()
        ));
    }
    let target = match &cli.bin {
        // A pack's own kind of program (a problem package's source file),
        // built before it runs.
        Some(p) if let Some(built) = pack.bin_target(p) => built,
        Some(p) if pack.bin_is_command() => {
            Target::command(&p.to_string_lossy()).map_err(|e| e.to_string())
        }
        Some(p) => Target::binary(p).map_err(|e| e.to_string()),
        // Listing runs nothing: a folder pack's model is not built for it.
        None if cli.test.list => Target::reference(pack.name()).map_err(|e| e.to_string()),
        None => pack.reference(),
    }?;
    // A program that cannot even start is a set-up error, explained once,
    // not the same failure in every case; the same run makes a Java
    // program's class-data archive (`mark` did both: its archive is given).
    let archive = match &cli.jvm_archive {
        Some(path) => Some(path.clone()),
        None if !target.is_reference() && !cli.test.list && !cli.started => {
            let started =
                crate::exec::preflight::check_starting(&target).map_err(|e| e.to_string())?;
            started
                .archive
                .and_then(|bytes| crate::exec::run::jvm::keep(&bytes))
        }
        // `bless` runs the model for every case, some more than once: it
        // starts quick as a program checked does (a model that cannot
        // start is said by its cases, as before).
        None if cli.bless && target.is_model() && target.wants_archive() => {
            crate::exec::preflight::start(&target, crate::exec::preflight::ARCHIVE_TIMEOUT)
                .ok()
                .and_then(|started| started.archive)
                .and_then(|bytes| crate::exec::run::jvm::keep(&bytes))
        }
        None => None,
    };
    let target = match archive {
        Some(path) => target.with_archive(crate::exec::run::jvm::Archive::Use(path)),
        None => target,
    };
    Ok((target, cli.timeout))
}
