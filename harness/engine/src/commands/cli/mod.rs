//! The command line: subcommand dispatch (`run` the default, `bless`,
//! `list`, `coverage`, `diff`, `mark`, `schema`), the program's name and version
//! in every usage line, and the exit status of a usage error. The case
//! runner behind `run` lives in the submodules:
//!
//! - `args`: the clap definitions;
//! - `runner`: one run of the selected cases, the report around it;
//! - `progress`: the harness's own runner behind the default report;
//! - `plan`: which cases a run selects, and the trial list;
//! - `trials`: one case as a trial, run, driven and judged;
//! - `bless`: one case blessed from the reference;
//! - `confirm`: a timeout run again before it is charged;
//! - `coverage`: the rule coverage table;
//! - `header`: what a run prints around libtest's output;
//! - `outputs`: the machine outputs (`--results`, `--gradescope`);
//! - `course_outputs`: `--github` and `--prairielearn`;
//! - `autograder`: `gradescope-autograder`'s two scripts.
//!
//! One piece: the command line's dispatch: each subcommand's entry, a
//! subcommand hoisted past options, and clap's errors turned into the
//! usage exit status share the `App` and its name in every usage line;
//! about 60 lines are tests.

mod app;
mod args;
mod autograder;
mod autograder_package;
mod bless;
mod confirm;
mod context;
mod course_outputs;
mod coverage;
mod header;
mod likeness;
mod outputs;
mod pending;
mod plan;
mod prepare;
mod progress;
mod readings;
mod runner;
mod settle;
mod told;
mod trials;
mod unstarted;

use std::ffi::OsString;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::explorer::explore::Context as DiffContext;
use crate::explorer::tolerated::Tolerances;
use crate::model::suite::{self, Root};
use crate::output::exit;

use app::usage_error;
pub use app::{App, Defaults};
use args::{DiffCommand, Sub, Top};
use runner::run_cases;

/// The whole program, given `argv` with the program name first. Exits
/// through the constants of [`crate::output::exit`].
pub fn main_with_args(app: &App<'_>, argv: Vec<OsString>, defaults: Defaults) -> ExitCode {
    let argv = hoist_subcommand(argv);
    let top: Top = match parse_as(app, argv) {
        Ok(top) => top,
        Err(e) => return clap_exit(&e),
    };
    // Before any program starts (the preflight of `--bin` included): an
    // interrupt from here on kills every run and removes every sandbox.
    // `run` replaces this report with one that counts the finished cases.
    if let Err(e) = crate::exec::interrupt::install() {
        eprintln!("{}: warning: Ctrl-C will not clean up: {e}", app.program);
    }
    let program = app.program;
    crate::exec::interrupt::on_interrupt(move |sig| {
        // Never a panicking print: the stream may be closed, and a panic
        // here would re-enter the interrupt's clean-up.
        let _ = writeln!(
            std::io::stderr(),
            "\n{program}: interrupted by {}: every running program was killed and its sandbox \
             removed",
            crate::exec::run::signal_name(sig)
        );
    });
    // An unknown level is the caller's mistake, never a weaker sandbox.
    if let Err(e) = conformance_sandbox::check_choice() {
        return usage_error(app.program, &e);
    }
    // Before the first sandbox starts: its keeper takes the policy.
    conformance_sandbox::policy::set(
        top.contain.allow_read.clone(),
        top.contain.allow_network,
        top.contain.bounds(),
    );
    // Finished runs' folders are reused until the command ends.
    let _kept = crate::exec::spare::Scope::enter();
    // A folder pack's built model lives until the command ends.
    let _models = crate::packs::folder::model::Scope::enter();
    // A `--bin` Java program's class-data archive lives as long.
    let _archives = crate::exec::run::jvm::Scope::enter();
    match top.command {
        None => run_cases(app, top.run, defaults),
        Some(Sub::Run(cli)) => run_cases(app, *cli, defaults),
        Some(Sub::Bless(cli)) => run_cases(app, cli.into(), defaults),
        Some(Sub::List(cli)) => run_cases(app, cli.into(), defaults),
        Some(Sub::Coverage(cli)) => run_cases(app, cli.into(), defaults),
        Some(Sub::Diff(command)) => diff_main(app, command),
        Some(Sub::Mark(command)) => mark_main(app, &command, top.contain.allow_weaker_containment),
        Some(Sub::GradescopeAutograder(cli)) => match app.pack(cli.spec.as_deref()) {
            Err(e) => usage_error(app.program, &e),
            Ok(pack)
                if pack
                    .suite_folder()
                    .zip(pack.checker_home())
                    .is_some_and(|(suite, dir)| !suite.starts_with(dir)) =>
            {
                usage_error(
                    app.program,
                    &format!(
                        "--spec {}: the autograder copies the pack's folder beside its scripts, \
                         and this pack's suite lies outside it (`suite:`): copy the suite into \
                         the pack",
                        pack.spec()
                    ),
                )
            }
            Ok(pack) if pack.build().is_none() => usage_error(
                app.program,
                &format!("spec pack {} has no build line: no autograder", pack.name()),
            ),
            Ok(pack) => match autograder::write(
                app.program,
                pack.name(),
                &cli.out,
                cli.memcheck,
                pack.travels(),
            ) {
                Ok(()) => {
                    println!(
                        "{}: wrote {0}/setup.sh and {0}/run_autograder; put the release archive \
                         {1} beside them (dist/build writes it; see docs/staff.md), then zip the \
                         folder's contents for Gradescope",
                        cli.out.display(),
                        autograder::release_archive(app.program)
                    );
                    exit::code(exit::PASSED)
                }
                Err(e) => usage_error(app.program, &e),
            },
        },
        Some(Sub::NewPack(cli)) => new_pack(app, &cli),
        Some(Sub::Publish(cli)) => publish(app, &cli),
        Some(Sub::Verify(cli)) => verify_main(app, &cli),
        Some(Sub::Version) => {
            println!("{} {}", app.program, version(app));
            exit::code(exit::PASSED)
        }
        Some(Sub::Schema { results }) => {
            if results {
                print!("{}", crate::output::results::json_schema());
            } else {
                print!("{}", crate::model::schema::json_schema());
            }
            exit::code(exit::PASSED)
        }
    }
}

