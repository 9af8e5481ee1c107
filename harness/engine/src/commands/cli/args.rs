//! The clap definitions of the command line: the subcommands, the options
//! of a run, the libtest options `cargo test` and nextest pass, and their
//! translation into libtest-mimic's arguments.
//!
//! One piece: the clap definitions are one derive tree: the top, the
//! subcommands and a run's options, shared by `bless`, `list` and
//! `coverage` through their `From` conversions; clap reads them
//! together.

use std::path::PathBuf;
use std::time::Duration;

use libtest_mimic::{Arguments, FormatSetting};

use crate::exec::run;
use crate::explorer::args::DiffCli;

/// The command line: a subcommand, or the options of `run` (the default).
#[derive(Debug, clap::Parser)]
#[command(
    about = "Replays a spec pack's conformance cases against a program, byte for byte.",
    args_conflicts_with_subcommands = true
)]
pub(super) struct Top {
    #[command(subcommand)]
    pub(super) command: Option<Sub>,
    #[command(flatten)]
    pub(super) run: Cli,
    #[command(flatten)]
    pub(super) contain: ContainArgs,
}

/// What programs under test may do beyond the default containment, for
/// every subcommand that runs them (docs/containment.md).
#[derive(Debug, Default, clap::Args)]
pub(super) struct ContainArgs {
    /// Programs under test may also read PATH (a file or a folder;
    /// repeatable; CONFORMANCE_ALLOW_READ adds a `:`-separated list).
    #[arg(long = "allow-read", value_name = "PATH", global = true)]
    pub(super) allow_read: Vec<PathBuf>,
    /// Programs under test may use the host's network (the header says
    /// so; CONFORMANCE_ALLOW_NETWORK=1 too).
    #[arg(long, global = true)]
    pub(super) allow_network: bool,
    /// `mark` runs even where the kernel cannot give the default
    /// containment (it refuses otherwise).
    #[arg(long, global = true)]
    pub(super) allow_weaker_containment: bool,
    /// Resident memory of a run, all its processes together, MiB
    /// (default 4096; the address space at `group` containment).
    #[arg(long, value_name = "MIB", global = true)]
    pub(super) max_memory: Option<u64>,
    /// Processes and threads of a run at once (default 256).
    #[arg(long, value_name = "N", global = true)]
    pub(super) max_processes: Option<u64>,
    /// Open descriptors of a program (default 1024).
    #[arg(long, value_name = "N", global = true)]
    pub(super) max_open_files: Option<u64>,
    /// Bytes a run may keep in its case and temporary folders, MiB
    /// (default 1024).
    #[arg(long, value_name = "MIB", global = true)]
    pub(super) max_folder: Option<u64>,
}

impl ContainArgs {
    /// The resource bounds: the options over the inherited ones.
    pub(super) fn bounds(&self) -> conformance_sandbox::Bounds {
        let mut b = conformance_sandbox::policy::inherited_bounds();
        let mib = |n: u64| n.saturating_mul(1 << 20);
        if let Some(m) = self.max_memory {
            b.memory = mib(m);
        }
        if let Some(n) = self.max_processes {
            b.processes = n;
        }
        if let Some(n) = self.max_open_files {
            b.open_files = n;
        }
        if let Some(m) = self.max_folder {
            b.folder_bytes = mib(m);
        }
        b
    }
}

/// The subcommands.
#[derive(Debug, clap::Subcommand)]
pub(super) enum Sub {
    /// Run the selected cases against a program (the default).
    Run(Box<Cli>),
    /// Rewrite the expected fields of the selected cases from the reference.
    Bless(BlessCli),
    /// List the selected cases without running them.
    List(ListCli),
    /// Print every rule of rules.yaml with the number of cases citing it.
    Coverage(CoverageCli),
    /// Run random sessions on a candidate and on the reference (or
    /// --against), compare them byte for byte, and write each distinct
    /// mismatch as a shrunk case.
    Diff(DiffCommand),
    /// Build and mark a folder of submissions: marks.csv, a report per
    /// submission and a class view (index.html); `mark merge` joins the
    /// slices of --partition runs.
    Mark(crate::marking::args::MarkCommand),
    /// Write a Gradescope autograder (setup.sh, run_autograder) for a pack.
    GradescopeAutograder(super::autograder::AutograderCli),
    /// Write a new pack folder for your own assignment: pack.yaml naming
    /// the model, an example rule, category and cases, explore.yaml
    /// (docs/new-pack.md).
    NewPack(NewPackCli),
    /// Write the student's copy of a folder pack into a new folder: the
    /// rulings, rules, public cases and helpers; no secret case, no model.
    Publish(PublishCli),
    /// Run a problem package's jury submissions (submissions/accepted,
    /// wrong_answer, …) against it and check each against its folder
    /// (docs/problem-packages.md): exit 0 when all agree, 1 naming those
    /// that do not, 2 for a fault of the package.
    Verify(VerifyCli),
    /// Print the version and each pack's suite content hash (as --version).
    Version,
    /// Print the JSON Schema of the case format.
    Schema {
        /// Print the schema of the --results document instead.
        #[arg(long)]
        results: bool,
    },
}

