//! One marking run: the submissions found and sliced, marked by `--jobs`
//! workers (read, build, check, outputs renamed into place), progress on
//! stderr, then the class view from every submission's `mark.json`.
//!
//! Past 600 lines: one submission's whole course (read, build, the
//! memory-checking build's check, the check, the outputs put in place)
//! reads best in one file; the build and its run line live in `build.rs`.

use std::collections::VecDeque;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use sha2::{Digest as _, Sha256};

use crate::exec::interrupt::Ticket;
use crate::model::suite::{self, Root};
use crate::output::exit;
use crate::packs::pack::{BuildRecipe, Pack};

use super::args::MarkCli;
use super::build::{self, BuildStatus};
use super::check::{self, CheckOptions};
use super::cohort::SuiteInfo;
use super::intake::{self, Submission};
use super::record::{self, Category, SubmissionMark};
use super::view::{write_atomic, write_class_view};
use super::{html, stale, unpack};

/// What one submission gave.
enum Done {
    /// Marked now; re-marked, why its kept mark was stale.
    Marked(Box<SubmissionMark>, Option<String>),
    /// Unchanged since the last run: its mark kept.
    Kept(Box<SubmissionMark>),
    /// The harness could not mark it: no row, no folder (an earlier
    /// run's stays), named on stderr.
    Fault(Box<SubmissionMark>, String),
    /// Stopped by an interrupt.
    Interrupted,
}

struct Shared {
    pack_name: String,
    recipe: BuildRecipe,
    /// The course's run line ([`Pack::run_line`]), if the program is not
    /// run itself.
    run: Option<&'static str>,
    cli_build: Option<String>,
    out: PathBuf,
    suite: SuiteInfo,
    check: CheckOptions,
    build_timeout: std::time::Duration,
    rerun: bool,
    /// What every mark depends on besides the submission and the
    /// options, each part hashed ([`stale`]).
    depends: stale::Parts,
}

fn usage(program: &str, message: &str) -> ExitCode {
    say!("{program} mark: {message}");
    exit::code(exit::USAGE)
}

fn suite_info(pack: &dyn Pack, build: String) -> Result<SuiteInfo, String> {
    let root = Root::Embedded(pack.suite());
    let suite = suite::suite_for(&root, pack.suite()).map_err(|e| e.to_string())?;
    Ok(SuiteInfo {
        spec: pack.name().to_owned(),
        suite: match &suite.version {
            Some(v) => format!("{} {v}", suite.name),
            None => suite.name.clone(),
        },
        content_hash: suite::content_hash(&[root]),
        categories: suite
            .categories
            .iter()
            .map(|c| Category {
                name: c.name.clone(),
                title: c.title.clone().unwrap_or_default(),
                marks: c.marks,
            })
            .collect(),
        build,
    })
}

