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

use libtest_mimic::{Arguments, Failed, FormatSetting, Trial};

use crate::bless::{self, Blessed};
use crate::case::{self, Overrides};
use crate::compare;
use crate::diff::DiffCli;
use crate::diff::explore::Context as DiffContext;
use crate::driver::{CaseDriver, Conversation, DriveSettings};
use crate::exit;
use crate::failure::{CaseFailure, Notes};
use crate::pack::{self, ForeignCases, Pack};
use crate::report::{self, CaseResult, Style, Verdict};
use crate::results::RunInfo;
use crate::run::{self, Invocation, Target};
use crate::schema::{Case, Suite};
use crate::suite::{self, CaseFile, Root};

/// The command line: a subcommand, or the options of `run` (the default).
#[derive(Debug, clap::Parser)]
#[command(
    about = "Replays a spec pack's conformance cases against a program, byte for byte.",
    after_help = "Without --bin the built-in reference is checked. Environment: NAME_BIN \
                  (as --bin), NAME_BLESS=1 (as --bless), NAME_TIME_FACTOR (as --time-factor), NAME the \
                  pack's name in capitals; \
                  NO_COLOR.",
    args_conflicts_with_subcommands = true
)]
struct Top {
    #[command(subcommand)]
    command: Option<Sub>,
    #[command(flatten)]
    run: Cli,
}

/// The subcommands.
#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// Run the selected cases against a program (the default).
    Run(Cli),
    /// Rewrite the expected fields of the selected cases from the reference.
    Bless(Cli),
    /// List the selected cases without running them.
    List(Cli),
    /// Print every rule of rules.yaml with the number of cases citing it.
    Coverage(Cli),
    /// Run random sessions on a candidate and on the reference (or
    /// --against), compare them byte for byte, and write each distinct
    /// mismatch as a shrunk case.
    Diff(DiffCommand),
    /// Print the JSON Schema of the case format.
    Schema {
        /// Print the schema of the --results document instead.
        #[arg(long)]
        results: bool,
    },
}

/// The options of a run.
#[derive(Debug, clap::Args)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent command-line flags"
)]
struct Cli {
    /// The spec pack whose program is checked (default: the first one
    /// registered).
    #[arg(long, value_name = "NAME")]
    spec: Option<String>,
    /// The program to check (default: the built-in reference): a path, or
    /// for a pack whose programs are command lines one shell-quoted command
    /// (`'python3 bot.py'`).
    #[arg(long, value_name = "PATH|CMD")]
    bin: Option<PathBuf>,
    /// Scales every time limit of conversation cases, for slow machines
    /// (default 1, or NAME_TIME_FACTOR).
    #[arg(long, value_name = "F")]
    time_factor: Option<f64>,
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
    /// Write the results as JSON to PATH (schema: cases/results.schema.json).
    #[arg(long, value_name = "PATH")]
    results: Option<PathBuf>,
    /// Write Gradescope's autograder results.json to PATH (one test per
    /// marking category).
    #[arg(long, value_name = "PATH")]
    gradescope: Option<PathBuf>,
    /// Print every rule of rules.yaml with the number of cases citing it.
    #[arg(long)]
    coverage: bool,
    /// Give each failed case a folder below DIR with its files, stdin,
    /// expected outputs and a run.sh that replays it.
    #[arg(long, value_name = "DIR")]
    keep_failed: Option<PathBuf>,
    #[command(flatten)]
    libtest: TestArgs,
    /// The libtest-mimic arguments built from [`Cli::libtest`].
    #[arg(skip)]
    test: Arguments,
}