/// The options of `publish`.
#[derive(Debug, clap::Args)]
pub(super) struct PublishCli {
    /// The folder pack (the folder holding pack.yaml), or a problem
    /// package (a folder holding problem.yaml, or its .zip).
    #[arg(long, value_name = "PATH")]
    pub(super) spec: std::path::PathBuf,
    /// The folder to write the student's copy into (new, or empty).
    pub(super) out: std::path::PathBuf,
}

/// The options of `verify`.
#[derive(Debug, clap::Args)]
pub(super) struct VerifyCli {
    /// The problem package: a folder holding problem.yaml and data/, or
    /// its .zip.
    #[arg(long, value_name = "PATH")]
    pub(super) spec: std::path::PathBuf,
    /// Programs run at once (default: the cores).
    #[arg(long, short = 'j', value_name = "N")]
    pub(super) jobs: Option<usize>,
}

/// The options of `new-pack`.
#[derive(Debug, clap::Args)]
pub(super) struct NewPackCli {
    /// The pack's name: one lowercase word (NAME_BIN names a program).
    pub(super) name: String,
    /// The command that runs the model solution, from the pack's folder
    /// (`python3 model/NAME.py`, `./model/NAME`).
    #[arg(long, value_name = "CMD")]
    pub(super) model: String,
    /// The folder to write (default: ./NAME); it must not exist.
    #[arg(long, value_name = "PATH")]
    pub(super) dir: Option<std::path::PathBuf>,
}

