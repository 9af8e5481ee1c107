//! A hostile program for the harness's containment tests: each mode is one
//! probe of what a program under test must not do, and prints `refused`
//! when the sandbox stopped it, `ESCAPED: ...` when it did not.
//!
//! Access probes: `read PATH` (read a file), `list PATH` (list a
//! folder), `tcp ADDR` (connect and send), `udp ADDR` (send a datagram),
//! `abstract NAME` (connect to an abstract Unix socket), `unix PATH`
//! (connect to a socket file and send). Resource probes, which end by the
//! sandbox's hand or print the limit they met: `fork-bomb` (starts copies
//! of itself without end), `memory-hog` (allocates and touches memory
//! until it dies), `fd-exhaust` (opens files until it cannot; prints the
//! error), `disk-fill` (writes files into its folder without end).
//!
//! `check FILE` runs every probe FILE lists (one `MODE ARG` a line) and
//! exits 0 only if all were refused. Started with operands that are not a
//! mode, with a probe list appended to its own executable (between
//! [`START`] and [`END`] lines: `mark` keeps only a built program's
//! bytes, and the suite gives the operands), it runs those probes first,
//! then plays the reference `boxes` if all were refused and exits 99
//! otherwise: a submission that passes every case proves every probe
//! refused.

use std::ffi::OsString;
use std::io::{Read as _, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

/// The line before a probe list appended to the executable.
const START: &[u8] = b"\nHOSTILE-PROBES\n";
/// The line that ends it, the executable's last bytes.
const END: &[u8] = b"\nEND-PROBES\n";

/// What a probe found.
enum Found {
    Refused,
    Escaped(String),
}

fn probe(mode: &str, arg: &str) -> Option<Found> {
    let escaped = |what: String| Found::Escaped(what);
    Some(match mode {
        "read" => match std::fs::File::open(arg).and_then(|mut f| {
            let mut buf = [0u8; 64];
            f.read(&mut buf)
        }) {
            Ok(n) => escaped(format!("read {n} bytes of {arg}")),
            Err(_) => Found::Refused,
        },
        "list" => match std::fs::read_dir(arg) {
            Ok(entries) => escaped(format!("listed {} entries of {arg}", entries.count())),
            Err(_) => Found::Refused,
        },
        "tcp" => match std::net::TcpStream::connect(arg) {
            Ok(mut s) => {
                let _ = s.write_all(b"leaked over tcp\n");
                escaped(format!("connected to {arg}"))
            }
            Err(_) => Found::Refused,
        },
        "udp" => match std::net::UdpSocket::bind("0.0.0.0:0")
            .and_then(|s| s.send_to(b"leaked over udp\n", arg))
        {
            Ok(_) => escaped(format!("sent a datagram to {arg}")),
            Err(_) => Found::Refused,
        },
        "abstract" => {
            use std::os::linux::net::SocketAddrExt as _;
            match std::os::unix::net::SocketAddr::from_abstract_name(arg.as_bytes())
                .and_then(|a| std::os::unix::net::UnixStream::connect_addr(&a))
            {
                Ok(mut s) => {
                    let _ = s.write_all(b"leaked over an abstract socket\n");
                    escaped(format!("connected to @{arg}"))
                }
                Err(_) => Found::Refused,
            }
        }
        "unix" => match std::os::unix::net::UnixStream::connect(arg) {
            Ok(mut s) => {
                let _ = s.write_all(b"leaked over a socket file\n");
                escaped(format!("connected to {arg}"))
            }
            Err(_) => Found::Refused,
        },
        _ => return None,
    })
}

fn say(found: &Found, out: &mut dyn std::io::Write) -> bool {
    match found {
        Found::Refused => {
            let _ = out.write_all(b"refused\n");
            true
        }
        Found::Escaped(what) => {
            let _ = writeln!(out, "ESCAPED: {what}");
            false
        }
    }
}

/// The probe list appended to this executable, if there is one.
fn appended_probes() -> Option<String> {
    let bytes = std::fs::read(std::env::current_exe().ok()?).ok()?;
    let body = bytes.strip_suffix(END)?;
    let start = body.windows(START.len()).rposition(|w| w == START)?;
    String::from_utf8(body.get(start + START.len()..)?.to_vec()).ok()
}

/// Runs every probe `text` lists (`MODE ARG` lines), saying each on
/// `out`; true if all were refused.
fn check(text: &str, out: &mut dyn std::io::Write) -> bool {
    let mut all = true;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let (mode, arg) = line.split_once(' ').unwrap_or((line, ""));
        all &= match probe(mode, arg) {
            Some(found) => say(&found, out),
            None => say(&Found::Escaped(format!("unknown probe {line}")), out),
        };
    }
    all
}

