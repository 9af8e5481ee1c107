//! The hostile probe battery (`boxes-fixture-hostile`) at the default
//! containment, under `run`: a program under test cannot read the
//! harness, the suite, a classmate's submission, the caller's home, the
//! host's `/tmp` or `/etc/shadow` (the tests may run as root, as CI
//! does), cannot reach loopback listeners over TCP, UDP, an abstract
//! socket or a socket file, and a fork bomb, a memory hog, a program
//! exhausting its descriptors and one filling its folder each end with
//! the verdict the docs give, the other cases unharmed and nothing left
//! behind. `tests/it/mark.rs` and `tests/it/codingame.rs` run the same probes
//! under `mark` and the arena; [`mark`] runs the battery in `mark`'s
//! build and run and to a CodinGame bot.

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]

use std::io::Read as _;
use std::os::linux::net::SocketAddrExt as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;

mod mark;

/// Numbers the abstract socket names of the tests running at once.
static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// The listeners a probe must not reach, and the files it must not read.
struct Bait {
    _dirs: Vec<tempfile::TempDir>,
    tcp: std::net::TcpListener,
    udp: std::net::UdpSocket,
    abstract_name: String,
    abstract_listener: std::os::unix::net::UnixListener,
    socket_file: PathBuf,
    socket_listener: std::os::unix::net::UnixListener,
    /// Files whose reading must be refused.
    secrets: Vec<PathBuf>,
    /// The caller's home.
    home: PathBuf,
}

impl Bait {
    fn new() -> Self {
        Self::against(&assert_cmd::cargo::cargo_bin("boxes-harness"))
    }

    /// The bait for a run of the harness at `harness`, which is a secret
    /// too (every expected output is embedded in it).
    fn against(harness: &Path) -> Self {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join(".bashrc"), b"export TOKEN=secret\n").unwrap();
        let classmates = tempfile::tempdir().unwrap();
        std::fs::create_dir(classmates.path().join("bob")).unwrap();
        std::fs::write(classmates.path().join("bob/ass1.c"), b"int main(){}\n").unwrap();
        // In the host's /tmp, whatever TMPDIR the harness is given.
        let host_tmp = tempfile::Builder::new()
            .prefix("hostile-bait-")
            .tempdir_in("/tmp")
            .unwrap();
        std::fs::write(host_tmp.path().join("answers.txt"), b"42\n").unwrap();
        let sockets = tempfile::tempdir().unwrap();
        let socket_file = sockets.path().join("daemon.sock");
        let socket_listener = std::os::unix::net::UnixListener::bind(&socket_file).unwrap();
        let abstract_name = format!(
            "hostile-bait-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        let addr = std::os::unix::net::SocketAddr::from_abstract_name(&abstract_name).unwrap();
        let abstract_listener = std::os::unix::net::UnixListener::bind_addr(&addr).unwrap();
        for l in [&socket_listener, &abstract_listener] {
            l.set_nonblocking(true).unwrap();
        }
        let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        tcp.set_nonblocking(true).unwrap();
        let udp = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        udp.set_nonblocking(true).unwrap();
        let secrets = vec![
            harness.to_owned(),
            home.path().join(".bashrc"),
            classmates.path().join("bob/ass1.c"),
            host_tmp.path().join("answers.txt"),
            PathBuf::from("/etc/shadow"),
            // `/proc` is readable, but not another process's environment
            // or executable (the kernel's ptrace check, which Landlock
            // makes refuse anything outside the sandbox).
            PathBuf::from(format!("/proc/{}/environ", std::process::id())),
            PathBuf::from(format!("/proc/{}/exe", std::process::id())),
        ];
        Self {
            home: home.path().to_owned(),
            _dirs: vec![home, classmates, host_tmp, sockets],
            tcp,
            udp,
            abstract_name,
            abstract_listener,
            socket_file,
            socket_listener,
            secrets,
        }
    }