/// `publish`: writes the student's copy of a folder pack and says what
/// it left out.
fn publish(app: &App<'_>, cli: &args::PublishCli) -> ExitCode {
    let package = crate::packs::problem::package::is_package(&cli.spec);
    let done = if package {
        crate::packs::problem::publish::publish(app.program, &cli.spec, &cli.out)
    } else {
        crate::packs::folder::publish::publish(app.program, &cli.spec, &cli.out)
    };
    match done {
        Err(e) => usage_error(app.program, &e),
        Ok(done) => {
            let model = if package {
                format!("the jury's {} submission(s)", done.model_files)
            } else {
                format!("{} file(s) of the model", done.model_files)
            };
            println!(
                "{}: {} file(s) written to {}: {} public case(s); left out {} secret case(s) \
                 and {model}",
                app.program,
                done.copied,
                cli.out.display(),
                done.public_cases,
                done.secret_cases,
            );
            exit::code(exit::PASSED)
        }
    }
}

/// `verify`: the package read, its jury submissions checked, the table
/// printed.
fn verify_main(app: &App<'_>, cli: &args::VerifyCli) -> ExitCode {
    use crate::packs::problem::{package::Problem, table, verify};
    let workers = cli
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let problem = match Problem::load(&cli.spec) {
        Ok(p) => p,
        Err(e) => return usage_error(app.program, &format!("verify: {e}")),
    };
    match verify::verify(&problem, workers) {
        Err(e) => usage_error(app.program, &format!("verify {}: {e}", cli.spec.display())),
        Ok(report) => {
            let (text, disagree) = table::render(&problem, &report);
            print!("{text}");
            if disagree > 0 {
                exit::code(exit::FAILED)
            } else if !table::any_accepted(&report) {
                usage_error(
                    app.program,
                    "verify: no accepted submission ran, so nothing checked the package",
                )
            } else {
                exit::code(exit::PASSED)
            }
        }
    }
}

