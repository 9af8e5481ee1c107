//! Reproduce kits: `--keep-failed DIR` gives every failed case a folder
//! `DIR/CATEGORY/CASE/` holding what a person needs to replay it without
//! the harness: `files/` (the case's files as the sandbox had them),
//! `stdin`, `expected/` (`stdout`, `stderr`, `status`, and `files/` the
//! output files the case expects) and a `run.sh` that copies the files to
//! a fresh folder and runs the program there with the case's arguments,
//! environment and stdin, then diffs each output file with the expected
//! one before the folder goes. Every word of `run.sh` is
//! quoted for bash (`$'…'` for bytes that are not UTF-8).

use std::fmt::Write as _;
use std::io;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use crate::exec::run::{Invocation, Mode};
use crate::model::case::Expectation;
use crate::output::reproduce::env_and_command;

/// Writes the kit of case `name` (`/`-separated) below `dir`; returns its
/// folder. A kit left by an earlier run is replaced.
///
/// `program_as`: the program as a student names it (`./PROGRAM`); `run.sh`
/// then runs `${1:-./PROGRAM}` from where it is started, and names no path
/// of the machine that wrote it. A course's run line (`python3 fuel.py`)
/// runs with the student's files found in the folder `${1:-.}`.
pub fn write(
    dir: &Path,
    name: &str,
    inv: &Invocation,
    expected: &Expectation,
    program_as: Option<&str>,
) -> io::Result<PathBuf> {
    let kit = name
        .split('/')
        .filter(|c| !c.is_empty() && *c != "." && *c != "..")
        .fold(dir.to_path_buf(), |p, c| p.join(c));
    if kit.exists() {
        std::fs::remove_dir_all(&kit)?;
    }
    let files = kit.join("files");
    std::fs::create_dir_all(&files)?;
    for (path, bytes) in &inv.files {
        let target = crate::exec::run::normalize(path)
            .split('/')
            .filter(|c| !c.is_empty() && *c != "..")
            .fold(files.clone(), |p, c| p.join(c));
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(target, bytes)?;
    }
    std::fs::write(kit.join("stdin"), &inv.stdin)?;
    let exp = kit.join("expected");
    std::fs::create_dir_all(&exp)?;
    std::fs::write(exp.join("stdout"), &expected.stdout)?;
    std::fs::write(exp.join("stderr"), &expected.stderr)?;
    std::fs::write(exp.join("status"), format!("{}\n", expected.ending))?;
    let mut outputs: Vec<String> = Vec::new();
    for (path, bytes) in &expected.output_files {
        let rel: Vec<&str> = path
            .split('/')
            .filter(|c| !c.is_empty() && *c != "." && *c != "..")
            .collect();
        let target = rel.iter().fold(exp.join("files"), |p, c| p.join(c));
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(target, bytes)?;
        outputs.push(rel.join("/"));
    }
    let script = kit.join("run.sh");
    std::fs::write(&script, run_script(name, inv, program_as, &outputs))?;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))?;
    Ok(kit)
}

