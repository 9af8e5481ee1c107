//! Blessing from a model solution: a case is blessed only when two runs of
//! the model give the same bytes (status, stdout, stderr and the files it
//! leaves), so that a model that reads the clock, an address or an
//! uninitialised byte is named rather than written into the suite.

use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;

use crate::exec::run::{Ending, Outcome};

/// Why a model's run cannot be an expectation: it could not start its
/// program (status 126 or 127, as a shell reports a command it cannot
/// execute or find), say with its first line on stderr.
pub fn could_not_run(outcome: &Outcome) -> Option<String> {
    // Run again and still not started: the machine's failure, said as
    // such (never "not deterministic").
    if let Some(no_start) = &outcome.no_start {
        return Some(format!(
            "the model's runtime could not start ({} runs): {}; the machine is short of \
             memory or processes, or pack.yaml's model.command asks for more than it has",
            no_start.tries, no_start.said
        ));
    }
    let Ending::Exited(code @ (126 | 127)) = outcome.ending else {
        return None;
    };
    let said = String::from_utf8_lossy(&outcome.stderr);
    let first = said
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(160)
        .collect::<String>();
    Some(format!(
        "the model could not run (status {code}, as a command that cannot be executed or \
         found{}); check pack.yaml's model.command: a contained model reads only the system \
         and its own folder",
        if first.is_empty() {
            String::new()
        } else {
            format!(": {first}")
        }
    ))
}

/// Why a model's run cannot be an expectation although two runs agree:
/// its stdout or stderr names the folder it runs from or its case folder
/// (`Usage: /tmp/conformance-model-x1/prog`), paths that are another run's
/// the next time (and the same in both runs only because a run's folders
/// are reused).
pub fn names_its_folders(outcome: &Outcome, home: Option<&Path>) -> Option<String> {
    let folders = home
        .into_iter()
        .map(|h| ("the folder it runs from", h))
        .chain([("its case folder", outcome.folder.as_path())])
        .filter(|(_, f)| f.as_os_str().len() > 1);
    for (what, folder) in folders {
        let real = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_owned());
        for path in [folder, real.as_path()] {
            let needle = path.as_os_str().as_bytes();
            for (stream, bytes) in [("stdout", &outcome.stdout), ("stderr", &outcome.stderr)] {
                if bytes.windows(needle.len()).any(|w| w == needle) {
                    return Some(format!(
                        "its {stream} names {what} ({}), which is another folder on another \
                         run: an expectation must not hold it",
                        path.display()
                    ));
                }
            }
        }
    }
    None
}

/// The first part in which two runs of the same case differ, named for
/// people (`stdout at byte 12`), or `None` when they agree.
pub fn unstable(first: &Outcome, second: &Outcome) -> Option<String> {
    if first.ending != second.ending {
        return Some(format!(
            "the ending ({} then {})",
            first.ending, second.ending
        ));
    }
    for (name, a, b) in [
        ("stdout", &first.stdout, &second.stdout),
        ("stderr", &first.stderr, &second.stderr),
    ] {
        if a != b {
            let at = a.iter().zip(b.iter()).take_while(|(x, y)| x == y).count();
            return Some(format!("{name} at byte {at}"));
        }
    }
    if first.files != second.files {
        let name = first
            .files
            .iter()
            .find(|(path, bytes)| second.files.get(*path) != Some(bytes))
            .or_else(|| {
                second
                    .files
                    .iter()
                    .find(|(path, _)| !first.files.contains_key(*path))
            })
            .map_or_else(String::new, |(path, _)| format!(" {path}"));
        return Some(format!("the file{name}"));
    }
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_model_that_cannot_start_is_named() {
        let mut o = Outcome::exited_with(b"");
        assert_eq!(could_not_run(&o), None);
        o.ending = Ending::Exited(126);
        o.stderr = b"/x/shims/python3: line 12: /x/pyenv: Permission denied\nmore\n".to_vec();
        let why = could_not_run(&o).unwrap_or_default();
        assert!(
            why.contains("status 126") && why.contains("Permission denied"),
            "{why}"
        );
        assert!(!why.contains("more"), "{why}");
    }

    use super::*;
    use crate::exec::run::Ending;

    #[test]
    fn output_naming_the_models_folders_is_named() {
        let mut o = Outcome::exited_with(b"Usage: /tmp/conformance-model-ab/prog\n");
        o.folder = "/tmp/conformance-case-cd/case".into();
        let home = Path::new("/tmp/conformance-model-ab");
        let why = names_its_folders(&o, Some(home)).unwrap_or_default();
        assert!(
            why.contains("stdout names the folder it runs from (/tmp/conformance-model-ab)"),
            "{why}"
        );
        o.stdout = b"ok\n".to_vec();
        assert_eq!(names_its_folders(&o, Some(home)), None);
        o.stderr = b"/tmp/conformance-case-cd/case/save: cannot write\n".to_vec();
        let why = names_its_folders(&o, Some(home)).unwrap_or_default();
        assert!(why.contains("stderr names its case folder"), "{why}");
    }

    fn outcome(stdout: &[u8]) -> Outcome {
        Outcome::exited_with(stdout)
    }

    #[test]
    fn the_first_differing_byte_is_named() {
        assert_eq!(unstable(&outcome(b"abc"), &outcome(b"abc")), None);
        assert_eq!(
            unstable(&outcome(b"abc"), &outcome(b"abd")).as_deref(),
            Some("stdout at byte 2")
        );
        let mut other = outcome(b"abc");
        other.ending = Ending::Exited(1);
        assert!(unstable(&outcome(b"abc"), &other).is_some_and(|p| p.starts_with("the ending")));
        other = outcome(b"abc");
        other.files.insert("save".into(), b"1".to_vec());
        assert_eq!(
            unstable(&outcome(b"abc"), &other).as_deref(),
            Some("the file save")
        );
    }
}