/// The options `cargo test` and nextest pass to a test binary.
#[derive(Debug, Clone, clap::Args)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent command-line flags"
)]
struct TestArgs {
    /// Run only cases whose name contains FILTER (`category/case`).
    #[arg(value_name = "FILTER")]
    filter: Option<String>,
    /// FILTER must match a name exactly.
    #[arg(long)]
    exact: bool,
    /// Skip cases whose name contains TEXT; repeatable.
    #[arg(long, value_name = "TEXT")]
    skip: Vec<String>,
    /// List the cases instead of running them.
    #[arg(long)]
    list: bool,
    /// Run ambiguous cases too.
    #[arg(long)]
    include_ignored: bool,
    /// Run only the ambiguous cases.
    #[arg(long)]
    ignored: bool,
    /// Cases run in parallel.
    #[arg(long, value_name = "N")]
    test_threads: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT")]
    format: Option<Format>,
    /// Colour.
    #[arg(long, value_enum, value_name = "WHEN")]
    color: Option<Color>,
    /// One character per case.
    #[arg(short, long)]
    quiet: bool,
    /// Accepted for `cargo test`; no effect.
    #[arg(long, hide = true)]
    test: bool,
    /// Accepted for `cargo test`; no effect.
    #[arg(long, hide = true)]
    bench: bool,
    /// Accepted for `cargo test`; no effect.
    #[arg(long, hide = true)]
    nocapture: bool,
    /// Accepted for `cargo test`; no effect.
    #[arg(long, hide = true)]
    show_output: bool,
    /// Accepted for `cargo test` (`-Z unstable-options`); no effect.
    #[arg(short = 'Z', hide = true, value_name = "FLAG")]
    unstable: Vec<String>,
    /// Accepted for `cargo test`; no effect.
    #[arg(long, hide = true, value_name = "PATH")]
    logfile: Option<String>,
}

/// `--format`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Format {
    /// One line per case.
    Pretty,
    /// One character per case.
    Terse,
    /// libtest's JSON events.
    Json,
}

/// `--color`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Color {
    /// When stdout is a terminal.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl TestArgs {
    /// The libtest-mimic arguments these stand for.
    fn to_arguments(&self) -> Arguments {
        Arguments {
            filter: self.filter.clone(),
            exact: self.exact,
            skip: self.skip.clone(),
            list: self.list,
            include_ignored: self.include_ignored,
            ignored: self.ignored,
            test_threads: self.test_threads,
            quiet: self.quiet,
            format: self.format.map(|f| match f {
                Format::Pretty => FormatSetting::Pretty,
                Format::Terse => FormatSetting::Terse,
                Format::Json => FormatSetting::Json,
            }),
            color: self.color.map(|c| match c {
                Color::Auto => libtest_mimic::ColorSetting::Auto,
                Color::Always => libtest_mimic::ColorSetting::Always,
                Color::Never => libtest_mimic::ColorSetting::Never,
            }),
            ..Arguments::default()
        }
    }
}

/// Behaviour that differs between the harness binary and the conformance
/// test target.
#[derive(Debug, Clone, Copy, Default)]
pub struct Defaults {
    /// Run ambiguous cases too, as if `--include-ignored` were given.
    pub include_ambiguous: bool,
    /// Ignore `NAME_BIN`: `cargo test` checks the reference whatever the
    /// environment says.
    pub ignore_bin_env: bool,
}

/// A binary built on the engine: its name and the packs it registers.
#[derive(Clone, Copy)]
pub struct App<'a> {
    /// The binary's name, shown in usage lines and printed commands.
    pub program: &'static str,
    /// The registered packs; the first is the default.
    pub packs: &'a [&'a dyn Pack],
}

