//! A folder pack's model solution made runnable, from a folder of its own
//! that never holds the suite: a copy of `model.dir` without the suite's
//! files, built there once when it has a `build` line (contained like a
//! submission's build: `sh -c` in a sandbox holding that copy), written to
//! a temporary folder that is removed when the command ends, an interrupt
//! included. The result is a command [`Target`] marked as the model: it
//! runs exactly as a program under test runs (its own folder readable,
//! nothing else of the caller's).

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use crate::exec::interrupt::Ticket;
use crate::exec::run::{self, Ending, Invocation, Keep, Limits, Target};
use crate::model::files::Files;

/// The time a model's build may take.
const BUILD_LIMIT: Duration = Duration::from_secs(300);
/// Bytes of a model's sources read into its build's sandbox at most.
const SOURCES_CAP: u64 = 64 << 20;
/// Bytes of a failed build's output shown.
const LOG_SHOWN: usize = 2000;

/// A built model's folder, kept until the command's [`Scope`] ends.
struct Kept {
    /// What was built: [`Recipe::key`].
    key: String,
    dir: tempfile::TempDir,
    /// Registers the folder for removal on an interrupt.
    _ticket: Ticket,
}

static KEPT: Mutex<Vec<Kept>> = Mutex::new(Vec::new());

/// While alive, the models built since it started stay; dropping it
/// removes those (and only those: a scope entered inside another, such
/// as the time limit a problem package derives while its pack is
/// loaded, never removes what the outer one built). The command line
/// holds one for the whole command.
#[derive(Debug)]
pub struct Scope {
    /// How many folders were kept when it started.
    from: usize,
}

impl Scope {
    /// Starts the scope.
    pub fn enter() -> Self {
        Self {
            from: KEPT.lock().unwrap_or_else(PoisonError::into_inner).len(),
        }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let kept = {
            let mut all = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
            let from = self.from.min(all.len());
            all.split_off(from)
        };
        for k in kept {
            let _ = k.dir.close();
        }
    }
}

/// Names, for the harnesses this one starts (`mark`'s checks), the
/// models it built: lines of `KEY\tFOLDER`, so that a class is marked with
/// one build of the model, not one per submission.
pub const BUILT_ENV: &str = "CONFORMANCE_MODELS_BUILT";

/// The variable naming the models this process built, for a harness it
/// starts; `None` when it built none.
pub fn child_env() -> Option<(&'static str, String)> {
    let kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
    let lines: Vec<String> = kept
        .iter()
        .map(|k| format!("{}\t{}", k.key, k.dir.path().display()))
        .collect();
    (!lines.is_empty()).then(|| (BUILT_ENV, lines.join("\n")))
}

/// The folder a parent harness built `recipe` in, when it names one that
/// still exists.
fn built_by_parent(recipe: &Recipe) -> Option<PathBuf> {
    let listed = std::env::var(BUILT_ENV).ok()?;
    let key = recipe.key();
    listed
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .find(|(k, _)| *k == key)
        .map(|(_, dir)| PathBuf::from(dir))
        .filter(|dir| dir.is_dir())
}

/// What `pack.yaml` says of the model, with its folder made absolute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipe {
    /// The folder holding its sources.
    pub dir: PathBuf,
    /// The `sh -c` build line, if any.
    pub build: Option<String>,
    /// The command line.
    pub command: String,
    /// Where `command` is written (`pack.yaml:5:1`), for its errors.
    pub origin: String,
    /// The suite's files below `dir` (canonical paths): never copied into
    /// the model's folder.
    pub left_out: BTreeSet<PathBuf>,
}

impl Recipe {
    /// What identifies a staged model: the folder and the line (one line
    /// of text: tabs and newlines become spaces).
    fn key(&self) -> String {
        format!(
            "{} {}",
            self.dir.display(),
            self.build.as_deref().unwrap_or_default()
        )
        .replace(['\t', '\n'], " ")
    }
}

/// The model as a target, run from a folder of its own: a copy of its
/// sources without the suite's files, built first when it has a build line
/// (unless the harness that started this one staged it already). So the
/// model never runs from, nor reads, a folder holding the answers.
pub fn prepare(recipe: &Recipe) -> Result<Target, String> {
    let home = match built_by_parent(recipe) {
        Some(home) => home,
        None => stage(recipe)?,
    };
    command_in(&home, &recipe.command, &recipe.origin).map(|t| t.into_model(home))
}

