//! Folder packs: a spec pack that is a folder holding `pack.yaml` beside
//! the suite layout (`suite.yaml`, `rules.yaml`, rulings, case folders),
//! named on the command line by `--spec PATH` (docs/folder-packs.md). Its
//! suite is read once when the pack loads, as a built-in pack's is
//! embedded at build time, so every command reads it the same way; its
//! reference is its model solution ([`model`]), contained as a program
//! under test; `mark` builds submissions with its `submissions:` line;
//! `diff` explores sessions from its `explore.yaml`
//! ([`crate::explorer::grammar`]) or, without one, derived from its own cases ([`explore`]).
//!
//! - [`pack_file`]: `pack.yaml`, typed and checked.
//! - [`environment`]: its `environment:`, prepared for every run.
//! - [`model`]: the model built and run.
//! - [`crate::output::model_bless`]: a model's run checked for the same
//!   bytes twice (below the explorer, which checks its reference's runs
//!   the same way).
//! - [`explore`]: the explorer derived from a suite's cases.
//! - `beside`: the sidecars cases name above their suite, inside the pack.
//! - `built`: the model's recipe and its one build, made when first needed.
//!
//! One piece: the `FolderPack` value and its `Pack` implementation:
//! loading the folder (the suite's snapshot, the grammar, the widened
//! policy) fills the fields every method of the trait reads; its parts
//! are modules of their own, and about 65 lines are tests.

mod beside;
mod built;
pub mod environment;
pub mod explore;
pub mod model;
pub mod pack_file;
pub mod publish;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::exec::run::Target;
use crate::explorer::DynExplorer;
use crate::explorer::grammar::{self, Grammar, GrammarExplorer};
use crate::model::suite::{self, Root};
use crate::packs::pack::{BuildRecipe, Dependency, EmbeddedSuite, Pack};

use self::pack_file::PackFile;

/// Bytes of a folder pack's suite read into memory at most.
const SUITE_CAP: u64 = 256 << 20;

/// Whether a `--spec` value names a folder rather than a registered
/// pack: it holds a `/`, or it is no registered pack's name and is a
/// folder holding `pack.yaml`.
pub fn names_folder(spec: &str, registered: bool) -> bool {
    spec.contains('/') || (!registered && Path::new(spec).join(pack_file::FILE).is_file())
}