/// `mark` for `pack`, one of the registered `packs` (which the check for
/// a wrong `--spec` compares the programs with).
pub fn mark(
    pack: &dyn Pack,
    packs: &[&dyn Pack],
    program: &'static str,
    cli: &MarkCli,
) -> ExitCode {
    let Some(dir) = &cli.submissions else {
        return usage(
            program,
            "give the folder of submissions: mark [--spec NAME] SUBMISSIONS [--out DIR]",
        );
    };
    let Some(recipe) = pack.build() else {
        return usage(
            program,
            &format!(
                "spec pack {} has no build line: its programs are not built from a submission \
                 (for bots, `cg-referee arena` ranks them)",
                pack.name()
            ),
        );
    };
    // The reference made ready once, before any check: a folder pack's
    // model is built here and shared with every check's harness, and a
    // model that cannot be built stops the marking before it starts.
    if let Err(e) = pack.reference() {
        return usage(program, &format!("the reference: {e}"));
    }
    let subs = match select(program, dir, cli) {
        Ok(subs) => subs,
        Err(code) => return code,
    };
    let build_line = cli.build.clone().unwrap_or_else(|| recipe.describe());
    let suite = match suite_info(pack, build_line) {
        Ok(s) => s,
        Err(e) => return usage(program, &format!("the suite: {e}")),
    };
    // Before anything is written: one run per output folder.
    let _lock = match super::lock::take(&cli.out) {
        Ok(lock) => lock,
        Err(e) => return usage(program, &e),
    };
    if let Err(e) = std::fs::create_dir_all(cli.out.join("submissions")) {
        return usage(program, &format!("cannot make {}: {e}", cli.out.display()));
    }
    let depends = depends(pack, &suite.content_hash, dir, &cli.out);
    let shared = Arc::new(Shared {
        depends,
        pack_name: pack.name().to_owned(),
        recipe,
        run: pack.run_line(),
        cli_build: cli.build.clone(),
        out: cli.out.clone(),
        suite,
        check: check_options(pack, cli, recipe.program),
        build_timeout: cli.build_timeout,
        rerun: cli.rerun,
    });
    let total = subs.len();
    let jobs = cli
        .jobs
        .filter(|&j| j > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .min(total);
    let out_dir = cli.out.clone();
    crate::exec::interrupt::on_interrupt(move |sig| {
        say!(
            "\n{program} mark: interrupted by {}: the submissions marked so far are in {}; \
             the same command marks the rest (unchanged ones are skipped)",
            crate::exec::run::signal_name(sig),
            out_dir.join("submissions").display()
        );
    });
    let marks = run_workers(&shared, subs, jobs, program);
    let Some((marks, faults)) = marks else {
        return exit::code(exit::INTERRUPTED);
    };
    match write_class_view(&shared.out, &shared.suite, &marks, cli.partition) {
        Ok(view) => {
            say!(
                "{program} mark: {} submission(s), {} built, mean {} of {}: {}",
                view.submissions,
                view.built,
                view.mean,
                view.max,
                shared.out.join("index.html").display()
            );
        }
        Err(e) => return usage(program, &e),
    }
    let struck: Vec<&str> = marks
        .iter()
        .filter(|m| !m.environment.is_empty())
        .map(|m| m.id.as_str())
        .collect();
    if !struck.is_empty() {
        say!(
            "{program} mark: ENVIRONMENT FAILURE: {} submission(s) failed for what this machine \
             lacks, not for their own bugs ({}): do not publish these marks; install what is \
             missing where the marks run and mark again",
            struck.len(),
            struck.join(", ")
        );
        for e in super::cohort::build(&shared.suite, &marks).environment {
            say!(
                "{program} mark:   {}: {}",
                e.cause,
                e.submissions.join(", ")
            );
        }
    }
    if let Some(warning) = super::sanity::wrong_run(packs, pack, &marks) {
        say!("{program} mark: WARNING: {warning}");
        if faults == 0 {
            return exit::code(exit::FAILED);
        }
    }
    if faults > 0 {
        say!(
            "{program} mark: the harness could not mark {faults} submission(s) (named above); \
             they have no row: the same command tries them again"
        );
        return exit::code(exit::USAGE);
    }
    if !struck.is_empty() {
        return exit::code(exit::ENVIRONMENT);
    }
    exit::code(exit::PASSED)
}

/// The parts every mark depends on: this harness, the suite, and what
/// the pack names (its model, its own folder, the environment), the
/// submissions and the output folder left out of them.
fn depends(pack: &dyn Pack, suite: &str, subs: &Path, out: &Path) -> stale::Parts {
    let absolute = |p: &Path| {
        std::fs::canonicalize(p)
            .or_else(|_| std::path::absolute(p))
            .unwrap_or_else(|_| p.to_owned())
    };
    let leave_out = [absolute(subs), absolute(out)];
    let mut parts = stale::Parts::new();
    parts.insert("the harness".to_owned(), stale::harness());
    parts.insert("the suite".to_owned(), suite.to_owned());
    for dep in pack.depends_on() {
        parts.insert(dep.name.to_owned(), stale::dependency(&dep, &leave_out));
    }
    parts
}

/// What each submission's check is run with.
fn check_options(pack: &dyn Pack, cli: &MarkCli, program: &str) -> CheckOptions {
    CheckOptions {
        spec: pack.spec().to_owned(),
        timeout: cli.timeout,
        strict: cli.strict,
        memcheck: cli.memcheck,
        reproduce_as: match pack.run_line() {
            Some(run) => build::run_line(run, program),
            None => format!("./{program}"),
        },
    }
}

/// The submissions of `dir` this run marks (its slice), the entries that
/// are not submissions named.
fn select(program: &str, dir: &Path, cli: &MarkCli) -> Result<Vec<Submission>, ExitCode> {
    let (mut subs, skipped) = match intake::discover(dir, &cli.out) {
        Ok(found) => found,
        Err(e) => return Err(usage(program, &e)),
    };
    for name in &skipped {
        say!("{program} mark: skipping {name}: neither a folder nor a .zip/.tar/.tar.gz archive");
    }
    if subs.is_empty() {
        return Err(usage(
            program,
            &format!(
                "no submissions in {} (a submission is a folder or an archive{})",
                dir.display(),
                if skipped.is_empty() {
                    String::new()
                } else {
                    format!("; found only: {}", skipped.join(", "))
                }
            ),
        ));
    }
    if let Some(p) = cli.partition {
        subs = subs
            .into_iter()
            .enumerate()
            .filter(|(i, _)| p.holds(*i))
            .map(|(_, s)| s)
            .collect();
        // More slices than submissions: this one writes its (empty)
        // outputs with its K/N all the same, so that the set merges.
        if subs.is_empty() {
            say!(
                "{program} mark: slice {}/{} holds no submission (more slices than \
                 submissions); its outputs are written empty, for `mark merge`",
                p.k,
                p.n
            );
        }
    }
    Ok(subs)
}

/// Marks every submission on `jobs` threads; `None` when interrupted.
fn run_workers(
    shared: &Arc<Shared>,
    subs: Vec<Submission>,
    jobs: usize,
    program: &str,
) -> Option<(Vec<SubmissionMark>, usize)> {
    let total = subs.len();
    let queue = Arc::new(Mutex::new(subs.into_iter().collect::<VecDeque<_>>()));
    let (tx, rx) = mpsc::channel();
    let mut handles = Vec::new();
    for _ in 0..jobs {
        let (queue, tx, shared) = (Arc::clone(&queue), tx.clone(), Arc::clone(shared));
        handles.push(std::thread::spawn(move || {
            loop {
                let next = queue
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .pop_front();
                let Some(sub) = next else { break };
                let done = one(&shared, &sub);
                let stop = matches!(done, Done::Interrupted);
                if tx.send(done).is_err() || stop {
                    break;
                }
            }
        }));
    }
    drop(tx);
    let bar = progress_bar(total);
    let mut marks = Vec::with_capacity(total);
    let mut faults = 0;
    let mut interrupted = false;
    for (k, done) in rx.iter().enumerate() {
        let line = |m: &SubmissionMark, how: &str| {
            format!(
                "[{}/{total}] {}: {how}, {} of {}{}{}{}",
                k + 1,
                m.id,
                (m.total * 100.0).round() / 100.0,
                m.max,
                m.reason
                    .as_ref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default(),
                match m.memory_warnings.len() {
                    0 => String::new(),
                    n => format!(" ({n} memory warning(s), no marks lost)"),
                },
                match m.environment.first() {
                    None => String::new(),
                    Some(why) => format!(" — ENVIRONMENT FAILURE, not the program's: {why}"),
                }
            )
        };
        let text = match done {
            Done::Marked(m, stale) => {
                let how = match stale {
                    Some(why) => format!("re-marked ({why}), build {}", m.build),
                    None => format!("build {}", m.build),
                };
                let t = line(&m, &how);
                marks.push(*m);
                t
            }
            Done::Kept(m) => {
                let t = line(&m, "unchanged");
                marks.push(*m);
                t
            }
            Done::Fault(m, e) => {
                faults += 1;
                format!(
                    "[{}/{total}] {}: not marked, no row — harness fault: {e}",
                    k + 1,
                    m.id
                )
            }
            Done::Interrupted => {
                interrupted = true;
                continue;
            }
        };
        if let Some(b) = &bar {
            b.println(text);
            b.inc(1);
        } else {
            say!("{program} mark: {text}");
        }
    }
    for h in handles {
        let _ = h.join();
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if interrupted || crate::exec::interrupt::interrupted() {
        return None;
    }
    marks.sort_by(|a, b| a.id.as_bytes().cmp(b.id.as_bytes()));
    Some((marks, faults))
}

fn progress_bar(total: usize) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:30} {pos}/{len} submissions, {elapsed} elapsed, ETA {eta}",
    ) {
        bar.set_style(style);
    }
    Some(bar)
}