impl<'a> App<'a> {
    /// The pack named `name`, or the default pack.
    fn pack(&self, name: Option<&str>) -> Result<&'a dyn Pack, String> {
        match name {
            None => self
                .packs
                .first()
                .copied()
                .ok_or_else(|| "no spec pack is registered".to_owned()),
            Some(name) => pack::find(self.packs, name).ok_or_else(|| {
                format!(
                    "--spec {name}: no such spec pack (known: {})",
                    self.packs
                        .iter()
                        .map(|p| p.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }),
        }
    }

    /// Whether `pack` is the default pack.
    fn is_default(&self, pack: &dyn Pack) -> bool {
        self.packs.first().is_some_and(|p| p.name() == pack.name())
    }
}

/// The whole program, given `argv` with the program name first. Exits
/// through the constants of [`crate::exit`].
pub fn main_with_args(app: &App<'_>, argv: Vec<OsString>, defaults: Defaults) -> ExitCode {
    let top: Top = match parse_as(app, argv) {
        Ok(top) => top,
        Err(e) => return clap_exit(&e),
    };
    match top.command {
        None => run_cases(app, top.run, defaults),
        Some(Sub::Run(cli)) => run_cases(app, cli, defaults),
        Some(Sub::Bless(mut cli)) => {
            cli.bless = true;
            run_cases(app, cli, defaults)
        }
        Some(Sub::List(mut cli)) => {
            cli.libtest.list = true;
            run_cases(app, cli, defaults)
        }
        Some(Sub::Coverage(mut cli)) => {
            cli.coverage = true;
            run_cases(app, cli, defaults)
        }
        Some(Sub::Diff(command)) => diff_main(app, command),
        Some(Sub::Schema { results }) => {
            if results {
                print!("{}", crate::results::json_schema());
            } else {
                print!("{}", crate::schema::json_schema());
            }
            exit::code(exit::PASSED)
        }
    }
}

/// `--version`: the engine's version and, for every registered pack, its
/// suite's content hash.
fn version(app: &App<'_>) -> String {
    let packs: Vec<String> = app
        .packs
        .iter()
        .map(|p| {
            let root = Root::Embedded(p.suite());
            format!(
                "{} suite content {}",
                p.name(),
                suite::content_hash(&[root])
            )
        })
        .collect();
    format!("{} ({})", env!("CARGO_PKG_VERSION"), packs.join(", "))
}

/// The command line of `diff`.
#[derive(Debug, clap::Args)]
struct DiffCommand {
    /// The spec pack whose program is explored (default: the first one
    /// registered).
    #[arg(long, value_name = "NAME")]
    spec: Option<String>,
    #[command(flatten)]
    diff: DiffCli,
}

/// `diff`.
fn diff_main(app: &App<'_>, command: DiffCommand) -> ExitCode {
    let name = format!("{} {}", app.program, crate::diff::SUBCOMMAND);
    let report = |message: &str| {
        eprintln!("{name}: {message}");
        exit::code(exit::USAGE)
    };
    let pack = match app.pack(command.spec.as_deref()) {
        Ok(p) => p,
        Err(e) => return report(&e),
    };
    let Some(explorer) = pack.explorer() else {
        return report(&format!(
            "spec pack {} has no explorer for diff",
            pack.name()
        ));
    };
    let mut cli = command.diff;
    if cli.bin.is_none() {
        cli.bin = std::env::var_os(pack.bin_env())
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
    }
    let context = DiffContext {
        pack: pack.name(),
        program: app.program,
        default: app.is_default(pack),
    };
    match explorer.diff(&context, &cli) {
        Ok(r) if r.findings.is_empty() && r.mismatching == 0 => exit::code(exit::PASSED),
        Ok(_) => exit::code(exit::FAILED),
        Err(message) => report(&message),
    }
}

/// Parses `argv` with the program's name in every usage line and its
/// version (with the suites' content hashes) behind `--version`.
fn parse_as<T: clap::Parser>(app: &App<'_>, argv: Vec<OsString>) -> Result<T, clap::Error> {
    // clap wants a `'static` version text; it is built once per process.
    let version: &'static str = version(app).leak();
    let matches = T::command()
        .name(app.program)
        .bin_name(app.program)
        .version(version)
        .try_get_matches_from(argv)?;
    T::from_arg_matches(&matches)
}

/// Prints a clap error or help text and returns its exit status.
fn clap_exit(e: &clap::Error) -> ExitCode {
    let _ = e.print();
    exit::code(if e.use_stderr() {
        exit::USAGE
    } else {
        exit::PASSED
    })
}

fn usage_error(program: &str, message: &str) -> ExitCode {
    eprintln!("{program}: {message}");
    exit::code(exit::USAGE)
}

struct Context {
    target: Target,
    /// The pack's name and `--bin` as given, for the command that re-runs
    /// one conversation case.
    spec: &'static str,
    bin: Option<String>,
    driver: Option<Arc<dyn CaseDriver>>,
    settings: DriveSettings,
    overrides: Overrides,
    style: Style,
    bless: bool,
    program: &'static str,
    /// `--keep-failed`.
    keep_failed: Option<PathBuf>,
    /// Each failure's full report goes into its libtest message (JSON
    /// output); otherwise the message is one line and the full reports
    /// come grouped by cause after the run.
    full_messages: bool,
    results: Mutex<Vec<CaseResult>>,
}

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

fn run_cases(app: &App<'_>, cli: Cli, defaults: Defaults) -> ExitCode {
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
        Err(e) => return usage_error(program, &e),
    };
    let ctx = match context(&cli, pack, program, target, timeout) {
        Ok(c) => Arc::new(c),
        Err(e) => return usage_error(program, &e),
    };
    let mut plan = match plan(&cli, pack, defaults, &selections, &ctx) {
        Ok(p) => p,
        Err(e) => return usage_error(program, &e),
    };
    if let Some(e) = unmatched_filter(&cli.test, &plan.trials) {
        return usage_error(program, &e);
    }
    install_interrupt_report(&ctx, &cli, &plan);
    let chatty = !(cli.test.list || matches!(cli.test.format, Some(FormatSetting::Json)));
    if chatty {
        print_header(program, &cli, &ctx.target, &plan);
    }