    /// Every access probe, as `MODE ARG` lines; `suite_file` is a file of
    /// the suite being run.
    fn probes(&self, suite_file: &Path) -> Vec<String> {
        let mut lines: Vec<String> = self
            .secrets
            .iter()
            .chain([&suite_file.to_owned()])
            .map(|p| format!("read {}", p.display()))
            .collect();
        lines.push(format!("list {}", self.home.display()));
        lines.push(format!("tcp {}", self.tcp.local_addr().unwrap()));
        lines.push(format!("udp {}", self.udp.local_addr().unwrap()));
        lines.push(format!("abstract {}", self.abstract_name));
        lines.push(format!("unix {}", self.socket_file.display()));
        lines
    }

    /// No listener received anything.
    fn assert_untouched(&self) {
        assert!(self.tcp.accept().is_err(), "the TCP listener was reached");
        let mut buf = [0u8; 64];
        assert!(
            self.udp.recv_from(&mut buf).is_err(),
            "the UDP socket received a datagram"
        );
        for (what, l) in [
            ("abstract socket", &self.abstract_listener),
            ("socket file", &self.socket_listener),
        ] {
            let got = l.accept().ok().map(|(mut s, _)| {
                let mut got = Vec::new();
                let _ = s.read_to_end(&mut got);
                got
            });
            assert!(got.is_none(), "the {what} was reached: {got:?}");
        }
    }
}

/// The fixture copied into a folder of its own, as a student's program
/// would live (beside it in `target/` lies the harness itself).
fn program_folder() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("hostile");
    std::fs::copy(env!("CARGO_BIN_EXE_boxes-fixture-hostile"), &exe).unwrap();
    (dir, exe)
}

/// The resource hogs run alone: a fork bomb on a small machine would
/// slow the other tests' programs past their time limits.
static HOGS: std::sync::RwLock<()> = std::sync::RwLock::new(());

fn beside_hogs() -> std::sync::RwLockReadGuard<'static, ()> {
    HOGS.read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn case_yaml(mode: &str, arg: &str, stdout: &str) -> String {
    format!(
        "summary: probe {mode}\ncategory: process\nrules: [T-1]\nargs: [{mode}, {arg:?}]\n\
         timeout: 10\nstatus: 0\nstdout: {stdout:?}\n"
    )
}