/// Every part that decides a submission's mark, hashed apart: the shared
/// ones, the options and its build line, its files.
fn inputs_parts(shared: &Shared, files: &crate::model::files::Files, line: &str) -> stale::Parts {
    let mut h = Sha256::new();
    for part in [
        &shared.pack_name,
        line,
        shared.run.unwrap_or_default(),
        &format!("{:?}", shared.check.timeout),
        &format!("{}", shared.check.strict),
        &shared
            .check
            .memcheck
            .map(|m| m.to_string())
            .unwrap_or_default(),
        &format!("{:?}", shared.build_timeout),
    ] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    let mut parts = shared.depends.clone();
    parts.insert("the options".to_owned(), suite::hex(&h.finalize()));
    parts.insert("the submission".to_owned(), files.hash());
    parts
}

fn previous(out: &Path, slug: &str) -> Option<SubmissionMark> {
    let text =
        std::fs::read_to_string(out.join("submissions").join(slug).join("mark.json")).ok()?;
    serde_json::from_str(&text).ok()
}

/// Marks one submission.
fn one(shared: &Shared, sub: &Submission) -> Done {
    let started = Instant::now();
    let mut mark = SubmissionMark {
        format: record::FORMAT.to_owned(),
        id: sub.id.clone(),
        slug: sub.slug.clone(),
        students: sub.students.clone(),
        build: BuildStatus::Failed,
        reason: None,
        warnings: 0,
        inputs: String::new(),
        categories: SubmissionMark::unmarked(&shared.suite.categories),
        total: 0.0,
        max: shared.suite.categories.iter().map(|c| c.marks).sum(),
        passed: 0,
        failed: 0,
        errors: 0,
        cases: Vec::new(),
        causes: Vec::new(),
        memory_warnings: Vec::new(),
        seconds: 0.0,
        usage: None,
        deductions: Vec::new(),
        depends: stale::Parts::new(),
        environment: Vec::new(),
    };
    let files = unpack::read(&sub.source);
    let line = match (&files, &shared.cli_build) {
        (_, Some(line)) => line.clone(),
        (Ok(f), None) => shared.recipe.line_for(f.top_names()).to_owned(),
        (Err(_), None) => shared.recipe.otherwise.to_owned(),
    };
    mark.depends = match &files {
        Ok(f) => inputs_parts(shared, f, &line),
        Err(e) => inputs_parts(
            shared,
            &crate::model::files::Files::default(),
            &format!("{line}\0{e}"),
        ),
    };
    mark.inputs = stale::combined(&mark.depends);
    // A kept mark is re-used only when every part it depends on is the
    // same; otherwise the re-mark says which changed.
    let old = previous(&shared.out, &sub.slug);
    let stale = match old {
        // A mark the environment struck is never kept: what was missing
        // may be installed since (a module is no file the hash reads).
        Some(old)
            if old.format == record::FORMAT
                && old.inputs == mark.inputs
                && !old.environment.is_empty() =>
        {
            Some("it failed for the environment last time".to_owned())
        }
        Some(old) if old.format == record::FORMAT && old.inputs == mark.inputs => {
            if !shared.rerun {
                return Done::Kept(Box::new(old));
            }
            None
        }
        Some(old) if old.format == record::FORMAT => Some(stale::why(&old.depends, &mark.depends)),
        Some(_) => Some("marked by an older harness".to_owned()),
        None => None,
    };
    let folder = shared.out.join("submissions").join(&sub.slug);
    let staging = shared
        .out
        .join("submissions")
        .join(format!(".{}.partial", sub.slug));
    let _ = std::fs::remove_dir_all(&staging);
    let ticket =
        match Ticket::register(|| std::fs::create_dir(&staging).map(|()| ((), staging.clone()))) {
            Ok(Ok((t, ()))) => t,
            Ok(Err(e)) => {
                return Done::Fault(
                    Box::new(mark),
                    format!("cannot make {}: {e}", staging.display()),
                );
            }
            Err(_) => return Done::Interrupted,
        };
    match fill(shared, sub, files, &line, &staging, &ticket, &mut mark) {
        Ok(()) => {}
        Err(e) if e == check::INTERRUPTED || crate::exec::interrupt::interrupted() => {
            return Done::Interrupted;
        }
        Err(e) => {
            // The harness's own failure is no mark: nothing of it is put in
            // place (an earlier run's folder stays), and it is never kept.
            let _ = std::fs::remove_dir_all(&staging);
            drop(ticket);
            return Done::Fault(Box::new(mark), e);
        }
    }
    mark.seconds = started.elapsed().as_secs_f64();
    let written = write_outputs(shared, &mark, &staging).and_then(|()| {
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::rename(&staging, &folder)
            .map_err(|e| format!("cannot move {} into place: {e}", staging.display()))
    });
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    drop(ticket);
    match written {
        Err(e) => Done::Fault(Box::new(mark), e),
        Ok(()) => Done::Marked(Box::new(mark), stale),
    }
}

