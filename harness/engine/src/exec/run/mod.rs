//! Running one prepared invocation in a sandbox: a fresh temporary working
//! directory, a cleared environment, the child in its own process group with
//! resource limits, then supervised from one poll loop on this thread
//! (`supervise.rs` beside this file): stdin written as the pipe takes it (in
//! interactive mode typed into the terminal that is both stdin and stdout,
//! see [`crate::exec::terminal`]), both output streams read under a cap, and a
//! timeout that kills the whole group.
//!
//! The result is an [`Outcome`]: how the program ended, its output and the
//! files it left. Nothing here knows about case files; [`crate::model::case`] turns a
//! case into an [`Invocation`], and the later `diff` subcommand builds its own.
//!
//! Submodules: `target` (what runs: a path, a command line, the
//! reference), `shim` (a version manager's shim resolved to its
//! interpreter), `spawn` (starting it in a process group or a sandbox),
//! `watch` (supervising it to its end and settling what it left),
//! `ending` (how a run ended, its streams, time limits in words), `files`
//! (the files placed in the sandbox and surveyed after), `reads` (stdin fed
//! a line at a time, each read seen), `jvm` (a Java program's quick start),
//! `jdk` (a JDK's version and archive key, read from its files),
//! `later` (a program made on first need: a folder pack's model).
//!
//! One piece: a run's entry points ([`run`], [`run_with_activity`],
//! [`run_joined`], whose stdin and stdout are another program's pipes)
//! and the one path they share, with its tests; the parts are the
//! submodules above.

use std::path::PathBuf;
use std::time::Instant;

use crate::exec::interrupt::Interrupted;
pub use crate::exec::terminal::Awaiting;
use conformance_sandbox::{self as sandbox, Containment};
pub use conformance_sandbox::{LeftBehind, Limits};

pub mod course_env;
mod cpu;
mod ending;
mod files;
#[cfg(test)]
mod interactive_tests;
mod invocation;
pub mod jdk;
pub mod jvm;
mod later;
mod mode;
mod outcome;
mod pipes;
mod reads;
#[cfg(test)]
mod reads_tests;
mod shim;
mod spawn;
pub mod start;
mod supervise;
mod target;
mod watch;

pub use ending::{Ending, MAX_TIMEOUT, Stream, format_secs, parse_timeout, signal_name};
use files::place_files;
pub use files::{checked_relative, normalize};
pub use invocation::{
    DEFAULT_OUTPUT_CAP, DEFAULT_TIMEOUT, Invocation, KEEP_WINDOW, Keep, MIN_TIME_LIMIT,
    SLOWDOWN_ALLOWED, limit_from_reference, recorded_reference_ms,
};
pub use later::Later;
pub use mode::Mode;
pub use outcome::{Activity, Dropped, NoStart, Outcome, RunError};
pub use reads::Reads;
use spawn::{environment, plan_stdout, spawn_contained, spawn_grouped};
pub use target::{REFERENCE_ENV, RUN_PATH, Target, TargetError, clean, typed_line};
use watch::watch;

/// Runs `inv` in a fresh sandbox and reports what happened.
pub fn run(inv: &Invocation) -> Result<Outcome, RunError> {
    run_with_activity(inv).map(|(outcome, _)| outcome)
}

/// [`run`], with how busy the program was: its CPU time and when it last
/// wrote. A run whose runtime could not start (`start.rs`) is run again,
/// up to [`start::TRIES`] times; one that never started says so in
/// [`Outcome::no_start`].
pub fn run_with_activity(inv: &Invocation) -> Result<(Outcome, Activity), RunError> {
    let mut tries = 1;
    loop {
        let (mut outcome, activity) = run_planned(inv, plan_stdout(inv.mode)?)?;
        match start::failed_to_start(&outcome) {
            None => return Ok((outcome, activity)),
            Some(said) if tries >= start::TRIES => {
                outcome.no_start = Some(NoStart { said, tries });
                return Ok((outcome, activity));
            }
            Some(_) => {
                std::thread::sleep(start::PAUSE * tries);
                tries += 1;
            }
        }
    }
}

/// [`run`] with stdin and stdout another program's pipes (an interactive
/// problem's validator, outside this containment): contained as any run,
/// stderr read, stdout not. Run once: a conversation cannot be replayed.
pub fn run_joined(
    inv: &Invocation,
    stdin: std::os::fd::OwnedFd,
    stdout: std::os::fd::OwnedFd,
) -> Result<(Outcome, Activity), RunError> {
    run_planned(inv, spawn::StdoutPlan::Joined { stdin, stdout })
}

