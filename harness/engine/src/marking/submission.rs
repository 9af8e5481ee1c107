//! One submission's whole course: its kept mark reused when nothing it
//! depends on changed, else read, built, the memory-checking build's
//! check, the check, and its outputs put in place (a rename); what the
//! workers share ([`Shared`]) and what each submission gave ([`Done`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use sha2::{Digest as _, Sha256};

use crate::exec::interrupt::Ticket;
use crate::model::suite;
use crate::packs::pack::{BuildRecipe, SubmissionBuild, SubmissionBuilds};

use super::build::{self, BuildStatus};
use super::check::{self, CheckOptions};
use super::cohort::SuiteInfo;
use super::intake::Submission;
use super::record::{self, SubmissionMark};
use super::view::write_atomic;
use super::{html, stale, unpack};

/// What one submission gave.
pub(super) enum Done {
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

pub(super) struct Shared {
    pub(super) pack_name: String,
    pub(super) recipe: BuildRecipe,
    /// Each submission's own build, when the pack picks it from the
    /// submission's files ([`crate::packs::pack::Pack::submission_builds`]).
    pub(super) builds: Option<std::sync::Arc<dyn SubmissionBuilds>>,
    /// The course's run line ([`Pack::run_line`]), if the program is not
    /// run itself.
    pub(super) run: Option<&'static str>,
    pub(super) cli_build: Option<String>,
    pub(super) out: PathBuf,
    pub(super) suite: SuiteInfo,
    pub(super) check: CheckOptions,
    pub(super) build_timeout: std::time::Duration,
    pub(super) rerun: bool,
    /// What every mark depends on besides the submission and the
    /// options, each part hashed ([`stale`]).
    pub(super) depends: stale::Parts,
}

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
#[expect(
    clippy::too_many_lines,
    reason = "one submission's course in order: kept mark, staging, read, build, check"
)]
pub(super) fn one(shared: &Shared, sub: &Submission) -> Done {
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
        max: shared.suite.max(),
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
        unjudged: Vec::new(),
    };
    let files = unpack::read(&sub.source);
    // `Err`: not built, for what the machine lacks (the pack's build).
    let build = match (&files, &shared.cli_build, &shared.builds) {
        (_, Some(line), _) => Ok(line.clone()),
        (Ok(f), None, Some(builds)) => match builds.build_for(f) {
            SubmissionBuild::Line(line) => Ok(line),
            SubmissionBuild::Lacks(what) => Err(what),
        },
        (Ok(f), None, None) => Ok(shared.recipe.line_for(f.top_names()).to_owned()),
        (Err(_), None, _) => Ok(shared.recipe.otherwise.to_owned()),
    };
    let line = match &build {
        Ok(line) => line.clone(),
        Err(what) => format!("not built: {what}"),
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
    let line = build.as_deref().map_err(String::as_str);
    match fill(shared, sub, files, line, &staging, &ticket, &mut mark) {
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

/// Builds (by `line`; `Err`: what the machine lacks to build it) and
/// checks a submission into `staging`; `Err` is the harness's fault (or
/// an interrupt), never the submission's.
fn fill(
    shared: &Shared,
    sub: &Submission,
    files: Result<crate::model::files::Files, String>,
    line: Result<&str, &str>,
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
    let line = match line {
        Ok(line) => line,
        Err(what) => {
            // The course's environment, not the student, failed: nothing
            // is charged, the row says why, and `mark` exits non-zero.
            let why = format!(
                "skipped: {what}: not installed where the marks run (the course environment's \
                 failure; nothing charged)"
            );
            mark.environment = vec![format!("skipped: {what}")];
            mark.reason = Some(why.clone());
            return write("build.log", format!("not built: {why}\n").as_bytes());
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
        shared.run.is_some() || shared.builds.is_some(),
        flags,
    )?;
    write("build.log", &built.log)?;
    // Not the student's build where the machine could not start its
    // compiler: nothing charged, and `mark` exits non-zero.
    mark.environment.extend(built.environment());
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
    // The one run before the cases: it starts (else the submission's
    // fault), it prints its usage line (the wrong-suite check), and a
    // Java program's class-data archive is made, kept beside it.
    let started = crate::exec::preflight::start(&target, super::sanity::USAGE_TIMEOUT);
    if let Err(e) = started {
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
    let started = started.unwrap_or_default();
    mark.usage = started.said;
    let archive = started.archive.and_then(|bytes| {
        let path = dir.join(crate::exec::run::jvm::ARCHIVE);
        std::fs::write(&path, bytes).ok().map(|()| path)
    });
    let results = check::check(&bin, archive.as_deref(), staging, &shared.check, ticket)?;
    mark.take_results(&results, shared.check.strict);
    Ok(())
}

/// Bytes of the build's log a Gradescope output quotes (its end).
const BUILD_TAIL: usize = 3000;

/// The files every submission's folder holds, whatever happened (but
/// `gradescope.json` for a mark the environment struck).
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
    // A mark the environment struck (a case not judged, a compiler the
    // machine lacks) is no mark: no `gradescope.json`, which the
    // autograder turns into an autograder failure rather than a 0.
    if !staging.join("gradescope.json").exists() && mark.environment.is_empty() {
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