/// Builds and checks a submission into `staging`; `Err` is the harness's
/// fault (or an interrupt), never the submission's.
fn fill(
    shared: &Shared,
    sub: &Submission,
    files: Result<crate::model::files::Files, String>,
    line: &str,
    staging: &Path,
    ticket: &Ticket,
    mark: &mut SubmissionMark,
) -> Result<(), String> {
    let write = |name: &str, bytes: &[u8]| {
        std::fs::write(staging.join(name), bytes).map_err(|e| format!("cannot write {name}: {e}"))
    };
    let files = match files {
        Ok(f) => f,
        Err(e) => {
            mark.reason = Some(format!("cannot read the submission: {e}"));
            return write("build.log", format!("not built: {e}\n").as_bytes());
        }
    };
    let flags = shared
        .check
        .memcheck
        .map(crate::exec::memcheck::Memcheck::flags);
    let built = build::build(
        &files,
        line,
        shared.recipe.program,
        shared.build_timeout,
        shared.run.is_some(),
        flags,
    )?;
    write("build.log", &built.log)?;
    mark.build = built.status;
    mark.warnings = built.warnings;
    mark.reason = built.reason;
    let Some(bytes) = built.program else {
        return Ok(());
    };
    // Kept under `programs/`, a path that stays after the run: the
    // reproduce lines of `report.txt` name it.
    let dir = std::path::absolute(shared.out.join("programs").join(&sub.slug))
        .map_err(|e| format!("cannot place the program: {e}"))?;
    let _ = std::fs::remove_dir_all(&dir);
    let folder = built.folder.unwrap_or_else(|| {
        crate::model::files::Files(
            [(shared.recipe.program.to_owned(), bytes)].into(),
            [shared.recipe.program.to_owned()].into(),
        )
    });
    folder
        .write_to(&dir)
        .map_err(|e| format!("cannot place the program: {e}"))?;
    let (target, bin) = match build::program_target(&dir, shared.recipe.program, shared.run) {
        Ok(found) => found,
        Err(why) => {
            mark.build = BuildStatus::NoBinary;
            mark.reason = Some(crate::judge::mask::in_program_folder(&dir, &why));
            return Ok(());
        }
    };
    // A program that cannot start (not an executable format, a `#!` line
    // ending in a carriage return, a missing interpreter, a script its
    // interpreter cannot open) is the submission's fault, said once, not
    // the harness's.
    if let Err(e) = crate::exec::preflight::check(&target) {
        mark.build = BuildStatus::NoBinary;
        let why = crate::judge::mask::in_program_folder(&dir, &e.why);
        mark.reason = Some(match shared.run {
            Some(run) => format!(
                "`{}` cannot run: {}",
                build::run_line(run, shared.recipe.program),
                why
            ),
            None => format!(
                "the build made `{}`, which cannot run: {}",
                shared.recipe.program, why
            ),
        });
        return Ok(());
    }
    // A build line that ignores the sanitizer flags (a Makefile setting
    // CFLAGS itself) would leave every submission unchecked: the
    // course's line is at fault, said once per submission.
    if let Some(memcheck) = &shared.check.memcheck {
        memcheck.check(&target).map_err(|e| {
            format!(
                "{e}: the build line `{line}` does not use CFLAGS from its environment \
                 (docs/memory.md says how a Makefile takes them)"
            )
        })?;
    }
    mark.usage = super::sanity::usage_line(target);
    let results = check::check(&bin, staging, &shared.check, ticket)?;
    mark.take_results(&results, shared.check.strict);
    Ok(())
}

