//! How to reproduce a case by hand, bounded: the shell command line in a
//! fresh folder with the same environment ([`reproduce_command`]), the
//! lines to type for an interactive case, the student's version of it
//! ([`student_reproduce`]) and Gradescope's ([`for_gradescope`]). Past a
//! few KiB of input it points at the `--keep-failed` kit or the case file.
//!
//! One piece: the ways a case is shown for reproducing it (the marker's
//! command line, the student's, Gradescope's) quote the same invocation
//! under the same bounds; about 130 lines are tests.

use std::fmt::Write as _;
use std::path::Path;

use crate::bytes::quote::{printf_format, shell_quote, shell_quote_os};
use crate::bytes::visible::visible_line;
use crate::exec::run::{Invocation, Mode, REFERENCE_ENV, course_env};
use crate::model::suite::CaseFile;

/// Bytes of files and stdin a reproduce command inlines at most; past
/// them it points at the case file or at a `--keep-failed` kit.
pub const MAX_INLINE: usize = 4096;

/// Stdin lines listed to type by hand at most.
const MAX_TYPED_LINES: usize = 40;

/// Where a failure's inputs can be found besides the reproduce line.
#[derive(Debug, Clone, Copy)]
pub struct Sources<'a> {
    /// The case file, as people name it.
    pub case_file: &'a str,
    /// A long stdin kept in a file of its own, if the case has one.
    pub stdin_path: Option<&'a str>,
    /// The `--keep-failed` kit of the case, if one was written.
    pub kit: Option<&'a std::path::Path>,
    /// The time limit the program was killed at, if it was: the command
    /// then carries it (`timeout 10s …`), so that replaying a hang ends.
    pub killed_after: Option<std::time::Duration>,
    /// Whether the program was killed by a signal of its own making (a
    /// crash): what it had not flushed died with it, as with a timeout.
    pub crashed: bool,
}

/// How to reproduce an invocation by hand: a shell command line in a fresh
/// temporary directory with the same environment, then, for an interactive
/// case, the stdin lines to type; never more than a few KiB: past
/// [`MAX_INLINE`] bytes of input it points at the kit or the case file.
pub fn reproduce_command(inv: &Invocation, from: Sources<'_>) -> String {
    let files: usize = inv.files.iter().map(|(_, b)| b.len()).sum();
    let stdin_inline = match (inv.mode, from.stdin_path) {
        (Mode::Interactive, _) | (_, Some(_)) => 0,
        _ => inv.stdin.len(),
    };
    let kit_line = |out: &mut String| {
        if let Some(kit) = from.kit {
            let _ = write!(
                out,
                "\n  or replay the kit: {}",
                shell_quote_os(kit.join("run.sh").as_os_str())
            );
        }
    };
    if files + stdin_inline > MAX_INLINE {
        let mut out = format!(
            "its files and stdin ({} bytes) are too long to paste; the case file is {}",
            files + stdin_inline,
            shell_quote(from.case_file)
        );
        if from.kit.is_some() {
            kit_line(&mut out);
        } else {
            out.push_str(
                "\n  run again with --keep-failed DIR: each failed case gets a folder with its \
                 files, stdin, expected outputs and a run.sh that replays it",
            );
        }
        return out;
    }
    let mut cmd = command_line(inv, from.stdin_path, from.killed_after);
    if inv.mode == Mode::Interactive {
        typed_lines(&mut cmd, &inv.stdin, from.kit);
    } else if (from.killed_after.is_some() || from.crashed)
        && let Some(line) = unbuffered_line(inv, &cmd, from.crashed)
    {
        cmd.push_str(&line);
    }
    kit_line(&mut cmd);
    with_environment(&cmd)
}

/// `cmd` with the course's environment said as the student's
/// (`"$COURSE_ENV"` for the marker's folders) and how to get it, when
/// the run had one.
fn with_environment(cmd: &str) -> String {
    let mut out = course_env::hide(cmd);
    if let Some(note) = course_env::reproduce_note() {
        let _ = write!(out, "\n  {note}");
    }
    out
}

/// How a reproduce line says a case's inputs are not inline.
const TOO_LONG: &str = "are too long to paste";

/// What follows a kit's folder in a reproduce line: the student has it
/// beside `report.txt`.
const SHIPPED: &str = ", shipped with this report; copy that folder beside ";

