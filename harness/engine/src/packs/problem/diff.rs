//! `diff --spec PACKAGE --bin CANDIDATE`: the candidate against the
//! package's reference on the package's own inputs (`data/sample` and
//! `data/secret`, each once, in the suite's order), then, where the
//! package has input validators (`input_format_validators/` or
//! `input_validators/`), on inputs varied from them that every input
//! validator accepts (exit 42). The reference is its first accepted
//! submission that runs without compiling, else the first that builds
//! here, compiled once as `verify` compiles it (each one passed over
//! said, with why). The candidate's output is judged by the package's
//! output validator (its own, built once as `run` builds it, or the
//! default one) with the flags of the group the input came from, the
//! reference's output as the answer: the engine's `diff`
//! ([`crate::explorer::run`]) with the validator as its `match:`
//! checker, once per set of validator flags; a rejection's reason is the
//! finding's, a validator that crashes a fault of the package (exit 2).
//! A varied input's mismatch is shrunk to inputs the validators still
//! accept, judged the same way; a package's own input is not shrunk (no
//! validator says what a smaller input may be) and is named.
//!
//! Refused, exit 2, saying why: an interactive problem (a session would
//! need each program joined to the validator), a scoring problem with
//! its own validator (its cases are the driver's), more sessions than the
//! package has inputs when nothing can derive more (`--sessions N`,
//! `--time`), a package no accepted submission of which can run here.
//!
//! One piece: the sessions (their inputs, the input validators with
//! their groups' arguments) and the engine runs that judge them, one per
//! set of validator flags, are one `diff` of one package.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::exec::run::{self, Ending, Invocation, Limits, Target};
use crate::explorer::args::DiffCli;
use crate::explorer::explore::{Classification, Context, Explorer, Label, Probe};
use crate::explorer::found::Report;
use crate::explorer::plain::{self, PlainSession};
use crate::explorer::tolerated::Tolerances;
use crate::model::matching::MatchSpec;
use crate::model::rng::SplitMix64;
use crate::model::suite::Root;
use crate::packs::folder::explore::Derived;
use crate::packs::pack::EmbeddedSuite;
use crate::packs::problem::languages::Table;
use crate::packs::problem::package::Problem;
use crate::packs::problem::programs::{self, Ready};
use crate::packs::problem::testdata::InputFlags;

/// Varied inputs tried for one session before it falls back to one of
/// the package's own inputs (every variation refused by a validator).
const TRIES: u64 = 16;

/// An input validator's time on one input.
const VALIDATOR_TIME: Duration = Duration::from_secs(10);

/// `diff` on a problem package: what it needs of the pack.
#[derive(Debug)]
pub struct PackageDiff {
    /// `--spec` as given.
    pub spec: &'static str,
    /// The pack's suite: a case per test case.
    pub suite: &'static EmbeddedSuite,
    /// Each category's checker (the default validator and its flags).
    pub checker_of: BTreeMap<String, String>,
}

/// The sessions of one set of validator flags: the package's inputs of
/// those groups, then inputs varied from them that the validators accept.
struct Sessions<'a> {
    derived: &'a Derived,
    /// The suite's cases (by [`Derived`]'s index) these sessions start from.
    starts: Vec<usize>,
    validators: &'a [InputValidator],
    /// The input validators' arguments of these sessions' groups.
    flags: &'a InputFlags,
}

/// An input validator built, and its name (its file's or folder's, less
/// the extension), which `input_validator_args` may key its arguments by.
struct InputValidator {
    name: String,
    target: Target,
}

impl Sessions<'_> {
    /// Whether every input validator accepts `session`'s input, each
    /// given its arguments (`input_validator_flags`) as problemtools
    /// gives them: `validator [args] < input`.
    fn valid(&self, session: &PlainSession) -> bool {
        let stdin = session.probe().stdin;
        self.validators.iter().all(|v| {
            let args = self.flags.of(&v.name).iter().map(Into::into).collect();
            let mut inv = Invocation::new(v.target.clone(), args, stdin.clone());
            inv.timeout = VALIDATOR_TIME;
            inv.limits = Limits::for_timeout(VALIDATOR_TIME);
            run::run(&inv).is_ok_and(|o| matches!(o.ending, Ending::Exited(42)))
        })
    }
}

impl Explorer for Sessions<'_> {
    type Session = PlainSession;

    fn generate(&self, seed: u64, index: u64, _ambiguous: bool) -> PlainSession {
        let own = self.starts.len();
        let at = usize::try_from(index).unwrap_or(usize::MAX);
        if at < own || self.validators.is_empty() {
            return self.derived.case_session(self.starts[at % own.max(1)]);
        }
        let rng = SplitMix64::new(seed).fork(index);
        (0..TRIES)
            .map(|k| self.derived.varied_from(&self.starts, &mut rng.fork(k)))
            .find(|s| self.valid(s))
            .unwrap_or_else(|| self.derived.case_session(self.starts[at % own]))
    }

    fn probe(&self, session: &PlainSession) -> Probe {
        session.probe()
    }

    fn shrink(&self, session: &PlainSession) -> Vec<PlainSession> {
        if self.validators.is_empty() {
            return Vec::new();
        }
        plain::shrink(session)
            .into_iter()
            .filter(|s| self.valid(s))
            .collect()
    }

    fn classify(&self, session: &PlainSession, status: u8) -> Classification {
        self.derived.classify(session, status)
    }

    fn labels(&self, _session: &PlainSession) -> Vec<Label> {
        Vec::new()
    }
}