    let started = Instant::now();
    let content_hash = suite::content_hash(&plan.roots);
    let suite_name = suite_name(&plan);
    let trials = std::mem::take(&mut plan.trials);
    let conclusion = libtest_mimic::run(&cli.test, trials);

    if plan.ambiguous_ignored > 0 && chatty {
        // Where the ambiguous rulings are explained depends on the pack:
        // a list of its own when its suite has one, else its rulings page.
        let explained = if pack.suite().get("AMBIGUITIES.md").is_some() {
            "AMBIGUITIES.md beside the cases".to_owned()
        } else {
            format!("the (ambiguous) marks of {}-rulings.md", pack.name())
        };
        println!(
            "{} ambiguous cases ignored: their expected bytes rest on a ruling marked \
             ambiguous, where careful programs differ ({explained}); \
             --include-ignored runs them",
            plan.ambiguous_ignored
        );
    }
    let mut results =
        std::mem::take(&mut *ctx.results.lock().unwrap_or_else(PoisonError::into_inner));
    results.sort_by(|a, b| a.name.cmp(&b.name));
    if chatty {
        print!("{}", crate::group::render(&results, ctx.style));
    }
    let first_suite = first_suite(&plan);
    let info = RunInfo {
        spec: pack.name(),
        program: &ctx.target.describe(),
        suite: &suite_name,
        content_hash: &content_hash,
    };
    if let Err(e) = write_machine_outputs(&cli, first_suite, &info, &results, started) {
        return usage_error(program, &e);
    }
    if cli.score
        && let Some(suite) = first_suite
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
    if let Some(path) = &cli.junit
        && let Err(e) = std::fs::write(path, report::junit(program, &results))
    {
        return usage_error(program, &format!("cannot write {}: {e}", path.display()));
    }
    let errors = results
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Error(_)))
        .count();
    if errors > 0 {
        eprintln!(
            "{program}: {errors} case(s) could not be run (a fault of the suite or the harness, \
             not of the program); they count neither way"
        );
        exit::code(exit::USAGE)
    } else if conclusion.has_failed() {
        exit::code(exit::FAILED)
    } else {
        exit::code(exit::PASSED)
    }
}

/// Writes `--results` and `--gradescope`, when asked for.
fn write_machine_outputs(
    cli: &Cli,
    first_suite: Option<&Suite>,
    info: &RunInfo<'_>,
    results: &[CaseResult],
    started: Instant,
) -> Result<(), String> {
    if cli.results.is_none() && cli.gradescope.is_none() {
        return Ok(());
    }
    let rows = first_suite
        .map(|suite| report::score(suite, results, cli.strict))
        .unwrap_or_default();
    let doc = crate::results::build(info, results, &rows);
    let write = |path: &Path, text: String| {
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    if let Some(path) = &cli.results {
        write(
            path,
            serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n",
        )?;
    }
    if let Some(path) = &cli.gradescope {
        let titles: Vec<(String, String)> = first_suite
            .map(|s| {
                s.categories
                    .iter()
                    .map(|c| (c.name.clone(), c.title.clone().unwrap_or_default()))
                    .collect()
            })
            .unwrap_or_default();
        let grade = crate::results::gradescope(&doc, &titles, started.elapsed().as_secs_f64());
        write(
            path,
            serde_json::to_string_pretty(&grade).unwrap_or_default() + "\n",
        )?;
    }
    Ok(())
}

/// Picks the pack (`--spec`) and folds in the environment (`NAME_BLESS`,
/// `NAME_BIN`, `NO_COLOR`); `Err` is the exit code of a usage error,
/// already reported.
fn resolve<'a>(
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
    if !report::colour_wanted() {
        cli.test.color = Some(libtest_mimic::ColorSetting::Never);
    }
    Ok((cli, pack))
}

