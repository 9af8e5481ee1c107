//! The command line of a pack's corpus writer, written once for every pack:
//! `NAME-corpus generate OPTIONS --out DIR` writes a folder of labelled
//! cases and, for a corpus sorted into classes, `NAME-corpus classes` lists
//! them. A pack states what is its own ([`CorpusWriter`]: its options, its
//! classes, its writer); its binary's `main` is one call to [`main`].

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};

use crate::output::exit;

/// One class of a corpus, as `classes` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassLine {
    /// The class's name, one word.
    pub name: String,
    /// Whether its samples are valid (controls) rather than faulty.
    pub control: bool,
    /// Whether its expected outcome rests on an ambiguous ruling.
    pub ambiguous: bool,
    /// What its samples are, one line.
    pub description: String,
    /// The rule IDs its samples exercise.
    pub rules: Vec<String>,
}

/// One labelled file of a corpus before it is written: its class (the
/// pack's own type, one of those `classes` lists), a name for it within
/// the class, what it holds and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample<C> {
    /// The class the file belongs to.
    pub class: C,
    /// A kebab-case name unique within the class: the file's stem.
    pub variant: String,
    /// What this file holds, one line, beyond the class's description.
    pub detail: String,
    /// The file's contents.
    pub bytes: Vec<u8>,
}

/// Why a corpus was not written: its options are wrong (exit 2, nothing
/// written) or writing failed (exit 1).
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// The options name no corpus the pack can write (a size out of range).
    #[error("{0}")]
    Options(String),
    /// The folder or a case could not be written.
    #[error("{0}")]
    Writing(String),
}

/// What a pack's corpus writer supplies to the command line.
pub trait CorpusWriter {
    /// The command's name (`nogo-corpus`).
    const COMMAND: &'static str;
    /// What the corpus is, one line (the command's `--help`).
    const ABOUT: &'static str;
    /// What `generate` writes, one line.
    const GENERATE: &'static str;
    /// The options of `generate` besides `--out`.
    type Options: Args;

    /// The classes in their order, or `None` for a corpus without classes
    /// (then there is no `classes` command).
    fn classes() -> Option<Vec<ClassLine>>;

    /// Writes the corpus into `out`, a new or empty folder; returns the
    /// line that tells what was written.
    ///
    /// # Errors
    /// [`CorpusError`] when the options are wrong or writing fails.
    fn generate(options: &Self::Options, out: &Path) -> Result<String, CorpusError>;
}

/// The corpus writer's `main`, on the process's arguments.
pub fn main<W: CorpusWriter>() -> ExitCode {
    exit::code(run::<W, _>(std::env::args_os()))
}

/// Runs the command line `args` (the command's name first); prints what it
/// writes and returns the exit status.
pub fn run<W, I>(args: I) -> u8
where
    W: CorpusWriter,
    I: IntoIterator<Item = OsString>,
{
    let matches = match command::<W>().try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => {
            // `--help` and `--version` are errors to clap, with status 0.
            let _ = e.print();
            return u8::try_from(e.exit_code()).unwrap_or(exit::USAGE);
        }
    };
    match matches.subcommand() {
        Some(("classes", _)) => {
            print!("{}", classes_text(&W::classes().unwrap_or_default()));
            exit::PASSED
        }
        Some(("generate", sub)) => generate::<W>(sub),
        _ => exit::USAGE,
    }
}

fn command<W: CorpusWriter>() -> Command {
    let out = Arg::new("out")
        .long("out")
        .value_name("OUT")
        .required(true)
        .value_parser(clap::value_parser!(PathBuf))
        .help("A new or empty folder to write into");
    // After the options: their struct's doc would otherwise be the about.
    let generate = W::Options::augment_args(Command::new("generate"))
        .about(W::GENERATE)
        .arg(out);
    let mut cmd = Command::new(W::COMMAND)
        .version(env!("CARGO_PKG_VERSION"))
        .about(W::ABOUT)
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(generate);
    if W::classes().is_some() {
        cmd = cmd.subcommand(
            Command::new("classes")
                .about("List the classes, one a line: name, flags, description, rules"),
        );
    }
    cmd
}

fn generate<W: CorpusWriter>(matches: &ArgMatches) -> u8 {
    let options = match W::Options::from_arg_matches(matches) {
        Ok(o) => o,
        Err(e) => {
            let _ = e.print();
            return exit::USAGE;
        }
    };
    let Some(out) = matches.get_one::<PathBuf>("out") else {
        return exit::USAGE;
    };
    match W::generate(&options, out) {
        Ok(line) => {
            println!("{line}");
            exit::PASSED
        }
        Err(e) => {
            eprintln!("{}: {e}", W::COMMAND);
            match e {
                CorpusError::Options(_) => exit::USAGE,
                CorpusError::Writing(_) => exit::FAILED,
            }
        }
    }
}

/// The classes, one a line: the name padded to the longest, `control` or
/// `faulty` (and `ambiguous`), the description and the rules in brackets.
pub fn classes_text(classes: &[ClassLine]) -> String {
    let width = classes.iter().map(|c| c.name.len()).max().unwrap_or(0) + 1;
    let mut text = String::new();
    for c in classes {
        let kind = if c.control { "control" } else { "faulty" };
        let amb = if c.ambiguous { " ambiguous" } else { "" };
        let _ = writeln!(
            text,
            "{:<width$} {:<17} {} [{}]",
            c.name,
            format!("{kind}{amb}"),
            c.description,
            c.rules.join(", ")
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, clap::Args)]
    struct Size {
        /// Rows.
        #[arg(long)]
        rows: usize,
    }

    struct Toy;

    impl CorpusWriter for Toy {
        const COMMAND: &'static str = "toy-corpus";
        const ABOUT: &'static str = "Toy cases.";
        const GENERATE: &'static str = "Write toy cases.";
        type Options = Size;

        fn classes() -> Option<Vec<ClassLine>> {
            Some(vec![ClassLine {
                name: "short".to_owned(),
                control: false,
                ambiguous: true,
                description: "too few rows".to_owned(),
                rules: vec!["ARGS-1".to_owned(), "ARGS-2".to_owned()],
            }])
        }

        fn generate(options: &Size, out: &Path) -> Result<String, CorpusError> {
            match options.rows {
                0 => Err(CorpusError::Options("no rows".to_owned())),
                1 => Err(CorpusError::Writing(format!("{}: full", out.display()))),
                n => Ok(format!("wrote {n}")),
            }
        }
    }

    fn run_toy(args: &[&str]) -> u8 {
        run::<Toy, _>(
            std::iter::once("toy-corpus")
                .chain(args.iter().copied())
                .map(OsString::from),
        )
    }

    #[test]
    fn statuses_tell_bad_options_from_failed_writing() {
        assert_eq!(run_toy(&["generate", "--rows", "3", "--out", "x"]), 0);
        assert_eq!(run_toy(&["generate", "--rows", "0", "--out", "x"]), 2);
        assert_eq!(run_toy(&["generate", "--rows", "1", "--out", "x"]), 1);
        assert_eq!(
            run_toy(&["generate", "--rows", "3"]),
            2,
            "--out is required"
        );
        assert_eq!(run_toy(&["frobnicate"]), 2);
        assert_eq!(run_toy(&["classes"]), 0);
    }

    #[test]
    fn classes_are_aligned_and_flagged() {
        let text = classes_text(&Toy::classes().unwrap_or_default());
        assert_eq!(
            text,
            "short  faulty ambiguous  too few rows [ARGS-1, ARGS-2]\n"
        );
    }
}
