//! `new-pack NAME --model CMD`: a new pack folder a lecturer fills in —
//! `pack.yaml` naming the model, a `rules.yaml` with one example rule and
//! rulings that state it, a `suite.yaml` with one category, two cases (one
//! command line, one stdin session) whose expectations `bless` takes from
//! the model, an `explore.yaml` to start `diff` from, copies of the span
//! protocol's C header and Python module, and a README saying the next
//! three commands. Every file it writes is one the engine reads back: the
//! tests parse each with the parsers a run uses.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The span protocol's single-file C header, copied into a new pack.
pub const SPAN_HEADER: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../span/conformance_span.h"
));
/// The span protocol's Python module, copied into a new pack.
pub const SPAN_PYTHON: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../span/conformance_span.py"
));

/// The span protocol's Java class, copied into a new pack.
pub const SPAN_JAVA: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../span/ConformanceSpan.java"
));

/// Why a pack folder was not written.
#[derive(Debug, thiserror::Error)]
pub enum ScaffoldError {
    /// The name is not one lowercase word.
    #[error(
        "`{0}` is not a pack name: one lowercase word (a-z, then a-z, 0-9, _); \
         it becomes {upper}_BIN",
        upper = .0.to_ascii_uppercase()
    )]
    Name(String),
    /// The model command is empty.
    #[error("--model is empty: give the command that runs the model solution")]
    Model,
    /// The folder exists.
    #[error("{0} already exists: new-pack writes a new folder")]
    Exists(PathBuf),
    /// Writing failed.
    #[error("{0}: {1}")]
    Io(PathBuf, #[source] io::Error),
}

/// Writes the pack `name`, whose model runs as `model`, into `dir` (which
/// must not exist), its README naming the harness as `program`; returns the files written, relative to `dir`, sorted.
///
/// # Errors
/// [`ScaffoldError`] on a bad name, an empty model, an existing folder or
/// a failed write (the folder is then removed).
pub fn new_pack(
    name: &str,
    model: &str,
    dir: &Path,
    program: &str,
) -> Result<Vec<String>, ScaffoldError> {
    if !crate::packs::folder::pack_file::is_word(name) {
        return Err(ScaffoldError::Name(name.to_owned()));
    }
    if model.trim().is_empty() {
        return Err(ScaffoldError::Model);
    }
    if dir.symlink_metadata().is_ok() {
        return Err(ScaffoldError::Exists(dir.to_owned()));
    }
    let files = files(name, model, program);
    let written = write_all(dir, &files);
    if written.is_err() {
        // Half a pack is worse than none: the command can be run again.
        let _ = fs::remove_dir_all(dir);
    }
    written?;
    let mut names: Vec<String> = files.into_iter().map(|(p, _)| p).collect();
    names.sort();
    Ok(names)
}

fn write_all(dir: &Path, files: &[(String, String)]) -> Result<(), ScaffoldError> {
    for (rel, text) in files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| ScaffoldError::Io(parent.to_owned(), e))?;
        }
        fs::write(&path, text).map_err(|e| ScaffoldError::Io(path.clone(), e))?;
    }
    Ok(())
}

/// The command-line case.
const NO_ARGUMENTS: &str = "# A command-line case. `bless` writes its expected status, stdout and
# stderr from the model; read them before you trust them.
summary: \"no arguments: the usage line\"
category: basics
rules: [ARGS-1]
hint: \"Read ARGS-1: what the program prints when it is run without arguments.\"
args: []
";

/// The stdin case.
const FIRST_SESSION: &str = "# A stdin session: the lines typed, then end of input. `bless` writes
# the expectations from the model.
summary: \"a first session typed on stdin\"
category: basics
rules: [ARGS-1]
hint: \"Read the rulings: what the program answers to each line.\"
args: []
stdin: \"first line\\nsecond line\\n\"
";

/// The grammar to start `diff` from.
const EXPLORE: &str = "# How `diff` makes sessions (docs/folder-packs.md): one argument list
# drawn per session, files placed, stdin lines drawn from templates;
# `{name}` is a draw of a value.
category: basics
values:
  n: {int: [1, 9]}
  word: {choice: [yes, no, quit]}