/// `text` (causes as `report.txt` renders them) for a Gradescope student,
/// who has neither `report.txt` nor its kit folders: a reproduce line
/// pointing at a kit says that the inputs are too long to paste here and
/// that the instructor has them, without the command that needs the kit.
pub fn for_gradescope(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut lines = text.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        let Some(at) = line.find(SHIPPED) else {
            out.push_str(line);
            continue;
        };
        let Some(said) = line[..at].rfind(TOO_LONG) else {
            out.push_str(line);
            continue;
        };
        // `…are too long to paste: they are in KIT/`: the kit's name stays,
        // for the instructor who has it.
        let kit = line[said + TOO_LONG.len()..at].trim_start_matches(": they are in ");
        let _ = writeln!(
            out,
            "{} here (the instructor has them, in {kit})",
            &line[..said + TOO_LONG.len()]
        );
        if lines
            .peek()
            .is_some_and(|next| next.trim_start().starts_with("bash "))
        {
            lines.next();
        }
    }
    out
}

/// A reproduce line for the student whose program failed: their program
/// as they build it (`program`, e.g. `./PROGRAM`, run from the folder that
/// holds it), the case's inputs inline; past [`MAX_INLINE`] bytes, the
/// kit folder `kit` shipped with the report (a relative path, e.g.
/// `reproduce/CASE`). Nothing names a path of the marker's machine.
pub fn student_reproduce(
    inv: &Invocation,
    program: &str,
    kit: Option<&str>,
    killed_after: Option<std::time::Duration>,
    crashed: bool,
) -> String {
    let files: usize = inv.files.iter().map(|(_, b)| b.len()).sum();
    let stdin_inline = if inv.mode == Mode::Interactive {
        0
    } else {
        inv.stdin.len()
    };
    if files + stdin_inline > MAX_INLINE {
        return match kit {
            Some(k) => {
                // A run line's kit takes the folder holding the student's
                // files; a program's, the program.
                let (beside, arg) = if their_run_line(inv, program).is_some() {
                    (format!("the files `{program}` runs"), ".".to_owned())
                } else {
                    (program.to_owned(), shell_quote(program))
                };
                format!(
                    "its inputs ({} bytes) {TOO_LONG}: they are in {k}/{SHIPPED}{beside} and \
                     run\n  bash {} {arg}",
                    files + stdin_inline,
                    // Quoted whole, so the kit's path reads as it is on disk.
                    shell_quote(&format!("{k}/run.sh")),
                )
            }
            None => format!(
                "its inputs ({} bytes) are too long to paste",
                files + stdin_inline
            ),
        };
    }
    let mut line = command_line(inv, None, killed_after);
    if inv.mode != Mode::Interactive
        && (killed_after.is_some() || crashed)
        && let Some(unbuffered) = unbuffered_line(inv, &line, crashed)
    {
        line.push_str(&unbuffered);
    }
    // Every command of the line (the unbuffered one too) runs their
    // program, found before the command moves to a fresh folder.
    let mut cmd = if let Some((real, theirs)) = their_run_line(inv, program) {
        // The course's run line (`python3 fuel.py`): the student's files
        // in it are found in the folder they run it from.
        line.replace(&real, &theirs)
            .replace("(d=", "(p=\"$(pwd)\" && d=")
    } else {
        let real = format!(" {}", shell_quote_os(inv.target.shown_path().as_os_str()));
        line.replace(&real, " \"$p\"").replace(
            "(d=",
            &format!(
                "(p=\"$(pwd)/\"{} && d=",
                shell_quote(program.trim_start_matches("./"))
            ),
        )
    };
    if inv.mode == Mode::Interactive {
        typed_lines(&mut cmd, &inv.stdin, kit.map(std::path::Path::new));
    }
    with_environment(&cmd)
}

/// For a course's run line `program` (more than one word: `python3
/// fuel.py`): the marked command as [`env_and_command`] writes it (` PATH
/// WORDS`) and the same as the student runs it from their folder `"$p"`
/// (` python3 "$p"/fuel.py`).
pub fn their_run_line(inv: &Invocation, program: &str) -> Option<(String, String)> {
    let words = shlex::split(program).filter(|w| w.len() > 1)?;
    let mut real = format!(" {}", shell_quote_os(inv.target.shown_path().as_os_str()));
    for w in inv.target.words() {
        real.push(' ');
        real.push_str(&shell_quote_os(w));
    }
    let mut theirs = String::new();
    for w in &words {
        theirs.push(' ');
        theirs.push_str(&their_word(w, inv.target.words()));
    }
    Some((real, theirs))
}