/// `new-pack`: writes the folder and says what to do next.
fn new_pack(app: &App<'_>, cli: &args::NewPackCli) -> ExitCode {
    let dir = cli
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from(".").join(&cli.name));
    match crate::commands::scaffold::new_pack(&cli.name, &cli.model, &dir, app.program) {
        Ok(files) => {
            let shown = dir.display();
            println!(
                "{}: wrote {} files into {shown}: {}",
                app.program,
                files.len(),
                files.join(", ")
            );
            println!(
                "next: write the rulings, rules.yaml and cases, then\n  {0} bless --spec {shown}\n  {0} \
                 --spec {shown} --bin path/to/program --score\n  {0} diff --spec {shown} --bin \
                 path/to/program",
                app.program
            );
            exit::code(exit::PASSED)
        }
        Err(e) => usage_error(app.program, &format!("new-pack: {e}")),
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

/// `mark` and `mark merge`.
fn mark_main(app: &App<'_>, command: &crate::marking::args::MarkCommand, weaker: bool) -> ExitCode {
    if let Some(crate::marking::args::MarkSub::Merge(cli)) = &command.sub {
        return crate::marking::merge::merge(app.program, cli);
    }
    // Marks are never made in a weaker sandbox without the marker knowing.
    if let Some(lacking) = conformance_sandbox::shortfall()
        && !weaker
    {
        return usage_error(
            app.program,
            &format!(
                "mark needs the default containment, and here {lacking}; give \
                 --allow-weaker-containment to mark anyway (docs/containment.md)"
            ),
        );
    }
    if let Some(widened) = conformance_sandbox::policy::get().describe() {
        let _ = writeln!(std::io::stderr(), "{} mark: {widened}", app.program);
    }
    match app.pack(command.mark.spec.as_deref()) {
        Ok(pack) => crate::marking::mark(pack, app.packs, app.program, &command.mark),
        Err(e) => usage_error(app.program, &e),
    }
}

/// `diff`.
fn diff_main(app: &App<'_>, command: DiffCommand) -> ExitCode {
    let name = format!("{} {}", app.program, crate::explorer::SUBCOMMAND);
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
    let reference = match pack.reference() {
        Ok(r) => r,
        Err(e) => return report(&e),
    };
    // Sessions are judged as cases are: by the suite's and its rules'
    // `match:` (docs/matching.md).
    let suite = match suite::suite_with_rules(&Root::Embedded(pack.suite()), pack.suite()) {
        Ok(s) => s,
        Err(e) => return report(&e.to_string()),
    };
    let checkers = crate::packs::pack::checkers(pack).with_model(Some(
        crate::exec::run::Later::ready(Some(reference.clone())),
    ));
    let tolerances = Tolerances::of(&suite, checkers, cli.strict);
    if let Err(e) = tolerances.check() {
        return report(&e);
    }
    let context = DiffContext {
        pack: pack.name(),
        spec: pack.spec(),
        reference: &reference,
        program: app.program,
        default: app.is_default(pack),
        bin_is_command: pack.bin_is_command(),
        tolerances: &tolerances,
    };
    match explorer.diff(&context, &cli) {
        Ok(r) if r.findings.is_empty() && r.mismatching == 0 => exit::code(exit::PASSED),
        Ok(_) => exit::code(exit::FAILED),
        Err(message) => report(&message),
    }
}

/// Moves a subcommand named after options to the front, so that options go
/// before or after it as cargo and nextest users type them
/// (`--spec NAME diff --bin P` is `diff --spec NAME --bin P`). Only the
/// first word that is not an option or an option's value is looked at: a
/// subcommand's name there is the subcommand, never a case filter.
fn hoist_subcommand(mut argv: Vec<OsString>) -> Vec<OsString> {
    use clap::CommandFactory as _;
    let mut command = Top::command();
    command.build();
    let subcommands: Vec<&str> = command
        .get_subcommands()
        .flat_map(|s| std::iter::once(s.get_name()).chain(s.get_all_aliases()))
        .filter(|name| *name != "help")
        .collect();
    let takes_value = |arg: &clap::Arg| arg.get_action().takes_values();
    let long_takes_value = |name: &str| {
        command.get_arguments().any(|a| {
            takes_value(a)
                && (a.get_long() == Some(name)
                    || a.get_all_aliases().is_some_and(|al| al.contains(&name)))
        })
    };
    let short_takes_value = |c: char| {
        command
            .get_arguments()
            .any(|a| takes_value(a) && a.get_short() == Some(c))
    };
    let mut i = 1;
    while i < argv.len() {
        let Some(word) = argv[i].to_str() else {
            return argv;
        };
        if word == "--" {
            return argv;
        }
        if let Some(long) = word.strip_prefix("--") {
            i += if !long.contains('=') && long_takes_value(long) {
                2
            } else {
                1
            };
            continue;
        }
        if let Some(shorts) = word.strip_prefix('-').filter(|s| !s.is_empty()) {
            // A value-taking short option ends the cluster; its value is
            // the rest of the word or, when nothing follows it, the next.
            let mut skip_next = false;
            for (at, c) in shorts.char_indices() {
                if short_takes_value(c) {
                    skip_next = at + c.len_utf8() == shorts.len();
                    break;
                }
            }
            i += if skip_next { 2 } else { 1 };
            continue;
        }
        if i > 1 && subcommands.contains(&word) {
            let sub = argv.remove(i);
            argv.insert(1, sub);
        }
        return argv;
    }
    argv
}

/// Parses `argv` with the program's name in every usage line and its
/// version (with the suites' content hashes) behind `--version`.
fn parse_as<T: clap::Parser>(app: &App<'_>, argv: Vec<OsString>) -> Result<T, clap::Error> {
    // clap wants a `'static` version text; it is built once per process.
    let version: &'static str = version(app).leak();
    let packs: Vec<String> = app
        .packs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            format!(
                "  {:<12}{}program from {}, blessing {}",
                p.name(),
                if i == 0 { "(default) " } else { "" },
                p.bin_env(),
                p.bless_env()
            )
        })
        .collect();
    let after_help = format!(
        "Spec packs (--spec NAME):\n{}\n\nWithout --bin the pack's built-in reference is \
         checked. NAME_TIME_FACTOR scales the time limits (as --time-factor); NO_COLOR turns \
         colour off.",
        packs.join("\n")
    );
    let mut command = T::command()
        .name(app.program)
        .bin_name(app.program)
        .version(version)
        .after_help(after_help);
    // clap colours its own usage errors before `--color` is parsed: the
    // word is read here so that it governs them too (as NO_COLOR does).
    if let Some(choice) = colour_asked(&argv) {
        command = command.color(choice);
    }
    let matches = command.try_get_matches_from(argv)?;
    T::from_arg_matches(&matches)
}

