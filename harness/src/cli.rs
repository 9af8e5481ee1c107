//! The command line: subcommand dispatch, then the case runner, which turns
//! every selected case into a libtest-mimic trial and adds the header, the
//! score, the JUnit file and the exit status around libtest-mimic's run.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use clap::Parser as _;
use libtest_mimic::{Arguments, Failed, FormatSetting, Trial};

use crate::bless::{self, Blessed};
use crate::case::{self, Overrides};
use crate::compare;
use crate::exit;
use crate::report::{self, CaseResult, Style, Verdict};
use crate::run::{self, Target};
use crate::schema::{Case, Suite};
use crate::suite::{self, CaseFile, Root, Selection};

/// The harness's own options; libtest-mimic's (filters, `--list`,
/// `--exact`, `--skip`, `--test-threads`, `--format`, `--include-ignored`…)
/// are flattened in.
#[derive(Debug, clap::Parser)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent command-line flags"
)]
#[command(
    name = "boxes-harness",
    about = "Replays the boxes conformance cases against a program, byte for byte.",
    after_help = "Without --bin the built-in reference is checked. Environment: BOXES_BIN \
                  (as --bin), BOXES_BLESS=1 (as --bless), NO_COLOR.\n\
                  Subcommands: `schema` prints the JSON Schema of the case format."
)]
struct Cli {
    /// The program to check (default: the built-in reference).
    #[arg(long, value_name = "PATH")]
    bin: Option<PathBuf>,
    /// A case folder or case file; repeatable (default: the built-in suite).
    #[arg(long = "cases", value_name = "PATH")]
    cases: Vec<PathBuf>,
    /// Seconds per case, replacing every case's own timeout.
    #[arg(long, value_name = "SECS", value_parser = run::parse_timeout)]
    timeout: Option<Duration>,
    /// Only cases citing this rule ID; repeatable.
    #[arg(long = "rule", value_name = "ID")]
    rules: Vec<String>,
    /// Only cases of this category; repeatable.
    #[arg(long = "category", value_name = "NAME")]
    categories: Vec<String>,
    /// Rewrite the expected fields of the selected cases from the reference.
    #[arg(long)]
    bless: bool,
    /// Print the marking categories with passed/total and an estimated mark.
    #[arg(long)]
    score: bool,
    /// Count ambiguous cases in their categories (and run them).
    #[arg(long)]
    strict: bool,
    /// Write a JUnit XML report to PATH.
    #[arg(long, value_name = "PATH")]
    junit: Option<PathBuf>,
    /// Print every rule of rules.yaml with the number of cases citing it.
    #[arg(long)]
    coverage: bool,
    #[command(flatten)]
    test: Arguments,
}

/// Behaviour that differs between the harness binary and the conformance
/// test target.
#[derive(Debug, Clone, Copy, Default)]
pub struct Defaults {
    /// Run ambiguous cases too, as if `--include-ignored` were given.
    pub include_ambiguous: bool,
    /// Ignore `BOXES_BIN`: `cargo test` checks the reference whatever the
    /// environment says.
    pub ignore_bin_env: bool,
}

/// The whole program, given `argv` with the program name first. Exits
/// through the constants of [`crate::exit`].
pub fn main_with_args(argv: Vec<OsString>, defaults: Defaults) -> ExitCode {
    // Subcommands are dispatched here, on the first argument, before the
    // case runner's parser sees anything. `diff` (differential mode) plugs in
    // as one more arm.
    match argv.get(1).and_then(|a| a.to_str()) {
        Some(crate::diff::SUBCOMMAND) => crate::diff::main(&argv[2..]),
        Some("schema") => {
            print!("{}", crate::schema::json_schema());
            exit::code(exit::PASSED)
        }
        _ => run_cases(argv, defaults),
    }
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("boxes-harness: {message}");
    exit::code(exit::USAGE)
}

struct Context {
    target: Target,
    overrides: Overrides,
    style: Style,
    bless: bool,
    results: Mutex<Vec<CaseResult>>,
}

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