/// A word of the course's run line as the student's reproduce line says
/// it: their folder `"$p"` for `.`, `"$p"/FILE` for a file of it (a word
/// the marked command names by its path there), else the word itself.
fn their_word(word: &str, marked: &[std::ffi::OsString]) -> String {
    // A class path (`.:/course/lib/a.jar`): each part as the student says it.
    if !word.starts_with('-') && word.contains(':') && word.split(':').all(|p| !p.is_empty()) {
        return word
            .split(':')
            .map(|p| their_word(p, marked))
            .collect::<Vec<_>>()
            .join(":");
    }
    if word == "." {
        return "\"$p\"".to_owned();
    }
    let rel = word.trim_start_matches("./");
    let names_theirs = !word.starts_with('-')
        && !std::path::Path::new(word).is_absolute()
        && marked.iter().any(|m| {
            let m = std::path::Path::new(m);
            m.is_absolute() && m.ends_with(rel)
        });
    if names_theirs {
        format!("\"$p\"/{}", shell_quote(rel))
    } else {
        shell_quote(word)
    }
}

/// For a program killed at its time limit, or `crashed`: why its output
/// may show nothing (what it had not flushed died in its stdio buffer) and
/// the same command with its stdout unbuffered (`stdbuf -o0`, after `env
/// -i`, which would clear the `LD_PRELOAD` stdbuf sets), so what it printed
/// up to the hang or the crash shows.
fn unbuffered_line(inv: &Invocation, cmd: &str, crashed: bool) -> Option<String> {
    let env = env_and_command(inv);
    let program = format!(" {}", shell_quote_os(inv.target.shown_path().as_os_str()));
    let at = env.find(&program)?;
    let unbuffered = format!("{} stdbuf -o0{}", &env[..at], &env[at..]);
    let (how, until) = if crashed {
        ("it crashed", "crash")
    } else {
        ("killed at its time limit", "hang")
    };
    Some(format!(
        "\n  ({how}: output it had not flushed died in its stdio buffer, so the output above \
         may be empty or end early; with stdout unbuffered, what it printed up to the {until} \
         shows:)\n  {}",
        cmd.replacen(&env, &unbuffered, 1)
    ))
}

/// For an interactive case: the stdin lines to type, one at each prompt.
fn typed_lines(out: &mut String, stdin: &[u8], kit: Option<&std::path::Path>) {
    let lines: Vec<&[u8]> = stdin.split_inclusive(|&b| b == b'\n').collect();
    if lines.is_empty() {
        out.push_str(
            "\n  (interactive: the harness ran it with stdin and stdout on one terminal; run it \
             in a terminal, wait for the prompt and type nothing: end input with Ctrl-D)",
        );
        return;
    }
    if stdin.len() > MAX_INLINE || lines.len() > MAX_TYPED_LINES {
        let _ = write!(
            out,
            "\n  (interactive: stdin and stdout on one terminal, {} stdin lines, too many to \
             list; {})",
            lines.len(),
            match kit {
                Some(k) => format!(
                    "they are in {}",
                    shell_quote_os(k.join("stdin").as_os_str())
                ),
                None => "--keep-failed DIR writes them to a file".to_owned(),
            }
        );
        return;
    }
    out.push_str(
        "\n  (interactive: the harness ran it with stdin and stdout on one terminal; run it in \
         a terminal and type these lines, one at each prompt, then Ctrl-D at the next one)",
    );
    for (i, line) in lines.iter().enumerate() {
        let _ = write!(out, "\n  {:>4}  {}", i + 1, visible_line(line));
    }
}

/// The shell command line itself.
/// It runs in a fresh folder that it removes when it ends.
fn command_line(
    inv: &Invocation,
    stdin_path: Option<&str>,
    killed_after: Option<std::time::Duration>,
) -> String {
    let mut cmd = String::from("(d=\"$(mktemp -d)\" && trap 'rm -rf \"$d\"' EXIT && cd \"$d\"");
    for (path, bytes) in &inv.files {
        if let Some(dir) = std::path::Path::new(path).parent()
            && !dir.as_os_str().is_empty()
        {
            let _ = write!(cmd, " && mkdir -p {}", shell_quote_os(dir.as_os_str()));
        }
        let _ = write!(
            cmd,
            " && printf {} > {}",
            printf_format(bytes),
            shell_quote(path)
        );
    }
    cmd.push_str(" && ");
    let feed = match (inv.mode, stdin_path) {
        (Mode::Interactive, _) => None,
        (_, Some(p)) => Some(format!("< {}", shell_quote(p))),
        _ if inv.stdin.is_empty() => Some("< /dev/null".to_owned()),
        _ => {
            let _ = write!(cmd, "printf {} | ", printf_format(&inv.stdin));
            None
        }
    };
    if let Some(limit) = killed_after.filter(|_| inv.mode != Mode::Interactive) {
        let _ = write!(cmd, "timeout {} ", timeout_word(limit));
    }
    cmd.push_str(&env_and_command(inv));
    if let Some(feed) = feed {
        let _ = write!(cmd, " {feed}");
    }
    if inv.mode == Mode::StdoutFull {
        cmd.push_str(" > /dev/full");
    }
    cmd.push_str(STATUS_END);
    cmd
}

