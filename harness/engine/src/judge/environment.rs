//! Failures of the marker's environment, read from what a program wrote
//! on stderr: a module it cannot import (Python's `ModuleNotFoundError`,
//! Node.js's `Cannot find module 'x'` for a package, not a relative
//! path), a class the JVM cannot load that the submission does not hold,
//! a shared library the loader cannot open. The program may be right:
//! the course's machines have what the marker's lack. Such a failure is
//! its own cause ("cannot import `tabulate`: not installed where the
//! marks run"), first in a report, and `mark` will not let its marks pass
//! for the program's (docs/mark.md, "Environment failures").
//!
//! A runtime that could not start (the program's, or the model's when it
//! runs to count its reads), run again and still not started
//! ([`crate::exec::run::start`]), is one too: what the program would have
//! done is unknown, and the machine, not the program, failed. [`Lack`] is
//! the one type of an environment failure: [`strike`] makes a case's
//! failure the environment's.

use std::fmt;

use crate::exec::run::NoStart;
use crate::judge::failure::{CaseFailure, Notes};

/// Bytes of stderr looked at, from its start and from its end (a
/// traceback's last line ends the output; a loader's error starts it).
const LOOKED_AT: usize = 64 * 1024;

/// The longest name kept (a module, a class, a library).
const NAME_CAP: usize = 200;

/// What the environment lacks, or how it failed a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lack {
    /// The program's runtime never started, run [`NoStart::tries`] times
    /// (a JVM that could not reserve its heap, the loader that could not
    /// allocate a thread's storage).
    Start(NoStart),
    /// The model's runtime never started when it ran for the case (to
    /// count its reads).
    ModelStart(NoStart),
    /// A Python module or a Node.js package.
    Module(String),
    /// A Java class (dotted name).
    Class(String),
    /// A shared library.
    Library(String),
}

impl fmt::Display for Lack {
    /// The cause, one line: `cannot import `tabulate`: not installed
    /// where the marks run`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Start(n) => write!(
                f,
                "the program's runtime could not start where the marks run ({} runs): {}",
                n.tries, n.said
            ),
            Self::ModelStart(n) => write!(
                f,
                "the model's runtime could not start where the marks run ({} runs): {}",
                n.tries, n.said
            ),
            Self::Module(m) => write!(f, "cannot import `{m}`: not installed where the marks run"),
            Self::Class(c) => write!(
                f,
                "cannot load class `{c}`: not in the submission, nor on the class path where \
                 the marks run"
            ),
            Self::Library(l) => write!(
                f,
                "cannot open shared library `{l}`: not installed where the marks run"
            ),
        }
    }
}

/// Makes `failure` the environment's: its cause is `lack`, whatever else
/// differs (the differences still show the run: its status, its
/// traceback), and nothing of the program's is named beside it.
pub fn strike(failure: &mut CaseFailure, lack: &Lack) {
    failure.cause = crate::judge::cause::Cause::environment(lack.to_string());
    failure.quoted = failure.cause.clone();
    failure.label = None;
    failure.later.clear();
    failure.later_differences.clear();
}

/// A case's failure that is the environment's alone, where nothing of the
/// program ran to compare (the model could not start to count its reads).
pub fn failure(lack: &Lack, stdin: &[u8], notes: Notes) -> CaseFailure {
    let mut failure = CaseFailure::new(&[], stdin, notes);
    strike(&mut failure, lack);
    failure
}

/// What a cause's one line (`environment: cannot import …`) says of the
/// environment, when it is an environment failure's: how `mark` reads
/// its submissions' causes back.
pub fn told(cause: &str) -> Option<&str> {
    cause.strip_prefix("environment: ")
}

/// The environment failure `stderr` tells of, if any; `own_class` says
/// whether a class (simple name) is the submission's own, whose failure
/// to load is then the program's.
pub fn detect(stderr: &[u8], own_class: &dyn Fn(&str) -> bool) -> Option<Lack> {
    let head = &stderr[..stderr.len().min(LOOKED_AT)];
    let tail = &stderr[stderr.len().saturating_sub(LOOKED_AT)..];
    [head, tail]
        .into_iter()
        .flat_map(|part| part.split(|&b| b == b'\n'))
        .find_map(|line| in_line(line, own_class))
}

/// The name quoted after `marker` on `line`, up to the quote `close`.
fn quoted<'a>(line: &'a [u8], marker: &[u8], close: u8) -> Option<&'a [u8]> {
    let at = find(line, marker)? + marker.len();
    let rest = line.get(at..)?;
    let end = rest.iter().position(|&b| b == close)?;
    rest.get(..end)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A name fit to show: UTF-8, not empty, no spaces or controls, bounded.
fn name(bytes: &[u8]) -> Option<String> {
    let s = std::str::from_utf8(bytes).ok()?;
    (!s.is_empty()
        && s.len() <= NAME_CAP
        && !s.chars().any(|c| c.is_whitespace() || c.is_control()))
    .then(|| s.to_owned())
}