argv:
  - {words: [], rules: [ARGS-1]}
  - {words: [\"{n}\"], rules: [ARGS-1]}
stdin:
  length: [0, 6]
  lines:
    - {text: \"{word} {n}\", rules: [ARGS-1]}
  damage: 0.05
";

/// Every file of the new pack: path relative to its folder, and text.
/// `pack.yaml` for a Java model: built by `javac` in `model/` (where the
/// command runs), and submissions built and run as the course does.
fn java_pack_yaml(name: &str, model: &str) -> String {
    let model_q = crate::output::writer::quote(model);
    let class = java_main_class(model).unwrap_or("Main");
    format!(
        "# The {name} assignment as a pack folder (docs/folder-packs.md; Java:
# docs/java.md).
name: {name}
model:
  # The model solution, built once, contained, in a copy of `model/`
  # ({class}.java beside ConformanceSpan.java), and run from there.
  dir: model
  build: javac -encoding UTF-8 *.java
  command: {model_q}
# How `mark` builds and runs a student's submission: the class `{class}`
# in the default package, built with javac and run as the course runs it.
submissions:
  program: {class}.java
  build: javac -encoding UTF-8 *.java
  run: \"java -cp . {class}\"
# The time limit of a case that states none.
timeout: 10s
"
    )
}

/// The main class a `java` command line names: its last word (`java
/// -cp . Main`), when the command runs `java`.
fn java_main_class(model: &str) -> Option<&str> {
    let mut words = model.split_whitespace();
    (words.next()? == "java").then_some(())?;
    words.last().filter(|w| !w.starts_with('-'))
}

/// Every file of the new pack: path relative to its folder, and text.
fn files(name: &str, model: &str, program: &str) -> Vec<(String, String)> {
    let upper = name.to_ascii_uppercase();
    let model_q = crate::output::writer::quote(model);
    let pack_yaml = if java_main_class(model).is_some() {
        java_pack_yaml(name, model)
    } else {
        format!(
            "# The {name} assignment as a pack folder (docs/folder-packs.md).
name: {name}
model:
  # The model solution: the command that runs it, from this folder. A
  # compiled model may be built first, contained, in a copy of `dir`:
  #   dir: model
  #   build: cc -std=gnu99 -O2 -o {name} {name}.c
  #   command: ./{name}
  # Java (docs/java.md): new-pack --model \"java -cp . Main\" writes its
  # javac build line.
  command: {model_q}
# How `mark` builds a student's submission; for C, for example:
# submissions:
#   program: {name}
#   build: gcc -Wall -pedantic -std=gnu99 -o {name} *.c
#   with_makefile: make
# The time limit of a case that states none.
timeout: 10s
"
        )
    };
    vec![
        ("pack.yaml".to_owned(), pack_yaml),
        (
            format!("{name}-rulings.md"),
            format!(
                "# {name}: rulings

Every open point of the assignment text settled, one rule a line, each
with an ID that cases cite (`rules.yaml` lists the same IDs).

## Command line

- **ARGS-1** Run without arguments, the program prints its usage line on
  stderr and exits with status 1. *(An example: write your own.)*

## Decisions of this repository

None yet.
"
            ),
        ),
        (
            "rules.yaml".to_owned(),
            format!(
                "# Every rule ID of {name}-rulings.md, in a few words; every case cites
# one or more. ambiguous: no | part | whole (a rule the text leaves open
# and the rulings decide: its cases carry the `ambiguous` tag).
rules:
  - id: ARGS-1
    summary: \"no arguments: the usage line on stderr, exit 1\"
    ambiguous: no
"
            ),
        ),
        (
            "suite.yaml".to_owned(),
            format!(
                "# The marking categories: each case belongs to one; marks are shared
# out by the share of its cases a program passes.
name: {name}
version: \"1\"
spec: {name}-rulings.md
categories:
  - {{name: basics, marks: 1, title: the command line and a first session}}
"
            ),
        ),
        (
            "basics/no-arguments.yaml".to_owned(),
            NO_ARGUMENTS.to_owned(),
        ),
        (
            "basics/first-session.yaml".to_owned(),
            FIRST_SESSION.to_owned(),
        ),
        ("explore.yaml".to_owned(), EXPLORE.to_owned()),
        (
            "model/conformance_span.h".to_owned(),
            SPAN_HEADER.to_owned(),
        ),
        (
            "model/conformance_span.py".to_owned(),
            SPAN_PYTHON.to_owned(),
        ),
        (
            "model/ConformanceSpan.java".to_owned(),
            SPAN_JAVA.to_owned(),
        ),
        (
            "README.md".to_owned(),
            format!(
                "# {name}

A pack folder for `{program}` (docs/new-pack.md is the tutorial).

1. Write the rulings (`{name}-rulings.md`), their IDs (`rules.yaml`) and
   cases (`basics/*.yaml`); then take their expectations from the model:

       {program} bless --spec ./{name}

2. Check a student's program against them, with marks:

       {program} --spec ./{name} --bin path/to/program --score

3. Compare the program with the model on generated sessions
   (`explore.yaml`), and shrink what differs into cases:

       {program} diff --spec ./{name} --bin path/to/program

`{upper}_BIN` may name the program instead of `--bin`. For causes named by
rule, the model marks its output with the span protocol
(docs/span-protocol.md): `model/conformance_span.h` for C,
`model/conformance_span.py` for Python, `model/ConformanceSpan.java` for
Java.
"
            ),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::schema::{self, Case, Rules, Suite};

    #[test]
    fn names_models_and_folders_are_checked() {
        let dir = tempfile::tempdir().expect("temp dir");
        let at = dir.path().join("x");
        for bad in ["", "Hanoi", "9lives", "my-pack", "a b"] {
            assert!(matches!(
                new_pack(bad, "./m", &at, "h"),
                Err(ScaffoldError::Name(_))
            ));
        }
        assert!(matches!(
            new_pack("ok", "  ", &at, "h"),
            Err(ScaffoldError::Model)
        ));
        assert!(matches!(
            new_pack("ok", "./m", dir.path(), "h"),
            Err(ScaffoldError::Exists(_))
        ));
        assert!(!at.exists());
    }

    #[test]
    fn a_java_model_gets_its_javac_build_line() {
        let dir = tempfile::tempdir().expect("temp dir");
        let at = dir.path().join("mooc");
        new_pack("mooc", "java -cp . Average", &at, "h").expect("written");
        let text = fs::read(at.join("pack.yaml")).expect("pack.yaml");
        let pack: yaml_serde::Value = yaml_serde::from_slice(&text).expect("pack.yaml");
        assert_eq!(pack["model"]["dir"].as_str(), Some("model"));
        assert_eq!(
            pack["model"]["build"].as_str(),
            Some("javac -encoding UTF-8 *.java")
        );
        assert_eq!(
            pack["model"]["command"].as_str(),
            Some("java -cp . Average")
        );
        assert_eq!(
            pack["submissions"]["run"].as_str(),
            Some("java -cp . Average")
        );
        assert_eq!(
            pack["submissions"]["program"].as_str(),
            Some("Average.java")
        );
        // The engine reads it as a pack file.
        crate::packs::folder::pack_file::parse("pack.yaml", &text)
            .expect("a pack file the engine reads");
        assert_eq!(java_main_class("python3 m.py"), None);
        assert_eq!(java_main_class("java -jar"), None);
    }

    #[test]
    fn every_file_written_parses_as_the_engine_reads_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let at = dir.path().join("quiz");
        let files = new_pack("quiz", "python3 \"model/quiz.py\"", &at, "h").expect("written");
        assert_eq!(files.len(), 11, "{files:?}");
        let read = |rel: &str| fs::read(at.join(rel)).expect(rel);
        let suite: Suite = schema::parse("suite.yaml", &read("suite.yaml")).expect("suite");
        assert_eq!(suite.name, "quiz");
        let rules: Rules = schema::parse("rules.yaml", &read("rules.yaml")).expect("rules");
        assert_eq!(rules.rules[0].id, "ARGS-1");
        for case in ["basics/no-arguments.yaml", "basics/first-session.yaml"] {
            let c: Case = schema::parse(case, &read(case)).expect(case);
            assert_eq!(c.category, suite.categories[0].name);
            assert_eq!(c.rules, ["ARGS-1"]);
        }
        let explore =
            crate::explorer::grammar::Grammar::parse("explore.yaml", &read("explore.yaml"))
                .expect("explore.yaml");
        assert_eq!(explore.category.as_deref(), Some("basics"));
        let pack: yaml_serde::Value =
            yaml_serde::from_slice(&read("pack.yaml")).expect("pack.yaml");
        assert_eq!(
            pack["model"]["command"].as_str(),
            Some("python3 \"model/quiz.py\"")
        );
        assert_eq!(read("model/conformance_span.h"), SPAN_HEADER.as_bytes());
        assert_eq!(read("model/ConformanceSpan.java"), SPAN_JAVA.as_bytes());
        assert!(pack["submissions"].is_null(), "no build line for Python");
        let readme = String::from_utf8(read("README.md")).expect("utf-8");
        assert!(readme.contains("h bless --spec ./quiz") && readme.contains("QUIZ_BIN"));
    }
}
