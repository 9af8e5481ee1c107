//! What a spec pack hands the engine: the program's name in one word, its
//! embedded suite (cases, `suite.yaml`, `rules.yaml`, rulings), its rule IDs,
//! how to run its reference and, for `diff`, its explorer. The engine never
//! names a pack; the binary that registers packs passes them in.
//!
//! One piece: the trait and the reference mode that re-runs this binary
//! as a pack's reference or checker are one interface (what a pack plugs
//! in, and how the engine calls it back contained); the checker protocol's
//! files are read here for every kind of pack.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

// The protocol's names live with the runner (`judge/checker.rs`), which
// the explorer's judge uses too: a layer below both.
use crate::exec::driver::CaseDriver;
use crate::exec::run::REFERENCE_ENV;
use crate::exec::run::Target;
use crate::explorer::DynExplorer;
use crate::judge::checker::Checkers;
pub use crate::judge::checker::{CHECKER_ENV, protocol};
/// The suite a pack embeds, named where the packs name the rest of this
/// interface.
pub use crate::model::embedded::EmbeddedSuite;

/// Something a mark depends on ([`Pack::depends_on`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dependency {
    /// How people name it: `the model`.
    pub name: &'static str,
    /// Files or folders whose content it is.
    pub paths: Vec<std::path::PathBuf>,
    /// Commands looked up on `PATH` whose program (its resolved path,
    /// size and time) is part of it: a course's interpreter.
    pub commands: Vec<String>,
}

/// A program under test, as the engine sees it.
pub trait Pack: Send + Sync {
    /// The program's name, one lowercase word (`--spec NAME`); also the
    /// prefix of its environment variables (`NAME_BIN`, `NAME_BLESS`).
    fn name(&self) -> &'static str;

    /// The suite embedded in the binary.
    fn suite(&self) -> &'static EmbeddedSuite;

    /// Every rule ID of the rulings, in the rulings' order; a pack's tests
    /// check it against the suite's `rules.yaml`.
    fn rule_ids(&self) -> Vec<&'static str>;

    /// Runs the built-in reference program with `args` (the program name
    /// first). The engine re-executes its own binary in reference mode to
    /// call this, so the reference is never looked up by path. A pack
    /// whose reference is a command ([`Pack::reference`]) has none: the
    /// default refuses.
    fn reference_main(&self, args: Vec<OsString>) -> ExitCode {
        drop(args);
        eprintln!(
            "{REFERENCE_ENV}={}: this pack's reference is a command, not built in",
            self.name()
        );
        crate::output::exit::code(crate::output::exit::USAGE)
    }

    /// The program whose outputs are the expectations: by default the
    /// built-in reference ([`Pack::reference_main`], this executable
    /// re-run); a folder pack's model solution, a command run contained
    /// as a program under test.
    fn reference(&self) -> Result<Target, String> {
        Target::reference(self.name()).map_err(|e| e.to_string())
    }

    /// [`Pack::reference`], made when a check first needs it: a folder
    /// pack's model is built only for a case that runs it.
    fn reference_later(&self) -> crate::exec::run::Later {
        crate::exec::run::Later::ready(self.reference().ok())
    }

    /// Whether a check of a program runs the reference beside it (to
    /// count the stdin lines it reads where a tolerance frees stdout, to
    /// trace its rules): a problem package's answers are its `.ans`
    /// files and its validator judges output alone, so it does not.
    fn reference_in_checks(&self) -> bool {
        true
    }

