//! A package's programs made ready to run, each compiled once: a jury
//! submission (a file, or a folder of files) or the output validator,
//! its language from its files' extensions ([`super::languages`]), or a
//! folder's own `build` and `run` scripts. It is built exactly as a
//! folder pack's model is ([`crate::packs::folder::model::prepare`]):
//! contained, in a copy of its files, the result kept until the command
//! ends. A language whose compiler or interpreter is not on `PATH` is
//! skipped, named.

use std::path::{Path, PathBuf};

use crate::exec::run::Target;
use crate::packs::folder::model::{self, Recipe};
use crate::packs::problem::languages::{self, Table};
use crate::packs::problem::package::Problem;

/// A program made ready, or why not.
#[derive(Debug, Clone)]
pub enum Ready {
    /// Built; runs as this target.
    Built(Target),
    /// Not run: the tool it needs is missing (`kotlinc`).
    Skipped(String),
    /// Its build failed (the first lines of the compiler's output).
    CompileError(String),
}

/// The source files of `path` (a file, or a folder's files), by name.
fn source_files(path: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    if path.is_file() {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        return Ok(vec![(name, path.to_owned())]);
    }
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(path).sort_by_file_name() {
        let entry = entry.map_err(|e| format!("{}: {e}", path.display()))?;
        if entry.file_type().is_file() {
            let rel = entry
                .path()
                .strip_prefix(path)
                .unwrap_or(entry.path())
                .to_string_lossy()
                .into_owned();
            out.push((rel, entry.path().to_owned()));
        }
    }
    Ok(out)
}

/// How a program is built and run: its build line (if any) and its run
/// line; `Err(why)` when a tool it needs is missing (a skip, not a
/// failure).
type Lines = Result<(Option<String>, String), String>;

/// The lines of the program whose files are `files` (by name).
fn lines_of(files: &[(String, PathBuf)], name: &str, table: &Table) -> Result<Lines, String> {
    let names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
    if names.iter().any(|n| n == "run") {
        let build = names
            .iter()
            .any(|n| n == "build")
            .then(|| "./build".to_owned());
        return Ok(Ok((build, "./run".to_owned())));
    }
    let Some(lang) = table.detect(&names) else {
        return Err(format!(
            "{name}: no language of the table has its files' extensions ({})",
            names.join(", ")
        ));
    };
    let sources: Vec<(String, String)> = files
        .iter()
        .filter(|(n, _)| lang.runs_a_class() && lang.matches(n))
        .filter_map(|(n, p)| std::fs::read_to_string(p).ok().map(|t| (n.clone(), t)))
        .collect();
    let class = super::entry::main_class(&lang.id, &sources);
    let (compile, run) = table.lines(lang, &names, class.as_deref());
    if let Some(missing) = lang.tools().iter().find(|t| !languages::on_path(t)) {
        return Ok(Err(format!("no {missing} ({})", lang.name)));
    }
    Ok(Ok((compile, run)))
}