/// One run of `inv`, stdout (and stdin) connected as `plan` says.
fn run_planned(inv: &Invocation, plan: spawn::StdoutPlan) -> Result<(Outcome, Activity), RunError> {
    let containment = sandbox::containment();
    // A program under test reads the system, its case folder and its own
    // files; the reference (ours) is not narrowed.
    let reads = (!inv.target.is_builtin_reference())
        .then(|| {
            // The course's environment (its `read:` folders, installed
            // requirements, jars) is every program's to read.
            let mut own = inv.target.own_paths();
            own.extend(course_env::reads());
            sandbox::reads_for(&own.iter().map(PathBuf::as_path).collect::<Vec<_>>())
        })
        .flatten();
    let mut folder = match crate::exec::spare::take(containment, reads.as_ref()) {
        Err(Interrupted) => return Err(RunError::Interrupted),
        Ok(Err(e)) => return Err(RunError::Sandbox(e)),
        Ok(Ok(folder)) => folder,
    };
    let crate::exec::spare::Folder {
        layout,
        ticket,
        resident,
        ..
    } = &mut folder;
    let (layout, ticket) = (&*layout, &*ticket);
    place_files(&layout.work, &inv.files, &inv.executable)?;
    let env = environment(inv, layout);

    let start = Instant::now();
    // The reference is contained too: what a program sees of the file
    // system must be the same on both sides of a comparison.
    let started = match containment {
        Containment::Namespaces { .. } | Containment::Landlock(_) => {
            // A folder that is kept gets a keeper that stays with it, one
            // that reads as this run's program does.
            let landlock = matches!(
                containment,
                Containment::Namespaces { landlock: true, .. } | Containment::Landlock(_)
            );
            if landlock
                && crate::exec::spare::active()
                && resident
                    .as_ref()
                    .is_none_or(|r| r.reads() != reads.as_ref())
            {
                *resident =
                    sandbox::resident::Resident::start(layout, reads.clone(), containment).ok();
            }
            let resident = resident.as_mut();
            let keeping = spawn::Keeping {
                containment,
                resident,
                reads,
            };
            spawn_contained(inv, layout, &env, plan, keeping, ticket)?
        }
        Containment::ProcessGroup(_) => spawn_grouped(inv, layout, &env, plan, ticket)?,
    };
    let outcome = watch(inv, layout, start, started).map(|o| {
        let activity = o.activity;
        (o, activity)
    });
    // A run killed by the harness, or one that left processes behind,
    // might still have something writing into its folder.
    let clean = outcome.as_ref().is_ok_and(|(o, _)| {
        matches!(o.ending, Ending::Exited(_) | Ending::Signaled(_))
            && !o.left_process
            && o.left_behind.is_empty()
    });
    crate::exec::spare::give_back(folder, clean);
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;
    use std::path::Path;
    use std::time::Duration;

    #[test]
    fn absurd_timeouts_are_refused() {
        assert_eq!(parse_timeout("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_timeout("86400"), Ok(MAX_TIMEOUT));
        for bad in ["-1", "0", "NaN", "inf", "86401", "9.3e18", "1e-12", "x", ""] {
            assert!(parse_timeout(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_command_line_splits_into_a_program_and_its_words() {
        let t = Target::command("sh -c 'echo \"a b\"'").unwrap();
        assert!(t.path().ends_with("sh") && t.path().is_absolute());
        assert_eq!(t.words(), [OsString::from("-c"), "echo \"a b\"".into()]);
        assert_eq!(
            t.describe(),
            format!("{} -c 'echo \"a b\"'", t.path().display())
        );
        assert!(matches!(
            Target::command("'open"),
            Err(TargetError::BadCommand(_))
        ));
        assert!(matches!(
            Target::command("  "),
            Err(TargetError::BadCommand(_))
        ));
        assert!(matches!(
            Target::command("surely-no-such-program-here x"),
            Err(TargetError::NotFound(_))
        ));
        assert!(matches!(
            Target::command("/nonexistent/bot"),
            Err(TargetError::Missing(_))
        ));
        let out = run(&Invocation::new(t, vec![], Vec::new())).unwrap();
        assert_eq!(out.stdout, b"a b\n");
    }

    #[test]
    fn a_command_line_is_read_as_typed_in_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("fuel.py"), b"print(1)\n").unwrap();
        let t = Target::command_from("sh fuel.py -x . nothing-here", dir.path()).unwrap();
        let base = dir.path().to_owned();
        assert_eq!(
            t.words(),
            [
                OsString::from(base.join("fuel.py")),
                "-x".into(),
                base.clone().into_os_string(),
                "nothing-here".into()
            ]
        );
        assert!(!t.is_interpreted() || t.path().ends_with("sh"));
        assert_eq!(t.home().as_deref(), Some(base.as_path()));
        assert_eq!(
            typed_line("python3 fuel.py 'a b'", dir.path()).as_deref(),
            Some(format!("python3 {} 'a b'", base.join("fuel.py").display()).as_str())
        );
        // A program with no words is at home in its own folder.
        let sh = Target::binary(Path::new("/bin/sh")).unwrap();
        assert_eq!(sh.home().as_deref(), Some(Path::new("/bin")));
    }

    #[test]
    fn signal_names() {
        assert_eq!(signal_name(11), "SIGSEGV (11)");
        assert_eq!(signal_name(64), "signal 64");
    }

    fn sh(script: &str, stdin: &[u8]) -> Outcome {
        let target = Target::binary(Path::new("/bin/sh")).unwrap();
        let mut inv = Invocation::new(target, vec!["-c".into(), script.into()], stdin.to_vec());
        inv.timeout = Duration::from_secs(5);
        run(&inv).unwrap()
    }

    #[test]
    fn the_stdin_a_program_took_is_counted_and_a_faked_start_failure_is_judged() {
        let vm = "echo 'Error occurred during initialization of VM' >&2; exit 1";
        // It read a line first: its own code ran, a verdict like any other.
        let read = sh(&format!("read x; {vm}"), b"12\n34\n");
        assert_eq!(read.stdin_taken, Some(3));
        assert!(read.no_start.is_none(), "{read:?}");
        // It read nothing: a runtime that never started, run three times.
        let quiet = sh(vm, b"12\n34\n");
        assert_eq!(quiet.stdin_taken, Some(0));
        assert_eq!(quiet.no_start.map(|n| n.tries), Some(start::TRIES));
        // All of it, through a pipe larger than its buffer.
        let big = vec![b'x'; 200_000];
        assert_eq!(sh("cat > /dev/null", &big).stdin_taken, Some(200_000));
    }

    #[test]
    fn pipes_status_and_files() {
        let out = sh("cat; echo err >&2; echo x > f; exit 3", b"in\n");
        assert_eq!(out.ending, Ending::Exited(3));
        assert_eq!(out.stdout, b"in\n");
        assert_eq!(out.stderr, b"err\n");
        assert_eq!(out.files.get("f").map(Vec::as_slice), Some(&b"x\n"[..]));
        assert!(out.written.contains("f"));
        assert!(!out.left_process);
    }

    #[test]
    fn limits_are_set_before_the_program_reads_stdin() {
        // CPU seconds: the default 10 s timeout + 2. The shell blocks on
        // `read` until the supervising loop writes stdin, which is after
        // the limits were set: no race.
        let out = sh("read x; ulimit -t; ulimit -f; ulimit -v", b"go\n");
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            text,
            "12\n524288\n4194304\n",
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    #[test]
    fn a_kept_folder_charges_a_run_only_its_own_cpu() {
        // Kept folders get a resident keeper that runs case after case:
        // the CPU of a busy earlier run must not be charged to the next.
        // (This test binary cannot be the sandbox's keeper, so here it
        // checks the process-group path only, not a resident keeper.)
        let _kept = crate::exec::spare::Scope::enter();
        let target = Target::binary(Path::new("/bin/sh")).unwrap();
        let timed = |script: &str| {
            let mut inv = Invocation::new(target.clone(), vec!["-c".into(), script.into()], vec![]);
            inv.timeout = Duration::from_secs(20);
            run_with_activity(&inv).unwrap().1.cpu.unwrap()
        };
        // Busy enough on a fast idle machine too (400,000 rounds took 290
        // ms on CI's idle cores), far above what a light run may be charged.
        let busy = timed("i=0; while [ $i -lt 1000000 ]; do i=$((i+1)); done");
        assert!(busy >= Duration::from_millis(300), "busy run: {busy:?}");
        for _ in 0..2 {
            let light = timed("exit 0");
            assert!(light < Duration::from_millis(100), "light run: {light:?}");
        }
    }

    /// `script` run with stdin fed a line at a time: its stdout and reads.
    fn by_line(script: &str, stdin: &[u8]) -> (Vec<u8>, Reads) {
        let target = Target::binary(Path::new("/bin/sh")).unwrap();
        let mut inv = Invocation::new(target, vec!["-c".into(), script.into()], stdin.to_vec());
        inv.timeout = Duration::from_secs(5);
        inv.count_reads = true;
        let out = run(&inv).unwrap();
        assert_eq!(out.ending, Ending::Exited(0), "{script}");
        (out.stdout, out.reads.unwrap())
    }

    #[test]
    fn stdin_fed_a_line_at_a_time_counts_the_lines_a_program_reads() {
        let stdin = b"abc\n5\n6\n";
        // Reads two lines (the first refused, the second accepted).
        let (out, reads) = by_line("read a; echo again; read b; echo \"$b\"", stdin);
        assert_eq!((out.as_slice(), reads.count()), (&b"again\n5\n"[..], 2));
        // Accepts the first line: one read, whatever it prints.
        assert_eq!(by_line("read a; echo \"$a\"", stdin).1.count(), 1);
        // A buffered reader (`head` reads 8 KiB at a time) still gets one
        // line per read: the next is written only once the pipe is empty.
        let (out, reads) = by_line("head -n 1", stdin);
        assert_eq!((out.as_slice(), reads.count()), (&b"abc\n"[..], 1));
        // Everything, to the end of input; and nothing.
        let (out, reads) = by_line("cat", stdin);
        assert_eq!((out.as_slice(), reads.count()), (&stdin[..], 3));
        assert_eq!(by_line("echo hi", stdin).1.count(), 0);
        // A last line without a newline is a line.
        assert_eq!(by_line("cat >/dev/null", b"a\nb").1.count(), 2);
    }

    #[test]
    fn each_read_is_placed_in_stdout_as_far_as_it_was_flushed() {
        let (out, reads) = by_line(
            "read a; printf 'one> '; read b; printf 'two> '; read c; echo end",
            b"1\n2\n3\n",
        );
        assert_eq!(out, b"one> two> end\n");
        let at = &reads.stdout_at;
        assert_eq!(at.len(), 3);
        // In order, and never past what was printed before the next read:
        // the next line is written only once this one is seen taken. How
        // much of what follows a read is already printed when the harness
        // looks depends on scheduling (a loaded machine lets `two> ` out
        // before the second read is seen), so that is all that is certain.
        assert!(at.windows(2).all(|w| w[0] <= w[1]), "{at:?}");
        assert!(at[0] <= 5 && at[1] <= 10 && at[2] <= 14, "{at:?}");
    }

    #[test]
    fn an_empty_stdin_counted_is_zero_reads() {
        let (out, reads) = by_line("echo prompt; read a || true", b"");
        assert_eq!((out.as_slice(), reads.count()), (&b"prompt\n"[..], 0));
    }

    #[test]
    fn stdin_fed_whole_is_not_counted() {
        let out = sh("cat", b"a\nb\n");
        assert_eq!(out.reads, None);
    }

    #[test]
    fn environment_is_cleared() {
        let out = sh("env | sort", b"");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("LC_ALL=C\n"), "{text}");
        assert!(text.contains("PATH=/usr/bin:/bin\n"), "{text}");
        assert!(!text.contains("CARGO"), "{text}");
    }
}

/// Kept folders ([`crate::exec::spare`]) seen from a run: they live in
/// the run's tests because only a run uses one.
#[cfg(test)]
mod spare_tests {
    use std::path::Path;
    use std::time::Duration;

    use super::{Invocation, Target, run};

    fn sh(script: &str) -> Vec<u8> {
        let target = Target::binary(Path::new("/bin/sh")).unwrap();
        let mut inv = Invocation::new(target, vec!["-c".into(), script.into()], Vec::new());
        inv.timeout = Duration::from_secs(5);
        run(&inv).unwrap().stdout
    }

    #[test]
    fn a_run_never_sees_what_an_earlier_run_left() {
        let _kept = crate::exec::spare::Scope::enter();
        for _ in 0..3 {
            let seen =
                sh("ls -A; mkdir -p d/e; echo x > d/e/f; echo y > g; chmod 500 d; chmod 500 .");
            assert_eq!(seen, b"");
        }
    }
}