/// A spec pack read from a folder.
#[derive(Debug)]
pub struct FolderPack {
    /// `--spec` as given.
    spec: &'static str,
    name: &'static str,
    file: PackFile,
    /// The pack's folder.
    dir: PathBuf,
    /// The folder the suite was read from.
    suite_dir: PathBuf,
    suite: &'static EmbeddedSuite,
    /// The suite's files the model's folder leaves out ([`answers`]).
    left_out: BTreeSet<PathBuf>,
    /// Where `model.command` is written (`pack.yaml:5:1`).
    origin: String,
    rule_ids: Vec<&'static str>,
    model: built::Built,
    /// `explore.yaml`, when the pack has one.
    grammar: Option<GrammarExplorer>,
    explorer: OnceLock<explore::Derived>,
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

impl FolderPack {
    /// Reads the pack in `dir` (`spec`, the `--spec` value naming it): its
    /// `pack.yaml`, its suite and its rule IDs; widens the containment by
    /// what `pack.yaml` allows. Every error names the file at fault.
    pub fn load(spec: &str) -> Result<Self, String> {
        let given = Path::new(spec);
        let dir = std::path::absolute(given).unwrap_or_else(|_| given.to_owned());
        let file_path = dir.join(pack_file::FILE);
        let shown = given.join(pack_file::FILE).display().to_string();
        let bytes = std::fs::read(&file_path).map_err(|e| {
            format!("--spec {spec}: a folder pack needs {shown}, which cannot be read: {e}")
        })?;
        let file = pack_file::parse(&shown, &bytes).map_err(|e| e.to_string())?;
        let suite_dir = clean(&dir.join(file.suite.as_deref().unwrap_or(".")));
        if !suite_dir.is_dir() {
            return Err(format!(
                "{shown}: suite: {} is not a folder",
                suite_dir.display()
            ));
        }
        let model_dir = clean(&dir.join(file.model.dir.as_deref().unwrap_or(".")));
        let origin = command_origin(&shown, &bytes);
        // The course's environment is ready (requirements installed)
        // before anything runs, the model's build included.
        if let Some(env) = &file.environment {
            let prepared = environment::prepare(&file.name, &dir, &shown, env)?;
            crate::exec::run::course_env::set(prepared);
        }
        if publish::model_expected(&dir, file.model.build.is_none())
            && let Some(word) = model::missing_file(&model_dir, &expand_words(&file.model.command))
        {
            return Err(format!(
                "{origin}: model.command: `{word}` looks like a file, but {} holds no such file \
                 (a typo?)",
                shown_dir(&model_dir)
            ));
        }
        let suite = snapshot(&dir, &suite_dir, &model_dir, &shown_dir(&suite_dir))?;
        let left_out = answers(suite, &suite_dir, &model_dir);
        let root = Root::Embedded(suite);
        let categories: Vec<String> = suite::suite_for(&root, suite)
            .map_err(|e| e.to_string())?
            .categories
            .into_iter()
            .map(|c| c.name)
            .collect();
        let rules = suite::rules_for(&root, suite).map_err(|e| e.to_string())?;
        let rule_ids: Vec<&'static str> = rules.rules.into_iter().map(|r| leak(r.id)).collect();
        let grammar = read_grammar(&dir, given, &rule_ids, &categories)?;
        if let Some(c) = &file.containment {
            widen(&dir, c);
        }
        crate::exec::run::jvm::set_quick(file.java_start != Some(pack_file::JavaStart::Plain));
        Ok(Self {
            spec: leak(spec.to_owned()),
            name: leak(file.name.clone()),
            file,
            dir,
            suite_dir,
            suite,
            left_out,
            origin,
            rule_ids,
            model: built::Built::default(),
            grammar,
            explorer: OnceLock::new(),
        })
    }
}

/// The pack's `explore.yaml`, if it has one, every rule it cites checked
/// against `rules.yaml` and its category against `suite.yaml` (the first
/// category when it names none).
fn read_grammar(
    dir: &Path,
    given: &Path,
    rule_ids: &[&str],
    categories: &[String],
) -> Result<Option<GrammarExplorer>, String> {
    let path = dir.join(grammar::FILE);
    if !path.exists() {
        return Ok(None);
    }
    let shown = given.join(grammar::FILE).display().to_string();
    let bytes = std::fs::read(&path).map_err(|e| format!("{shown}: {e}"))?;
    let g = Grammar::parse(&shown, &bytes).map_err(|e| e.to_string())?;
    // Every command reads the pack whole, `bless` too: the message says
    // where and what to change, and that `diff` is what reads this file.
    let text = String::from_utf8_lossy(&bytes);
    let why = "explore.yaml is diff's grammar, read with the pack by every command";
    if let Some(unknown) = g.cited_rules().find(|r| !rule_ids.contains(r)) {
        let at = word_line(&text, unknown).map_or_else(String::new, |l| format!(":{l}:1"));
        return Err(format!(
            "{shown}{at}: rules: {unknown} is not in rules.yaml (its rules: {}); {why}: cite one \
             of those there, or delete the file to derive diff's sessions from the cases",
            rule_ids.join(", ")
        ));
    }
    let first = categories.first().map_or("", String::as_str);
    let category = g.category.as_deref().unwrap_or(first);
    if !categories.iter().any(|c| c == category) {
        let at = crate::model::key_line::line_of(&text, "category")
            .map_or_else(String::new, |l| format!(":{l}:1"));
        return Err(format!(
            "{shown}{at}: category: {category} is not in suite.yaml (its categories: {}); \
             {why}: name one of those there",
            categories.join(", ")
        ));
    }
    Ok(Some(GrammarExplorer::new(g, first)))
}

pub(crate) use crate::exec::run::clean;
use crate::exec::run::course_env::{expand_shell, expand_words};

/// The 1-based line where `word` first stands as a word of its own (not
/// inside a longer ID: `ARGS-1` is not in `ARGS-10`).
fn word_line(text: &str, word: &str) -> Option<usize> {
    let inside = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'_';
    text.lines()
        .position(|line| {
            line.match_indices(word).any(|(at, _)| {
                let before = line.as_bytes().get(at.wrapping_sub(1)).copied();
                let after = line.as_bytes().get(at + word.len()).copied();
                !before.is_some_and(inside) && !after.is_some_and(inside)
            })
        })
        .map(|i| i + 1)
}

/// A folder as named to people: relative to the current folder when it
/// lies below it.
fn shown_dir(dir: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| dir.strip_prefix(cwd).ok().map(Path::to_owned))
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| dir.to_owned())
        .display()
        .to_string()
}