    /// How `--spec` names the pack in printed commands: its name, or a
    /// folder pack's path.
    fn spec(&self) -> &'static str {
        self.name()
    }

    /// The time limit of a case that sets none (and has no measured
    /// `reference-ms`), when the pack sets one.
    fn default_timeout(&self) -> Option<std::time::Duration> {
        None
    }

    /// The folder on disk the suite is read from at run time, which
    /// `bless` rewrites, for a pack whose suite is not built in.
    fn suite_folder(&self) -> Option<&Path> {
        None
    }

    /// The explorer behind `diff`, if the pack has one.
    fn explorer(&self) -> Option<&dyn DynExplorer> {
        None
    }

    /// The driver that runs cases holding a `script` as conversations, if
    /// the pack has one.
    fn driver(&self) -> Option<Arc<dyn CaseDriver>> {
        None
    }

    /// Whether `--bin` names a command line (one shell-quoted string split
    /// into words, the first looked up in `PATH` as a shell would) rather
    /// than the path of an executable.
    fn bin_is_command(&self) -> bool {
        false
    }

    /// How the course builds a submission of this program (`mark`), if
    /// submissions of it are built from source.
    fn build(&self) -> Option<BuildRecipe> {
        None
    }

    /// How the course runs a submission's program, `{program}` standing
    /// for its file (`python3 {program}`), when it is not run itself (a
    /// script handed in as it runs).
    fn run_line(&self) -> Option<&'static str> {
        None
    }

    /// How `mark` builds each submission when the line depends on the
    /// submission's own files (a problem package's language table), in
    /// place of [`Pack::build`]'s line; `None` for one line for all.
    fn submission_builds(&self) -> Option<Arc<dyn SubmissionBuilds>> {
        None
    }

    /// The program `--bin PATH` names when it is a pack's own kind of
    /// program (a problem package's source file or folder, built by its
    /// language table); `None` to read `--bin` as usual.
    fn bin_target(&self, _bin: &Path) -> Option<Result<Target, String>> {
        None
    }

    /// The normative rulings (Markdown): the suite's rulings file
    /// ([`Pack::rulings_file`]).
    fn rulings(&self) -> Option<&'static str> {
        let file = self.rulings_file()?;
        self.suite()
            .get(&file)
            .and_then(|b| std::str::from_utf8(b).ok())
    }

    /// The suite's rulings file, as it names it: the file `suite.yaml`'s
    /// `spec:` names, else `NAME-rulings.md`, else the one file ending in
    /// `-rulings.md` (a pack renamed after its rulings were written).
    fn rulings_file(&self) -> Option<String> {
        let suite = self.suite();
        let root = crate::model::suite::Root::Embedded(suite);
        let named = crate::model::suite::suite_for(&root, suite)
            .ok()
            .and_then(|s| s.spec)
            .filter(|f| suite.get(f).is_some());
        let own = format!("{}-rulings.md", self.name());
        named
            .or_else(|| suite.get(&own).is_some().then_some(own))
            .or_else(|| {
                let mut any = suite
                    .files
                    .iter()
                    .map(|(f, _)| *f)
                    .filter(|f| f.ends_with("-rulings.md"));
                match (any.next(), any.next()) {
                    (Some(one), None) => Some(one.to_owned()),
                    _ => None,
                }
            })
    }

    /// The built-in checker `builtin:NAME` of a `match:` declaration
    /// (docs/matching.md), run contained by re-executing this binary as
    /// the reference is: none by default.
    fn checker(&self, _name: &str) -> Option<CheckerFn> {
        None
    }

    /// The names of the built-in checkers ([`Pack::checker`]).
    fn checker_names(&self) -> Vec<&'static str> {
        Vec::new()
    }

    /// Variables the pack's `builtin:NAME` checkers get when this binary
    /// is re-run as one (a problem package's built output validator).
    fn checker_env(&self) -> Vec<(OsString, OsString)> {
        Vec::new()
    }

    /// What the pack's `builtin:NAME` checkers read besides the harness
    /// (a problem package's built output validator): shown to them
    /// read-only in a mount namespace.
    fn checker_reads(&self) -> Vec<PathBuf> {
        Vec::new()
    }

    /// The folder a `match:` checker command runs from and may read (a
    /// folder pack's own folder); `None`: only `builtin:` checkers.
    fn checker_home(&self) -> Option<&Path> {
        None
    }

    /// The folder or file on disk that holds the whole pack, which goes
    /// with it to another machine (an autograder's image): a folder
    /// pack's folder (a pack whose suite is read from disk travels as its
    /// checkers' home), a problem package's folder or `.zip`; `None`: the
    /// pack is built into this binary.
    fn travels(&self) -> Option<&Path> {
        self.suite_folder().and(self.checker_home())
    }

    /// What a mark depends on besides this harness, each named as people
    /// say it (`the suite`, `the model`, `the pack`, `the environment`)
    /// with the files or folders whose content it is, and the commands
    /// whose program is part of it (`python3`): `mark` hashes them to
    /// tell a kept mark stale (docs/mark.md). None for a compiled-in
    /// pack, whose suite and model are this binary (its suite's content
    /// hash stands for `the suite`).
    fn depends_on(&self) -> Vec<Dependency> {
        Vec::new()
    }

    /// The environment variable naming the program under test.
    fn bin_env(&self) -> String {
        format!("{}_BIN", self.name().to_ascii_uppercase())
    }

    /// The environment variable that turns on blessing.
    fn bless_env(&self) -> String {
        format!("{}_BLESS", self.name().to_ascii_uppercase())
    }
}