/// The end of every [`command_line`]: the status, the subshell's close.
const STATUS_END: &str = "; echo \"exit status $?\")";

/// `line` printing each output file of `paths` after the status, before
/// its folder goes (`== after.csv:` then its bytes, or `cat`'s words for
/// a file never written): the evidence a file case is judged on.
pub fn showing_files(line: &str, paths: &[&str]) -> String {
    if paths.is_empty() {
        return line.to_owned();
    }
    let mut shown = String::from("; echo \"exit status $?\"");
    for path in paths {
        let _ = write!(
            shown,
            "; echo {}; cat {}",
            shell_quote(&format!("== {path}:")),
            shell_quote(path)
        );
    }
    shown.push(')');
    line.replace(STATUS_END, &shown)
}

/// A duration as `timeout(1)` takes it: `10s`, `1.5s`.
pub fn timeout_word(limit: std::time::Duration) -> String {
    let secs = limit.as_secs_f64();
    let text = format!("{secs:.3}");
    format!("{}s", text.trim_end_matches('0').trim_end_matches('.'))
}

/// `env -i …` with the case's environment, the program and its arguments,
/// every word quoted for bash.
pub fn env_and_command(inv: &Invocation) -> String {
    let mut cmd = String::from("env -i PATH=/usr/bin:/bin LC_ALL=C HOME=\"$PWD\"");
    // The harness's own binary runs as the reference when this names its
    // pack.
    if let Some(pack) = inv.target.reference_pack() {
        let _ = write!(cmd, " {REFERENCE_ENV}={}", shell_quote(pack));
    }
    // The course's environment, said as the student sets it.
    if !inv.target.is_builtin_reference() {
        for word in course_env::reproduce_words() {
            let _ = write!(cmd, " {word}");
        }
    }
    for (k, v) in &inv.env {
        let mut word = k.clone();
        word.push("=");
        word.push(v);
        let _ = write!(cmd, " {}", shell_quote_os(&word));
    }
    let _ = write!(
        cmd,
        " {}",
        shell_quote_os(inv.target.shown_path().as_os_str())
    );
    for w in inv.target.words() {
        let _ = write!(cmd, " {}", shell_quote_os(w));
    }
    for a in &inv.args {
        let _ = write!(cmd, " {}", shell_quote_os(a));
    }
    cmd
}

/// The command that re-blesses one case file (of the pack `--spec spec`
/// when given).
pub fn rebless_command(program: &str, spec: Option<&str>, file: &CaseFile) -> String {
    let path = file.root.disk_path(&file.rel);
    let shown = pathdiff_cwd(&path);
    let spec = spec.map_or_else(String::new, |s| format!(" --spec {}", shell_quote(s)));
    format!("{program}{spec} --bless --cases {}", shell_quote(&shown))
}

/// `path` relative to the current directory when it lies below it.
pub fn pathdiff_cwd(path: &Path) -> String {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let clean = crate::exec::run::clean(&abs);
    std::env::current_dir()
        .ok()
        .and_then(|cwd| clean.strip_prefix(cwd).ok().map(Path::to_owned))
        .unwrap_or(clean)
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timeout_gives_the_command_again_with_stdout_unbuffered() {
        let Ok(target) = crate::exec::run::Target::binary(std::path::Path::new("/bin/true")) else {
            panic!("/bin/true is a program");
        };
        let inv = Invocation::new(target, vec!["2".into()], b"0 0 h\n".to_vec());
        let from = |killed_after| Sources {
            case_file: "c.yaml",
            stdin_path: None,
            kit: None,
            killed_after,
            crashed: false,
        };
        let plain = reproduce_command(&inv, from(None));
        assert!(!plain.contains("stdbuf"), "{plain}");
        let killed = reproduce_command(&inv, from(Some(std::time::Duration::from_secs(2))));
        let lines: Vec<&str> = killed.lines().collect();
        assert_eq!(lines.len(), 3, "{killed}");
        assert!(lines[1].contains("stdio buffer"), "{killed}");
        assert!(
            lines[2].contains("HOME=\"$PWD\" stdbuf -o0 /bin/true 2"),
            "{killed}"
        );
        assert!(lines[2].contains("timeout 2s env -i"), "{killed}");
        let crashed = reproduce_command(
            &inv,
            Sources {
                crashed: true,
                ..from(None)
            },
        );
        let lines: Vec<&str> = crashed.lines().collect();
        assert_eq!(lines.len(), 3, "{crashed}");
        assert!(
            lines[1].starts_with("  (it crashed: output it had not flushed"),
            "{crashed}"
        );
        assert!(lines[1].contains("up to the crash shows"), "{crashed}");
        assert!(lines[2].contains("stdbuf -o0 /bin/true 2"), "{crashed}");
        assert!(!lines[2].contains("timeout"), "{crashed}");
        let student = student_reproduce(&inv, "./prog", None, None, true);
        assert!(student.contains("stdbuf -o0 \"$p\" 2"), "{student}");
    }
}