/// The package's input validators: every program in
/// `input_format_validators/` (legacy) or `input_validators/` (2023-07).
fn input_validators(dir: &Path) -> Vec<PathBuf> {
    ["input_format_validators", "input_validators"]
        .iter()
        .filter(|d| dir.join(d).is_dir())
        .filter_map(|d| crate::packs::problem::package::listed(&dir.join(d)).ok())
        .flatten()
        .collect()
}

/// The input validators built, or why none can derive inputs.
fn build_validators(problem: &Problem, stage: &Path) -> Result<Vec<InputValidator>, String> {
    let paths = input_validators(&problem.dir);
    if paths.is_empty() {
        return Err("the package has no input validator".to_owned());
    }
    let table = Table::for_package(&problem.dir)?;
    let mut built = Vec::new();
    for path in &paths {
        let name = path
            .strip_prefix(&problem.dir)
            .unwrap_or(path)
            .display()
            .to_string();
        let short = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        match programs::prepare(path, &name, &table, stage)? {
            Ready::Built(target) => built.push(InputValidator {
                name: short,
                target,
            }),
            Ready::Skipped(why) => return Err(format!("input validator {name}: {why}")),
            Ready::CompileError(log) => {
                return Err(format!(
                    "input validator {name} does not compile: {}",
                    log.lines().next().unwrap_or_default()
                ));
            }
        }
    }
    Ok(built)
}

impl PackageDiff {
    /// The reference compiled here, when the pack's is the built-in one
    /// (no accepted submission runs without compiling); `None`: the
    /// pack's.
    fn compiled(
        &self,
        problem: &Problem,
        context: &Context<'_>,
        stage: &Path,
    ) -> Result<Option<Target>, String> {
        if !context.reference.is_builtin_reference() {
            return Ok(None);
        }
        let table = Table::for_package(&problem.dir)?;
        let chosen = programs::compiled_reference(problem, &table, stage)
            .map_err(|e| format!("--spec {}: {e}", self.spec))?;
        for why in &chosen.passed_over {
            println!("diff: not the reference: {why}");
        }
        println!("diff: the reference is {}, compiled once", chosen.name);
        Ok(Some(chosen.target))
    }
}

/// Whether `diff` can run `problem`: not an interactive one (a session
/// would need each program joined to the validator), nor a scoring one
/// with its own validator (its cases are the driver's).
fn runnable(problem: &Problem, spec: &str) -> Result<(), String> {
    if problem.interactive {
        return Err(format!(
            "--spec {spec}: an interactive problem: diff cannot run it yet (a session would \
             need the candidate and the reference each joined to the output validator on \
             the same input, a finding where it rejects the candidate and accepts the \
             reference); `run --spec PACKAGE --bin CANDIDATE` and `verify` judge it"
        ));
    }
    // Its cases are run by the pack's driver (the validator's score
    // taken), not held as inputs and answers a session could start from.
    if problem.scoring && problem.validator.is_some() {
        return Err(format!(
            "--spec {spec}: a scoring problem with its own output validator: diff cannot run it \
             yet (its validator scores a case, which a session does not compare); `run --spec \
             PACKAGE --bin CANDIDATE`, `mark` and `verify` judge it"
        ));
    }
    Ok(())
}