/// What a built-in checker is given (the checker protocol of
/// docs/matching.md, read back from the files it names).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckerInput {
    /// The case's arguments.
    pub args: Vec<Vec<u8>>,
    /// The case's stdin.
    pub stdin: Vec<u8>,
    /// The folder holding the case's input files at their paths.
    pub files: std::path::PathBuf,
    /// `stdout`, `stderr` or `file:PATH`.
    pub stream: String,
    /// The model's bytes of that stream.
    pub expected: Vec<u8>,
    /// The program's bytes of that stream.
    pub actual: Vec<u8>,
}

/// A built-in checker: `Ok` accepts, `Err(reason)` rejects (the reason is
/// shown); a panic is a fault of the checker.
pub type CheckerFn = fn(&CheckerInput) -> Result<(), String>;

/// The checkers of `pack`: those it registers and the folder its
/// checker commands run from.
pub fn checkers(pack: &dyn Pack) -> Checkers {
    Checkers {
        pack: Some(pack.name()),
        builtin: pack.checker_names(),
        home: pack.checker_home().map(Path::to_path_buf),
        model: None,
        env: pack.checker_env(),
        reads: pack.checker_reads(),
    }
}

/// Reads the checker protocol's files as the environment names them.
fn checker_input() -> Result<CheckerInput, String> {
    let var = |name: &str| std::env::var_os(name).ok_or_else(|| format!("{name} is not set"));
    let read = |name: &str| {
        let path = var(name)?;
        std::fs::read(&path).map_err(|e| format!("{name}={}: {e}", path.to_string_lossy()))
    };
    let args = read(protocol::ARGS)?;
    Ok(CheckerInput {
        args: args
            .split_inclusive(|&b| b == 0)
            .map(|a| a.strip_suffix(&[0]).unwrap_or(a).to_vec())
            .collect(),
        stdin: read(protocol::STDIN)?,
        files: var(protocol::FILES)?.into(),
        stream: var(protocol::STREAM)?.to_string_lossy().into_owned(),
        expected: read(protocol::EXPECTED)?,
        actual: read(protocol::ACTUAL)?,
    })
}

/// Runs `pack`'s built-in checker `name` on the protocol's files: exit 0
/// accepts, 1 rejects (the reason on stdout), 2 is a fault.
fn run_checker(pack: &dyn Pack, name: &str) -> ExitCode {
    let Some(check) = pack.checker(name) else {
        eprintln!(
            "{CHECKER_ENV}={name}: pack `{}` registers no such checker",
            pack.name()
        );
        return crate::output::exit::code(crate::output::exit::USAGE);
    };
    match checker_input() {
        Err(e) => {
            eprintln!("{CHECKER_ENV}={name}: {e}");
            crate::output::exit::code(crate::output::exit::USAGE)
        }
        Ok(input) => match check(&input) {
            Ok(()) => ExitCode::SUCCESS,
            Err(reason) => {
                println!("{}", reason.lines().next().unwrap_or("rejected"));
                ExitCode::from(1)
            }
        },
    }
}

/// A submission's build as [`SubmissionBuilds`] picks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubmissionBuild {
    /// Build it with this `sh -c` line; every file it leaves is kept
    /// beside the program (a launcher may start a JVM on classes there).
    Line(String),
    /// Not built: where the marks run lacks what its language needs (`no
    /// kotlinc (Kotlin)`): the course environment's failure, nothing
    /// charged to the student.
    Lacks(String),
}

/// Picks each submission's build from its files ([`Pack::submission_builds`]).
pub trait SubmissionBuilds: Send + Sync + std::fmt::Debug {
    /// The build of a submission holding `files`.
    fn build_for(&self, files: &crate::model::files::Files) -> SubmissionBuild;
}

/// The build line of a course that builds nothing: the submission runs as
/// it is handed in ([`Pack::run_line`]).
pub const NO_BUILD: &str = "";

/// The course's build line for a submission, as its assignment states it:
/// `mark` runs it with `sh -c` in a contained copy of the submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildRecipe {
    /// The executable the build must leave at the top of the submission.
    pub program: &'static str,
    /// The line when the submission has a `Makefile` (or `makefile`), if
    /// the course builds those with it.
    pub with_makefile: Option<&'static str>,
    /// The line otherwise.
    pub otherwise: &'static str,
}

impl BuildRecipe {
    /// The recipe in words, for the class view's header: `make` with a
    /// Makefile, else `gcc … *.c`.
    pub fn describe(&self) -> String {
        let otherwise = if self.otherwise == NO_BUILD {
            "no build (run as handed in)"
        } else {
            self.otherwise
        };
        match self.with_makefile {
            Some(make) => format!("{make} with a Makefile, else {otherwise}"),
            None => otherwise.to_owned(),
        }
    }