/// Prepares the program at `path` (shown as `name`), staging its files in
/// a fresh folder under `stage` first.
pub fn prepare(path: &Path, name: &str, table: &Table, stage: &Path) -> Result<Ready, String> {
    let files = source_files(path)?;
    let (compile, run) = match lines_of(&files, name, table)? {
        Ok(lines) => lines,
        Err(skip) => return Ok(Ready::Skipped(skip)),
    };
    let dir = tempfile::Builder::new()
        .prefix("src-")
        .tempdir_in(stage)
        .map_err(|e| format!("cannot stage {name}: {e}"))?
        .keep();
    for (rel, from) in &files {
        let to = dir.join(rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::copy(from, &to).map_err(|e| format!("{}: {e}", from.display()))?;
    }
    Ok(built(dir, compile, run, name))
}

/// Prepares the program in the folder `dir` (the output validator, for
/// `run` and `mark`) from that folder itself, not a staged copy: a
/// folder pack's model is known by its folder and build line, so `mark`
/// builds it once and every submission's check runs that build
/// ([`crate::packs::folder::model::BUILT_ENV`]).
pub fn prepare_in_place(dir: &Path, name: &str, table: &Table) -> Result<Ready, String> {
    let (compile, run) = match lines_of(&source_files(dir)?, name, table)? {
        Ok(lines) => lines,
        Err(skip) => return Ok(Ready::Skipped(skip)),
    };
    let dir = std::path::absolute(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(built(dir, compile, run, name))
}

/// The program of the sources in `dir`, built by `compile` (a model's
/// build: contained, in a copy) and run by `run`.
fn built(dir: PathBuf, compile: Option<String>, run: String, name: &str) -> Ready {
    let recipe = Recipe {
        dir,
        build: compile.map(|line| format!("{line} 2>&1")),
        command: run,
        origin: name.to_owned(),
        left_out: std::collections::BTreeSet::new(),
    };
    match model::prepare(&recipe) {
        Ok(target) => Ready::Built(target),
        Err(log) => Ready::CompileError(
            log.lines()
                .skip_while(|l| l.starts_with("the model's build"))
                .take(6)
                .collect::<Vec<_>>()
                .join("\n"),
        ),
    }
}

/// The package's output validator at `path`, built once (`mark`'s
/// checks run the build its own load made: [`prepare_in_place`]);
/// one that cannot be built is a fault of the package.
pub fn validator(spec: &str, path: &Path, table: &Table) -> Result<Target, String> {
    const NAME: &str = "the output validator";
    let ready = if path.is_dir() {
        prepare_in_place(path, NAME, table)?
    } else {
        let stage = tempfile::Builder::new()
            .prefix("conformance-validator-")
            .tempdir()
            .map_err(|e| format!("cannot stage {NAME}: {e}"))?;
        prepare(path, NAME, table, stage.path())?
    };
    match ready {
        Ready::Built(target) => Ok(target),
        Ready::Skipped(why) => Err(format!("--spec {spec}: {NAME} cannot run: {why}")),
        Ready::CompileError(log) => Err(format!("--spec {spec}: {NAME} does not compile:\n{log}")),
    }
}

/// The first accepted submission a language runs without compiling: its
/// run line and its folder.
pub fn reference(problem: &Problem, table: &Table) -> Result<(String, PathBuf), String> {
    for sub in problem
        .submissions
        .iter()
        .filter(|s| s.folder == "accepted")
    {
        let (dir, files) = if sub.path.is_dir() {
            let names = std::fs::read_dir(&sub.path)
                .map_err(|e| format!("{}: {e}", sub.path.display()))?
                .filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect::<Vec<_>>();
            (sub.path.clone(), names)
        } else {
            let parent = sub.path.parent().unwrap_or(Path::new(".")).to_owned();
            let name = sub
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (parent, vec![name])
        };
        if let Some(lang) = table.detect(&files).filter(|l| l.compile.is_none()) {
            // The run starts in a fresh folder: the files by absolute
            // path, which a line of words must hold unquoted.
            let dir = std::path::absolute(&dir).unwrap_or(dir);
            let absolute: Vec<String> = files
                .iter()
                .map(|f| dir.join(f).display().to_string())
                .collect();
            if absolute
                .iter()
                .all(|f| shlex::try_quote(f).is_ok_and(|q| q == f.as_str()))
            {
                let (_, run) = table.lines(lang, &absolute, None);
                return Ok((run, dir));
            }
        }
    }
    Err(
        "no accepted submission runs without compiling (diff compiles one as its reference)"
            .to_owned(),
    )
}

/// The accepted submission `diff` compares a candidate with when none
/// runs without compiling ([`reference`]): the first, in order, that
/// builds here (compiled once, as `verify` builds it), and those passed
/// over on the way, each with why.
#[derive(Debug)]
pub struct Compiled {
    /// `accepted/sol.c`.
    pub name: String,
    pub target: Target,
    /// `accepted/sol.kt: no kotlinc (Kotlin)`, in order.
    pub passed_over: Vec<String>,
}

/// The first accepted submission of `problem` that builds, staged under
/// `stage`; `Err` names every one tried and why it could not be used.
pub fn compiled_reference(
    problem: &Problem,
    table: &Table,
    stage: &Path,
) -> Result<Compiled, String> {
    let mut passed_over = Vec::new();
    for sub in problem
        .submissions
        .iter()
        .filter(|s| s.folder == "accepted")
    {
        let name = &sub.name;
        passed_over.push(match prepare(&sub.path, name, table, stage) {
            Ok(Ready::Built(target)) => {
                return Ok(Compiled {
                    name: name.clone(),
                    target,
                    passed_over,
                });
            }
            Ok(Ready::Skipped(why)) => format!("{name}: {why}"),
            Ok(Ready::CompileError(log)) => format!(
                "{name}: does not compile: {}",
                log.lines().next().unwrap_or_default()
            ),
            // Already names the submission.
            Err(why) => why,
        });
    }
    if passed_over.is_empty() {
        return Err("the package has no accepted submission to be the reference".to_owned());
    }
    Err(format!(
        "no accepted submission can be the reference here ({})",
        passed_over.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folders_files_are_listed_by_relative_name() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::create_dir(dir.path().join("lib")).expect("mkdir");
        std::fs::write(dir.path().join("main.py"), "").expect("write");
        std::fs::write(dir.path().join("lib/util.py"), "").expect("write");
        let names: Vec<String> = source_files(dir.path())
            .expect("listed")
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(names, ["lib/util.py", "main.py"]);
    }

    #[test]
    fn a_missing_compiler_is_a_skip_naming_it() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::write(
            dir.path().join("languages.yaml"),
            "c:\n  compile: no-such-cc-here -o {binary} {files}\n",
        )
        .expect("write");
        std::fs::write(dir.path().join("a.c"), "int main(void) { return 0; }\n").expect("write");
        let table = Table::for_package(dir.path()).expect("table");
        let ready =
            prepare(&dir.path().join("a.c"), "accepted/a.c", &table, dir.path()).expect("prepared");
        assert!(
            matches!(&ready, Ready::Skipped(why) if why == "no no-such-cc-here (C)"),
            "{ready:?}"
        );
        let unknown = prepare(
            &dir.path().join("languages.yaml"),
            "accepted/x",
            &table,
            dir.path(),
        );
        assert!(unknown.unwrap_err().contains("no language"));
    }

    #[test]
    fn a_compiled_reference_passes_over_what_cannot_build_saying_why() {
        let _scope = model::Scope::enter();
        let dir = tempfile::tempdir().expect("dir");
        let write = |rel: &str, text: &str| {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        };
        write("problem.yaml", "name: Echo\n");
        write("data/secret/1.in", "1\n");
        write("data/secret/1.ans", "1\n");
        write(
            "languages.yaml",
            "c:\n  compile: no-such-cc-here -o {binary} {files}\n",
        );
        write("submissions/accepted/a.c", "int main(void) { return 0; }\n");
        write("submissions/wrong_answer/w.sh", "echo 2\n");
        write("submissions/accepted/b.sh", "cat\n");
        let problem = Problem::load(dir.path()).expect("loads");
        let table = Table::for_package(dir.path()).expect("table");
        let stage = tempfile::tempdir().expect("stage");
        let chosen = compiled_reference(&problem, &table, stage.path()).expect("b.sh");
        assert_eq!(chosen.name, "accepted/b.sh");
        assert_eq!(chosen.passed_over, ["accepted/a.c: no no-such-cc-here (C)"]);
        std::fs::remove_file(dir.path().join("submissions/accepted/b.sh")).expect("rm");
        let problem = Problem::load(dir.path()).expect("loads");
        let none = compiled_reference(&problem, &table, stage.path()).expect_err("none builds");
        assert_eq!(
            none,
            "no accepted submission can be the reference here (accepted/a.c: no \
             no-such-cc-here (C))"
        );
    }
}