/// `FILE:LINE:1` of `model.command` in `pack.yaml` (its `command:` key,
/// which only the model has), or the file alone.
fn command_origin(shown: &str, bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .lines()
        .position(|l| l.trim_start().starts_with("command:"))
        .map_or_else(|| shown.to_owned(), |i| format!("{shown}:{}:1", i + 1))
}

/// The files of the suite a model in `model_dir` must never see, as
/// canonical paths. When the model's folder is the suite's own (the
/// default `model.dir: .`), they are `suite.yaml`, `rules.yaml`, every
/// case file and every file of a folder holding a case (its sidecars and
/// input files) or below one, and every sidecar kept from above the suite;
/// the rest (the model's sources, `pack.yaml`, the rulings) is the
/// model's. Otherwise every file of the suite is.
fn answers(suite: &EmbeddedSuite, suite_dir: &Path, model_dir: &Path) -> BTreeSet<PathBuf> {
    let is_case = |rel: &str| {
        let top = !rel.contains('/');
        Path::new(rel).extension().is_some_and(|e| e == "yaml")
            && !(top && matches!(rel, "pack.yaml" | "explore.yaml"))
    };
    let case_dirs: BTreeSet<&str> = suite
        .files
        .iter()
        .filter(|(rel, _)| is_case(rel))
        .filter_map(|(rel, _)| rel.rsplit_once('/').map(|(d, _)| d))
        .collect();
    let shared = model_dir == suite_dir;
    suite
        .files
        .iter()
        .map(|(rel, _)| *rel)
        .filter(|rel| {
            !shared
                || is_case(rel)
                || rel.starts_with("../")
                || case_dirs
                    .iter()
                    .any(|d| rel.strip_prefix(d).is_some_and(|r| r.starts_with('/')))
        })
        .map(|rel| {
            let path = suite_dir.join(rel);
            std::fs::canonicalize(&path).unwrap_or(path)
        })
        .collect()
}

/// Every file of the suite folder (the model's sources left out when their
/// folder lies strictly inside it), and the sidecars its cases name above
/// it inside the pack's folder (`pack_dir`), read once and kept for the
/// process, as an embedded suite is. Each file's length is checked against
/// the cap before it is read, and no more than the cap is read.
fn snapshot(
    pack_dir: &Path,
    dir: &Path,
    model_dir: &Path,
    shown: &str,
) -> Result<&'static EmbeddedSuite, String> {
    let mut listed =
        conformance_embed::walk::files(dir).map_err(|e| format!("suite {}: {e}", dir.display()))?;
    let model_inside = model_dir != dir && model_dir.starts_with(dir);
    listed.retain(|(_, path)| !model_inside || !path.starts_with(model_dir));
    listed.sort();
    let mut files: Vec<(&'static str, &'static [u8])> = Vec::with_capacity(listed.len());
    let mut total = 0u64;
    for (rel, path) in listed {
        let bytes = read_capped(&path, dir, &mut total)?;
        files.push((leak(rel), Box::leak(bytes.into_boxed_slice())));
    }
    let in_pack = beside::in_pack(pack_dir, dir);
    for rel in beside::named(&in_pack, &files) {
        let path = dir.join(&rel);
        // One missing, or no regular file, is said when a case reads it.
        if std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            let bytes = read_capped(&path, dir, &mut total)?;
            files.push((leak(rel), Box::leak(bytes.into_boxed_slice())));
        }
    }
    files.sort_by(|a, b| a.0.cmp(b.0));
    Ok(Box::leak(Box::new(EmbeddedSuite {
        files: Box::leak(files.into_boxed_slice()),
        source_dir: leak(dir.display().to_string()),
        display: leak(shown.to_owned()),
        at_run_time: true,
        in_pack: leak(in_pack),
    })))
}

