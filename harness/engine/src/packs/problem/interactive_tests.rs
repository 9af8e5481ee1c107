//! Tests of [`super`]: a program joined to a validator, both `sh`
//! scripts (this test binary runs them in process groups: the sandbox's
//! levels are the integration tests').

use super::*;
use std::path::Path;

/// `script` run by `sh -c`, `$1`… its arguments.
fn sh(script: &str) -> Target {
    Target::command_words(
        &[
            "sh".to_owned(),
            "-c".to_owned(),
            script.to_owned(),
            "sh".to_owned(),
        ],
        Path::new("/"),
    )
    .expect("sh")
}

fn limits(secs: f64) -> CaseLimits {
    CaseLimits {
        time_limit: Duration::from_secs_f64(secs),
        kill_after: Duration::from_secs_f64(secs),
        output_cap: 1 << 20,
    }
}

/// Reads one guess; right when it is the answer file's.
const GUESS: &str = r#"read g; if [ "$g" = "$(cat "$2")" ]; then echo correct; exit 42; fi
echo "guessed $g" > "$3/judgemessage.txt"; exit 43"#;

fn run(program: &str, validator: &str, secs: f64) -> Result<CaseResult, Fault> {
    run_case(&sh(program), &sh(validator), b"", b"7\n", &[], limits(secs))
}

#[test]
fn the_validator_decides_and_its_message_is_the_reason() {
    let ok = run("echo 7; read reply; [ \"$reply\" = correct ]", GUESS, 5.0).expect("ran");
    assert_eq!(ok.verdict, Verdict::Accepted, "{ok:?}");
    let wa = run("echo 8; read reply", GUESS, 5.0).expect("ran");
    assert_eq!(
        (wa.verdict, wa.reason.as_str()),
        (Verdict::WrongAnswer, "guessed 8")
    );
    // Accepted, then the program crashed: the crash.
    let rte = run("echo 7; read reply; exit 3", GUESS, 5.0).expect("ran");
    assert_eq!(rte.verdict, Verdict::RunTimeError, "{rte:?}");
}

#[test]
fn a_timeout_ends_both_at_once() {
    // Both wait for the other: the program is killed at the limit, the
    // validator with it, at once.
    let started = Instant::now();
    let stuck = run("read never", "read never; exit 42", 0.3).expect("ran");
    assert_eq!(stuck.verdict, Verdict::TimeLimitExceeded, "{stuck:?}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_validator_that_exits_otherwise_is_a_fault_with_its_stderr() {
    let Fault(why) = run("echo 7", "read g; echo 'it broke' >&2; exit 1", 5.0)
        .expect_err("a fault of the package");
    assert!(
        why.contains("status 1") && why.contains("it broke"),
        "{why}"
    );
}

#[test]
fn a_program_whose_runtime_never_starts_is_no_verdict() {
    let vm = "echo 'Error occurred during initialization of VM' >&2; exit 1";
    let (_, no) =
        run_case_started(&sh(vm), &sh(GUESS), b"", b"7\n", &[], limits(5.0)).expect("no fault");
    let no = no.expect("never started");
    assert_eq!(no.tries, run::start::TRIES);
    assert_eq!(no.said, "`Error occurred during initialization of VM`");
    // Its stdout is the validator's: one that answered and then said so
    // cannot be told apart here; the verdict it would have is kept for
    // the engine, which charges it when it started on other cases.
    let (r, no) = run_case_started(
        &sh(&format!("echo 8; {vm}")),
        &sh(GUESS),
        b"",
        b"7\n",
        &[],
        limits(5.0),
    )
    .expect("no fault");
    assert!(no.is_some());
    assert_eq!(r.verdict, Verdict::WrongAnswer, "{r:?}");
}
