//! `diff`: differential testing. Random sessions from the pack's explorer
//! ([`explore::Explorer`]) run on the candidate and on the reference (or
//! `--against`), in parallel, each in its own sandbox; every mismatch is
//! shrunk ([`shrink`]), deduplicated by the part and line of its first
//! difference, written as a ready case ([`case`]) and summarized with a
//! command that reproduces it. A mismatch resting on a ruling marked
//! ambiguous (the session's labels, or its difference's:
//! [`Explorer::ambiguity`]) is set apart and only counted, unless
//! `--ambiguous` asks for it; then its case is tagged `ambiguous`.
//!
//! - [`explore`]: what a pack supplies (generate, shrink, classify).
//! - [`exec`]: running one session on both sides.
//! - [`compare`]: where two runs differ.
//! - [`tolerated`]: which differences the rules' `match:` forgives.
//! - [`shrink`]: making a mismatch small.
//! - [`case`]: writing it in the suite's case format.
//! - [`progress`]: the progress bar and the end summary.
//! - [`grammar`], [`plain`], [`template`]: explorers read from a grammar
//!   (`explore.yaml`) or a pack's own sessions.
//! - [`dedup`], [`found`]: mismatches counted by where they differ.
//!
//! The command line only parses `diff`'s arguments ([`args`]) and hands
//! them here. May use: [`crate::bytes`], [`crate::exec`],
//! [`crate::model`], [`crate::judge`], [`crate::output`]. Used by the
//! packs (a pack hands its explorer), the marking and the commands.
//!
//! One piece: the workers, one session on both sides, classifying and
//! counting share the `Shared` state of one run (counters, mismatches
//! found, deadline); the rest of `diff` is the layer's modules.

pub mod args;
pub mod case;
pub mod compare;
pub mod dedup;
pub mod exec;
pub mod explore;
pub mod found;
pub mod grammar;
pub mod plain;
pub mod progress;
pub mod shrink;
pub mod template;
pub mod tolerated;

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use self::args::DiffCli;
use self::case::Found;
use self::compare::visible;
use self::dedup::{Key, REPEATS_BEFORE_SKIPPING};
use self::exec::{Runner, Trial, TrialError};
use self::explore::{Context, Explorer, Label};
use self::found::{Finding, Report};
use self::progress::Progress;
use crate::bytes::quote::shell_quote;
use crate::exec::run::{DEFAULT_OUTPUT_CAP, DEFAULT_TIMEOUT, Ending};

/// The subcommand's name, the first argument that selects it.
pub const SUBCOMMAND: &str = "diff";

/// Sessions after which a run whose every candidate run timed out stops:
/// the program hangs, and more sessions would only say so again.
pub const ALL_HUNG_STOP: u64 = 10;

/// Sessions run when neither `--sessions` nor `--time` is given.
pub const DEFAULT_SESSIONS: u64 = 2000;

/// Shared state of the workers.
struct Shared<'a, E: Explorer> {
    explorer: &'a E,
    context: Context<'a>,
    cli: &'a DiffCli,
    runner: Runner,
    seed: u64,
    ambiguous: bool,
    limit: Option<u64>,
    deadline: Option<Instant>,
    next: AtomicU64,
    done: AtomicU64,
    mismatching: AtomicU64,
    stop: AtomicBool,
    /// Keys of mismatches seen before shrinking: a mismatch whose raw key
    /// was seen is counted but not shrunk again.
    raw_keys: Mutex<HashSet<Key>>,
    /// Shrinks in a row that ended in a known mismatch.
    repeats: AtomicUsize,
    /// Mismatching sessions left unshrunk because of [`Shared::repeats`].
    unshrunk: AtomicU64,
    /// Mismatching sessions resting on an ambiguous ruling, set apart
    /// without `--ambiguous`.
    set_apart: AtomicU64,
    /// Sessions whose every difference a tolerance forgave (under
    /// `--strict`: mismatching sessions a tolerance would have forgiven
    /// in part), and by how many sessions each part and tolerance
    /// forgave.
    forgiven: AtomicU64,
    forgiven_how: Mutex<BTreeMap<String, u64>>,
    /// Sessions whose candidate run timed out.
    hung: AtomicU64,
    /// Whether the run stopped because every session timed out.
    all_hung: AtomicBool,
    findings: Mutex<Vec<Finding>>,
    failure: Mutex<Option<String>>,
    progress: Progress,
}