fn fork_bomb() -> ExitCode {
    let me = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("/proc/self/exe"));
    loop {
        let _ = std::process::Command::new(&me)
            .arg("fork-bomb")
            .stdin(std::process::Stdio::null())
            .spawn();
    }
}

fn memory_hog() -> ExitCode {
    let mut held: Vec<Vec<u8>> = Vec::new();
    loop {
        // Touched, not only reserved: every page is written.
        held.push(vec![1u8; 64 << 20]);
        std::hint::black_box(&held);
    }
}

fn fd_exhaust() -> ExitCode {
    let mut held = Vec::new();
    loop {
        match std::fs::File::open("/dev/null") {
            Ok(f) => held.push(f),
            Err(e) => {
                let _ = writeln!(std::io::stdout(), "limit: {e}");
                return ExitCode::SUCCESS;
            }
        }
    }
}

fn disk_fill() -> ExitCode {
    let chunk = vec![7u8; 1 << 20];
    for i in 0u64.. {
        let Ok(mut f) = std::fs::File::create(format!("fill-{i}")) else {
            break;
        };
        // Files of 64 MiB: under the file-size limit, so only the folder
        // limit can stop the program.
        for _ in 0..64 {
            if f.write_all(&chunk).is_err() {
                let _ = writeln!(std::io::stdout(), "limit: the disk refused a write");
                return ExitCode::SUCCESS;
            }
        }
    }
    ExitCode::FAILURE
}

/// The reference `boxes` on these operands.
fn reference(operands: &[OsString]) -> ExitCode {
    let argv = std::iter::once(OsString::from("boxes")).chain(operands.iter().cloned());
    boxes_reference::stdio::main_with_args(argv)
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let text: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mode = text.first().map_or("", String::as_str);
    let arg = text.get(1).map_or("", String::as_str);
    if let Some(found) = probe(mode, arg) {
        say(&found, &mut std::io::stdout());
        return ExitCode::SUCCESS;
    }
    match mode {
        "check" => {
            let Ok(list) = std::fs::read_to_string(arg) else {
                let _ = writeln!(std::io::stdout(), "cannot read the probe list {arg}");
                return ExitCode::from(99);
            };
            if check(&list, &mut std::io::stdout()) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(99)
            }
        }
        "fork-bomb" => fork_bomb(),
        "memory-hog" => memory_hog(),
        "fd-exhaust" => fd_exhaust(),
        "disk-fill" => disk_fill(),
        _ => {
            let Some(list) = appended_probes() else {
                eprintln!(
                    "usage: boxes-fixture-hostile read|list|tcp|udp|abstract|unix ARG | \
                     check FILE | fork-bomb | memory-hog | fd-exhaust | disk-fill"
                );
                return ExitCode::from(2);
            };
            // The probes' lines are shown only when one escaped: stdout is
            // the game's.
            let mut said = Vec::new();
            if check(&list, &mut said) {
                reference(&args)
            } else {
                let _ = std::io::stdout().write_all(&said);
                ExitCode::from(99)
            }
        }
    }
}
