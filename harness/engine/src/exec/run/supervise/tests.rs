//! Tests of `supervise`, beside it.

use super::*;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

fn rules() -> Rules {
    Rules {
        timeout: Duration::from_secs(10),
        cap: 16 << 20,
        keep: Keep::ALL,
        keeper: false,
        grace: Duration::from_millis(100),
        cpu_stop: None,
    }
}

/// What one supervised `sh -c script` gave.
struct Seen {
    stop: Stop,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    dropped: [u64; 2],
    status: Option<i32>,
    exited: bool,
}

/// Supervises `sh -c script` with `stdin`, seeing its end on a pidfd
/// or, with `peek`, as on a kernel without `pidfd_open`.
fn supervise(script: &str, stdin: &[u8], mut rules: Rules, peek: bool) -> Seen {
    let mut child = Command::new("/bin/sh")
        .args(["-c", script])
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = Pid::from_child(&child);
    if let Some(stop) = &mut rules.cpu_stop {
        stop.pid = pid;
    }
    let ends = Ends {
        stdin: child.stdin.take().map(OwnedFd::from),
        typing: None,
        stdout: child.stdout.take().map(OwnedFd::from),
        stderr: child.stderr.take().map(OwnedFd::from),
    };
    let mut supervisor = Supervisor::new(
        ends,
        (stdin, crate::exec::terminal::PROMPT, false),
        (pid, None),
        rules,
    )
    .unwrap();
    if peek {
        supervisor.end = End::Peek(pid);
    }
    let stop = supervisor.run(Instant::now()).unwrap();
    let exited = supervisor.exited();
    let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    let status = child.wait().unwrap().code();
    supervisor.drain(Instant::now()).unwrap();
    let [(stdout, out_dropped), (stderr, err_dropped)] = supervisor.captured();
    Seen {
        stop,
        stdout,
        stderr,
        dropped: [out_dropped, err_dropped],
        status,
        exited,
    }
}

/// Bytes that show a lost or repeated piece.
fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

#[test]
fn stdin_larger_than_a_pipe_reaches_a_slow_reader() {
    let stdin = pattern(1 << 20);
    for peek in [false, true] {
        // Reads 4 KiB at a time, after a pause: the pipe is full long
        // before, and the loop keeps writing as it drains.
        let seen = supervise("sleep 0.2; dd bs=4096 2>/dev/null", &stdin, rules(), peek);
        assert_eq!(seen.stop, Stop::Ended, "peek {peek}");
        assert!(seen.exited);
        assert_eq!(seen.status, Some(0));
        assert!(seen.stdout == stdin, "peek {peek}: stdout differs");
    }
}

#[test]
fn a_program_that_closes_stdin_early_is_no_error() {
    let stdin = pattern(1 << 20);
    let seen = supervise(
        "head -c 5; exec 0<&-; sleep 0.1; echo done",
        &stdin,
        rules(),
        false,
    );
    assert_eq!(seen.stop, Stop::Ended);
    assert_eq!(seen.stdout, [&stdin[..5], b"done\n"].concat());
    assert_eq!(seen.status, Some(0));
    // One that never reads it at all.
    let seen = supervise("exit 4", &stdin, rules(), true);
    assert_eq!((seen.stop, seen.status), (Stop::Ended, Some(4)));
}

#[test]
fn both_streams_flooding_stop_at_the_cap_of_the_first_past_it() {
    let cap = 100_000;
    let rules = Rules { cap, ..rules() };
    let seen = supervise("yes o & yes e >&2", b"", rules, false);
    let Stop::Cap(stream) = seen.stop else {
        panic!("{:?}", seen.stop);
    };
    let (kept, other) = match stream {
        Stream::Stdout => (&seen.stdout, &seen.stderr),
        Stream::Stderr => (&seen.stderr, &seen.stdout),
    };
    // Everything up to the cap is kept, and counted past it.
    assert_eq!(kept.len() as u64, cap);
    assert!(seen.dropped[usize::from(stream == Stream::Stderr)] > 0);
    assert!(other.len() as u64 <= cap);
    assert!(kept.chunks(2).all(|c| c[0] == b'o' || c[0] == b'e'));
}

#[test]
fn only_the_kept_window_is_kept_and_the_rest_counted() {
    let rules = Rules {
        keep: Keep {
            stdout: 10,
            stderr: 3,
        },
        ..rules()
    };
    let seen = supervise("head -c 5000 /dev/zero; echo abcdef >&2", b"", rules, false);
    assert_eq!(seen.stop, Stop::Ended);
    assert_eq!((seen.stdout, seen.stderr), (vec![0; 10], b"abc".to_vec()));
    assert_eq!(seen.dropped, [4990, 4]);
}

#[test]
fn a_silent_program_times_out() {
    let rules = Rules {
        timeout: Duration::from_millis(200),
        ..rules()
    };
    for peek in [false, true] {
        let seen = supervise("echo before; sleep 5", b"", rules, peek);
        assert_eq!(seen.stop, Stop::TimedOut(None));
        assert_eq!(seen.stdout, b"before\n");
        assert!(!seen.exited);
    }
}

#[test]
fn a_process_left_holding_the_output_lingers_past_the_grace() {
    for peek in [false, true] {
        let seen = supervise("sleep 5 & echo hi", b"", rules(), peek);
        assert_eq!(seen.stop, Stop::Lingered, "peek {peek}");
        assert_eq!(seen.stdout, b"hi\n");
        assert_eq!(seen.status, Some(0));
    }
}

#[test]
fn a_keepers_streams_closing_is_its_end() {
    let rules = Rules {
        keeper: true,
        ..rules()
    };
    let seen = supervise("echo out; exec >&- 2>&-; sleep 5", b"", rules, false);
    assert_eq!(seen.stop, Stop::Ended);
    assert!(!seen.exited, "ended before the process did");
    assert_eq!(seen.stdout, b"out\n");
}

#[test]
fn a_spinning_run_stops_at_its_cpu_stop_and_a_waiting_one_does_not() {
    // The pid is the supervised shell's, set by `supervise`.
    let stopped = |after| Rules {
        cpu_stop: Some(CpuStop {
            after,
            pid: Pid::from_raw(1).unwrap(),
            before: None,
        }),
        ..rules()
    };
    // 0.1 s of CPU: well before the 10 s limit, however loaded the machine.
    let start = Instant::now();
    let seen = supervise(
        "while :; do :; done",
        b"",
        stopped(Duration::from_millis(100)),
        false,
    );
    assert_eq!(seen.stop, Stop::TimedOut(None));
    assert!(start.elapsed() < Duration::from_secs(9));
    // Sleeping uses no CPU: it ends by itself.
    let seen = supervise("sleep 0.3", b"", stopped(Duration::from_millis(50)), false);
    assert_eq!(seen.stop, Stop::Ended);
}