fn run_cases(argv: Vec<OsString>, defaults: Defaults) -> ExitCode {
    let cli = match parse(argv, defaults) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let selections = match selections(&cli) {
        Ok(s) => s,
        Err(e) => return usage_error(&e),
    };
    if cli.coverage {
        return coverage(&selections);
    }
    let (target, timeout) = match target(&cli) {
        Ok(t) => t,
        Err(e) => return usage_error(&e),
    };
    // A program that cannot even start is a set-up error, explained once,
    // not the same failure in every case.
    if !target.is_reference()
        && !cli.test.list
        && let Err(e) = crate::preflight::check(&target)
    {
        return usage_error(&e.to_string());
    }
    let ctx = Arc::new(Context {
        target,
        overrides: Overrides { timeout },
        style: Style {
            colour: report::colour_wanted(),
        },
        bless: cli.bless,
        results: Mutex::new(Vec::new()),
    });
    install_interrupt_report(&ctx, &cli);
    let plan = match plan(&cli, defaults, &selections, &ctx) {
        Ok(p) => p,
        Err(e) => return usage_error(&e),
    };
    if let Some(e) = unmatched_filter(&cli.test, &plan.trials) {
        return usage_error(&e);
    }
    let chatty = !(cli.test.list || matches!(cli.test.format, Some(FormatSetting::Json)));
    if chatty {
        print_header(&cli, &ctx.target, &plan);
    }

    let conclusion = libtest_mimic::run(&cli.test, plan.trials);

    if plan.ambiguous_ignored > 0 && chatty {
        println!(
            "{} ambiguous cases ignored: their expected bytes rest on a ruling marked \
             ambiguous, where careful programs differ (cases/AMBIGUITIES.md); \
             --include-ignored runs them",
            plan.ambiguous_ignored
        );
    }
    let results = std::mem::take(&mut *ctx.results.lock().unwrap_or_else(PoisonError::into_inner));
    if cli.score
        && let Some(suite) = plan.suites.iter().find_map(|(_, s)| s.as_ref().ok())
    {
        let rows = report::score(suite, &results, cli.strict);
        let table = report::score_table(suite, &rows, cli.strict);
        // JSON output stays parseable: the table goes to stderr then.
        if chatty {
            print!("{table}");
        } else {
            eprint!("{table}");
        }
    }
    if let Some(path) = &cli.junit {
        let mut sorted = results;
        sorted.sort_by(|a, b| a.name.cmp(&b.name));
        if let Err(e) = std::fs::write(path, report::junit(&sorted)) {
            return usage_error(&format!("cannot write {}: {e}", path.display()));
        }
    }
    if conclusion.has_failed() {
        exit::code(exit::FAILED)
    } else {
        exit::code(exit::PASSED)
    }
}

/// On Ctrl-C / SIGTERM ([`crate::interrupt`]): every program is killed
/// and every sandbox removed, then this prints what finished (and, with
/// `--score`, the partial score, marked partial) before the exit 130 / 143.
fn install_interrupt_report(ctx: &Arc<Context>, cli: &Cli) {
    if let Err(e) = crate::interrupt::install() {
        eprintln!("boxes-harness: warning: Ctrl-C will not clean up: {e}");
    }
    let ctx = Arc::clone(ctx);
    let score = cli.score.then(|| (suite_of(cli), cli.strict));
    crate::interrupt::on_interrupt(move |sig| {
        let results = ctx.results.lock().unwrap_or_else(PoisonError::into_inner);
        let passed = results
            .iter()
            .filter(|r| matches!(r.verdict, Verdict::Passed))
            .count();
        println!(
            "\ninterrupted by {}: {} cases finished ({passed} passed, {} failed); every \
             running program was killed and its sandbox removed; the other cases did not run",
            run::signal_name(sig),
            results.len(),
            results.len() - passed
        );
        if let Some((Some(suite), strict)) = &score {
            println!("partial score (interrupted: only the cases that finished count):");
            print!(
                "{}",
                report::score_table(suite, &report::score(suite, &results, *strict), *strict)
            );
        }
    });
}

/// The suite of the first `--cases` (or the built-in one), for a partial
/// score.
fn suite_of(cli: &Cli) -> Option<Suite> {
    let root = match cli.cases.first() {
        None => Root::Embedded,
        Some(p) => match suite::select(p).ok()? {
            Selection::Tree(root) => root,
            Selection::Files(files) => files.first()?.root.clone(),
            Selection::Corpus(dir) => Root::Dir(dir),
        },
    };
    suite::suite_for(&root).ok()
}

