//! A student's program built and started by a package's language table,
//! in any language the table knows: under `mark` ([`ByTable`], one `sh`
//! line per submission, run contained like every build) and under `run
//! --bin FILE` ([`student_target`]).
//!
//! Under `mark` the build leaves one program, `solution`, at the top of
//! the submission's folder, every other file it made kept beside it:
//! - a compiled language whose run line is the binary (C, C++, Rust, Go)
//!   is compiled to `solution`;
//! - any other (Python, JavaScript, Ruby, shell; Java, Kotlin, C#:
//!   classes or an assembly) is compiled by the table's line if it has
//!   one, and `solution` is a launcher, `#!/bin/sh` then the table's run
//!   line with `{path}` (and a `{mainfile}`'s folder) the launcher's own
//!   folder, so a JVM starts on the submission's classes wherever its
//!   folder is, and an interpreter runs the student's file untouched: a
//!   traceback names the file and line the student wrote (`./main.py:15`,
//!   as a folder pack's shows), not a copy shifted by a `#!` line.
//!
//! The language is the table's choice by extension ([`Table::detect`]),
//! the class a JVM starts the one holding `main` ([`super::entry`]). A
//! tool of the language missing from `PATH` is
//! [`SubmissionBuild::Lacks`]: the course environment's failure, never
//! the student's; a compile error is the student's build failure.

use std::path::Path;

use crate::bytes::quote::shell_quote;
use crate::exec::run::Target;
use crate::model::files::Files;
use crate::packs::folder::model::{self, Recipe};
use crate::packs::pack::{SubmissionBuild, SubmissionBuilds};
use crate::packs::problem::entry;
use crate::packs::problem::languages::{Filled, Language, Table};

/// The program a submission's build leaves at its top.
pub const BUILT_PROGRAM: &str = "solution";

/// What `mark`'s class view says of the build.
pub const DESCRIBED: &str = "the compile line of the submission's language in the package's \
    language table (docs/problem-packages.md)";

/// Stands for the launcher's folder in a filled run line until the line
/// is written as shell words.
const HERE: &str = "\u{1}here\u{1}";

/// A package's submissions built by its language table.
#[derive(Debug)]
pub struct ByTable(pub Table);

impl SubmissionBuilds for ByTable {
    fn build_for(&self, files: &Files) -> SubmissionBuild {
        build_for(&self.0, files)
    }
}

/// The language of `names` and its placeholders, the main class found in
/// the sources `read` gives; `Err` names the tool missing from `PATH`.
fn chosen<'t>(
    table: &'t Table,
    names: &[String],
    read: impl Fn(&str) -> Option<String>,
) -> Option<Result<(&'t Language, Filled), String>> {
    let lang = table.detect(names)?;
    if let Some(missing) = lang.missing_tool() {
        return Some(Err(missing));
    }
    let class = lang
        .runs_a_class()
        .then(|| {
            let sources: Vec<(String, String)> = names
                .iter()
                .filter(|n| lang.matches(n))
                .filter_map(|n| read(n).map(|text| (n.clone(), text)))
                .collect();
            entry::main_class(&lang.id, &sources)
        })
        .flatten();
    Some(Ok((
        lang,
        Filled::new(table, lang, names, class.as_deref()),
    )))
}

/// The build of a submission holding `files`.
pub fn build_for(table: &Table, files: &Files) -> SubmissionBuild {
    let names: Vec<String> = files.0.keys().cloned().collect();
    let read = |n: &str| {
        files
            .0
            .get(n)
            .map(|b| String::from_utf8_lossy(b).into_owned())
    };
    let (lang, filled) = match chosen(table, &names, read) {
        None => {
            return SubmissionBuild::Line(format!(
                "echo {} >&2; exit 1",
                shell_quote(&format!(
                    "no source file of a language this package knows in the submission \
                     (looked for {})",
                    table.patterns()
                ))
            ));
        }
        Some(Err(missing)) => return SubmissionBuild::Lacks(missing),
        Some(Ok(found)) => found,
    };
    let compile = lang.compile.as_deref().map(|l| filled.fill(l, "."));
    let run_words: Vec<&str> = lang.run.split_whitespace().collect();
    let program = match (&compile, run_words.as_slice()) {
        (Some(_), ["./{binary}" | "{binary}"]) => format!("mv -f prog {BUILT_PROGRAM}"),
        _ => match launcher(&filled.fill(&lang.run, HERE)) {
            Some(script) => script,
            None => format!(
                "echo {} >&2; exit 1",
                shell_quote(&format!(
                    "the run line of {} does not split into words: {}",
                    lang.name, lang.run
                ))
            ),
        },
    };
    SubmissionBuild::Line(match compile {
        Some(c) => format!("{c} && {program}"),
        None => program,
    })
}