impl<E: Explorer> Shared<'_, E> {
    /// What the run found, its findings in session order.
    fn report(&self, elapsed: Duration) -> Report {
        let mut findings = std::mem::take(&mut *lock(&self.findings));
        findings.sort_by_key(|f| f.index);
        Report {
            sessions: self.done.load(Ordering::Relaxed),
            mismatching: self.mismatching.load(Ordering::Relaxed),
            unshrunk: self.unshrunk.load(Ordering::Relaxed),
            set_apart: self.set_apart.load(Ordering::Relaxed),
            forgiven: self.forgiven.load(Ordering::Relaxed),
            forgiven_how: std::mem::take(&mut *lock(&self.forgiven_how))
                .into_iter()
                .collect(),
            tolerances: self.runner.tolerances.declared(),
            findings,
            elapsed,
        }
    }
}

/// An [`Explorer`] behind a trait object: what a pack returns from
/// [`crate::packs::pack::Pack::explorer`].
pub trait DynExplorer: Send + Sync {
    /// Runs `diff` with this explorer for the pack named `pack`.
    fn diff(&self, pack: &Context<'_>, cli: &DiffCli) -> Result<Report, String>;
}

impl<E: Explorer> DynExplorer for E {
    fn diff(&self, pack: &Context<'_>, cli: &DiffCli) -> Result<Report, String> {
        run(self, pack, cli)
    }
}

/// Runs the sessions of `explorer` and prints what was found.
pub fn run<E: Explorer>(
    explorer: &E,
    context: &Context<'_>,
    cli: &DiffCli,
) -> Result<Report, String> {
    let Some(bin) = &cli.bin else {
        return Err(format!(
            "--bin PATH (or {}_BIN) names the program to test",
            context.pack.to_ascii_uppercase()
        ));
    };
    // Finished runs' folders are reused until the sessions end.
    let _kept = crate::exec::spare::Scope::enter();
    let candidate = context.target(bin)?;
    crate::exec::preflight::check(&candidate).map_err(|e| e.to_string())?;
    let candidate = cli.memchecked(candidate)?;
    let expected = match &cli.against {
        Some(path) => context.target(path)?,
        None => context.reference.clone(),
    };
    let (timeout, derived) = match cli.timeout {
        Some(d) => (d, false),
        None => (DEFAULT_TIMEOUT, true),
    };
    let deadline = cli.deadline()?;
    if cli.max_failures == 0 {
        return Err("--max-failures must be at least 1".into());
    }
    let limit = match (cli.sessions, deadline) {
        (Some(n), _) => Some(n),
        (None, Some(_)) => None,
        (None, None) => Some(DEFAULT_SESSIONS),
    };
    let seed = cli.seed.unwrap_or_else(clock_seed);
    let jobs = match cli.jobs {
        Some(n) if n > 0 => n,
        _ => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let shared = Shared {
        explorer,
        context: *context,
        cli,
        runner: Runner {
            candidate,
            expected,
            timeout,
            derived,
            output_cap: DEFAULT_OUTPUT_CAP,
            memcheck: cli.memcheck,
            reference: context.reference.clone(),
            tolerances: context.tolerances.clone().strict(cli.strict),
        },
        seed,
        ambiguous: cli.ambiguous,
        limit,
        deadline,
        next: AtomicU64::new(0),
        done: AtomicU64::new(0),
        mismatching: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        raw_keys: Mutex::new(HashSet::new()),
        repeats: AtomicUsize::new(0),
        unshrunk: AtomicU64::new(0),
        set_apart: AtomicU64::new(0),
        forgiven: AtomicU64::new(0),
        forgiven_how: Mutex::new(BTreeMap::new()),
        hung: AtomicU64::new(0),
        all_hung: AtomicBool::new(false),
        findings: Mutex::new(Vec::new()),
        failure: Mutex::new(None),
        progress: Progress::new(limit),
    };
    let started = Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(|| shared.progress.plain_lines());
        let workers: Vec<_> = (0..jobs).map(|_| scope.spawn(|| worker(&shared))).collect();
        for w in workers {
            let _ = w.join();
        }
        shared.progress.finish();
    });
    if let Some(message) = lock(&shared.failure).take() {
        return Err(message);
    }
    let report = shared.report(started.elapsed());
    progress::summary(&report, seed, cli, bin, context);
    if shared.all_hung.load(Ordering::Relaxed) {
        println!(
            "  stopped early: the program timed out in each of the {} sessions run (it hangs, \
             or never ends at end of input)",
            report.sessions
        );
    }
    Ok(report)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A seed from the clock, short enough to type back (at most 9 digits).
fn clock_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ (nanos >> 32)) % 1_000_000_000
}