/// The options of a run.
#[derive(Debug, Default, clap::Args)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent command-line flags"
)]
pub(super) struct Cli {
    /// The spec pack whose program is checked (default: the first one
    /// registered).
    /// A folder holding pack.yaml is a folder pack (docs/folder-packs.md).
    #[arg(long, value_name = "NAME|PATH")]
    pub(super) spec: Option<String>,
    /// The program to check (default: the built-in reference): a path, or
    /// for a pack whose programs are command lines one shell-quoted command
    /// (`'python3 bot.py'`).
    #[arg(long, value_name = "PATH|CMD")]
    pub(super) bin: Option<PathBuf>,
    /// Scales every time limit of conversation cases, for slow machines
    /// (default 1, or NAME_TIME_FACTOR).
    #[arg(long, value_name = "F")]
    pub(super) time_factor: Option<f64>,
    /// A case folder or case file; repeatable (default: the built-in suite).
    #[arg(long = "cases", value_name = "PATH")]
    pub(super) cases: Vec<PathBuf>,
    /// Seconds per case, replacing every case's own timeout.
    #[arg(long, value_name = "SECS", value_parser = run::parse_timeout)]
    pub(super) timeout: Option<Duration>,
    /// Only cases citing this rule ID; repeatable.
    #[arg(long = "rule", value_name = "ID")]
    pub(super) rules: Vec<String>,
    /// Only cases of this category; repeatable.
    #[arg(long = "category", value_name = "NAME")]
    pub(super) categories: Vec<String>,
    /// Rewrite the expected fields of the selected cases from the reference.
    #[arg(long)]
    pub(super) bless: bool,
    /// Print the marking categories with passed/total and an estimated mark.
    #[arg(long)]
    pub(super) score: bool,
    /// Count ambiguous cases in their categories (and run them), and judge
    /// every part exactly, ignoring `match:`, listing what the tolerances
    /// would have forgiven (docs/matching.md).
    #[arg(long)]
    pub(super) strict: bool,
    /// Write a JUnit XML report to PATH.
    #[arg(long, value_name = "PATH")]
    pub(super) junit: Option<PathBuf>,
    /// Write the results as JSON to PATH (schema: cases/results.schema.json).
    #[arg(long, value_name = "PATH")]
    pub(super) results: Option<PathBuf>,
    /// Write Gradescope's autograder results.json to PATH (one test per
    /// marking category).
    #[arg(long, value_name = "PATH")]
    pub(super) gradescope: Option<PathBuf>,
    /// Write GitHub Classroom's `result` step output ($GITHUB_OUTPUT), the
    /// step summary ($GITHUB_STEP_SUMMARY) and `::error` annotations
    /// (docs/github-classroom.md); chosen too under GitHub Actions
    /// (GITHUB_ACTIONS=true), unless CONFORMANCE_GITHUB=0.
    #[arg(long)]
    pub(super) github: bool,
    /// Write PrairieLearn's external grader results.json to PATH
    /// (docs/prairielearn.md).
    #[arg(long, value_name = "PATH")]
    pub(super) prairielearn: Option<PathBuf>,
    /// Print every rule of rules.yaml with the number of cases citing it.
    #[arg(long)]
    pub(super) coverage: bool,
    /// Give each failed case a folder below DIR with its files, stdin,
    /// expected outputs and a run.sh that replays it.
    #[arg(long, value_name = "DIR")]
    pub(super) keep_failed: Option<PathBuf>,
    /// The marker's run: every output shows secret cases (`visibility:
    /// secret`) whole. Without it every output is the student's: a
    /// secret case shows its category, rules and cause, never its input,
    /// output, diff or reproduce line, and gets no --keep-failed kit.
    #[arg(long)]
    pub(super) marker: bool,
    /// Also write the marker's copy of the run into DIR: `results.json`
    /// and `report.txt` (the failures by cause) with secret cases whole,
    /// whatever the other outputs show (`mark` asks for it).
    #[arg(long, value_name = "DIR")]
    pub(super) marker_copy: Option<PathBuf>,
    /// Name the program NAME (`./PROGRAM`) wherever a student reads: every
    /// reproduce line runs it from the folder that holds it, with the
    /// case's inputs inline, or in --keep-failed's folder (named by its
    /// last component, `reproduce/…`) when too long to paste.
    #[arg(long, value_name = "NAME")]
    pub(super) reproduce_as: Option<String>,
    /// `mark`'s check: the program was started once already (`mark`'s
    /// preflight), so not again before the cases.
    #[arg(long, hide = true)]
    pub(super) started: bool,
    /// `mark`'s check: the Java program's class-data archive, made by that
    /// start; its cases start from it.
    #[arg(long, hide = true, value_name = "PATH")]
    pub(super) jvm_archive: Option<PathBuf>,
    /// Check the program's memory: `asan` (it is built with
    /// -fsanitize=address,undefined) or `valgrind` (each case runs under
    /// valgrind's memcheck); `,leaks` charges leaks too; `,warn` reports memory errors as warnings,
    /// no case failing by them (docs/memory.md).
    #[arg(long, value_name = "TOOL[,leaks][,warn]")]
    pub(super) memcheck: Option<crate::exec::memcheck::Memcheck>,
    /// Run every case even when the first ones to finish all timed out
    /// (by default the rest are then not run: the program hangs).
    #[arg(long)]
    pub(super) no_early_stop: bool,
    #[command(flatten)]
    pub(super) libtest: TestArgs,
    /// The libtest-mimic arguments built from [`Cli::libtest`].
    #[arg(skip)]
    pub(super) test: Arguments,
}