/// Parses the command line and folds in the environment (`BOXES_BLESS`,
/// `BOXES_BIN`, `NO_COLOR`); `Err` is the exit code of `--help` or of a
/// usage error, already reported.
fn parse(argv: Vec<OsString>, defaults: Defaults) -> Result<Cli, ExitCode> {
    let mut cli = Cli::try_parse_from(argv).map_err(|e| {
        let _ = e.print();
        exit::code(if e.use_stderr() {
            exit::USAGE
        } else {
            exit::PASSED
        })
    })?;
    cli.bless |= env_flag("BOXES_BLESS");
    if cli.bin.is_none() && !defaults.ignore_bin_env {
        cli.bin = std::env::var_os("BOXES_BIN")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
    }
    if !report::colour_wanted() {
        cli.test.color = Some(libtest_mimic::ColorSetting::Never);
    }
    Ok(cli)
}

/// What `--cases` names; without it the built-in suite (or, to bless, the
/// folder it was built from).
fn selections(cli: &Cli) -> Result<Vec<Selection>, String> {
    if cli.cases.is_empty() {
        if !cli.bless {
            return Ok(vec![Selection::Tree(Root::Embedded)]);
        }
        let dir = PathBuf::from(suite::SOURCE_CASES_DIR);
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

/// The program to run and the `--timeout` override, checked before any
/// case runs.
fn target(cli: &Cli) -> Result<(Target, Option<Duration>), String> {
    if cli.bless && cli.bin.is_some() {
        return Err(
            "--bless writes expectations from the reference only; drop --bin / BOXES_BIN"
                .to_owned(),
        );
    }
    let target = match &cli.bin {
        Some(p) => Target::binary(p),
        None => Target::reference(),
    }
    .map_err(|e| e.to_string())?;
    Ok((target, cli.timeout))
}

/// A name filter (`--exact NAME`, a substring) that selects no case is a
/// usage error: a mistyped name must not pass as an empty, successful run.
fn unmatched_filter(args: &Arguments, trials: &[Trial]) -> Option<String> {
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
struct Plan {
    trials: Vec<Trial>,
    roots: Vec<Root>,
    suites: Vec<(Root, Result<Suite, String>)>,
    ambiguous_ignored: usize,
}

fn plan(
    cli: &Cli,
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
        if cases.is_empty() && root != Root::Embedded {
            return Err(format!(
                "no cases in {}",
                match &root {
                    Root::Dir(d) => d.display().to_string(),
                    Root::Embedded => String::new(),
                }
            ));
        }
        if !plan.roots.contains(&root) {
            plan.roots.push(root.clone());
        }
        let suite = if let Some((_, s)) = plan.suites.iter().find(|(r, _)| *r == root) {
            s.clone()
        } else {
            let s = suite::suite_for(&root).map_err(|e| e.to_string());
            plan.suites.push((root.clone(), s.clone()));
            s
        };
        for (file, parsed, origin) in cases {
            if !selected(cli, &file, parsed.as_ref().ok()) {
                continue;
            }
            let ambiguous = parsed.as_ref().is_ok_and(Case::is_ambiguous);
            if ambiguous && !run_ambiguous && !cli.test.include_ignored {
                plan.ambiguous_ignored += 1;
            }
            plan.trials.push(
                trial(Arc::clone(ctx), file, parsed, origin, suite.clone())
                    .with_ignored_flag(ambiguous && !run_ambiguous),
            );
        }
    }
    Ok(plan)
}

/// The header: the program, the suite's name, version and content hash.
fn print_header(cli: &Cli, target: &Target, plan: &Plan) {
    let suite_name = plan
        .suites
        .iter()
        .find_map(|(_, s)| s.as_ref().ok())
        .map(|s| match &s.version {
            Some(v) => format!("{} v{v}", s.name),
            None => s.name.clone(),
        })
        .unwrap_or_default();
    let from: Vec<String> = plan
        .roots
        .iter()
        .map(|r| match r {
            Root::Embedded => "built in".to_owned(),
            Root::Dir(d) => d.display().to_string(),
        })
        .collect();
    println!(
        "boxes-harness: {} {} against suite {suite_name} (content {}; {} cases from {})",
        if cli.bless {
            "blessing from"
        } else {
            "checking"
        },
        target.describe(),
        suite::content_hash(&plan.roots),
        plan.trials.len(),
        from.join(", ")
    );
    let _ = std::io::stdout().flush();
}

/// Where a case comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// A case file.
    CaseFile,
    /// An entry of a corpus manifest (`rel` is the grid file).
    Corpus,
}

type Gathered = (Root, Vec<(CaseFile, Result<Case, String>, Origin)>);

/// The cases of one `--cases` selection, parsed (a file that does not parse
/// is still a case: it fails alone). `Err` is a set-up error.
fn gather(selection: &Selection) -> Result<Option<Gathered>, String> {
    let parse_all = |files: Vec<CaseFile>| {
        files
            .into_iter()
            .map(|f| {
                let parsed = case::load(&f).map_err(|e| e.to_string());
                (f, parsed, Origin::CaseFile)
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
        Selection::Corpus(dir) => {
            let manifest =
                boxes_corpus::Manifest::read(dir).map_err(|e| format!("--cases: {e}"))?;
            let root = Root::Dir(dir.clone());
            let cases = manifest
                .entries
                .iter()
                .map(|entry| {
                    let file = CaseFile {
                        root: root.clone(),
                        rel: entry.file.clone(),
                    };
                    (
                        file,
                        Ok(case::from_corpus_entry(&manifest, entry)),
                        Origin::Corpus,
                    )
                })
                .collect();
            (root, cases)
        }
    }))
}

/// Applies `--rule` and `--category`; a case that does not parse is judged
/// by its folder.
fn selected(cli: &Cli, file: &CaseFile, case: Option<&Case>) -> bool {
    let category = case.map(|c| c.category.as_str()).or_else(|| file.folder());
    let category_ok = cli.categories.is_empty()
        || category.is_some_and(|c| cli.categories.iter().any(|x| x == c));
    let rule_ok =
        cli.rules.is_empty() || case.is_some_and(|c| c.rules.iter().any(|r| cli.rules.contains(r)));
    category_ok && rule_ok
}

fn trial(
    ctx: Arc<Context>,
    file: CaseFile,
    parsed: Result<Case, String>,
    origin: Origin,
    suite: Result<Suite, String>,
) -> Trial {
    let name = file.name().to_owned();
    Trial::test(name.clone(), move || {
        if crate::interrupt::interrupted() {
            return Err(Failed::from("not run: the harness was interrupted"));
        }
        let start = Instant::now();
        let (category, ambiguous) = match &parsed {
            Ok(c) => (Some(c.category.clone()), c.is_ambiguous()),
            Err(_) => (file.folder().map(str::to_owned), false),
        };
        let verdict = match (ctx.bless, origin) {
            (true, Origin::CaseFile) => bless_one(&ctx, &file, parsed),
            (true, Origin::Corpus) => Err(format!(
                "{}: a corpus entry is not blessed: regenerate the corpus with boxes-corpus",
                file.display()
            )),
            (false, _) => check_one(&ctx, &file, parsed, origin, suite),
        };
        let result = CaseResult {
            name,
            category,
            ambiguous,
            verdict: match &verdict {
                Ok(()) => Verdict::Passed,
                Err(m) => Verdict::Failed(m.clone()),
            },
            time: start.elapsed(),
        };
        ctx.results
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(result);
        verdict.map_err(Failed::from)
    })
}

fn check_one(
    ctx: &Context,
    file: &CaseFile,
    parsed: Result<Case, String>,
    origin: Origin,
    suite: Result<Suite, String>,
) -> Result<(), String> {
    let case = parsed.map_err(|e| {
        format!("invalid case file (a fault of the suite, not of the program): {e}")
    })?;
    let suite = suite.map_err(|e| format!("invalid suite.yaml: {e}"))?;
    // A corpus keeps its files in folders named after error classes.
    if origin == Origin::CaseFile {
        case::check_category(&case, file, &suite).map_err(|e| e.to_string())?;
    }
    let inv =
        case::invocation(&case, file, &ctx.target, ctx.overrides).map_err(|e| e.to_string())?;
    let expected = case::expectation(&case, file).map_err(|e| e.to_string())?;
    let outcome = run::run(&inv).map_err(|e| format!("{}: {e}", file.display()))?;
    let mismatches = compare::compare(&expected, &outcome);
    if mismatches.is_empty() {
        return Ok(());
    }
    let stdin_path = case
        .stdin_file
        .as_ref()
        .map(|s| file.root.disk_path(&file.sidecar(s)).display().to_string());
    let failure = report::Failure {
        mismatches: &mismatches,
        hint: case.hint.as_deref(),
        summary: &case.summary,
        rules: &case.rules,
        reproduce: report::reproduce_command(&inv, stdin_path.as_deref()),
        rebless: match origin {
            Origin::CaseFile => rebless_command(file),
            Origin::Corpus => regenerate_command(file, &case),
        },
        rebless_label: match origin {
            Origin::CaseFile => "re-bless from the reference (if the expectation is wrong):",
            Origin::Corpus => "regenerate the corpus (its expectations come from the reference):",
        },
    };
    Err(failure.render(ctx.style))
}

/// The command that regenerates a corpus (its expectations come from the
/// reference library, not from bless).
fn regenerate_command(file: &CaseFile, case: &Case) -> String {
    let dir = match &file.root {
        Root::Dir(d) => d.display().to_string(),
        Root::Embedded => ".".to_owned(),
    };
    let [h, w, p, ..] = case.args.as_slice() else {
        return format!("cargo run --release -p boxes-corpus -- generate --out {dir} ...");
    };
    format!(
        "cargo run --release -p boxes-corpus -- generate --height {h} --width {w} --players {p} \
         --out {}",
        report::shell_quote(&dir)
    )
}

/// The command that re-blesses one case file.
fn rebless_command(file: &CaseFile) -> String {
    let path = file.root.disk_path(&file.rel);
    let shown = pathdiff_cwd(&path);
    format!(
        "cargo run --release -p boxes-harness -- --bless --cases {}",
        report::shell_quote(&shown)
    )
}

/// `path` relative to the current directory when it lies below it.
fn pathdiff_cwd(path: &Path) -> String {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let clean: PathBuf = abs.components().fold(PathBuf::new(), |mut acc, c| {
        match c {
            std::path::Component::ParentDir => {
                acc.pop();
            }
            std::path::Component::CurDir => {}
            c => acc.push(c),
        }
        acc
    });
    std::env::current_dir()
        .ok()
        .and_then(|cwd| clean.strip_prefix(cwd).ok().map(Path::to_owned))
        .unwrap_or(clean)
        .display()
        .to_string()
}

fn bless_one(ctx: &Context, file: &CaseFile, parsed: Result<Case, String>) -> Result<(), String> {
    let case = parsed?;
    let inv =
        case::invocation(&case, file, &ctx.target, ctx.overrides).map_err(|e| e.to_string())?;
    let outcome = run::run(&inv).map_err(|e| format!("{}: {e}", file.display()))?;
    match bless::bless(file, &case, &outcome) {
        Ok(Blessed::Changed | Blessed::Unchanged) => Ok(()),
        Err(e) => Err(e.to_string()),
    }
}

fn coverage(selections: &[Selection]) -> ExitCode {
    let mut rules = None;
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for selection in selections {
        let (root, cases) = match gather(selection) {
            Ok(Some(found)) => found,
            Ok(None) => continue,
            Err(e) => return usage_error(&e),
        };
        if rules.is_none() {
            match suite::rules_for(&root) {
                Ok(r) => rules = Some(r),
                Err(e) => return usage_error(&e.to_string()),
            }
        }
        for (_, parsed, _) in cases {
            for rule in parsed.map(|c| c.rules).unwrap_or_default() {
                *counts.entry(rule).or_default() += 1;
            }
        }
    }
    let Some(rules) = rules else {
        return usage_error("no cases");
    };
    print!("{}", report::coverage_table(&rules, &counts));
    exit::code(exit::PASSED)
}