impl crate::explorer::DynExplorer for PackageDiff {
    fn diff(&self, context: &Context<'_>, cli: &DiffCli) -> Result<Report, String> {
        let problem = Problem::load(Path::new(self.spec))?;
        runnable(&problem, self.spec)?;
        let _scope = crate::packs::folder::model::Scope::enter();
        let stage = tempfile::Builder::new()
            .prefix("conformance-diff-")
            .tempdir()
            .map_err(|e| format!("cannot make a staging folder: {e}"))?;
        let compiled = self.compiled(&problem, context, stage.path())?;
        let context = &Context {
            reference: compiled.as_ref().unwrap_or(context.reference),
            ..*context
        };
        let derived = Derived::from_suite(&Root::Embedded(self.suite));
        let own = derived.len();
        if own == 0 {
            return Err(format!(
                "--spec {}: the package has no test case",
                self.spec
            ));
        }
        let validators = build_validators(&problem, stage.path());
        let names: Vec<String> = Root::Embedded(self.suite)
            .case_files()
            .unwrap_or_default()
            .into_iter()
            .map(|rel| format!("data/{}.in", rel.trim_end_matches(".yaml")))
            .collect();
        let (validators, budget) = match validators {
            Ok(v) => {
                println!(
                    "diff: the package's {own} input(s), then inputs varied from them that its {} \
                     input validator(s) accept",
                    v.len()
                );
                (v, cli.sessions)
            }
            Err(why) => {
                if cli.time.is_some() || cli.sessions.is_some_and(|n| n > count(own)) {
                    return Err(format!(
                        "--spec {}: {why}, so no input past the package's own {own} can be \
                         derived (one session each); run without --sessions and --time, or at \
                         most --sessions {own}",
                        self.spec
                    ));
                }
                println!(
                    "diff: the package's {own} input(s) only, each once: {why}, so none is \
                     derived or shrunk"
                );
                (Vec::new(), Some(cli.sessions.unwrap_or(count(own))))
            }
        };
        // One engine run per set of validator flags: a session is judged
        // by the output validator's flags of the group its input came
        // from, and varied inputs are checked by the input validators
        // with that group's arguments.
        let input_flags: BTreeMap<&str, &InputFlags> = problem
            .root
            .all_cases()
            .into_iter()
            .map(|(g, _)| (g.category(), &g.flags.input_flags))
            .collect();
        let none = InputFlags::All(Vec::new());
        let mut sets: BTreeMap<(&str, &InputFlags), Vec<usize>> = BTreeMap::new();
        for i in 0..own {
            let category = derived.classify(&derived.case_session(i), 0).category;
            let checker = self.checker_of.get(&category).map_or("", String::as_str);
            let flags = input_flags.get(category.as_str()).copied().unwrap_or(&none);
            sets.entry((checker, flags)).or_default().push(i);
        }
        let mut report = Report::default();
        for ((checker, flags), starts) in sets {
            let part = Part {
                checker,
                sessions: Sessions {
                    derived: &derived,
                    starts,
                    validators: &validators,
                    flags,
                },
                budget,
                own,
                names: &names,
            };
            let found = part.run(context, cli)?;
            report.sessions += found.sessions;
            report.mismatching += found.mismatching;
            report.unshrunk += found.unshrunk;
            report.forgiven += found.forgiven;
            report.findings.extend(found.findings);
            report.elapsed += found.elapsed;
        }
        Ok(report)
    }
}

/// One engine run: the sessions of one set of validator flags.
struct Part<'a> {
    /// The checker judging them (the default validator and the flags).
    checker: &'a str,
    sessions: Sessions<'a>,
    /// The sessions of the whole package (`None`: `--time` decides).
    budget: Option<u64>,
    /// The package's own inputs.
    own: usize,
    /// Each case's input file, by [`Derived`]'s index.
    names: &'a [String],
}

impl Part<'_> {
    fn run(&self, context: &Context<'_>, cli: &DiffCli) -> Result<Report, String> {
        let spec: MatchSpec = serde_json::from_value(judging(self.checker))
            .map_err(|e| format!("the validator as a match: {e}"))?;
        let tolerances = Tolerances {
            suite: Some(spec),
            rules: BTreeMap::new(),
            checkers: context.tolerances.checkers.clone(),
            strict: cli.strict,
        };
        let starts = &self.sessions.starts;
        let mut part = cli.clone();
        #[expect(clippy::cast_precision_loss, reason = "counts of cases")]
        let share = starts.len() as f64 / self.own as f64;
        part.sessions = self.budget.map(|n| {
            let n = if self.sessions.validators.is_empty() {
                n.min(count(starts.len()))
            } else {
                n
            };
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss,
                reason = "a share of a session count, rounded up"
            )]
            let shared = ((n as f64) * share).ceil() as u64;
            shared.max(1)
        });
        part.time = cli.time.map(|t| t * share);
        if part.sessions.is_none() && part.time.is_none() {
            part.sessions = Some(crate::explorer::DEFAULT_SESSIONS);
        }
        let ctx = Context {
            tolerances: &tolerances,
            ..*context
        };
        let found = crate::explorer::run(&self.sessions, &ctx, &part)?;
        for f in &found.findings {
            if let Some(case) = &f.case {
                judged_by(case, self.checker)?;
            }
            if let Some(&i) = usize::try_from(f.index).ok().and_then(|k| starts.get(k)) {
                println!(
                    "  session {} is the package's input {}",
                    f.index,
                    self.names.get(i).map_or("?", String::as_str)
                );
            }
        }
        Ok(found)
    }
}

/// The `match:` of a session judged by `checker` (stderr is free, as
/// in a case of the package).
fn judging(checker: &str) -> serde_json::Value {
    serde_json::json!({
        "stdout": {"checker": format!("builtin:{checker}")},
        "stderr": "any",
    })
}

/// The case written for a finding, judged on replay as `diff` judged
/// it: by the validator, not byte for byte against the reference's
/// output (another right answer passes it).
fn judged_by(case: &Path, checker: &str) -> Result<(), String> {
    use std::io::Write as _;
    let block = yaml_serde::to_string(&serde_json::json!({ "match": judging(checker) }))
        .map_err(|e| format!("the validator as a match: {e}"))?;
    std::fs::OpenOptions::new()
        .append(true)
        .open(case)
        .and_then(|mut f| f.write_all(block.as_bytes()))
        .map_err(|e| format!("{}: {e}", case.display()))
}

/// A count of cases as a session count.
fn count(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}