/// The last `--color WHEN` (or `--color=WHEN`) before a `--`, as clap's
/// colour choice; `None` when absent or not a known WHEN (clap then
/// reports that word itself).
fn colour_asked(argv: &[OsString]) -> Option<clap::ColorChoice> {
    let mut asked = None;
    let mut words = argv.iter().skip(1).map(|w| w.to_str());
    while let Some(word) = words.next() {
        let value = match word {
            Some("--") => break,
            Some("--color") => words.next().flatten(),
            Some(w) => w.strip_prefix("--color="),
            None => None,
        };
        asked = match value {
            Some("never") => Some(clap::ColorChoice::Never),
            Some("always") => Some(clap::ColorChoice::Always),
            Some("auto") => Some(clap::ColorChoice::Auto),
            _ => asked,
        };
    }
    asked
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

#[cfg(test)]
mod tests {
    use super::{colour_asked, hoist_subcommand};
    use std::ffi::OsString;

    #[test]
    fn the_last_color_before_a_double_dash_is_claps_colour() {
        let asked = |words: &str| {
            let argv: Vec<OsString> = std::iter::once("h")
                .chain(words.split(' '))
                .map(OsString::from)
                .collect();
            colour_asked(&argv)
        };
        assert_eq!(asked("--color never x"), Some(clap::ColorChoice::Never));
        assert_eq!(asked("--color=always"), Some(clap::ColorChoice::Always));
        assert_eq!(
            asked("--color always --color=never"),
            Some(clap::ColorChoice::Never)
        );
        assert_eq!(asked("--color sometimes"), None);
        assert_eq!(asked("save -- --color never"), None);
        assert_eq!(asked("--color"), None);
    }

    fn hoisted(words: &str) -> String {
        let argv: Vec<OsString> = std::iter::once("h")
            .chain(words.split(' '))
            .map(OsString::from)
            .collect();
        hoist_subcommand(argv)
            .iter()
            .skip(1)
            .map(|w| w.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn a_subcommand_after_options_comes_first() {
        assert_eq!(
            hoisted("--spec alpha diff --bin P"),
            "diff --spec alpha --bin P"
        );
        assert_eq!(hoisted("--bin ./prog diff"), "diff --bin ./prog");
        assert_eq!(hoisted("--bin=./prog list"), "list --bin=./prog");
        assert_eq!(hoisted("-j 2 --score version"), "version -j 2 --score");
        assert_eq!(hoisted("-j2 coverage"), "coverage -j2");
    }

    #[test]
    fn option_values_and_filters_stay_where_they_are() {
        // `diff` is the value of --bin here, `save` a case filter.
        assert_eq!(hoisted("--bin diff save"), "--bin diff save");
        assert_eq!(hoisted("--score save"), "--score save");
        assert_eq!(hoisted("diff --spec alpha"), "diff --spec alpha");
        assert_eq!(hoisted("--score -- diff"), "--score -- diff");
        // `diff` is -j's value (clap refuses it later); `list` is the word.
        assert_eq!(hoisted("-j diff list"), "list -j diff");
    }
}