/// Extensions of a word that names a file to run (`modl.py`).
const PROGRAM_EXTENSIONS: [&str; 10] = [
    "py", "js", "rb", "pl", "sh", "jar", "class", "lua", "php", "java",
];

/// Whether a later word of a command line looks like a file (it holds a
/// `/` or ends in a program's extension) rather than an option, a setting
/// or a word of text.
fn looks_like_file(word: &str) -> bool {
    !word.starts_with('-')
        && !word.contains('=')
        && !word.chars().any(char::is_whitespace)
        && (word.contains('/')
            || Path::new(word)
                .extension()
                .is_some_and(|e| PROGRAM_EXTENSIONS.iter().any(|x| e.eq_ignore_ascii_case(x))))
}

/// The first later word of `command` that looks like a file and names
/// none in `home` (a typo such as `python3 modl.py`, whose "can't open
/// file" would otherwise be blessed as the expectation).
pub fn missing_file(home: &Path, command: &str) -> Option<String> {
    shlex::split(command)?
        .into_iter()
        .skip(1)
        .flat_map(|w| class_path(&w).unwrap_or_else(|| vec![w.clone()]))
        .find(|w| looks_like_file(w) && !home.join(w).exists())
}

/// A class path's parts (`.:/course/lib/a.jar`), each a file or folder of
/// its own; `None` for any other word.
fn class_path(word: &str) -> Option<Vec<String>> {
    (!word.starts_with('-')
        && !word.contains('=')
        && word.contains(':')
        && word.split(':').all(|p| !p.is_empty()))
    .then(|| word.split(':').map(str::to_owned).collect())
}

