//! `pack.yaml`, the file that makes a folder a spec pack: its typed form
//! (unknown keys refused), parsed with the case format's error reporting
//! (`file:line:column: what was expected`), and the checks serde cannot
//! make (a name that is one word, a timeout that is a duration, command
//! lines that split into words), each naming the line of its key.
//!
//! One piece: `pack.yaml`'s typed form and the checks serde cannot make
//! read the same keys and place each fault on the same key's line;
//! about 165 of its lines are their tests.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::model::schema::{self, ParseError};

/// The file's name inside a pack folder.
pub const FILE: &str = "pack.yaml";

/// A parsed `pack.yaml` (docs/folder-packs.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackFile {
    /// One lowercase word: `NAME_BIN`, `NAME_BLESS`, messages.
    pub name: String,
    /// The folder holding `suite.yaml`, `rules.yaml` and the cases,
    /// relative to `pack.yaml` (default: the pack's own folder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suite: Option<String>,
    /// The model solution: the pack's reference.
    pub model: Model,
    /// How `mark` builds a submission.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submissions: Option<Submissions>,
    /// What programs (the model among them) may do beyond the default
    /// containment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub containment: Option<Containment>,
    /// The default time limit of a case, `10s` or `2.5` (seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<String>,
    /// What the course lends every build and run: folders, variables,
    /// Python requirements, jars ([`super::environment`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<super::environment::Environment>,
    /// How a program started by `java` (the model, each submission)
    /// starts: `quick` (the default: start-up options and a class-data
    /// archive that change its speed, not what it does; docs/java.md) or
    /// `plain` (as its command line says, nothing added).
    #[serde(
        default,
        rename = "java-start",
        skip_serializing_if = "Option::is_none"
    )]
    pub java_start: Option<JavaStart>,
}

/// `java-start:` in `pack.yaml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JavaStart {
    /// Quick start-up options and a class-data archive (the default).
    Quick,
    /// The command line as written.
    Plain,
}

/// The model solution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    /// The folder holding its sources, relative to `pack.yaml` (default
    /// `.`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<String>,
    /// An `sh -c` line run once, contained, in a temporary copy of `dir`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<String>,
    /// The program it leaves, or any command line, in shell words.
    pub command: String,
}

/// The course's build and run of a submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Submissions {
    /// The file the build leaves, or the student's own file when there
    /// is no build (`fuel.py`).
    pub program: String,
    /// How the program runs, as the course types it, `{program}` standing
    /// for its file (`python3 {program}`); default: the program itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// The build line; none: the submission runs as it is handed in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<String>,
    /// The line when the submission has a Makefile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with_makefile: Option<String>,
}

/// Widenings of the default containment.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Containment {
    /// Extra paths programs (and the model) may read; relative ones are
    /// taken from the pack's folder.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow_read: Vec<String>,
    /// Programs may use the host's network.
    #[serde(default)]
    pub network: bool,
}

impl PackFile {
    /// The default time limit of a case, if the file sets one.
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
            .as_deref()
            .and_then(|t| crate::exec::run::parse_timeout(t.trim_end_matches('s')).ok())
    }
}