/// The options `cargo test` and nextest pass to a test binary.
#[derive(Debug, Default, Clone, clap::Args)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent command-line flags"
)]
pub(super) struct TestArgs {
    /// Run only cases whose name contains FILTER (`category/case`); with
    /// several, cases matching any of them, as `cargo test` takes them.
    #[arg(value_name = "FILTER")]
    pub(super) filters: Vec<String>,
    /// FILTER must match a name exactly.
    #[arg(long)]
    pub(super) exact: bool,
    /// Skip cases whose name contains TEXT; repeatable.
    #[arg(long, value_name = "TEXT")]
    pub(super) skip: Vec<String>,
    /// List the cases instead of running them.
    #[arg(long)]
    pub(super) list: bool,
    /// Run ambiguous cases too.
    #[arg(long)]
    pub(super) include_ignored: bool,
    /// Run only the ambiguous cases.
    #[arg(long)]
    pub(super) ignored: bool,
    /// Cases run in parallel (0: one per core; default: one per core).
    #[arg(long, short = 'j', visible_alias = "jobs", value_name = "N")]
    pub(super) test_threads: Option<usize>,
    /// Output format (default: the report, causes and score, no line per
    /// case).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub(super) format: Option<Format>,
    /// Colour (default auto: on a terminal, unless NO_COLOR is set).
    #[arg(long, value_enum, value_name = "WHEN")]
    pub(super) color: Option<Color>,
    /// Only the causes and the score (with --format libtest: one
    /// character per case).
    #[arg(short, long)]
    pub(super) quiet: bool,
    /// A line per case as libtest prints it (as --format libtest).
    #[arg(short, long, conflicts_with = "format")]
    pub(super) verbose: bool,
    /// Accepted for `cargo test`; no effect.
    #[arg(long, hide = true)]
    pub(super) test: bool,
    /// Accepted for `cargo test`; no effect.
    #[arg(long, hide = true)]
    pub(super) bench: bool,
    /// Accepted for `cargo test`; no effect.
    #[arg(long, hide = true)]
    pub(super) nocapture: bool,
    /// Accepted for `cargo test`; no effect.
    #[arg(long, hide = true)]
    pub(super) show_output: bool,
    /// Accepted for `cargo test` (`-Z unstable-options`); no effect.
    #[arg(short = 'Z', hide = true, value_name = "FLAG")]
    pub(super) unstable: Vec<String>,
    /// Accepted for `cargo test`; no effect.
    #[arg(long, hide = true, value_name = "PATH")]
    pub(super) logfile: Option<String>,
}

/// `--format`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(super) enum Format {
    /// The causes and the score, no line per case (the default).
    Report,
    /// One line per case, as libtest prints it.
    #[value(alias = "pretty")]
    Libtest,
    /// One character per case.
    Terse,
    /// libtest's JSON events.
    Json,
}

/// `--color`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(super) enum Color {
    /// When stdout is a terminal.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl TestArgs {
    /// Whether libtest-mimic prints the run (a line or character per case)
    /// rather than the harness's report.
    pub(super) fn libtest_output(&self, by_default: bool) -> bool {
        self.list
            || self.verbose
            || match self.format {
                Some(Format::Report) => false,
                Some(_) => true,
                None => by_default,
            }
    }

    /// `--color`, else auto: a terminal on stdout and no `NO_COLOR`.
    pub(super) fn colour(&self) -> bool {
        match self.color {
            Some(Color::Always) => true,
            Some(Color::Never) => false,
            Some(Color::Auto) | None => crate::bytes::visible::colour_wanted(),
        }
    }

    /// Whether a case named `name` passes the name filters when there are
    /// several: libtest-mimic takes one filter, so one is left to it (it
    /// counts what it filters out) and several are applied here, before it.
    pub(super) fn passes_filters(&self, name: &str) -> bool {
        self.filters.len() < 2
            || self.filters.iter().any(|f| {
                if self.exact {
                    name == f
                } else {
                    name.contains(f.as_str())
                }
            })
    }

    /// The libtest-mimic arguments these stand for.
    pub(super) fn to_arguments(&self) -> Arguments {
        Arguments {
            filter: match self.filters.as_slice() {
                [one] => Some(one.clone()),
                _ => None,
            },
            exact: self.exact,
            skip: self.skip.clone(),
            list: self.list,
            include_ignored: self.include_ignored,
            ignored: self.ignored,
            // libtest-mimic waits for ever on a pool of zero threads.
            test_threads: self.test_threads.map(|n| {
                if n == 0 {
                    std::thread::available_parallelism().map_or(1, usize::from)
                } else {
                    n
                }
            }),
            quiet: self.quiet,
            format: match self.format {
                Some(Format::Libtest) => Some(FormatSetting::Pretty),
                Some(Format::Terse) => Some(FormatSetting::Terse),
                Some(Format::Json) => Some(FormatSetting::Json),
                None if self.verbose => Some(FormatSetting::Pretty),
                Some(Format::Report) | None => None,
            },
            color: self.color.map(|c| match c {
                Color::Auto => libtest_mimic::ColorSetting::Auto,
                Color::Always => libtest_mimic::ColorSetting::Always,
                Color::Never => libtest_mimic::ColorSetting::Never,
            }),
            ..Arguments::default()
        }
    }
}