/// The text of `run.sh`.
fn run_script(
    name: &str,
    inv: &Invocation,
    program_as: Option<&str>,
    outputs: &[String],
) -> String {
    let mut s = String::from("#!/bin/bash\n");
    let _ = writeln!(
        s,
        "# Replays the case {} as the harness ran it: the program runs in a fresh folder\n\
         # holding a copy of files/, with stdin fed from ./stdin. Compare what it prints\n\
         # with expected/ (stdout, stderr, status).",
        name.replace('\n', " ")
    );
    s.push_str("kit=$(cd \"$(dirname \"$0\")\" && pwd) || exit 2\n");
    let run_line = program_as.and_then(|p| crate::output::reproduce::their_run_line(inv, p));
    if run_line.is_some() {
        // A course's run line names the student's files in their folder.
        s.push_str("p=\"$(cd \"${1:-.}\" && pwd)\" || exit 2\n");
    } else if let Some(program) = program_as {
        let _ = writeln!(
            s,
            "prog=\"${{1:-{}}}\"; prog=\"$(cd \"$(dirname \"$prog\")\" && pwd)/$(basename \"$prog\")\" || exit 2",
            crate::bytes::quote::shell_quote(program)
        );
    }
    s.push_str("work=$(mktemp -d) || exit 2\n");
    s.push_str("trap 'rm -rf \"$work\"' EXIT\n");
    s.push_str("cp -R \"$kit/files/.\" \"$work/\" && cd \"$work\" || exit 2\n");
    if inv.mode == Mode::Interactive {
        s.push_str(
            "# Interactive: the harness ran it with stdin and stdout on one terminal (echo\n\
             # off), typing each line of stdin at its prompt, then Ctrl-D at the next one.\n\
             # Fed from the file below, a C program may print its prompts late (stdio\n\
             # flushes stdout before a read only when stdin is a terminal); to play it as\n\
             # a person does, delete `< \"$kit/stdin\"` below and type the lines yourself.\n",
        );
    }
    if inv.mode != Mode::Interactive {
        // The harness's limit: a program that hangs ends here too.
        let _ = write!(
            s,
            "timeout {} ",
            crate::output::reproduce::timeout_word(inv.timeout)
        );
    }
    let mut command = env_and_command(inv);
    if let Some((real, theirs)) = &run_line {
        command = command.replacen(real, theirs, 1);
    } else if program_as.is_some() {
        let real = format!(
            " {}",
            crate::bytes::quote::shell_quote_os(inv.target.shown_path().as_os_str())
        );
        command = command.replacen(&real, " \"$prog\"", 1);
    }
    let _ = write!(s, "{command} < \"$kit/stdin\"");
    if inv.mode == Mode::StdoutFull {
        s.push_str(" > /dev/full");
    }
    s.push_str("\nstatus=$?\n");
    s.push_str("echo \"exit status $status (expected: $(cat \"$kit/expected/status\"))\" >&2\n");
    // The output files the case judges, before the folder goes.
    for path in outputs {
        let q = crate::bytes::quote::shell_quote(path);
        let _ = writeln!(
            s,
            "echo {} >&2\ndiff -u -- \"$kit/expected/files/\"{q} {q} >&2",
            crate::bytes::quote::shell_quote(&format!("== {path} (- expected, + the program's):"))
        );
    }
    s.push_str("exit \"$status\"\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::run::{Ending, Target};
    use std::collections::BTreeMap;

    #[test]
    fn a_kit_replays_the_case() {
        let dir = tempfile::tempdir().unwrap();
        let sh = Path::new("/bin/sh");
        let target = Target::binary(sh).unwrap();
        let mut inv = Invocation::new(
            target,
            vec![
                "-c".into(),
                "cat g/grid; cat; echo y > out.txt; exit 3".into(),
            ],
            b"0 0 h\n".to_vec(),
        );
        inv.files.push(("g/grid".into(), b"2 2\n".to_vec()));
        let expected = Expectation {
            output_files: BTreeMap::from([("out.txt".to_owned(), b"x\n".to_vec())]),
            ..Expectation::exactly(Ending::Exited(3), b"2 2\n0 0 h\n".to_vec())
        };
        let kit = write(dir.path(), "cat/one", &inv, &expected, None).unwrap();
        assert_eq!(kit, dir.path().join("cat").join("one"));
        let out = std::process::Command::new(kit.join("run.sh"))
            .output()
            .unwrap();
        assert_eq!(out.stdout, expected.stdout);
        assert_eq!(out.status.code(), Some(3));
        // The output file the case judges, diffed before the folder goes.
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("== out.txt (- expected, + the program's):"),
            "{said}"
        );
        assert!(said.contains("\n-x\n+y\n"), "{said}");
        assert_eq!(
            std::fs::read(kit.join("expected/status")).unwrap(),
            b"status 3\n"
        );
    }

    #[test]
    fn a_students_kit_runs_their_program_from_their_folder() {
        let dir = tempfile::tempdir().unwrap();
        let target = Target::binary(Path::new("/bin/sh")).unwrap();
        let inv = Invocation::new(
            target,
            vec!["-c".into(), "cat; exit 4".into()],
            b"hello\n".to_vec(),
        );
        let expected = Expectation::exactly(Ending::Exited(4), b"hello\n".to_vec());
        let kit = write(dir.path(), "reproduce/x", &inv, &expected, Some("./prog")).unwrap();
        let script = std::fs::read_to_string(kit.join("run.sh")).unwrap();
        assert!(!script.contains("/bin/sh"), "{script}");
        let student = dir.path().join("student");
        std::fs::create_dir(&student).unwrap();
        std::fs::copy("/bin/sh", student.join("prog")).unwrap();
        let out = std::process::Command::new("bash")
            .arg(kit.join("run.sh"))
            .current_dir(&student)
            .output()
            .unwrap();
        assert_eq!(out.stdout, b"hello\n");
        assert_eq!(out.status.code(), Some(4));
    }
}