/// One file of the snapshot, `total` the bytes read so far, refused past
/// [`SUITE_CAP`].
fn read_capped(path: &Path, dir: &Path, total: &mut u64) -> Result<Vec<u8>, String> {
    use std::io::Read as _;
    let too_big = || {
        format!(
            "suite {}: more than {} MiB of files",
            dir.display(),
            SUITE_CAP >> 20
        )
    };
    let failed = |e: std::io::Error| format!("{}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(failed)?;
    let len = file.metadata().map_err(failed)?.len();
    *total = total.saturating_add(len);
    if *total > SUITE_CAP {
        return Err(too_big());
    }
    // A file that grows after its length was read is read no further
    // than the cap.
    let mut bytes = Vec::new();
    file.take(SUITE_CAP - (*total - len) + 1)
        .read_to_end(&mut bytes)
        .map_err(failed)?;
    *total = *total - len + bytes.len() as u64;
    if *total > SUITE_CAP {
        return Err(too_big());
    }
    Ok(bytes)
}

/// Adds what `containment:` allows to the policy of this process (before
/// any program runs).
fn widen(dir: &Path, c: &pack_file::Containment) {
    let policy = conformance_sandbox::policy::get();
    let mut allow_read = policy.allow_read;
    allow_read.extend(c.allow_read.iter().map(|p| clean(&dir.join(p))));
    conformance_sandbox::policy::set(allow_read, policy.allow_network || c.network, policy.bounds);
}

impl Pack for FolderPack {
    fn name(&self) -> &'static str {
        self.name
    }

    fn suite(&self) -> &'static EmbeddedSuite {
        self.suite
    }

    fn rule_ids(&self) -> Vec<&'static str> {
        self.rule_ids.clone()
    }

    /// The model, built on first use (once per process).
    fn reference(&self) -> Result<Target, String> {
        self.model.get(&self.recipe())
    }

    fn reference_later(&self) -> crate::exec::run::Later {
        self.model.later(self.recipe())
    }

    fn spec(&self) -> &'static str {
        self.spec
    }

    fn suite_folder(&self) -> Option<&Path> {
        Some(&self.suite_dir)
    }

    fn checker_home(&self) -> Option<&Path> {
        Some(&self.dir)
    }

    fn default_timeout(&self) -> Option<std::time::Duration> {
        self.file.timeout()
    }

    /// Sessions from `explore.yaml`, else derived from the pack's own
    /// cases; none when no case runs once with expected bytes.
    fn explorer(&self) -> Option<&dyn DynExplorer> {
        if let Some(g) = &self.grammar {
            return Some(g);
        }
        let derived = self
            .explorer
            .get_or_init(|| explore::Derived::from_suite(&Root::Embedded(self.suite)));
        (!derived.is_empty()).then_some(derived as &dyn DynExplorer)
    }

    /// A folder pack's model and submissions are command lines.
    fn bin_is_command(&self) -> bool {
        true
    }

    fn build(&self) -> Option<BuildRecipe> {
        let s = self.file.submissions.as_ref()?;
        Some(BuildRecipe {
            program: leak(s.program.clone()),
            with_makefile: s.with_makefile.as_deref().map(expand_shell).map(leak),
            otherwise: s
                .build
                .as_deref()
                .map_or(crate::packs::pack::NO_BUILD, |b| leak(expand_shell(b))),
        })
    }

    fn run_line(&self) -> Option<&'static str> {
        let s = self.file.submissions.as_ref()?;
        s.run.as_deref().map(expand_words).map(leak)
    }

    /// Every file of the pack's, the suite's and the model's folders,
    /// each in one part: the suite's answers (cases, their sidecars,
    /// `suite.yaml`, `rules.yaml`) are `the suite`; `pack.yaml` and
    /// `explore.yaml` `the pack`; the rest of the model's folder (its
    /// sources, checkers beside them) `the model`; anything else of the
    /// pack's folder `the pack`. The environment: what `pack.yaml`'s
    /// `environment:` names inside the pack, and the programs the run and
    /// model lines start (`python3`), looked up on `PATH`.
    fn depends_on(&self) -> Vec<Dependency> {
        let first_word = |line: &str| {
            shlex::split(line)
                .and_then(|w| w.into_iter().next())
                .filter(|w| !w.contains('/') && !w.contains('{'))
        };
        let mut commands: Vec<String> = [
            self.file
                .submissions
                .as_ref()
                .and_then(|s| s.run.as_deref()),
            Some(self.file.model.command.as_str()),
        ]
        .into_iter()
        .flatten()
        .filter_map(first_word)
        .collect();
        commands.dedup();
        let model_dir = self.recipe().dir;
        let mut files = BTreeSet::new();
        for root in [&self.dir, &self.suite_dir, &model_dir] {
            if let Ok(listed) = conformance_embed::walk::files(root) {
                files.extend(
                    listed
                        .into_iter()
                        .map(|(_, p)| std::fs::canonicalize(&p).unwrap_or(p)),
                );
            }
        }
        let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_owned());
        let (model_at, pack_at) = (canonical(&model_dir), canonical(&self.dir));
        let own = [pack_at.join(pack_file::FILE), pack_at.join(grammar::FILE)];
        let (mut suite, mut model, mut pack) = (Vec::new(), Vec::new(), Vec::new());
        for f in files {
            if self.left_out.contains(&f) {
                suite.push(f);
            } else if own.contains(&f) {
                pack.push(f);
            } else if f.starts_with(&model_at) {
                model.push(f);
            } else if f.starts_with(&pack_at) {
                pack.push(f);
            } else {
                suite.push(f);
            }
        }
        let dep = |name, paths| Dependency {
            name,
            paths,
            commands: Vec::new(),
        };
        vec![
            dep("the suite", suite),
            dep("the model", model),
            dep("the pack", pack),
            Dependency {
                name: "the environment",
                paths: environment_paths(&self.dir),
                commands,
            },
        ]
    }
}