fn worker<E: Explorer>(shared: &Shared<'_, E>) {
    loop {
        if shared.stop.load(Ordering::Relaxed)
            || shared.deadline.is_some_and(|d| Instant::now() >= d)
        {
            return;
        }
        let index = shared.next.fetch_add(1, Ordering::Relaxed);
        if shared.limit.is_some_and(|n| index >= n) {
            return;
        }
        let session = shared
            .explorer
            .generate(shared.seed, index, shared.ambiguous);
        if let Err(e) = one_session(shared, index, session) {
            *lock(&shared.failure) = Some(e.to_string());
            shared.stop.store(true, Ordering::Relaxed);
            return;
        }
        let done = shared.done.fetch_add(1, Ordering::Relaxed) + 1;
        if done >= ALL_HUNG_STOP && shared.hung.load(Ordering::Relaxed) >= done {
            // Every session so far timed out: more would only repeat it.
            shared.all_hung.store(true, Ordering::Relaxed);
            shared.stop.store(true, Ordering::Relaxed);
        }
        shared.progress.tick(
            shared.mismatching.load(Ordering::Relaxed),
            lock(&shared.findings).len(),
        );
    }
}

/// Whether the expected side is a model that could not start its program
/// on this session: then no expectation comes from it (a case expecting its
/// "can't open file" would be written otherwise), and diff stops with why.
fn model_could_not_run<E: Explorer>(shared: &Shared<'_, E>, trial: &Trial) -> bool {
    let why = shared
        .runner
        .expected
        .is_model()
        .then(|| crate::output::model_bless::could_not_run(&trial.expected))
        .flatten();
    let Some(why) = why else {
        return false;
    };
    *lock(&shared.failure) = Some(why);
    shared.stop.store(true, Ordering::Relaxed);
    true
}

