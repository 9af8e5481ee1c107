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
//! - `autograder`: `gradescope-autograder`'s two scripts.

mod args;
mod autograder;
mod bless;
mod confirm;
mod coverage;
mod header;
mod likeness;
mod outputs;
mod plan;
mod progress;
mod runner;
mod trials;

use std::ffi::OsString;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::diff::explore::Context as DiffContext;
use crate::exit;
use crate::pack::{self, Pack};
use crate::suite::{self, Root};

use args::{DiffCommand, Sub, Top};
use runner::run_cases;

/// Behaviour that differs between the harness binary and the conformance
/// test target.
#[derive(Debug, Clone, Copy, Default)]
pub struct Defaults {
    /// Run ambiguous cases too, as if `--include-ignored` were given.
    pub include_ambiguous: bool,
    /// Ignore `NAME_BIN`: `cargo test` checks the reference whatever the
    /// environment says.
    pub ignore_bin_env: bool,
    /// libtest's per-case output by default (a `cargo test` target), as if
    /// `--format libtest` were given.
    pub libtest_output: bool,
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
            Some(name) => {
                let registered = pack::find(self.packs, name);
                if crate::folder::names_folder(name, registered.is_some()) {
                    // Loaded once per command; it lives as long as the
                    // process, like the registered packs.
                    let folder = crate::folder::FolderPack::load(name)?;
                    return Ok(Box::leak(Box::new(folder)));
                }
                registered.ok_or_else(|| {
                    format!(
                        "--spec {name}: no such spec pack (known: {}; a folder pack is named \
                         by a path holding a `/`, or a folder holding pack.yaml)",
                        self.packs
                            .iter()
                            .map(|p| p.name())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
            }
        }
    }

    /// Whether `pack` is the default pack.
    fn is_default(&self, pack: &dyn Pack) -> bool {
        self.packs.first().is_some_and(|p| p.spec() == pack.spec())
    }
}

/// The whole program, given `argv` with the program name first. Exits
/// through the constants of [`crate::exit`].
pub fn main_with_args(app: &App<'_>, argv: Vec<OsString>, defaults: Defaults) -> ExitCode {
    let argv = hoist_subcommand(argv);
    let top: Top = match parse_as(app, argv) {
        Ok(top) => top,
        Err(e) => return clap_exit(&e),
    };
    // Before any program starts (the preflight of `--bin` included): an
    // interrupt from here on kills every run and removes every sandbox.
    // `run` replaces this report with one that counts the finished cases.
    if let Err(e) = crate::interrupt::install() {
        eprintln!("{}: warning: Ctrl-C will not clean up: {e}", app.program);
    }
    let program = app.program;
    crate::interrupt::on_interrupt(move |sig| {
        // Never a panicking print: the stream may be closed, and a panic
        // here would re-enter the interrupt's clean-up.
        let _ = writeln!(
            std::io::stderr(),
            "\n{program}: interrupted by {}: every running program was killed and its sandbox \
             removed",
            crate::run::signal_name(sig)
        );
    });
    // Before the first sandbox starts: its keeper takes the policy.
    crate::sandbox::policy::set(
        top.contain.allow_read.clone(),
        top.contain.allow_network,
        top.contain.bounds(),
    );
    // Finished runs' folders are reused until the command ends.
    let _kept = crate::spare::Scope::enter();
    // A folder pack's built model lives until the command ends.
    let _models = crate::folder::model::Scope::enter();
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
            Ok(pack) if pack.suite_folder().is_some() => usage_error(
                app.program,
                &format!(
                    "--spec {}: the autograder is written for built-in packs only; a folder \
                     pack's is not written yet",
                    pack.spec()
                ),
            ),
            Ok(pack) if pack.build().is_none() => usage_error(
                app.program,
                &format!("spec pack {} has no build line: no autograder", pack.name()),
            ),
            Ok(pack) => match autograder::write(app.program, pack.name(), &cli.out) {
                Ok(()) => {
                    println!(
                        "{}: wrote {0}/setup.sh and {0}/run_autograder; put the repository's \
                         source beside them as {1}/ (git archive --prefix={1}/ HEAD | tar -x -C \
                         {0}), then zip the folder's contents for Gradescope",
                        cli.out.display(),
                        autograder::SOURCE_DIR
                    );
                    exit::code(exit::PASSED)
                }
                Err(e) => usage_error(app.program, &e),
            },
        },
        Some(Sub::Version) => {
            println!("{} {}", app.program, version(app));
            exit::code(exit::PASSED)
        }
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

/// `mark` and `mark merge`.
fn mark_main(app: &App<'_>, command: &crate::mark::MarkCommand, weaker: bool) -> ExitCode {
    if let Some(crate::mark::MarkSub::Merge(cli)) = &command.sub {
        return crate::mark::merge::merge(app.program, cli);
    }
    // Marks are never made in a weaker sandbox without the marker knowing.
    if let Some(lacking) = crate::sandbox::shortfall()
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
    if let Some(widened) = crate::sandbox::policy::get().describe() {
        let _ = writeln!(std::io::stderr(), "{} mark: {widened}", app.program);
    }
    match app.pack(command.mark.spec.as_deref()) {
        Ok(pack) => crate::mark::mark(pack, app.packs, app.program, &command.mark),
        Err(e) => usage_error(app.program, &e),
    }
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
    let reference = match pack.reference() {
        Ok(r) => r,
        Err(e) => return report(&e),
    };
    let context = DiffContext {
        pack: pack.name(),
        spec: pack.spec(),
        reference: &reference,
        program: app.program,
        default: app.is_default(pack),
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
    let matches = T::command()
        .name(app.program)
        .bin_name(app.program)
        .version(version)
        .after_help(after_help)
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

pub(super) fn usage_error(program: &str, message: &str) -> ExitCode {
    eprintln!("{program}: {message}");
    exit::code(exit::USAGE)
}

#[cfg(test)]
mod tests {
    use super::hoist_subcommand;
    use std::ffi::OsString;

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