#[cfg(test)]
mod student_tests {
    use super::*;
    use crate::exec::run::Target;

    fn inv(stdin: &[u8]) -> Invocation {
        let target = Target::binary(std::path::Path::new("/bin/sh")).unwrap();
        Invocation::new(target, vec!["-c".into(), "cat".into()], stdin.to_vec())
    }

    #[test]
    fn a_students_line_names_their_program_and_no_path_of_the_marker() {
        let line = student_reproduce(&inv(b"0 1 v\n"), "./prog", None, None, false);
        assert!(line.starts_with("(p=\"$(pwd)/\"prog && d="), "{line}");
        assert!(line.contains("printf '0 1 v\\n' | "), "{line}");
        assert!(line.contains(" \"$p\" -c cat"), "{line}");
        assert!(!line.contains("/bin/sh"), "{line}");
        let out = std::process::Command::new("bash")
            .args(["-c", &line.replace("\"$(pwd)/\"prog", "/bin/sh")])
            .output()
            .unwrap();
        assert_eq!(out.stdout, b"0 1 v\nexit status 0\n");
    }

    #[test]
    fn a_run_line_names_the_students_file_in_their_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("fuel.py"),
            b"import sys\nprint(sys.stdin.read())\n",
        )
        .unwrap();
        let target = Target::command_from("sh fuel.py", dir.path()).unwrap();
        let inv = Invocation::new(target, vec!["x".into()], b"1/4\n".to_vec());
        let line = student_reproduce(&inv, "sh fuel.py", None, None, false);
        assert!(line.starts_with("(p=\"$(pwd)\" && d="), "{line}");
        assert!(line.contains(" sh \"$p\"/fuel.py x;"), "{line}");
        assert!(!line.contains(&dir.path().display().to_string()), "{line}");
        // Pasted in the student's folder, it runs their file.
        std::fs::write(dir.path().join("fuel.py"), b"cat\n").unwrap();
        let out = std::process::Command::new("bash")
            .args(["-c", &line])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(out.stdout, b"1/4\nexit status 0\n");
        let big = vec![b'x'; MAX_INLINE + 1];
        let inv = Invocation::new(inv.target.clone(), vec![], big);
        let line = student_reproduce(&inv, "sh fuel.py", Some("reproduce/c/case"), None, false);
        assert!(line.ends_with("bash reproduce/c/case/run.sh ."), "{line}");
    }

    #[test]
    fn past_the_inline_bytes_a_students_line_names_the_shipped_kit() {
        let big = vec![b'x'; MAX_INLINE + 1];
        let line = student_reproduce(&inv(&big), "./prog", Some("reproduce/c/case"), None, false);
        assert!(
            line.ends_with("bash reproduce/c/case/run.sh ./prog"),
            "{line}"
        );
        assert!(!line.contains("/bin/sh"), "{line}");
    }

    #[test]
    fn a_gradescope_student_is_not_sent_to_a_kit_they_do_not_have() {
        let big = vec![b'x'; MAX_INLINE + 1];
        let line = student_reproduce(&inv(&big), "./prog", Some("reproduce/c/case"), None, false);
        let text = format!("cause 1 of 1: x\n  reproduce: {line}\nnext line\n");
        let shown = for_gradescope(&text);
        assert_eq!(
            shown,
            format!(
                "cause 1 of 1: x\n  reproduce: its inputs ({} bytes) are too long to paste \
                 here (the instructor has them, in reproduce/c/case/)\nnext line\n",
                MAX_INLINE + 1
            )
        );
        // Text with no kit is left alone.
        let small = student_reproduce(&inv(b"0 1 v\n"), "./prog", None, None, false);
        assert_eq!(for_gradescope(&small), small);
    }
}