/// Bytes of the build's log a Gradescope output quotes (its end).
const BUILD_TAIL: usize = 3000;

/// The files every submission's folder holds, whatever happened.
fn write_outputs(shared: &Shared, mark: &SubmissionMark, staging: &Path) -> Result<(), String> {
    let write = |name: &str, bytes: &[u8]| {
        std::fs::write(staging.join(name), bytes).map_err(|e| format!("cannot write {name}: {e}"))
    };
    if !staging.join("report.txt").exists() {
        let why = mark.reason.as_deref().unwrap_or("not built");
        write(
            "report.txt",
            format!(
                "{}: not marked: {why}\nThe build's output is in build.log.\n",
                mark.id
            )
            .as_bytes(),
        )?;
    }
    if !staging.join("results.json").exists() {
        write("results.json", b"null\n")?;
    }
    if !staging.join("gradescope.json").exists() {
        // The autograder's student sees why, and the build's last lines.
        let log = std::fs::read(staging.join("build.log")).unwrap_or_default();
        let tail = log
            .get(log.len().saturating_sub(BUILD_TAIL)..)
            .unwrap_or_default();
        let grade = serde_json::json!({
            "score": 0.0,
            "output": format!(
                "Not marked: {}\n\nThe end of the build's output:\n{}",
                mark.reason.as_deref().unwrap_or("not built"),
                String::from_utf8_lossy(tail)
            ),
            "visibility": "visible",
            "stdout_visibility": "hidden",
            "output_format": "text",
            "tests": [],
        });
        write(
            "gradescope.json",
            (serde_json::to_string_pretty(&grade).unwrap_or_default() + "\n").as_bytes(),
        )?;
    }
    let text = std::fs::read(staging.join("report.txt")).unwrap_or_default();
    write(
        "report.html",
        html::report(mark, &shared.suite.suite, &text).as_bytes(),
    )?;
    let json = serde_json::to_string_pretty(mark).map_err(|e| e.to_string())? + "\n";
    write_atomic(&staging.join("mark.json"), json.as_bytes())
}