fn suite_of(cases: &[(String, String)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/misbehave");
    std::fs::copy(fixtures.join("suite.yaml"), dir.path().join("suite.yaml")).unwrap();
    std::fs::create_dir(dir.path().join("process")).unwrap();
    for (name, yaml) in cases {
        std::fs::write(dir.path().join(format!("process/{name}.yaml")), yaml).unwrap();
    }
    dir
}

fn harness(home: &Path, tmp: &Path) -> Command {
    harness_at(&assert_cmd::cargo::cargo_bin("boxes-harness"), home, tmp)
}

/// The harness at `exe` (a copy elsewhere, or cargo's).
fn harness_at(exe: &Path, home: &Path, tmp: &Path) -> Command {
    let mut cmd = Command::new(exe);
    cmd.env("NO_COLOR", "1")
        .env("HOME", home)
        .env("TMPDIR", tmp)
        .env_remove("CONFORMANCE_CONTAINMENT")
        .env_remove("CONFORMANCE_ALLOW_READ")
        .env_remove("CONFORMANCE_ALLOW_NETWORK")
        .timeout(Duration::from_secs(120));
    cmd
}

fn output_of(cmd: &mut Command) -> (i32, String) {
    let out = cmd.output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn every_access_probe_is_refused_under_run() {
    probe_battery(&assert_cmd::cargo::cargo_bin("boxes-harness"));
}

/// A checkout cloned under `/tmp` (which a program reads whole at `full`,
/// being its private one there): the harness copied beneath `/tmp` is as
/// unreadable as anywhere else.
#[test]
fn every_access_probe_is_refused_with_the_harness_under_tmp() {
    let clone = tempfile::Builder::new()
        .prefix("clone-")
        .tempdir_in("/tmp")
        .unwrap();
    let debug = clone.path().join("target/debug");
    std::fs::create_dir_all(&debug).unwrap();
    let copy = debug.join("boxes-harness");
    std::fs::copy(assert_cmd::cargo::cargo_bin("boxes-harness"), &copy).unwrap();
    probe_battery(&copy);
}

/// Every probe at `pid` and `full`, run by the harness at `exe`: each is
/// refused.
fn probe_battery(exe_of_harness: &Path) {
    let _alone = beside_hogs();
    let bait = Bait::against(exe_of_harness);
    let (_prog_dir, exe) = program_folder();
    let suite_file = tempfile::tempdir().unwrap();
    // The default level, `full` (a mount namespace too) and `landlock`
    // (no namespace at all), alike; except that with no PID namespace the
    // environment of a process of the same user (here, this test's) is
    // readable, as docs/containment.md says.
    for level in ["pid", "full", "landlock"] {
        // The suite's own case file is bait too: it is written before the
        // probes are known, so a placeholder names it.
        let suite = suite_of(&[]);
        let probes: Vec<String> = bait
            .probes(&suite.path().join("process/read-0.yaml"))
            .into_iter()
            .filter(|p| level != "landlock" || !p.ends_with("/environ"))
            .collect();
        for (i, line) in probes.iter().enumerate() {
            let (mode, arg) = line.split_once(' ').unwrap();
            std::fs::write(
                suite.path().join(format!("process/{mode}-{i}.yaml")),
                case_yaml(mode, arg, "refused\n"),
            )
            .unwrap();
        }
        let tmp = tempfile::tempdir().unwrap();
        let (code, text) = output_of(
            harness_at(exe_of_harness, &bait.home, tmp.path())
                .env("CONFORMANCE_CONTAINMENT", level)
                .current_dir(suite_file.path())
                .args(["--bin"])
                .arg(&exe)
                .arg("--cases")
                .arg(suite.path()),
        );
        assert!(!text.contains("ESCAPED"), "{level}: {text}");
        assert_eq!(code, 0, "{level}: {text}");
        assert!(
            text.contains(&format!("{} passed", probes.len())),
            "{level}: {text}"
        );
        bait.assert_untouched();
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    }
}

#[test]
fn allow_read_and_allow_network_widen_and_say_so() {
    let _alone = beside_hogs();
    let bait = Bait::new();
    let (_prog_dir, exe) = program_folder();
    let bashrc = bait.home.join(".bashrc");
    let addr = bait.tcp.local_addr().unwrap().to_string();
    let suite = suite_of(&[
        (
            "read".to_owned(),
            case_yaml(
                "read",
                &bashrc.display().to_string(),
                &format!("ESCAPED: read 20 bytes of {}\n", bashrc.display()),
            ),
        ),
        (
            "tcp".to_owned(),
            case_yaml("tcp", &addr, &format!("ESCAPED: connected to {addr}\n")),
        ),
    ]);
    let tmp = tempfile::tempdir().unwrap();
    let (code, text) = output_of(
        harness(&bait.home, tmp.path())
            .env("CONFORMANCE_ALLOW_READ", &bait.home)
            .args(["--allow-network", "--bin"])
            .arg(&exe)
            .arg("--cases")
            .arg(suite.path()),
    );
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("programs under test may use the host's network (--allow-network)"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "programs under test may also read {}",
            bait.home.display()
        )),
        "{text}"
    );
    assert!(
        bait.tcp.accept().is_ok(),
        "the widened probe never connected"
    );
}

