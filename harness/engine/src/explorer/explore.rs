//! What a spec pack supplies to `diff`: an [`Explorer`] generates sessions
//! from a seed and an index, says how a session is run, proposes smaller
//! sessions for the shrink loop, and classifies a mismatch into a marking
//! category and rules. The engine owns the worker pool, the comparison,
//! deduplication, the shrink loop and the case writer; [`super::DynExplorer`] lets
//! a pack hand its typed explorer to the engine behind a trait object.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fmt::Debug;

use crate::exec::run::{self, Invocation, Limits, Outcome, RunError, Target};

/// One run of a program as the sandbox needs it: arguments, stdin bytes and
/// the files placed in the sandbox first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Probe {
    /// Arguments after the program name.
    pub args: Vec<String>,
    /// The exact stdin bytes.
    pub stdin: Vec<u8>,
    /// Files placed in the sandbox: relative path and bytes.
    pub files: Vec<(String, Vec<u8>)>,
}

impl Probe {
    /// How many stdin lines there are (a last line without `\n` counts).
    pub fn stdin_lines(&self) -> usize {
        let lines = self.stdin.split(|&b| b == b'\n').count();
        // A final `\n` ends the last line rather than starting one.
        lines - usize::from(self.stdin.is_empty() || self.stdin.ends_with(b"\n"))
    }
}

/// A ruling marked ambiguous that a session touches.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Label {
    /// The ambiguity's name, written as a tag.
    pub name: String,
    /// The rule ID it belongs to.
    pub rule: String,
}

/// The marking category and the rules a session exercises.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification {
    /// A category of the pack's `suite.yaml`.
    pub category: String,
    /// Rule IDs.
    pub rules: BTreeSet<String>,
}

/// An explorer stated as its pack's functions, one a step: the forwarding
/// from [`Explorer`]'s methods is written here once, so that a pack crate
/// states only what is its own (a `static` of this, handed to
/// `Builtin::with_explorer`).
pub struct Steps<S: 'static> {
    /// [`Explorer::generate`].
    pub generate: fn(u64, u64, bool) -> S,
    /// [`Explorer::probe`].
    pub probe: fn(&S) -> Probe,
    /// [`Explorer::shrink`].
    pub shrink: fn(&S) -> Vec<S>,
    /// [`Explorer::classify`].
    pub classify: fn(&S, u8) -> Classification,
    /// [`Explorer::labels`].
    pub labels: fn(&S) -> Vec<Label>,
    /// [`Explorer::ambiguity`]: [`no_ambiguity`] for a pack that knows no
    /// ambiguity beyond its labels.
    pub ambiguity: fn(&S, &Outcome, &Outcome) -> Vec<Label>,
}

/// No ambiguity a difference rests on beyond the session's labels (the
/// default of [`Explorer::ambiguity`]).
pub fn no_ambiguity<S>(_session: &S, _expected: &Outcome, _actual: &Outcome) -> Vec<Label> {
    Vec::new()
}

impl<S> Explorer for Steps<S>
where
    S: Clone + Debug + PartialEq + Send + Sync,
{
    type Session = S;

    fn generate(&self, seed: u64, index: u64, ambiguous: bool) -> S {
        (self.generate)(seed, index, ambiguous)
    }

    fn probe(&self, session: &S) -> Probe {
        (self.probe)(session)
    }

    fn shrink(&self, session: &S) -> Vec<S> {
        (self.shrink)(session)
    }

    fn classify(&self, session: &S, status: u8) -> Classification {
        (self.classify)(session, status)
    }

    fn labels(&self, session: &S) -> Vec<Label> {
        (self.labels)(session)
    }

    fn ambiguity(&self, session: &S, expected: &Outcome, actual: &Outcome) -> Vec<Label> {
        (self.ambiguity)(session, expected, actual)
    }
}

/// How each run of a session is bounded.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// Per-run timeout.
    pub timeout: std::time::Duration,
    /// Per-stream output cap.
    pub output_cap: u64,
}

/// A pack's session generator, shrinker and classifier.
pub trait Explorer: Send + Sync {
    /// A session in the pack's own terms.
    type Session: Clone + Debug + PartialEq + Send + Sync;

    /// The `index`-th session of the run seeded with `seed`; with
    /// `ambiguous`, sessions may touch rulings marked ambiguous.
    fn generate(&self, seed: u64, index: u64, ambiguous: bool) -> Self::Session;

    /// The run a session describes.
    fn probe(&self, session: &Self::Session) -> Probe;

    /// Smaller variants of `session`, the most reducing first.
    fn shrink(&self, session: &Self::Session) -> Vec<Self::Session>;

    /// The category and rules of `session`, whose expected side exited
    /// with `status`.
    fn classify(&self, session: &Self::Session, status: u8) -> Classification;

    /// The ambiguous rulings `session` touches.
    fn labels(&self, session: &Self::Session) -> Vec<Label>;

    /// The ambiguous rulings a difference between `expected` and `actual`
    /// (two runs of `session`) rests on beyond those its input touches
    /// ([`Self::labels`]): a saved state spelled otherwise that loads into
    /// the same game, a number play took past where a ruling stops
    /// deciding. The default knows none.
    fn ambiguity(
        &self,
        _session: &Self::Session,
        _expected: &Outcome,
        _actual: &Outcome,
    ) -> Vec<Label> {
        Vec::new()
    }

    /// Runs `session` on `target`. The default runs the probe once in the
    /// sandbox; a pack whose program holds a conversation (a bot answering
    /// requests) drives it here instead.
    fn run(
        &self,
        target: &Target,
        session: &Self::Session,
        bounds: Bounds,
    ) -> Result<Outcome, RunError> {
        let probe = self.probe(session);
        let mut inv = Invocation::new(
            target.clone(),
            probe.args.iter().map(OsString::from).collect(),
            probe.stdin,
        );
        inv.files = probe.files;
        inv.timeout = bounds.timeout;
        inv.output_cap = bounds.output_cap;
        inv.limits = Limits::for_timeout(bounds.timeout);
        run::run(&inv)
    }
}

/// What `diff` needs to know about the pack and the binary running it.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The pack's name (`NAME_BIN`, messages).
    pub pack: &'static str,
    /// How `--spec` names the pack in printed commands (its name, or a
    /// folder pack's path).
    pub spec: &'a str,
    /// The expected side when `--against` is not given: the pack's
    /// reference.
    pub reference: &'a Target,
    /// The program name used in printed commands.
    pub program: &'a str,
    /// Whether the pack is the binary's default (no `--spec` needed).
    pub default: bool,
    /// Whether `--bin` and `--against` are command lines (a folder pack's),
    /// as `run` takes them, rather than paths.
    pub bin_is_command: bool,
    /// The suite's `match:` declarations and the pack's checkers: how a
    /// difference is judged.
    pub tolerances: &'a super::tolerated::Tolerances,
}

impl Context<'_> {
    /// The program `--bin` or `--against` names, as the pack reads it.
    ///
    /// # Errors
    /// What is wrong with it, for a person.
    pub fn target(&self, given: &std::path::Path) -> Result<Target, String> {
        if self.bin_is_command {
            Target::command(&given.to_string_lossy())
        } else {
            Target::binary(given)
        }
        .map_err(|e| e.to_string())
    }
}

impl Context<'_> {
    /// ` --spec NAME` for printed commands, empty for the default pack.
    pub fn spec_arg(&self) -> String {
        if self.default {
            String::new()
        } else {
            format!(" --spec {}", crate::bytes::quote::shell_quote(self.spec))
        }
    }
}