fn one_session<E: Explorer>(
    shared: &Shared<'_, E>,
    index: u64,
    session: E::Session,
) -> Result<(), TrialError> {
    let trial = shared.runner.trial(shared.explorer, &session)?;
    if model_could_not_run(shared, &trial) {
        return Ok(());
    }
    if matches!(trial.actual.ending, Ending::TimedOut { .. }) {
        shared.hung.fetch_add(1, Ordering::Relaxed);
    }
    count_forgiven(shared, &trial);
    let Some(first) = trial.first() else {
        return Ok(());
    };
    let ambiguous = !ambiguity(shared.explorer, &session, &trial).is_empty();
    if ambiguous && !shared.ambiguous {
        shared.set_apart.fetch_add(1, Ordering::Relaxed);
        return Ok(());
    }
    shared.mismatching.fetch_add(1, Ordering::Relaxed);
    let reference = shared.context.reference;
    let Some(raw_key) = dedup::key(shared.explorer, reference, &session, &trial) else {
        return Ok(());
    };
    if !lock(&shared.raw_keys).insert(raw_key.clone())
        || shared.stop.load(Ordering::Relaxed)
        || skipped(shared, first)
    {
        return Ok(());
    }
    let same = |candidate: &E::Session, trial: &Trial| {
        dedup::key(shared.explorer, reference, candidate, trial)
            .is_some_and(|k| k.cause == raw_key.cause)
            && ambiguity(shared.explorer, candidate, trial).is_empty() != ambiguous
    };
    let shrunk = shrink::shrink(shared.explorer, &shared.runner, session, trial, same)?;
    let Some(first) = shrunk.trial.first().cloned() else {
        return Ok(());
    };
    let Some(key) = dedup::key(shared.explorer, reference, &shrunk.session, &shrunk.trial) else {
        return Ok(());
    };
    lock(&shared.raw_keys).insert(key.clone());
    // Deciding, writing and recording happen under one lock, so two workers
    // never both write a case for the last free slot or the same key.
    let mut findings = lock(&shared.findings);
    if findings.len() >= shared.cli.max_failures || findings.iter().any(|f| f.key == key) {
        shared.repeats.fetch_add(1, Ordering::Relaxed);
        return Ok(());
    }
    shared.repeats.store(0, Ordering::Relaxed);
    let name = format!("diff-{}-{index}", shared.seed);
    let expected_by = if shared.runner.expected.is_reference() {
        "the reference".to_owned()
    } else {
        shared.runner.expected.describe()
    };
    let probe = shared.explorer.probe(&shrunk.session);
    let labels = ambiguity(shared.explorer, &shrunk.session, &shrunk.trial);
    let status = shrunk
        .trial
        .expected
        .ending
        .status()
        .and_then(|s| u8::try_from(s).ok());
    let class = status.map(|s| classify(shared.explorer, &shrunk.session, &shrunk.trial, s));
    let written = case::write(
        &shared.cli.out,
        &case::Provenance {
            name: &name,
            seed: shared.seed,
            index,
            expected_by: &expected_by,
            program: shared.context.program,
        },
        class.as_ref().map(|class| Found {
            probe: &probe,
            class,
            labels: &labels,
        }),
        &shrunk.trial.expected,
        &shrunk.trial.actual,
        &first,
    );
    let finding = Finding {
        key,
        index,
        probe,
        labels,
        trial: shrunk.trial,
        case: written.as_ref().ok().map(|w| w.path.clone()),
    };
    let text = describe(
        findings.len() + 1,
        &finding,
        written.err().map(|e| e.to_string()),
        shared,
    );
    shared.progress.println(&text);
    findings.push(finding);
    if findings.len() >= shared.cli.max_failures {
        shared.stop.store(true, Ordering::Relaxed);
    }
    Ok(())
}

/// The category and rules of a shrunk mismatch's case: the explorer's,
/// and the rules whose tolerance judged the session, so that a run of the
/// case judges it as `diff` did.
fn classify<E: Explorer>(
    explorer: &E,
    session: &E::Session,
    trial: &Trial,
    status: u8,
) -> explore::Classification {
    let mut class = explorer.classify(session, status);
    class.rules.extend(trial.judged.rules.iter().cloned());
    class
}

/// Counts what a tolerance forgave in `trial`: a session it agrees in
/// after forgiving (under `--strict`, a mismatching session it would
/// have forgiven in part).
fn count_forgiven<E: Explorer>(shared: &Shared<'_, E>, trial: &Trial) {
    let forgiven = &trial.judged.forgiven;
    if forgiven.is_empty() || (trial.first().is_some() && !shared.cli.strict) {
        return;
    }
    shared.forgiven.fetch_add(1, Ordering::Relaxed);
    let mut how = lock(&shared.forgiven_how);
    let mut seen: Vec<String> = forgiven
        .iter()
        .map(|f| format!("{} compared {}", f.part, f.how))
        .collect();
    seen.sort();
    seen.dedup();
    for h in seen {
        *how.entry(h).or_insert(0) += 1;
    }
}

