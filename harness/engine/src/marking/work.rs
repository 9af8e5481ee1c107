//! One marking run: the submissions found and sliced, marked by `--jobs`
//! workers ([`super::workers`]), each submission's course in
//! [`super::submission`], then the class view from every submission's
//! `mark.json`.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use crate::model::suite::{self, Root};
use crate::output::exit;
use crate::packs::pack::Pack;

use super::args::MarkCli;
use super::build;
use super::check::CheckOptions;
use super::cohort::SuiteInfo;
use super::gap::Class;
use super::intake::{self, Submission};
use super::record::Category;
use super::stale;
use super::submission::Shared;
use super::view::write_class_view;
use super::workers::run_workers;

fn usage(program: &str, message: &str) -> ExitCode {
    say!("{program} mark: {message}");
    exit::code(exit::USAGE)
}

impl SuiteInfo {
    /// The marks available: the suite's grading tree's (a problem
    /// package's parent groups' graders), else the categories' sum.
    pub fn max(&self) -> f64 {
        self.marks
            .unwrap_or_else(|| self.categories.iter().map(|c| c.marks).sum())
    }
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
        marks: suite.grading.as_ref().map(|g| g.marks),
    })
}

/// The tolerances `pack`'s suite and rules declare, in one line; `None`
/// when every part compares exactly.
fn tolerances(pack: &dyn Pack) -> Option<String> {
    let root = Root::Embedded(pack.suite());
    let suite = suite::suite_with_rules(&root, pack.suite()).ok()?;
    let declared = crate::model::matching::declared(suite.matching.as_ref(), &suite.rule_matching);
    (!declared.is_empty()).then(|| format!("tolerances: {}", declared.join("; ")))
}

/// What a pack blessed before `bless` kept its model's traces (or whose
/// stdout changed since) costs at `mark`, once for the marker: the model
/// runs to name those cases' failures (and count their reads), as it did
/// then, so the marks are the same; a bless keeps them. `None` when every
/// case has its trace.
fn untraced(pack: &dyn Pack) -> Option<String> {
    let root = Root::Embedded(pack.suite());
    let mut count = 0;
    for rel in root.case_files().ok()? {
        let file = suite::CaseFile {
            root: root.clone(),
            rel,
        };
        let Ok(case) = crate::model::case::load(&file) else {
            continue;
        };
        let Ok(expected) = crate::model::case::expectation(&case, &file) else {
            continue;
        };
        if case.script.is_none()
            && crate::judge::provenance::kept(&case, &file, &expected.stdout)
                == Ok(crate::judge::provenance::Kept::Unknown)
        {
            count += 1;
        }
    }
    (count > 0).then(|| {
        format!(
            "{count} case(s) have no trace of the model kept with them (blessed before traces \
             were kept, or stdout edited since): the model runs during marking to name their \
             failures' rules and count their reads, as before (the same marks, more time); \
             `bless --spec {}` keeps them",
            pack.spec()
        )
    })
}

/// `mark` for `pack`, one of the registered `packs` (which the check for
/// a wrong `--spec` compares the programs with).
#[expect(
    clippy::too_many_lines,
    reason = "one run's steps in order: options, selection, workers, class view"
)]
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
    let reference = match pack.reference() {
        Ok(reference) => reference,
        Err(e) => return usage(program, &format!("the reference: {e}")),
    };
    if reference.is_model()
        && pack.reference_in_checks()
        && let Some(line) = untraced(pack)
    {
        say!("{program} mark: {line}");
    }
    // A limit the pack measures (a problem package times its accepted
    // submissions) is measured once here, unless --timeout replaces it;
    // every check inherits it.
    if cli.timeout.is_none() {
        let _ = pack.default_timeout();
    }
    let (subs, class) = match select(program, dir, cli) {
        Ok(found) => found,
        Err(code) => return code,
    };
    // The marker's view keeps what a student's report leaves out: the
    // tolerances the pack declares, checker command lines and all.
    if let Some(line) = tolerances(pack) {
        say!("{program} mark: {line} (each student's report says, case by case, what was judged)");
    }
    // `--prebuilt`: the empty line, which builds nothing.
    let cli_build = if cli.prebuilt {
        Some(crate::packs::pack::NO_BUILD.to_owned())
    } else {
        cli.build.clone()
    };
    let build_line = match &cli_build {
        Some(line) if line == crate::packs::pack::NO_BUILD => {
            "no build (run as handed in)".to_owned()
        }
        Some(line) => line.clone(),
        None => recipe.describe(),
    };
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
        builds: pack.submission_builds(),
        run: pack.run_line(),
        cli_build,
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
    match write_class_view(&shared.out, &shared.suite, &marks, cli.partition, &class) {
        Ok(view) => {
            say!(
                "{program} mark: {} submission(s), {} built, {}: {}",
                view.submissions,
                view.built,
                super::struck::mean_said(view.mean, view.max),
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
        say!("{program} mark: {}", super::struck::said(&marks, &struck));
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
             they have no marks (`not marked` in marks.csv): the same command tries them again"
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
/// are not submissions named; and the class they were cut from.
fn select(program: &str, dir: &Path, cli: &MarkCli) -> Result<(Vec<Submission>, Class), ExitCode> {
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
    let class = Class {
        ids: subs.iter().map(|s| s.id.clone()).collect(),
        slices: cli.partition.map(|p| p.n),
    };
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
    Ok((subs, class))
}