/// What `--cases` names; without it the pack's built-in suite (or, to
/// bless, the folder it was built from).
fn selections(cli: &Cli, pack: &dyn Pack) -> Result<Vec<Selection>, String> {
    if cli.cases.is_empty() {
        if !cli.bless {
            return Ok(vec![Selection::Cases(suite::Selection::Tree(
                Root::Embedded(pack.suite()),
            ))]);
        }
        let dir = PathBuf::from(pack.suite().source_dir);
        if !dir.is_dir() {
            return Err("--bless needs --cases: the suite's source folder is gone".to_owned());
        }
        return Ok(vec![Selection::Cases(suite::Selection::Tree(Root::Dir(
            dir,
        )))]);
    }
    cli.cases
        .iter()
        .map(|path| match pack.foreign_cases(path) {
            Some(found) => found
                .map(Selection::Foreign)
                .map_err(|e| format!("--cases {}: {e}", path.display())),
            None => suite::select(path)
                .map(Selection::Cases)
                .map_err(|e| format!("--cases {}: {e}", path.display())),
        })
        .collect()
}

/// What one `--cases` argument names.
#[derive(Debug, Clone)]
enum Selection {
    /// Case files of the engine's format.
    Cases(suite::Selection),
    /// Cases of a folder in the pack's own format.
    Foreign(ForeignCases),
}

/// The program to run and the `--timeout` override, checked before any
/// case runs (a `--bin` is started once: [`crate::preflight`]).
fn target(cli: &Cli, pack: &dyn Pack) -> Result<(Target, Option<Duration>), String> {
    if cli.bless && cli.bin.is_some() {
        return Err(format!(
            "--bless writes expectations from the reference only; drop --bin / {}",
            pack.bin_env()
        ));
    }
    let target = match &cli.bin {
        Some(p) if pack.bin_is_command() => Target::command(&p.to_string_lossy()),
        Some(p) => Target::binary(p),
        None => Target::reference(pack.name()),
    }
    .map_err(|e| e.to_string())?;
    // A program that cannot even start is a set-up error, explained once,
    // not the same failure in every case.
    if !target.is_reference() && !cli.test.list {
        crate::preflight::check(&target).map_err(|e| e.to_string())?;
    }
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

/// The state every trial shares.
fn context(
    cli: &Cli,
    pack: &dyn Pack,
    program: &'static str,
    target: Target,
    timeout: Option<Duration>,
) -> Result<Context, String> {
    Ok(Context {
        target,
        spec: pack.name(),
        bin: cli.bin.as_ref().map(|b| b.to_string_lossy().into_owned()),
        driver: pack.driver(),
        settings: DriveSettings {
            time_factor: time_factor(cli, pack)?,
            timeout,
        },
        overrides: Overrides { timeout },
        style: Style {
            colour: report::colour_wanted(),
        },
        bless: cli.bless,
        program,
        keep_failed: cli.keep_failed.clone(),
        full_messages: matches!(cli.test.format, Some(FormatSetting::Json)),
        results: Mutex::new(Vec::new()),
    })
}

/// `--time-factor`, else `NAME_TIME_FACTOR`, else 1.
fn time_factor(cli: &Cli, pack: &dyn Pack) -> Result<f64, String> {
    let name = format!("{}_TIME_FACTOR", pack.name().to_ascii_uppercase());
    let (factor, from) = match (cli.time_factor, std::env::var(&name)) {
        (Some(f), _) => (f, "--time-factor".to_owned()),
        (None, Ok(text)) if !text.is_empty() => (
            text.parse::<f64>()
                .map_err(|_| format!("{name}={text}: not a number"))?,
            name,
        ),
        _ => return Ok(1.0),
    };
    if factor.is_finite() && factor > 0.0 && factor < 1e6 {
        Ok(factor)
    } else {
        Err(format!("{from} must be a positive number, not {factor}"))
    }
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

/// The first suite of a run: the one its score is counted in.
fn first_suite(plan: &Plan) -> Option<&Suite> {
    plan.suites.iter().find_map(|(_, s)| s.as_ref().ok())
}

/// On Ctrl-C / SIGTERM ([`crate::interrupt`]): every program is killed
/// and every sandbox removed, then this prints what finished (and, with
/// `--score`, the partial score of the run's first suite, marked partial)
/// before the exit 130 / 143.
fn install_interrupt_report(ctx: &Arc<Context>, cli: &Cli, plan: &Plan) {
    let score_suite = cli.score.then(|| first_suite(plan).cloned()).flatten();
    let strict = cli.strict;
    if let Err(e) = crate::interrupt::install() {
        eprintln!("{}: warning: Ctrl-C will not clean up: {e}", ctx.program);
    }
    let ctx = Arc::clone(ctx);
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
        if let Some(suite) = &score_suite {
            println!("partial score (interrupted: only the cases that finished count):");
            print!(
                "{}",
                report::score_table(suite, &report::score(suite, &results, strict), strict)
            );
        }
    });
}