/// Whether a mismatch first differing at `first` is left unshrunk (and
/// counted so): after a run of shrinks that only found known mismatches,
/// a new mismatch in a part already known is most likely one of them
/// again.
fn skipped<E: Explorer>(shared: &Shared<'_, E>, first: &compare::Difference) -> bool {
    let new_part = !lock(&shared.findings)
        .iter()
        .any(|f| f.key.part == first.part);
    let skip = !new_part && shared.repeats.load(Ordering::Relaxed) >= REPEATS_BEFORE_SKIPPING;
    if skip {
        shared.unshrunk.fetch_add(1, Ordering::Relaxed);
    }
    skip
}

/// Every ambiguous ruling a mismatch of `session` rests on: those its
/// input touches and those its difference does, by rule and name. A
/// difference on an ambiguous point is no finding without `--ambiguous`
/// (careful programs differ there), and a smaller session is the same
/// mismatch only if it rests on an ambiguous ruling exactly when the
/// first did: shrinking neither drops the tags a case needs nor makes a
/// plain difference ambiguous.
fn ambiguity<E: Explorer>(explorer: &E, session: &E::Session, trial: &Trial) -> Vec<Label> {
    let mut labels = explorer.labels(session);
    labels.extend(explorer.ambiguity(session, &trial.expected, &trial.actual));
    labels.sort();
    labels.dedup();
    labels
}

/// The short report of one distinct mismatch.
fn describe<E: Explorer>(
    number: usize,
    f: &Finding,
    write_error: Option<String>,
    shared: &Shared<'_, E>,
) -> String {
    let mut text = String::new();
    let s = &f.probe;
    let _ = writeln!(
        text,
        "mismatch {number} (session {}): {}",
        f.index,
        f.trial
            .first()
            .map_or_else(String::new, ToString::to_string)
    );
    let _ = writeln!(
        text,
        "  cause: {}{}",
        f.key.cause,
        match (&f.key.category, f.key.rules.is_empty()) {
            // A problem package's groups cite no rule.
            (Some(c), true) => format!(" (category {c})"),
            (Some(c), false) => format!(" (category {c}; rules {})", f.key.rules.join(", ")),
            (None, _) => String::new(),
        }
    );
    let _ = writeln!(
        text,
        "  shrunk to: {} {} with {} stdin line(s){}",
        shared.context.pack,
        s.args
            .iter()
            .map(|a| shell_quote(a))
            .collect::<Vec<_>>()
            .join(" "),
        s.stdin_lines(),
        if f.labels.is_empty() {
            String::new()
        } else {
            format!(
                "; ambiguous: {}",
                f.labels
                    .iter()
                    .map(|l| format!("{} ({})", l.name, l.rule))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    );
    if !s.stdin.is_empty() {
        let _ = writeln!(text, "  stdin: \"{}\"", visible(&s.stdin));
    }
    for how in &f.trial.judged.judged {
        let _ = writeln!(text, "  judged: {how}");
    }
    for forgiven in &f.trial.judged.forgiven {
        let _ = writeln!(
            text,
            "  {}: {} compared {}",
            if shared.cli.strict {
                "forgiven without --strict"
            } else {
                "forgiven"
            },
            forgiven.part,
            forgiven.how
        );
    }
    match (&f.case, write_error) {
        (Some(path), _) => {
            // A folder pack's `--bin` is a command line: its path alone
            // would be the interpreter.
            let candidate = match (&shared.cli.bin, shared.context.bin_is_command) {
                (Some(bin), true) => bin.display().to_string(),
                _ => shared.runner.candidate.path().display().to_string(),
            };
            let _ = writeln!(text, "  case: {}", path.display());
            let _ = writeln!(
                text,
                "  reproduce: {}{} --bin {} --cases {}{}",
                shared.context.program,
                shared.context.spec_arg(),
                shell_quote(&candidate),
                shell_quote(&path.display().to_string()),
                if f.labels.is_empty() {
                    ""
                } else {
                    " --include-ignored"
                }
            );
        }
        (None, Some(e)) => {
            let _ = writeln!(text, "  no case written: {e}");
        }
        (None, None) => {}
    }
    text
}