fn in_line(line: &[u8], own_class: &dyn Fn(&str) -> bool) -> Option<Lack> {
    // Python 3: `ModuleNotFoundError: No module named 'tabulate'`; Python
    // 2 and some loaders: `ImportError: No module named tabulate`.
    if let Some(m) = quoted(line, b"ModuleNotFoundError: No module named '", b'\'') {
        return name(m).map(Lack::Module);
    }
    if let Some(at) = find(line, b"ImportError: No module named ") {
        let rest = &line[at + b"ImportError: No module named ".len()..];
        let rest = rest.strip_prefix(b"'").unwrap_or(rest);
        let end = rest
            .iter()
            .position(|&b| b == b'\'' || b == b'\r' || b == b' ')
            .unwrap_or(rest.len());
        return name(&rest[..end]).map(Lack::Module);
    }
    // Node.js: `Error: Cannot find module 'express'`; a relative or
    // absolute path is a file of the submission's own (its bug).
    if let Some(m) = quoted(line, b"Error: Cannot find module '", b'\'') {
        if m.starts_with(b".") || m.starts_with(b"/") {
            return None;
        }
        return name(m).map(Lack::Module);
    }
    // The loader (any language): `error while loading shared libraries:
    // libgmp.so.10: cannot open shared object file`; Python's C
    // extensions: `ImportError: libX.so: cannot open shared object file`.
    if let Some(at) = find(line, b": cannot open shared object file") {
        let before = &line[..at];
        let start = before
            .iter()
            .rposition(|&b| b == b' ' || b == b'\t')
            .map_or(0, |i| i + 1);
        return name(&before[start..]).map(Lack::Library);
    }
    // Java: `java.lang.NoClassDefFoundError: org/json/JSONObject`,
    // `java.lang.ClassNotFoundException: org.json.JSONObject`.
    for marker in [
        &b"java.lang.NoClassDefFoundError: "[..],
        b"java.lang.ClassNotFoundException: ",
    ] {
        if let Some(at) = find(line, marker) {
            let rest = &line[at + marker.len()..];
            let end = rest
                .iter()
                .position(|&b| b == b' ' || b == b'\r' || b == b'(')
                .unwrap_or(rest.len());
            let class = name(&rest[..end])?.replace('/', ".");
            let simple = class.rsplit('.').next().unwrap_or(&class);
            if own_class(simple) {
                return None;
            }
            return Some(Lack::Class(class));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: &str) -> bool {
        false
    }

    fn of(stderr: &str) -> Option<String> {
        detect(stderr.as_bytes(), &none).map(|l| l.to_string())
    }

    #[test]
    fn a_python_module_not_installed() {
        let tb = "Traceback (most recent call last):\n  File \"/tmp/x/scourgify.py\", line 2, \
                  in <module>\n    import tabulate\nModuleNotFoundError: No module named \
                  'tabulate'\n";
        assert_eq!(
            of(tb).as_deref(),
            Some("cannot import `tabulate`: not installed where the marks run")
        );
        assert_eq!(
            of("ImportError: No module named tabulate\n").as_deref(),
            Some("cannot import `tabulate`: not installed where the marks run")
        );
        // A name the program got wrong is its own bug.
        assert_eq!(of("ImportError: cannot import name 'x' from 'csv'\n"), None);
    }

    #[test]
    fn a_node_package_but_not_a_file_of_its_own() {
        let err = "node:internal/modules/cjs/loader:1080\n  throw err;\n\nError: Cannot find \
                   module 'lodash'\nRequire stack:\n- /tmp/x/main.js\n";
        assert_eq!(
            of(err).as_deref(),
            Some("cannot import `lodash`: not installed where the marks run")
        );
        assert_eq!(of("Error: Cannot find module './util'\n"), None);
    }

    #[test]
    fn a_shared_library() {
        let err = "./prog: error while loading shared libraries: libgmp.so.10: cannot open \
                   shared object file: No such file or directory\n";
        assert_eq!(
            of(err).as_deref(),
            Some("cannot open shared library `libgmp.so.10`: not installed where the marks run")
        );
    }

    #[test]
    fn a_java_class_not_the_submissions() {
        let err = "Exception in thread \"main\" java.lang.NoClassDefFoundError: \
                   org/json/JSONObject\n\tat Main.main(Main.java:3)\nCaused by: \
                   java.lang.ClassNotFoundException: org.json.JSONObject\n";
        assert_eq!(
            detect(err.as_bytes(), &none)
                .map(|l| l.to_string())
                .as_deref(),
            Some(
                "cannot load class `org.json.JSONObject`: not in the submission, nor on the \
                 class path where the marks run"
            )
        );
        let own = "java.lang.NoClassDefFoundError: Helper\n";
        assert_eq!(detect(own.as_bytes(), &|c| c == "Helper"), None);
    }

    #[test]
    fn a_runtime_that_never_started_is_the_environments() {
        let no = NoStart {
            said: "`Error occurred during initialization of VM`".to_owned(),
            tries: 3,
        };
        let cause = format!("environment: {}", Lack::Start(no.clone()));
        assert_eq!(
            told(&cause),
            Some(
                "the program's runtime could not start where the marks run (3 runs): `Error \
                 occurred during initialization of VM`"
            )
        );
        let model = Lack::ModelStart(no).to_string();
        assert!(
            model.starts_with("the model's runtime could not start"),
            "{model}"
        );
        let f = failure(
            &Lack::Start(NoStart {
                said: "x".to_owned(),
                tries: 3,
            }),
            b"1\n",
            Notes::default(),
        );
        assert!(f.cause.is_environment());
    }

    #[test]
    fn ordinary_output_is_no_environment_failure() {
        assert_eq!(of(""), None);
        assert_eq!(of("Usage: scourgify.py before.csv after.csv\n"), None);
        assert_eq!(of("FileNotFoundError: [Errno 2] No such file\n"), None);
        assert_eq!(detect(&[0xff; 100], &none), None);
    }
}