/// Parses the bytes of `pack.yaml`, shown to people as `file`: the serde
/// errors with their line and column, then the checks of the values.
pub fn parse(file: &str, bytes: &[u8]) -> Result<PackFile, ParseError> {
    let pack: PackFile = schema::parse(file, bytes)?;
    let text = String::from_utf8_lossy(bytes);
    let fail = |key: &str, message: String| ParseError {
        file: file.to_owned(),
        location: crate::model::key_line::line_of(&text, key).map(|l| (l, 1)),
        message,
    };
    if !is_word(&pack.name) {
        return Err(fail(
            "name",
            format!(
                "name: expected one lowercase word (a-z, then a-z, 0-9 or _), not `{}`",
                pack.name
            ),
        ));
    }
    if let Some(t) = &pack.timeout
        && let Err(e) = crate::exec::run::parse_timeout(t.trim_end_matches('s'))
    {
        return Err(fail(
            "timeout",
            format!("timeout: expected seconds (`10s`, `2.5`): {e}"),
        ));
    }
    if let Some((key, message)) = environment_fault(&pack) {
        return Err(fail(key, message));
    }
    let lines = [
        ("command", Some(pack.model.command.as_str())),
        ("build", pack.model.build.as_deref()),
        (
            "build",
            pack.submissions.as_ref().and_then(|s| s.build.as_deref()),
        ),
        (
            "run",
            pack.submissions.as_ref().and_then(|s| s.run.as_deref()),
        ),
        (
            "with_makefile",
            pack.submissions
                .as_ref()
                .and_then(|s| s.with_makefile.as_deref()),
        ),
    ];
    for (key, line) in lines {
        if let Some(line) = line
            && line.trim().is_empty()
        {
            return Err(fail(
                key,
                format!("{key}: expected a command line, not nothing"),
            ));
        }
    }
    if shlex::split(&pack.model.command).is_none_or(|w| w.is_empty()) {
        return Err(fail(
            "command",
            format!(
                "command: expected shell words (balanced quotes), not `{}`",
                pack.model.command
            ),
        ));
    }
    if let Some(s) = &pack.submissions
        && s.build.is_none()
        && s.run.is_none()
    {
        return Err(fail(
            "submissions",
            "submissions: expected a `build` line, a `run` line (`run: \"python3 {program}\"`, \
             for a script handed in as it runs), or both"
                .to_owned(),
        ));
    }
    if let Some(run) = pack.submissions.as_ref().and_then(|s| s.run.as_deref())
        && shlex::split(run).is_none_or(|w| w.is_empty())
    {
        return Err(fail(
            "run",
            format!("run: expected shell words (balanced quotes), not `{run}`"),
        ));
    }
    if let Some(s) = &pack.submissions
        && (s.program.is_empty() || s.program.contains('/'))
    {
        return Err(fail(
            "program",
            format!(
                "program: expected the name of the file the build leaves at the top of the \
                 submission, not `{}`",
                s.program
            ),
        ));
    }
    Ok(pack)
}

/// The first fault of the environment: its values, or a placeholder of
/// it (`{env}`, `{classpath}`) in a command line of a pack that declares
/// none (it would reach a program as typed).
fn environment_fault(pack: &PackFile) -> Option<(&'static str, String)> {
    if let Some(env) = &pack.environment {
        return super::environment::check(env)
            .err()
            .map(|(key, message)| (key, format!("environment: {message}")));
    }
    let s = pack.submissions.as_ref();
    [
        ("command", Some(pack.model.command.as_str())),
        ("build", pack.model.build.as_deref()),
        ("build", s.and_then(|s| s.build.as_deref())),
        ("run", s.and_then(|s| s.run.as_deref())),
        ("with_makefile", s.and_then(|s| s.with_makefile.as_deref())),
    ]
    .into_iter()
    .find_map(|(key, line)| {
        line.filter(|l| crate::exec::run::course_env::names_placeholder(l))
            .map(|_| {
                (
                    key,
                    format!(
                        "{key}: `{{env}}` and `{{classpath}}` name the course's environment, \
                         and this pack declares none (`environment:`, docs/folder-packs.md)"
                    ),
                )
            })
    })
}