/// The `sh` line that writes `solution`, a launcher running `run` (its
/// `{path}` filled with [`HERE`]) from the launcher's own folder.
fn launcher(run: &str) -> Option<String> {
    let words = shlex::split(run)?;
    let exec: Vec<String> = words
        .iter()
        .map(|w| {
            let w = if w == "." {
                HERE.to_owned()
            } else if let Some(rest) = w.strip_prefix("./") {
                format!("{HERE}/{rest}")
            } else {
                w.clone()
            };
            w.split(HERE)
                .map(|piece| {
                    if piece.is_empty() {
                        String::new()
                    } else {
                        shell_quote(piece)
                    }
                })
                .collect::<Vec<_>>()
                .join("\"$d\"")
        })
        .collect();
    let lines = [
        "#!/bin/sh".to_owned(),
        // The folder this file is in holds what the build left.
        "case $0 in */*) d=${0%/*} ;; *) d=. ;; esac".to_owned(),
        format!("exec {} \"$@\"", exec.join(" ")),
    ];
    Some(format!(
        "printf '%s\\n' {} > {BUILT_PROGRAM} && chmod +x {BUILT_PROGRAM}",
        lines
            .iter()
            .map(|l| shell_quote(l))
            .collect::<Vec<_>>()
            .join(" ")
    ))
}

/// The program `--bin PATH` names, when `path` is a source file of a
/// language `table` knows, or a folder holding some: built once by the
/// table's compile line (contained, in a copy of its files, the copy
/// removed when the command ends) and run by its run line. `None` for
/// anything else (an executable, a command line).
pub fn student_target(path: &Path, table: &Table) -> Option<Result<Target, String>> {
    let files = if path.is_dir() {
        let mut names = Vec::new();
        for entry in walkdir::WalkDir::new(path).sort_by_file_name() {
            let Ok(entry) = entry else { continue };
            if entry.file_type().is_file()
                && let Ok(rel) = entry.path().strip_prefix(path)
            {
                names.push(rel.to_string_lossy().into_owned());
            }
        }
        names
    } else if path.is_file() {
        vec![path.file_name()?.to_string_lossy().into_owned()]
    } else {
        return None;
    };
    let home = if path.is_dir() { path } else { path.parent()? };
    let read = |n: &str| std::fs::read_to_string(home.join(n)).ok();
    let (lang, filled) = match chosen(table, &files, read)? {
        Err(missing) => {
            return Some(Err(format!(
                "{}: cannot be built here: {missing}",
                path.display()
            )));
        }
        Ok(found) => found,
    };
    Some(built(path, home, lang, &filled))
}

/// `path`'s sources (files of `home`) built in a copy and run from it.
fn built(path: &Path, home: &Path, lang: &Language, filled: &Filled) -> Result<Target, String> {
    let stage = tempfile::Builder::new()
        .prefix("src-")
        .tempdir()
        .map_err(|e| format!("cannot stage {}: {e}", path.display()))?;
    let sources: Vec<String> = if path.is_dir() {
        walkdir::WalkDir::new(home)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .filter_map(|e| {
                e.path()
                    .strip_prefix(home)
                    .ok()
                    .map(|r| r.to_string_lossy().into_owned())
            })
            .collect()
    } else {
        vec![filled.main.clone()]
    };
    for rel in &sources {
        let to = stage.path().join(rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::copy(home.join(rel), &to).map_err(|e| format!("{rel}: {e}"))?;
    }
    let run = filled.fill(&lang.run, ".");
    let recipe = Recipe {
        dir: stage.path().to_owned(),
        build: lang
            .compile
            .as_deref()
            .map(|l| format!("{} 2>&1", filled.fill(l, "."))),
        command: run.clone(),
        origin: path.display().to_string(),
        left_out: std::collections::BTreeSet::new(),
    };
    // The model's machinery builds it contained and keeps the copy until
    // the command ends; the student's program is then run from there as
    // any program is, not as a model.
    let staged = model::prepare(&recipe).map_err(|log| {
        format!(
            "{} does not build ({}):\n{}",
            path.display(),
            lang.name,
            log.lines()
                .skip_while(|l| l.starts_with("the model's build"))
                .take(12)
                .collect::<Vec<_>>()
                .join("\n")
        )
    })?;
    let dir = staged
        .model_home()
        .ok_or_else(|| format!("{}: the built copy has no folder", path.display()))?;
    Target::command_from(&run, dir).map_err(|e| format!("`{run}` in {}: {e}", dir.display()))
}

#[cfg(test)]
#[path = "launch_tests.rs"]
mod tests;
