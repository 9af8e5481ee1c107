//! An interactive run end to end (`mode: interactive`): stdin and stdout
//! on one pseudo-terminal ([`crate::exec::terminal`]), each line typed at
//! its prompt, end of file, and a timeout that names the line it waited
//! for. Beside the run, since these tests start one.

use super::{Ending, Invocation, Mode, Outcome, Target, run};
use crate::exec::terminal::Awaiting;

fn interactive(script: &str, stdin: &[u8]) -> Outcome {
    interactive_for(script, stdin, 5)
}

fn interactive_for(script: &str, stdin: &[u8], secs: u64) -> Outcome {
    let target = Target::binary(std::path::Path::new("/bin/sh")).unwrap();
    let mut inv = Invocation::new(target, vec!["-c".into(), script.into()], stdin.to_vec());
    inv.mode = Mode::Interactive;
    inv.timeout = std::time::Duration::from_secs(secs);
    run(&inv).unwrap()
}

#[test]
fn stdin_and_stdout_are_one_terminal_and_stderr_a_pipe() {
    let out = interactive(
        "test -t 0 && test -t 1 && ! test -t 2 && test /proc/$$/fd/0 -ef /proc/$$/fd/1 \
         && echo one-terminal; echo err >&2",
        b"",
    );
    assert_eq!(out.stdout, b"one-terminal\n");
    assert_eq!(out.stderr, b"err\n");
    assert_eq!(out.ending, Ending::Exited(0));
}

#[test]
fn each_line_waits_for_its_prompt_and_every_later_prompt_gets_an_end_of_file() {
    // Three reads after the one line: the first end of file comes with
    // the line, each later prompt brings one more.
    let script = "for i in 1 2 3 4; do printf 'A> '; if read -r x; then echo \"[$x]\"; \
                  else echo \"eof $i\"; fi; done";
    let out = interactive(script, b"0 1 h\n");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "A> [0 1 h]\nA> eof 2\nA> eof 3\nA> eof 4\n"
    );
    assert_eq!(out.ending, Ending::Exited(0));
}

#[test]
fn a_last_line_without_newline_is_ended_then_end_of_file() {
    let script = "printf 'A> '; IFS= read -r x; echo \"status $? [$x]\"; printf 'A> '; \
                  read -r y; echo \"status $?\"";
    let out = interactive(script, b"w out");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "A> status 1 [w out]\nA> status 1\n"
    );
}

#[test]
fn lines_due_at_once_wait_for_the_terminal_to_take_them() {
    // Every prompt shows before anything is read: all lines are due at
    // once, far more than the terminal buffers, and are written as the
    // program reads them, in order.
    let lines: Vec<u8> = (0..1999)
        .flat_map(|i| format!("{i:0>99}\n").into_bytes())
        .collect();
    let script = "i=0; while [ $i -lt 2000 ]; do printf '> '; i=$((i+1)); done; cat";
    let out = interactive(script, &lines);
    assert_eq!(out.ending, Ending::Exited(0));
    assert!(out.stdout == [b"> ".repeat(2000), lines].concat());
}

#[test]
fn a_program_that_reads_without_a_prompt_times_out_naming_the_line() {
    let out = interactive_for("read -r x; echo \"[$x]\"", b"0 1 h\n", 1);
    assert!(
        matches!(
            out.ending,
            Ending::TimedOut {
                awaiting_prompt: Some(Awaiting::Line(1)),
                ..
            }
        ),
        "{:?}",
        out.ending
    );
}

#[test]
fn end_of_input_too_waits_for_a_prompt() {
    let out = interactive_for("printf 'A> '; read -r x; read -r y", b"0 1 h\n", 1);
    assert!(
        matches!(
            out.ending,
            Ending::TimedOut {
                awaiting_prompt: Some(Awaiting::EndOfInput),
                ..
            }
        ),
        "{:?}",
        out.ending
    );
    let shown = out.ending.to_string();
    assert!(shown.contains("before the end of input"), "{shown}");
    assert!(shown.contains("one terminal"), "{shown}");
}