/// `command` with its words resolved in `home`: the first word, when it
/// holds a `/`, is a path there (else it is looked up in `PATH`), and any
/// later word naming a file there becomes its absolute path (so the model
/// may read it, as a program reads its own folder); a later word that
/// looks like a file and names none is an error naming `origin`.
fn command_in(home: &Path, command: &str, origin: &str) -> Result<Target, String> {
    if let Some(word) = missing_file(home, command) {
        return Err(format!(
            "{origin}: model.command: `{word}` looks like a file, but the model's folder holds \
             no such file (a typo?)"
        ));
    }
    let words = shlex::split(command)
        .filter(|w| !w.is_empty())
        .ok_or_else(|| format!("model command `{command}` does not split into words"))?;
    let resolved: Vec<String> = words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            // Each part of a class path as its own word would be.
            if i > 0
                && let Some(parts) = class_path(w)
            {
                return parts
                    .iter()
                    .map(|p| {
                        let local = home.join(p);
                        if Path::new(p).is_relative() && local.exists() {
                            super::clean(&local).display().to_string()
                        } else {
                            p.clone()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(":");
            }
            let path = Path::new(w);
            let local = home.join(path);
            let is_path = if i == 0 {
                w.contains('/')
            } else {
                !w.starts_with('-') && local.exists()
            };
            if is_path && path.is_relative() {
                super::clean(&local).display().to_string()
            } else {
                w.clone()
            }
        })
        .collect();
    let line = shlex::try_join(resolved.iter().map(String::as_str))
        .map_err(|e| format!("model command `{command}`: {e}"))?;
    Target::command(&line).map_err(|e| format!("model command `{command}`: {e}"))
}

/// The model's sources: every regular file below `dir` but those
/// `left_out` (a link to one is left out too), bounded.
fn sources(dir: &Path, left_out: &BTreeSet<PathBuf>) -> Result<Files, String> {
    use std::os::unix::fs::PermissionsExt as _;
    let listed = conformance_embed::walk::files(dir)
        .map_err(|e| format!("model dir {}: {e}", dir.display()))?;
    let mut files = Files::default();
    let mut total = 0u64;
    for (rel, path) in listed {
        let real = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if left_out.contains(&real) {
            continue;
        }
        let meta = std::fs::metadata(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        total = total.saturating_add(meta.len());
        if total > SOURCES_CAP {
            return Err(format!(
                "model dir {}: more than {} MiB of sources",
                dir.display(),
                SOURCES_CAP >> 20
            ));
        }
        if meta.permissions().mode() & 0o111 != 0 {
            files.1.insert(rel.clone());
        }
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        files.0.insert(rel, bytes);
    }
    Ok(files)
}

/// The model's own folder: its sources (the suite's files left out),
/// built there when it has a build line, written to a fresh temporary
/// folder that lives until the command's [`Scope`] ends.
fn stage(recipe: &Recipe) -> Result<PathBuf, String> {
    let sources = sources(&recipe.dir, &recipe.left_out)?;
    let staged = match &recipe.build {
        None => sources,
        Some(line) => build(recipe, line, &sources)?,
    };
    keep(recipe, &staged)
}

/// Builds the model contained, in a sandbox holding `sources`: every file
/// the sandbox holds afterwards, what the build made executable.
fn build(recipe: &Recipe, line: &str, sources: &Files) -> Result<Files, String> {
    let sh = Target::binary(Path::new("/bin/sh")).map_err(|e| e.to_string())?;
    let mut inv = Invocation::new(sh, vec![OsString::from("-c"), line.into()], Vec::new());
    inv.files = sources
        .0
        .iter()
        .map(|(p, b)| (p.clone(), b.clone()))
        .collect();
    inv.executable = sources.1.iter().cloned().collect();
    inv.timeout = BUILD_LIMIT;
    inv.limits = Limits::for_timeout(BUILD_LIMIT);
    inv.keep = Keep::ALL;
    let outcome =
        run::run(&inv).map_err(|e| format!("cannot run the model's build `{line}`: {e}"))?;
    if outcome.ending != Ending::Exited(0) {
        let mut log = String::from_utf8_lossy(&outcome.stderr).into_owned();
        log.push_str(&String::from_utf8_lossy(&outcome.stdout));
        let shown: String = log.chars().take(LOG_SHOWN).collect();
        return Err(format!(
            "the model's build `{line}` (in a copy of {}) ended with {}:\n{shown}",
            recipe.dir.display(),
            outcome.ending
        ));
    }
    if let Some(cut) = outcome.cut.first() {
        return Err(format!(
            "the model's build `{line}` (in a copy of {}) left {cut}, longer than the {} MiB a \
             built file may be: a model cut short would be corrupt",
            recipe.dir.display(),
            inv.output_cap >> 20
        ));
    }
    Ok(Files::after_build(sources, outcome.files))
}

/// Writes `files` to a fresh temporary folder, registered for removal when
/// the [`Scope`] ends or on an interrupt, and returns it.
fn keep(recipe: &Recipe, files: &Files) -> Result<PathBuf, String> {
    let (dir, ticket) = match Ticket::register(|| {
        let dir = tempfile::Builder::new()
            .prefix("conformance-model-")
            .tempdir()?;
        let path = dir.path().to_owned();
        Ok((dir, path))
    }) {
        Err(interrupted) => return Err(interrupted.to_string()),
        Ok(Err(e)) => return Err(format!("cannot make the model's folder: {e}")),
        Ok(Ok((ticket, dir))) => (dir, ticket),
    };
    let home = dir.path().to_owned();
    KEPT.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(Kept {
            key: recipe.key(),
            dir,
            _ticket: ticket,
        });
    files
        .write_to(&home)
        .map_err(|e| format!("model folder {}: {e}", home.display()))?;
    Ok(home)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_words_resolve_in_the_model_folder() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("model.py"), b"print(1)\n").expect("write");
        let t = command_in(dir.path(), "sh model.py --x", "p:1:1")
            .expect("resolves")
            .into_model(dir.path().to_owned());
        assert!(t.path().ends_with("sh"), "{}", t.path().display());
        assert!(t.is_model());
        assert_eq!(
            t.words(),
            [
                OsString::from(dir.path().join("model.py")),
                OsString::from("--x")
            ]
        );
        assert!(command_in(dir.path(), "./missing", "p:1:1").is_err());
    }

    #[test]
    fn a_word_that_looks_like_a_file_must_name_one() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("model.py"), b"").expect("write");
        let missing = |c: &str| missing_file(dir.path(), c);
        assert_eq!(missing("python3 model.py --x -"), None);
        assert_eq!(missing("python3 modl.py").as_deref(), Some("modl.py"));
        assert_eq!(missing("java -jar out/m.jar").as_deref(), Some("out/m.jar"));
        assert_eq!(missing("java -cp . Model"), None);
        assert_eq!(missing("env A=b/c sh -c 'echo a/b'"), None);
        let e = command_in(dir.path(), "python3 modl.py", "p/pack.yaml:3:1").expect_err("refused");
        assert!(
            e.starts_with("p/pack.yaml:3:1: model.command: `modl.py`"),
            "{e}"
        );
    }
}