/// The options that select cases, shared by `bless` and `list`.
#[derive(Debug, clap::Args)]
pub(super) struct Select {
    /// The spec pack (default: the first one registered).
    /// A folder holding pack.yaml is a folder pack (docs/folder-packs.md).
    #[arg(long, value_name = "NAME|PATH")]
    spec: Option<String>,
    /// A case folder or case file; repeatable (default: the built-in suite;
    /// for `bless`, its source folder, only when run inside its tree).
    #[arg(long = "cases", value_name = "PATH")]
    cases: Vec<PathBuf>,
    /// Only cases citing this rule ID; repeatable.
    #[arg(long = "rule", value_name = "ID")]
    rules: Vec<String>,
    /// Only cases of this category; repeatable.
    #[arg(long = "category", value_name = "NAME")]
    categories: Vec<String>,
    /// Only cases whose name contains FILTER (`category/case`); with
    /// several, cases matching any of them.
    #[arg(value_name = "FILTER")]
    filters: Vec<String>,
    /// FILTER must match a name exactly.
    #[arg(long)]
    exact: bool,
    /// Skip cases whose name contains TEXT; repeatable.
    #[arg(long, value_name = "TEXT")]
    skip: Vec<String>,
}

impl Select {
    /// A run's options with this selection.
    fn into_cli(self, libtest: TestArgs) -> Cli {
        Cli {
            spec: self.spec,
            cases: self.cases,
            rules: self.rules,
            categories: self.categories,
            libtest: TestArgs {
                filters: self.filters,
                exact: self.exact,
                skip: self.skip,
                ..libtest
            },
            ..Cli::default()
        }
    }
}

/// The options of `bless`: which cases, and how many at once.
#[derive(Debug, clap::Args)]
pub(super) struct BlessCli {
    #[command(flatten)]
    select: Select,
    /// Cases blessed in parallel (0 or default: one per core).
    #[arg(long, short = 'j', visible_alias = "jobs", value_name = "N")]
    test_threads: Option<usize>,
}

/// The options of `list`: which cases, and how to print them.
#[derive(Debug, clap::Args)]
pub(super) struct ListCli {
    #[command(flatten)]
    select: Select,
    /// Only the ambiguous cases.
    #[arg(long)]
    ignored: bool,
    /// `json`: one JSON array of `{name, ambiguous}`; otherwise one
    /// `NAME: test` line per case.
    #[arg(long, value_enum, value_name = "FORMAT")]
    format: Option<Format>,
}

/// The options of `coverage`.
#[derive(Debug, clap::Args)]
pub(super) struct CoverageCli {
    /// The spec pack whose rules are counted.
    /// A folder holding pack.yaml is a folder pack (docs/folder-packs.md).
    #[arg(long, value_name = "NAME|PATH")]
    spec: Option<String>,
    /// A case folder or case file; repeatable (default: the built-in suite).
    #[arg(long = "cases", value_name = "PATH")]
    cases: Vec<PathBuf>,
}

impl From<BlessCli> for Cli {
    fn from(b: BlessCli) -> Self {
        Self {
            bless: true,
            ..b.select.into_cli(TestArgs {
                test_threads: b.test_threads,
                ..TestArgs::default()
            })
        }
    }
}

impl From<ListCli> for Cli {
    fn from(l: ListCli) -> Self {
        l.select.into_cli(TestArgs {
            ignored: l.ignored,
            list: true,
            format: l.format,
            ..TestArgs::default()
        })
    }
}

impl From<CoverageCli> for Cli {
    fn from(c: CoverageCli) -> Self {
        Self {
            spec: c.spec,
            cases: c.cases,
            coverage: true,
            ..Self::default()
        }
    }
}

/// The command line of `diff`.
#[derive(Debug, clap::Args)]
pub(super) struct DiffCommand {
    /// The spec pack whose program is explored (default: the first one
    /// registered).
    /// A folder holding pack.yaml is a folder pack (docs/folder-packs.md).
    #[arg(long, value_name = "NAME|PATH")]
    pub(super) spec: Option<String>,
    #[command(flatten)]
    pub(super) diff: DiffCli,
}