/// Whether `name` is one lowercase word, fit for `NAME_BIN` (a pack's
/// name, here and in `new-pack`).
pub fn is_word(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const HANOI: &str = "name: hanoi\nmodel:\n  dir: model\n  build: cc -O2 -o hanoi hanoi.c\n  \
                         command: ./hanoi\nsubmissions:\n  program: hanoi\n  build: gcc -o hanoi \
                         *.c\n  with_makefile: make\ncontainment:\n  allow_read: []\n  network: \
                         false\ntimeout: 10s\n";

    #[test]
    fn the_agreed_shape_parses() {
        let pack = parse("pack.yaml", HANOI.as_bytes()).expect("parses");
        assert_eq!(pack.name, "hanoi");
        assert_eq!(pack.model.command, "./hanoi");
        assert_eq!(pack.model.dir.as_deref(), Some("model"));
        assert_eq!(
            pack.submissions
                .as_ref()
                .and_then(|s| s.with_makefile.as_deref()),
            Some("make")
        );
        assert_eq!(pack.timeout(), Some(Duration::from_secs(10)));
    }

    #[test]
    fn an_unknown_key_names_file_line_and_what_was_expected() {
        let text = "name: x\nmodel:\n  command: ./x\n  biuld: make\n";
        let e = parse("p/pack.yaml", text.as_bytes()).expect_err("refused");
        assert_eq!(e.file, "p/pack.yaml");
        assert_eq!(e.location.map(|l| l.0), Some(4));
        assert!(
            e.message.contains("biuld") && e.message.contains("expected"),
            "{e}"
        );
    }

    #[test]
    fn bad_values_name_their_line() {
        let e =
            parse("pack.yaml", b"model:\n  command: ./x\nname: Two Words\n").expect_err("refused");
        assert_eq!(e.location, Some((3, 1)));
        assert!(
            e.to_string()
                .starts_with("pack.yaml:3:1: name: expected one lowercase word")
        );
        let e = parse(
            "pack.yaml",
            b"name: x\nmodel:\n  command: ./x\ntimeout: soon\n",
        )
        .expect_err("refused");
        assert_eq!(e.location, Some((4, 1)));
        let e = parse("pack.yaml", b"name: x\nmodel:\n  command: \"'./x\"\n").expect_err("refused");
        assert_eq!(e.location, Some((3, 1)));
        assert!(
            e.message.starts_with("command: expected shell words"),
            "{e}"
        );
        let e = parse(
            "pack.yaml",
            b"name: x\nmodel:\n  command: './x'\nsubmissions:\n  program: a/b\n  build: make\n",
        )
        .expect_err("refused");
        assert_eq!(e.location, Some((5, 1)));
    }

    #[test]
    fn a_script_runs_by_the_courses_line_with_no_build() {
        let text = "name: fuel\nmodel:\n  command: python3 fuel.py\nsubmissions:\n  program: \
                    fuel.py\n  run: \"python3 {program}\"\n";
        let pack = parse("pack.yaml", text.as_bytes()).expect("parses");
        let s = pack.submissions.expect("submissions");
        assert_eq!(s.run.as_deref(), Some("python3 {program}"));
        assert_eq!(s.build, None);
        let e = parse(
            "pack.yaml",
            b"name: x\nmodel:\n  command: ./x\nsubmissions:\n  program: x\n",
        )
        .expect_err("neither build nor run");
        assert_eq!(e.location, Some((4, 1)));
        assert!(e.message.contains("`run` line"), "{e}");
        let e = parse(
            "pack.yaml",
            b"name: x\nmodel:\n  command: ./x\nsubmissions:\n  program: x\n  run: \"'a\"\n",
        )
        .expect_err("unbalanced");
        assert_eq!(e.location, Some((6, 1)));
    }

    #[test]
    fn a_missing_model_is_refused() {
        let e = parse("pack.yaml", b"name: x\n").expect_err("refused");
        assert!(e.message.contains("model"), "{e}");
    }

    fn word() -> impl Strategy<Value = String> {
        "[a-z][a-z0-9_]{0,8}"
    }

    /// Free text a YAML scalar must carry unchanged (quotes, colons,
    /// hashes, leading spaces, non-ASCII).
    fn line() -> impl Strategy<Value = String> {
        "[a-z][ -~é]{0,30}"
    }

    fn pack_file() -> impl Strategy<Value = PackFile> {
        (
            word(),
            proptest::option::of(line()),
            (
                proptest::option::of(line()),
                proptest::option::of(line()),
                "[a-z./][a-z./ ]{0,20}",
            ),
            proptest::option::of((
                word(),
                // A run line splits into shell words.
                proptest::option::of("[a-z][a-z ./{}]{0,20}"),
                proptest::option::of(line()),
                proptest::option::of(line()),
            )),
            proptest::option::of((proptest::collection::vec(line(), 0..3), any::<bool>())),
            proptest::option::of((1u32..=86_400).prop_map(|n| format!("{n}s"))),
        )
            .prop_map(
                |(name, suite, (dir, build, command), subs, contain, timeout)| PackFile {
                    name,
                    suite,
                    model: Model {
                        dir,
                        build,
                        command,
                    },
                    submissions: subs
                        .filter(|(_, run, build, _)| run.is_some() || build.is_some())
                        .map(|(program, run, build, with_makefile)| Submissions {
                            program,
                            run,
                            build,
                            with_makefile,
                        }),
                    containment: contain.map(|(allow_read, network)| Containment {
                        allow_read,
                        network,
                    }),
                    timeout,
                    environment: None,
                    java_start: None,
                },
            )
    }

    proptest! {
        #[test]
        fn written_and_parsed_back_is_the_same(pack in pack_file()) {
            let text = yaml_serde::to_string(&pack).expect("serializes");
            let back = parse("pack.yaml", text.as_bytes());
            prop_assert_eq!(back.ok(), Some(pack), "{}", text);
        }

        #[test]
        fn any_bytes_give_a_pack_or_an_error_naming_the_file(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            if let Err(e) = parse("f/pack.yaml", &bytes) {
                prop_assert_eq!(e.file, "f/pack.yaml");
            }
        }
    }
}