/// The files and folders inside `dir` that `pack.yaml`'s `environment:`
/// names, whatever its shape (a string, a list, a map of them): what a
/// course provides its programs, whose change makes every mark stale.
fn environment_paths(dir: &Path) -> Vec<PathBuf> {
    fn strings(v: &yaml_serde::Value, out: &mut Vec<String>) {
        match v {
            yaml_serde::Value::String(s) => out.push(s.clone()),
            yaml_serde::Value::Sequence(items) => items.iter().for_each(|i| strings(i, out)),
            yaml_serde::Value::Mapping(m) => m.values().for_each(|i| strings(i, out)),
            _ => {}
        }
    }
    let Ok(bytes) = std::fs::read(dir.join(pack_file::FILE)) else {
        return Vec::new();
    };
    let Ok(yaml_serde::Value::Mapping(top)) = yaml_serde::from_slice::<yaml_serde::Value>(&bytes)
    else {
        return Vec::new();
    };
    let mut named = Vec::new();
    if let Some(env) = top.get("environment") {
        strings(env, &mut named);
    }
    named
        .iter()
        .map(|s| clean(&dir.join(s)))
        .filter(|p| p.starts_with(dir) && p.exists())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_with_a_slash_is_a_folder() {
        assert!(names_folder("./nogo", true));
        assert!(names_folder("examples/x", false));
        assert!(!names_folder("nogo", true));
        assert!(!names_folder("no-such-folder-here", false));
    }

    #[test]
    fn a_model_sharing_the_suites_folder_keeps_its_own_files_only() {
        let suite = EmbeddedSuite {
            files: &[
                ("c/a.yaml", b""),
                ("c/a.stdout", b""),
                ("c/in/board", b""),
                ("explore.yaml", b""),
                ("model.sh", b""),
                ("lib/util.sh", b""),
                ("pack.yaml", b""),
                ("rules.yaml", b""),
                ("suite.yaml", b""),
            ],
            source_dir: "/p",
            display: "p",
            at_run_time: true,
            in_pack: "",
        };
        let out = |model: &str| -> Vec<String> {
            answers(&suite, Path::new("/p"), Path::new(model))
                .iter()
                .map(|p| p.display().to_string())
                .collect()
        };
        assert_eq!(
            out("/p"),
            [
                "/p/c/a.stdout",
                "/p/c/a.yaml",
                "/p/c/in/board",
                "/p/rules.yaml",
                "/p/suite.yaml"
            ]
        );
        // A model elsewhere (the pack above a suite folder) sees none of it.
        assert_eq!(out("/").len(), suite.files.len());
    }

    #[test]
    fn a_rule_is_found_as_a_word_of_its_own() {
        let text = "argv:\n  - {words: [], rules: [ARGS-10]}\n  - {rules: [ARGS-1]}\n";
        assert_eq!(word_line(text, "ARGS-1"), Some(3));
        assert_eq!(word_line(text, "ARGS-10"), Some(2));
        assert_eq!(word_line(text, "LINE-1"), None);
    }

    #[test]
    fn paths_are_cleaned_lexically() {
        assert_eq!(
            clean(Path::new("/a/b/../../cases/nogo/.")),
            PathBuf::from("/cases/nogo")
        );
    }
}
