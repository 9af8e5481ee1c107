//! A deliberately misbehaving program for the harness's own tests: the
//! first argument picks one way to misbehave, so each can be shown to be
//! reported with the right words.
//!
//! `hang`, `orphan` (leaves a child holding stdout open), `flood` (stdout
//! without end), `segv` (dies by SIGSEGV), `no-read` (exits without reading
//! its large stdin), `wrong-stream` (the usage line on stdout), `no-flush`
//! (a prompt never flushed, then waits for input), `prompt` (a well-behaved
//! prompt loop), `write-files` (writes files), `exit N`, `daemon MARK` /
//! `daemon-holding MARK` (a `setsid` daemon `sleep MARK`, without or with
//! the output open), `write-outside PATH...` (tries to write each path),
//! `stop-parent` (sends SIGSTOP to its parent).
//!
//! Whole-suite programs, picked by the basename of `argv[0]` (the harness
//! clears the environment and every case brings its own arguments, so a
//! link named after the mode is the only channel), for `benches/hostile.rs`
//! and `tests/it/budget.rs`: `hang-spin` (spins on the CPU forever),
//! `hang-sleep` (sleeps forever), `hang-games` (the reference, except that
//! it sleeps forever once its arguments start a game: it passes the quick
//! argument cases and hangs in the rest), `slow100` (the reference, then
//! spins until its process has used 100 times the CPU time the reference's
//! run took, start-up included), `eof-prompt` (the prompt loop that
//! ignores end of input: after it, prints `A> ` forever).

use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

/// How many times the reference's CPU time `slow100` uses.
const SLOWDOWN: u32 = 100;

/// The whole-suite modes, chosen by the name the fixture runs under.
fn whole_suite(name: &str, operands: &[OsString]) -> Option<ExitCode> {
    match name {
        "hang-spin" => {
            let mut n: u64 = 0;
            loop {
                n = std::hint::black_box(n.wrapping_add(1));
            }
        }
        "hang-sleep" => loop {
            std::thread::sleep(Duration::from_secs(60));
        },
        "hang-games" => {
            if boxes_reference::app::start(operands).is_ok() {
                loop {
                    std::thread::sleep(Duration::from_secs(60));
                }
            }
            Some(reference(operands))
        }
        "slow100" => {
            let code = reference(operands);
            // The reference's whole run, start-up included, then 99 times
            // as much again.
            let used = cpu_time();
            let until = used.saturating_mul(SLOWDOWN);
            let mut n: u64 = 0;
            while cpu_time() < until {
                for _ in 0..10_000 {
                    n = std::hint::black_box(n.wrapping_add(1));
                }
            }
            Some(code)
        }
        "eof-prompt" => {
            let stdin = std::io::stdin();
            let mut lines = stdin.lock();
            // Each prompt is flushed before a read that may wait; once
            // input has ended nothing waits, and the prompts leave in
            // blocks, as a student's `printf` loop's do.
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let mut line = Vec::new();
            let mut ended = false;
            loop {
                let wrote = out.write_all(b"A> ");
                if wrote
                    .and_then(|()| if ended { Ok(()) } else { out.flush() })
                    .is_err()
                {
                    return Some(ExitCode::FAILURE);
                }
                // End of input is sticky, as in C's stdio since glibc
                // 2.28: once it is seen, the loop only prints.
                if !ended {
                    line.clear();
                    ended = matches!(lines.read_until(b'\n', &mut line), Ok(0) | Err(_));
                }
            }
        }
        _ => None,
    }
}

/// The reference `boxes` on these operands, as its own `main` runs it.
fn reference(operands: &[OsString]) -> ExitCode {
    let argv = std::iter::once(OsString::from("boxes")).chain(operands.iter().cloned());
    boxes_reference::stdio::main_with_args(argv)
}

/// CPU time this process used so far.
fn cpu_time() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Duration::new(
        u64::try_from(t.tv_sec).unwrap_or(0),
        u32::try_from(t.tv_nsec).unwrap_or(0),
    )
}