/// The suite's name and version, as the header shows them.
fn suite_name(plan: &Plan) -> String {
    plan.suites
        .iter()
        .find_map(|(_, s)| s.as_ref().ok())
        .map(|s| match &s.version {
            Some(v) => format!("{} v{v}", s.name),
            None => s.name.clone(),
        })
        .unwrap_or_default()
}

/// The header: the program, the suite's name, version and content hash.
fn print_header(program: &str, cli: &Cli, target: &Target, plan: &Plan) {
    let suite_name = suite_name(plan);
    let from: Vec<String> = plan
        .roots
        .iter()
        .map(|r| match r {
            Root::Embedded(_) => "built in".to_owned(),
            Root::Dir(d) => d.display().to_string(),
        })
        .collect();
    println!(
        "{program}: {} {} against suite {suite_name} (content {}; {} cases from {})",
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
#[derive(Debug, Clone, PartialEq, Eq)]
enum Origin {
    /// A case file.
    CaseFile,
    /// A case of a folder in a pack's own format, with what to say and
    /// the command that writes the folder again.
    Foreign(String, String),
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
        Selection::Cases(suite::Selection::Tree(root)) => {
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
        Selection::Cases(suite::Selection::Files(files)) => match files.first() {
            Some(f) => (f.root.clone(), parse_all(files.clone())),
            None => return Ok(None),
        },
        Selection::Foreign(found) => {
            let root = Root::Dir(found.dir.clone());
            let cases = found
                .cases
                .iter()
                .map(|(rel, case)| {
                    let file = CaseFile {
                        root: root.clone(),
                        rel: rel.clone(),
                    };
                    (
                        file,
                        Ok(case.clone()),
                        Origin::Foreign(found.regenerate_label.clone(), found.regenerate.clone()),
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
        let mut result = CaseResult {
            name,
            category: None,
            rules: Vec::new(),
            tags: Vec::new(),
            ambiguous: false,
            expected_status: None,
            actual: None,
            verdict: Verdict::Passed,
            time: Duration::ZERO,
        };
        match &parsed {
            Ok(c) => {
                result.category = Some(c.category.clone());
                result.rules.clone_from(&c.rules);
                result.tags.clone_from(&c.tags);
                result.ambiguous = c.is_ambiguous();
                result.expected_status = c.status.map(i32::from);
            }
            Err(_) => result.category = file.folder().map(str::to_owned),
        }
        result.verdict = match (ctx.bless, &origin) {
            (true, Origin::CaseFile) => bless_one(&ctx, &file, parsed)
                .err()
                .map_or(Verdict::Passed, Verdict::Error),
            (true, Origin::Foreign(_, command)) => Verdict::Error(format!(
                "{}: this case is not blessed: write its folder again with {command}",
                file.display()
            )),
            (false, _) => check_one(&ctx, &file, parsed, &origin, suite, &mut result.actual),
        };
        result.time = start.elapsed();
        let outcome = match &result.verdict {
            Verdict::Passed => Ok(()),
            Verdict::Failed(f) if ctx.full_messages => Err(Failed::from(f.render(ctx.style))),
            // One line per case: the full report comes once per cause,
            // after the run (crate::group).
            Verdict::Failed(f) => Err(Failed::from(f.headline())),
            Verdict::Error(e) => Err(Failed::from(format!("error: {e}"))),
        };
        ctx.results
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(result);
        outcome
    })
}

/// Runs one case and judges it; `actual` receives how the program ended.
fn check_one(
    ctx: &Context,
    file: &CaseFile,
    parsed: Result<Case, String>,
    origin: &Origin,
    suite: Result<Suite, String>,
    actual: &mut Option<crate::run::Ending>,
) -> Verdict {
    if let Ok(case) = &parsed
        && let Some(script) = &case.script
    {
        return converse(ctx, file, case, script, origin, suite);
    }
    match prepare(ctx, file, parsed, origin, suite) {
        Err(e) => Verdict::Error(e),
        Ok((case, inv, expected)) => match run::run(&inv) {
            Err(e) => Verdict::Error(format!("{}: {e}", file.display())),
            Ok(outcome) => {
                *actual = Some(outcome.ending.clone());
                judge(ctx, file, &case, &inv, &expected, &outcome, origin)
            }
        },
    }
}

/// Runs a case holding a `script` through the pack's driver.
fn converse(
    ctx: &Context,
    file: &CaseFile,
    case: &Case,
    script: &serde_json::Value,
    origin: &Origin,
    suite: Result<Suite, String>,
) -> Verdict {
    let Some(driver) = &ctx.driver else {
        return Verdict::Error(format!(
            "{}: the case holds a `script` but pack `{}` runs no conversations",
            file.display(),
            ctx.spec
        ));
    };
    let checked = suite
        .map_err(|e| format!("invalid suite.yaml: {e}"))
        .and_then(|suite| {
            if *origin == Origin::CaseFile {
                case::check_category(case, file, &suite).map_err(|e| e.to_string())?;
            }
            driver
                .check(script)
                .map_err(|e| format!("{}: `script`: {e}", file.display()))
        });
    if let Err(e) = checked {
        return Verdict::Error(e);
    }
    let conversation = match driver.drive(script, &ctx.target, ctx.settings) {
        Ok(c) => c,
        Err(e) => return Verdict::Error(format!("{}: {e}", file.display())),
    };
    if conversation.exchanges.is_empty() {
        return Verdict::Passed;
    }
    conversation_failure(ctx, file, case, conversation)
}

/// The failure of a conversation case, rendered like any other.
fn conversation_failure(
    ctx: &Context,
    file: &CaseFile,
    case: &Case,
    conversation: Conversation,
) -> Verdict {
    let mismatches: Vec<compare::Mismatch> = conversation
        .exchanges
        .into_iter()
        .map(compare::Mismatch::Exchange)
        .collect();
    let mut rerun = format!("{} --spec {}", ctx.program, ctx.spec);
    if let Some(bin) = &ctx.bin {
        rerun.push_str(" --bin ");
        rerun.push_str(&report::shell_quote(bin));
    }
    rerun.push_str(" --exact ");
    rerun.push_str(&report::shell_quote(file.name()));
    let notes = Notes {
        summary: case.summary.clone(),
        rules: case.rules.clone(),
        hint: case.hint.clone(),
        reproduce: format!(
            "{}
  ({}; the requests fed at once, as ANSWER-1 allows)",
            conversation.reproduce, conversation.ending
        ),
        rebless: Some(("re-run this conversation:".to_owned(), rerun)),
    };
    Verdict::Failed(Box::new(CaseFailure::new(&mismatches, &[], notes)))
}

/// Everything a case needs before it runs; `Err` is a fault of the suite.
fn prepare(
    ctx: &Context,
    file: &CaseFile,
    parsed: Result<Case, String>,
    origin: &Origin,
    suite: Result<Suite, String>,
) -> Result<(Case, Invocation, compare::Expectation), String> {
    let case = parsed.map_err(|e| {
        format!("invalid case file (a fault of the suite, not of the program): {e}")
    })?;
    let suite = suite.map_err(|e| format!("invalid suite.yaml: {e}"))?;
    // A folder in a pack's own format names its folders as it likes.
    if *origin == Origin::CaseFile {
        case::check_category(&case, file, &suite).map_err(|e| e.to_string())?;
    }
    let inv =
        case::invocation(&case, file, &ctx.target, ctx.overrides).map_err(|e| e.to_string())?;
    let expected = case::expectation(&case, file).map_err(|e| e.to_string())?;
    Ok((case, inv, expected))
}

/// The verdict on one run of a case.
fn judge(
    ctx: &Context,
    file: &CaseFile,
    case: &Case,
    inv: &Invocation,
    expected: &compare::Expectation,
    outcome: &crate::run::Outcome,
    origin: &Origin,
) -> Verdict {
    let mismatches = compare::compare(expected, outcome);
    if mismatches.is_empty() {
        return Verdict::Passed;
    }
    let stdin_path = case
        .stdin_file
        .as_ref()
        .map(|s| file.root.disk_path(&file.sidecar(s)).display().to_string());
    let case_file = pathdiff_cwd(&file.root.disk_path(&file.rel));
    let kit = ctx.keep_failed.as_ref().and_then(|dir| {
        crate::kit::write(dir, file.name(), inv, expected)
            .map_err(|e| eprintln!("{}: --keep-failed: {}: {e}", ctx.program, file.name()))
            .ok()
    });
    // Only the reference's runs can be blessed: a student whose program
    // fails gets no hint they cannot use. A pack's own folder is written
    // again by its command, whoever runs it.
    let rebless = match origin {
        Origin::CaseFile => ctx.target.is_reference().then(|| {
            (
                "re-bless from the reference (if the expectation is wrong):".to_owned(),
                rebless_command(ctx.program, file),
            )
        }),
        Origin::Foreign(label, command) => Some((label.clone(), command.clone())),
    };
    let notes = Notes {
        summary: case.summary.clone(),
        rules: case.rules.clone(),
        hint: case.hint.clone(),
        reproduce: report::reproduce_command(
            inv,
            report::Sources {
                case_file: &case_file,
                stdin_path: stdin_path.as_deref(),
                kit: kit.as_deref(),
            },
        ),
        rebless,
    };
    Verdict::Failed(Box::new(CaseFailure::new(&mismatches, &inv.stdin, notes)))
}

/// The command that re-blesses one case file.
fn rebless_command(program: &str, file: &CaseFile) -> String {
    let path = file.root.disk_path(&file.rel);
    let shown = pathdiff_cwd(&path);
    format!("{program} --bless --cases {}", report::shell_quote(&shown))
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
    // A conversation's expectations are its rules, not bytes: nothing to
    // write.
    if case.script.is_some() {
        return Ok(());
    }
    let inv =
        case::invocation(&case, file, &ctx.target, ctx.overrides).map_err(|e| e.to_string())?;
    let outcome = run::run(&inv).map_err(|e| format!("{}: {e}", file.display()))?;
    match bless::bless(file, &case, &outcome) {
        Ok(Blessed::Changed | Blessed::Unchanged) => Ok(()),
        Err(e) => Err(e.to_string()),
    }
}

fn coverage(program: &str, pack: &dyn Pack, selections: &[Selection]) -> ExitCode {
    let mut rules = None;
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for selection in selections {
        let (root, cases) = match gather(selection) {
            Ok(Some(found)) => found,
            Ok(None) => continue,
            Err(e) => return usage_error(program, &e),
        };
        if rules.is_none() {
            match suite::rules_for(&root, pack.suite()) {
                Ok(r) => rules = Some(r),
                Err(e) => return usage_error(program, &e.to_string()),
            }
        }
        for (_, parsed, _) in cases {
            for rule in parsed.map(|c| c.rules).unwrap_or_default() {
                *counts.entry(rule).or_default() += 1;
            }
        }
    }
    let Some(rules) = rules else {
        return usage_error(program, "no cases");
    };
    print!("{}", report::coverage_table(&rules, &counts));
    exit::code(exit::PASSED)
}