#[test]
fn resource_hogs_end_with_their_verdicts_and_leave_nothing() {
    let _alone = HOGS
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let (_prog_dir, exe) = program_folder();
    let home = tempfile::tempdir().unwrap();
    // An honest case beside them, unharmed.
    let honest = || {
        (
            "honest".to_owned(),
            case_yaml("read", "/etc/shadow", "refused\n"),
        )
    };
    let tmp = tempfile::tempdir().unwrap();
    // Each run's report shows one worked example a cause: the fork bomb
    // runs on its own, so that its verdict's words are shown whole.
    let run = |cases: &[(String, String)]| {
        let suite = suite_of(cases);
        output_of(
            harness(home.path(), tmp.path())
                .args([
                    "--max-processes",
                    "64",
                    "--max-memory",
                    "256",
                    "--max-open-files",
                    "64",
                    "--max-folder",
                    "32",
                    "--bin",
                ])
                .arg(&exe)
                .arg("--cases")
                .arg(suite.path())
                .args(["--format", "libtest"]),
        )
    };
    let verdict = |text: &str, case: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("test process/{case} ")))
            .and_then(|l| l.rsplit(' ').next())
            .unwrap_or("")
            .to_owned()
    };
    let (code, text) = run(&[
        ("fork-bomb".to_owned(), case_yaml("fork-bomb", "", "")),
        honest(),
    ]);
    assert_eq!(code, 1, "{text}");
    assert_eq!(verdict(&text, "fork-bomb"), "FAILED", "{text}");
    assert_eq!(verdict(&text, "honest"), "ok", "{text}");
    assert!(
        text.contains(
            "conformance: killed: it had more than 64 processes running at once (the process \
             limit)"
        ),
        "{text}"
    );
    // Killed by the keeper's watch as the disk filler is: one cause, so on its own.
    let (code, text) = run(&[
        ("memory-hog".to_owned(), case_yaml("memory-hog", "", "")),
        honest(),
    ]);
    assert_eq!(code, 1, "{text}");
    assert_eq!(verdict(&text, "memory-hog"), "FAILED", "{text}");
    assert_eq!(verdict(&text, "honest"), "ok", "{text}");
    // Memory is what the run holds, not its address space (runtimes reserve it).
    let held = "killed: its processes held more than 256 MiB of memory (the memory limit)";
    assert!(text.contains(held), "{text}");
    let (code, text) = run(&[
        (
            "fd-exhaust".to_owned(),
            case_yaml(
                "fd-exhaust",
                "",
                "limit: Too many open files (os error 24)\n",
            ),
        ),
        ("disk-fill".to_owned(), case_yaml("disk-fill", "", "")),
        honest(),
    ]);
    assert_eq!(code, 1, "{text}");
    for (case, want) in [
        ("fd-exhaust", "ok"),
        ("honest", "ok"),
        ("disk-fill", "FAILED"),
    ] {
        assert_eq!(verdict(&text, case), want, "{case}: {text}");
    }
    assert!(
        text.contains("conformance: killed: its folders held more than 32 MiB"),
        "{text}"
    );
    std::thread::sleep(Duration::from_millis(200));
    let exe_name = exe.display().to_string();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            assert!(!cmdline.contains(&exe_name), "left running: {cmdline}");
        }
    }
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

#[test]
fn honest_programs_still_pass() {
    let _alone = beside_hogs();
    // A `#!/usr/bin/env python3` script and a `#!/bin/sh` wrapper, each in
    // a folder of its own, read what they need.
    let dir = tempfile::tempdir().unwrap();
    let py = dir.path().join("bot.py");
    std::fs::write(
        &py,
        "#!/usr/bin/env python3\nimport json, sys, os, tempfile\n\
         with tempfile.TemporaryFile() as f: f.write(b'x')\n\
         print(json.dumps({'ok': os.cpu_count() > 0}))\n",
    )
    .unwrap();
    let sh = dir.path().join("wrap.sh");
    std::fs::write(&sh, format!("#!/bin/sh\nexec {} \"$@\"\n", py.display())).unwrap();
    for f in [&py, &sh] {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let suite = suite_of(&[(
        "python".to_owned(),
        "summary: python\ncategory: process\nrules: [T-1]\ntimeout: 10\nstatus: 0\n\
         stdout: \"{\\\"ok\\\": true}\\n\"\n"
            .to_owned(),
    )]);
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    for program in [&py, &sh] {
        let (code, text) = output_of(
            harness(home.path(), tmp.path())
                .arg("--bin")
                .arg(program)
                .arg("--cases")
                .arg(suite.path()),
        );
        assert_eq!(code, 0, "{}: {text}", program.display());
    }
}