#[expect(
    clippy::too_many_lines,
    reason = "one short arm per misbehaviour reads best as one table"
)]
fn main() -> ExitCode {
    let invoked: Vec<OsString> = std::env::args_os().collect();
    let name = invoked
        .first()
        .and_then(|p| Path::new(p).file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some(code) = whole_suite(&name, invoked.get(1..).unwrap_or_default()) {
        return code;
    }
    // `args_os`: the fixture may be started under a name that is not UTF-8.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut out = std::io::stdout();
    match args.first().map(String::as_str) {
        Some("hang") => loop {
            std::thread::sleep(Duration::from_secs(60));
        },
        Some("orphan") => {
            // The child inherits stdout and outlives us.
            let _ = std::process::Command::new("sleep").arg("30").spawn();
            let _ = out.write_all(b"x\n");
            ExitCode::SUCCESS
        }
        Some("flood") => {
            let chunk = [b'y'; 4096];
            while out.write_all(&chunk).is_ok() {}
            ExitCode::FAILURE
        }
        Some("segv") => {
            let _ = out.write_all(b"about to crash\n");
            let _ = out.flush();
            // The Rust runtime's SIGSEGV handler (stack-overflow detection)
            // restores the default action on a signal that is not a guard
            // page fault: the second one kills.
            loop {
                let _ = rustix::process::kill_process(
                    rustix::process::getpid(),
                    rustix::process::Signal::SEGV,
                );
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        Some("daemon" | "daemon-holding") => {
            // `setsid -f` double-forks: the daemon leaves the process
            // group and is adopted by PID 1. The marker argument lets a
            // test find it afterwards.
            let marker = args.get(1).map_or("30", String::as_str);
            let mut cmd = std::process::Command::new("setsid");
            cmd.args(["-f", "sleep", marker]);
            if args[0] == "daemon" {
                cmd.stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null());
            }
            let _ = cmd.status();
            let _ = out.write_all(b"started\n");
            ExitCode::SUCCESS
        }
        Some("write-outside") => {
            // Every path outside the case folder must be read-only (or
            // private to the run).
            let mut written = Vec::new();
            for path in args.iter().skip(1) {
                if std::fs::write(path, b"escaped\n").is_ok() {
                    written.push(path.clone());
                }
            }
            let _ = writeln!(out, "written: {}", written.join(" "));
            ExitCode::SUCCESS
        }
        Some("stop-parent") => {
            // SIGSTOP to the parent: the harness, without a PID namespace.
            let parent = rustix::process::getppid();
            if let Some(p) = parent {
                let _ = rustix::process::kill_process(p, rustix::process::Signal::STOP);
            }
            let _ = out.write_all(b"done\n");
            ExitCode::SUCCESS
        }
        Some("no-read") => ExitCode::SUCCESS,
        Some("wrong-stream") => {
            let _ = out.write_all(b"Usage: boxes height width playercount [filename]\n");
            ExitCode::from(1)
        }
        Some("no-flush") => {
            // Rust's stdout is line-buffered: without a flush the prompt
            // stays in the buffer while we wait for input.
            let _ = out.write_all(b"A> ");
            let mut line = String::new();
            let _ = std::io::stdin().lock().read_line(&mut line);
            ExitCode::SUCCESS
        }
        Some("prompt") => {
            let stdin = std::io::stdin();
            let mut lines = stdin.lock();
            loop {
                let _ = out.write_all(b"A> ");
                let _ = out.flush();
                let mut line = String::new();
                match lines.read_line(&mut line) {
                    Ok(0) | Err(_) => {
                        eprintln!("End of user input");
                        return ExitCode::from(6);
                    }
                    Ok(_) => {
                        let _ = write!(out, "got {line}");
                    }
                }
            }
        }
        Some("write-files") => {
            let ok = std::fs::write("saved.txt", b"1\n").is_ok()
                && std::fs::write("extra.txt", b"extra\n").is_ok();
            if ok {
                eprintln!("Save complete");
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Some("exit") => ExitCode::from(args.get(1).and_then(|s| s.parse::<u8>().ok()).unwrap_or(0)),
        _ => {
            eprintln!(
                "usage: boxes-fixture-misbehave hang|orphan|flood|segv|no-read|wrong-stream|no-flush|prompt|write-files|daemon|daemon-holding|write-outside|stop-parent|exit N"
            );
            ExitCode::from(2)
        }
    }
}