    /// The line for a submission whose top-level file names are `names`.
    pub fn line_for<'n>(&self, mut names: impl Iterator<Item = &'n str>) -> &'static str {
        match self.with_makefile {
            Some(make) if names.any(|n| n == "Makefile" || n == "makefile") => make,
            _ => self.otherwise,
        }
    }
}

/// The rule IDs of a pack's embedded `rules.yaml`, in its order; a pack's
/// test checks them against [`Pack::rule_ids`].
pub fn listed_rule_ids(pack: &dyn Pack) -> Result<Vec<String>, crate::model::schema::ParseError> {
    let root = crate::model::suite::Root::Embedded(pack.suite());
    let rules = crate::model::suite::rules_for(&root, pack.suite())?;
    Ok(rules.rules.into_iter().map(|r| r.id).collect())
}

/// The rule text of a pack's rulings copy and of the normative source at
/// `source`, for a pack's test to compare; `None` when the source is not
/// at hand (a clone of the repository alone) or the pack has no rulings.
/// The rule text is everything from the first `## ` heading up to the
/// copy's own "Decisions of this repository": the copy's introduction may
/// differ (it points inside the repository).
pub fn rulings_and_source(pack: &dyn Pack, source: &Path) -> Option<(String, String)> {
    let copy = pack.rulings()?;
    let source = std::fs::read_to_string(source).ok()?;
    let body = |text: &str| -> String {
        let start = text.find("\n## ").unwrap_or(0);
        let end = text
            .find("\n## Decisions of this repository")
            .unwrap_or(text.len());
        text[start..end.max(start)].trim_end().to_owned()
    };
    Some((body(copy), body(&source)))
}

/// Finds a pack by name.
pub fn find<'a>(packs: &[&'a dyn Pack], name: &str) -> Option<&'a dyn Pack> {
    packs.iter().copied().find(|p| p.name() == name)
}

/// Runs a pack's reference instead of the caller when this process was
/// started in reference mode ([`REFERENCE_ENV`] names a registered pack),
/// or a sandbox's keeper when it was started as one.
/// Every binary that runs cases calls this first thing in `main`.
pub fn reference_mode(packs: &[&dyn Pack]) -> Option<ExitCode> {
    // A sandbox's keeper is this executable too (see [`conformance_sandbox`]).
    if let Some(code) = conformance_sandbox::keeper_mode() {
        return Some(code);
    }
    let name = std::env::var_os(REFERENCE_ENV).filter(|v| !v.is_empty())?;
    // A problem package's cases are judged by its default output
    // validator, whatever the package is called: no pack registers it.
    if let Some(checker) = std::env::var_os(CHECKER_ENV)
        && let Some(name) = checker.to_str()
        && name.starts_with(crate::packs::problem::validator::DEFAULT_VALIDATOR)
    {
        let sides = checker_input().map(|i| (i.expected, i.actual));
        return Some(crate::packs::problem::validator::checker_main(name, sides));
    }
    // Or by its own output validator, which the command built.
    if let Some(checker) = std::env::var_os(CHECKER_ENV)
        && let Some(name) = checker.to_str()
        && name.starts_with(crate::packs::problem::custom_check::CUSTOM_VALIDATOR)
    {
        return Some(crate::packs::problem::custom_check::checker_main(name));
    }
    let Some(pack) = packs
        .iter()
        .find(|p| Path::new(p.name()) == Path::new(&name))
    else {
        eprintln!(
            "{REFERENCE_ENV}={}: no such spec pack in this binary",
            name.to_string_lossy()
        );
        return Some(crate::output::exit::code(crate::output::exit::USAGE));
    };
    if let Some(checker) = std::env::var_os(CHECKER_ENV).filter(|v| !v.is_empty()) {
        return Some(run_checker(*pack, &checker.to_string_lossy()));
    }
    // Traced when the caller asks which rule each span of stdout obeys
    // (see [`crate::judge::provenance`]).
    Some(reference_kit::trace::run_traced(|| {
        pack.reference_main(std::env::args_os().collect())
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recipe_says_its_lines_and_the_absence_of_a_build() {
        let recipe = |with_makefile, otherwise| BuildRecipe {
            program: "fuel.py",
            with_makefile,
            otherwise,
        };
        assert_eq!(
            recipe(None, NO_BUILD).describe(),
            "no build (run as handed in)"
        );
        assert_eq!(
            recipe(Some("make"), NO_BUILD).describe(),
            "make with a Makefile, else no build (run as handed in)"
        );
        assert_eq!(
            recipe(Some("make"), "gcc -o p *.c").describe(),
            "make with a Makefile, else gcc -o p *.c"
        );
    }
}
