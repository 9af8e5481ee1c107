//! Containment: every process a program starts dies with its case, the
//! program cannot write outside its case folder nor stop the harness, and
//! Ctrl-C leaves nothing behind. These tests need the namespaces the
//! harness uses; where the kernel refuses them the harness falls back to a
//! process group, and says so (checked too).

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;

fn fixture_bin() -> &'static str {
    env!("CARGO_BIN_EXE_boxes-fixture-misbehave")
}

fn harness() -> Command {
    let mut cmd = Command::cargo_bin("boxes-harness").unwrap();
    cmd.env("NO_COLOR", "1")
        .env_remove("BOXES_BIN")
        .env_remove("BOXES_BLESS")
        .env_remove("CONFORMANCE_CONTAINMENT")
        .timeout(Duration::from_secs(120));
    cmd
}

/// A one-case suite in a fresh folder: `case` is the YAML of the case.
fn suite_with(case: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/misbehave");
    std::fs::copy(fixtures.join("suite.yaml"), dir.path().join("suite.yaml")).unwrap();
    std::fs::create_dir(dir.path().join("process")).unwrap();
    std::fs::write(dir.path().join("process/case.yaml"), case).unwrap();
    dir
}

fn run_suite(dir: &Path, env: &[(&str, &str)]) -> (i32, String) {
    let out = harness()
        .envs(env.iter().copied())
        .args(["--bin", fixture_bin(), "--cases"])
        .arg(dir)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

/// Processes whose command line contains `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if text.contains(marker) && !text.contains("cargo") {
                found.push(format!("{}: {text}", entry.file_name().to_string_lossy()));
            }
        }
    }
    found
}

/// The keepers' zygotes of the harness `pid` (their environment names it;
/// the keepers they fork have the same environment, not the same name).
fn zygotes_of(pid: u32) -> Vec<String> {
    let wanted = format!("CONFORMANCE_ZYGOTE={pid}");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(environ) = std::fs::read(entry.path().join("environ"))
            && environ.split(|&b| b == 0).any(|v| v == wanted.as_bytes())
            && std::fs::read_to_string(entry.path().join("comm"))
                .is_ok_and(|c| c.trim_end() == "conformance-zyg")
        {
            found.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    found
}

/// The harness on the suite in `dir`, started (not waited for), its
/// output piped, its run folders in `tmp`.
fn spawn_harness_on(dir: &Path, tmp: &Path) -> std::process::Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("boxes-harness"))
        .env("NO_COLOR", "1")
        .env("TMPDIR", tmp)
        .env_remove("CONFORMANCE_CONTAINMENT")
        .args(["--bin", fixture_bin(), "--cases"])
        .arg(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits (up to `secs`) until the processes marked `marker` number `n`
/// or more (`more`), or at most `n`.
fn wait_for_processes(marker: &str, n: usize, more: bool, secs: u64) {
    let start = std::time::Instant::now();
    while (processes_with(marker).len() >= n) != more && start.elapsed() < Duration::from_secs(secs)
    {
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A suite of `copies` cases whose program hangs (marked `marker`) until
/// `timeout`.
fn hanging_suite(marker: &str, timeout: u32, copies: usize) -> tempfile::TempDir {
    let case = format!(
        "summary: hangs\ncategory: process\nrules: [T-1]\nargs: [hang, {marker}]\n\
         timeout: {timeout}\nstatus: 0\n"
    );
    let dir = suite_with(&case);
    for i in 1..copies {
        std::fs::write(dir.path().join(format!("process/hang-{i}.yaml")), &case).unwrap();
    }
    dir
}

/// No zygote of `zygotes` is alive and nothing is left in `tmp`.
fn all_gone(zygotes: &[String], tmp: &Path) {
    for zygote in zygotes {
        assert!(
            !Path::new("/proc").join(zygote).exists(),
            "the zygote {zygote} outlived the harness"
        );
    }
    let left: Vec<_> = std::fs::read_dir(tmp).unwrap().flatten().collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

fn daemon_case(mode: &str, marker: &str) -> String {
    format!(
        "summary: a setsid daemon\ncategory: process\nrules: [T-2]\nargs: [{mode}, \"{marker}\"]\n\
         timeout: 5\nstatus: 0\nstdout: \"started\\n\"\n"
    )
}

fn namespaced(text: &str) -> bool {
    !text.contains("containment: process group only")
}

#[test]
fn a_setsid_daemon_dies_with_its_case() {
    let marker = "31.4159";
    let dir = suite_with(&daemon_case("daemon", marker));
    // At `landlock` (no namespace) the keeper, the daemons' subreaper,
    // kills them itself.
    for level in ["pid", "landlock"] {
        let (code, text) = run_suite(dir.path(), &[("CONFORMANCE_CONTAINMENT", level)]);
        assert!(namespaced(&text), "{level}: {text}");
        assert_eq!(code, 0, "{level}: {text}");
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(
            processes_with(marker),
            Vec::<String>::new(),
            "{level}: {text}"
        );
    }
}

#[test]
fn a_daemon_holding_the_output_is_named_and_killed() {
    let marker = "32.718";
    let dir = suite_with(&daemon_case("daemon-holding", marker));
    for level in ["pid", "landlock"] {
        let (code, text) = run_suite(dir.path(), &[("CONFORMANCE_CONTAINMENT", level)]);
        assert_eq!(code, 1, "{level}: {text}");
        assert!(
            text.contains("left a process running that kept its output open: `sleep` (pid"),
            "{level}: {text}"
        );
        assert!(
            text.contains("killed with the sandbox when the case ended"),
            "{level}: {text}"
        );
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(processes_with(marker), Vec::<String>::new(), "{level}");
    }
}

#[test]
fn the_landlock_level_says_what_it_cannot_promise() {
    let dir = suite_with(&daemon_case("daemon", "33.2"));
    let (code, text) = run_suite(dir.path(), &[("CONFORMANCE_CONTAINMENT", "landlock")]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(
            "containment: Landlock without namespaces, because CONFORMANCE_CONTAINMENT=landlock"
        ),
        "{text}"
    );
    assert!(
        text.contains("no PID namespace: a program sees the host's processes"),
        "{text}"
    );
}

#[test]
fn an_unknown_level_is_a_usage_error_naming_the_levels() {
    let dir = suite_with(&daemon_case("daemon", "33.0"));
    let (code, text) = run_suite(dir.path(), &[("CONFORMANCE_CONTAINMENT", "pidd")]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains(
            "CONFORMANCE_CONTAINMENT=pidd is not a containment level: one of pid, full, \
             landlock, group"
        ),
        "{text}"
    );
    assert_eq!(processes_with("33.0"), Vec::<String>::new(), "{text}");
}

#[test]
fn at_group_level_an_escaped_daemon_is_said_to_be_beyond_reach() {
    let dir = suite_with(&daemon_case("daemon-holding", "33.1"));
    let (code, text) = run_suite(dir.path(), &[("CONFORMANCE_CONTAINMENT", "group")]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("is beyond its reach"), "{text}");
    // The daemon escaped the group: this level cannot kill it.
    for p in processes_with("33.1") {
        if let Some(pid) = p.split(':').next() {
            let _ = std::process::Command::new("kill")
                .args(["-9", pid])
                .status();
        }
    }
}

fn write_outside_case(target: &Path) -> String {
    format!(
        "summary: writes outside\ncategory: process\nrules: [T-2]\n\
         args: [write-outside, \"{}\", /tmp/boxes-escaped.txt, ../../boxes-escaped-up.txt, \
         tmpdir-file]\ntimeout: 5\nstatus: 0\nstdout: \"written: tmpdir-file\\n\"\n",
        target.display()
    )
}

#[test]
fn writes_outside_the_case_folder_are_denied() {
    let outside = tempfile::tempdir().unwrap();
    let target: PathBuf = outside.path().join("escaped.txt");
    let dir = suite_with(&write_outside_case(&target));
    let (code, text) = run_suite(dir.path(), &[]);
    assert!(namespaced(&text), "{text}");
    assert!(!target.exists(), "{text}");
    assert!(!Path::new("/tmp/boxes-escaped.txt").exists(), "{text}");
    assert!(!Path::new("/tmp/boxes-escaped-up.txt").exists(), "{text}");
    // The default level (Landlock) refuses every write outside the case
    // folder, /tmp included: the program wrote only its own file.
    assert_eq!(code, 0, "{text}");
}

#[test]
fn with_full_containment_tmp_is_private_and_vanishes() {
    let outside = tempfile::tempdir().unwrap();
    let target: PathBuf = outside.path().join("escaped.txt");
    let dir = suite_with(&write_outside_case(&target));
    let (code, text) = run_suite(dir.path(), &[("CONFORMANCE_CONTAINMENT", "full")]);
    assert!(namespaced(&text), "{text}");
    assert!(!target.exists(), "{text}");
    assert!(!Path::new("/tmp/boxes-escaped.txt").exists(), "{text}");
    assert!(!Path::new("/tmp/boxes-escaped-up.txt").exists(), "{text}");
    // The host path is read-only; /tmp is private to the run, so writes
    // there succeed and vanish: the program says what it wrote.
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("+written: /tmp/boxes-escaped.txt ../../boxes-escaped-up.txt tmpdir-file"),
        "{text}"
    );
}

/// Runs the shell script `body` as `--bin` on a one-case suite expecting
/// `stdout` (its run folders in a folder of their own): the exit code,
/// the text, and what was left in the run folders.
fn run_script(body: &str, stdout: &str, env: &[(&str, &str)]) -> (Option<i32>, String, usize) {
    let bin_dir = tempfile::tempdir().unwrap();
    let script = bin_dir.path().join("uses-tmp");
    std::fs::write(&script, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let dir = suite_with(&format!(
        "summary: a temporary file\ncategory: process\nrules: [T-2]\ntimeout: 5\n\
         status: 0\nstdout: {stdout}\n"
    ));
    let runs = tempfile::tempdir().unwrap();
    let out = harness()
        .env("TMPDIR", runs.path())
        .envs(env.iter().copied())
        .args(["--bin"])
        .arg(&script)
        .arg("--cases")
        .arg(dir.path())
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let left = std::fs::read_dir(runs.path()).unwrap().count();
    (out.status.code(), text, left)
}

#[test]
fn the_private_temporary_folder_is_writable_and_removed() {
    // At the default level /tmp is read-only: TMPDIR names a folder of the
    // run's own, which goes with the run.
    let (code, text, left) = run_script(
        "printf kept > \"${TMPDIR:-/tmp}/scratch\" && cat \"${TMPDIR:-/tmp}/scratch\"",
        "kept",
        &[],
    );
    assert!(namespaced(&text), "{text}");
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(left, 0, "{text}");
}

#[test]
fn with_full_containment_folders_shown_read_only_are_not_the_programs_to_fill() {
    // The program's own folder lies beneath the host's /tmp, so the mount
    // namespace shows it read-only beneath the private /tmp; its bytes
    // are not the run's (so, too, a harness built under /tmp, shown to
    // the checkers it runs). The folder limit counts what the run writes:
    // the same bytes written to the private /tmp are killed.
    // Beneath /tmp itself, whatever TMPDIR says: that is what is shown
    // beneath the private /tmp.
    let bin_dir = tempfile::tempdir_in("/tmp").unwrap();
    std::fs::write(bin_dir.path().join("data"), vec![b'x'; 3 << 20]).unwrap();
    let run = |name: &str, body: &str| {
        let script = bin_dir.path().join(name);
        std::fs::write(&script, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        let dir = suite_with(
            "summary: three MiB\ncategory: process\nrules: [T-2]\ntimeout: 5\nstatus: 0\n\
             stdout: \"3145728\\n\"\n",
        );
        let out = harness()
            .env("CONFORMANCE_CONTAINMENT", "full")
            .args(["--max-folder", "1", "--bin"])
            .arg(&script)
            .arg("--cases")
            .arg(dir.path())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.code(), text)
    };
    let (code, text) = run("reads", "sleep 0.5 && wc -c < \"$(dirname \"$0\")/data\"");
    assert!(namespaced(&text), "{text}");
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = run(
        "writes",
        "cp \"$(dirname \"$0\")/data\" /tmp/copy && sleep 1 && wc -c < /tmp/copy",
    );
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("the folder limit"), "{text}");
}

#[test]
fn with_full_containment_a_program_reads_back_its_private_tmp() {
    // A mount namespace gives the program a /tmp of its own and no
    // TMPDIR: `mktemp` (O_RDWR, as `tmpfile()` and `mkstemp()` open) and a
    // file written by name there must read back.
    let (code, text, left) = run_script(
        "f=$(mktemp) && printf kept > \"$f\" && cat \"$f\" && \
         printf kept > /tmp/boxes-private-scratch && cat /tmp/boxes-private-scratch",
        "keptkept",
        &[("CONFORMANCE_CONTAINMENT", "full")],
    );
    assert!(namespaced(&text), "{text}");
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(left, 0, "{text}");
    assert!(!Path::new("/tmp/boxes-private-scratch").exists(), "{text}");
}

#[test]
fn a_program_cannot_stop_the_harness() {
    let case = "summary: stops its parent\ncategory: process\nrules: [T-2]\n\
                args: [stop-parent]\ntimeout: 5\nstatus: 0\nstdout: \"done\\n\"\n";
    let dir = suite_with(case);
    for level in ["pid", "landlock"] {
        let (code, text) = run_suite(dir.path(), &[("CONFORMANCE_CONTAINMENT", level)]);
        assert!(namespaced(&text), "{level}: {text}");
        assert_eq!(code, 0, "{level}: {text}");
    }
}

#[test]
fn ctrl_c_kills_every_program_and_removes_every_sandbox() {
    let marker = "interrupt-marker-4711";
    let dir = hanging_suite(marker, 60, 4);
    let tmp = tempfile::tempdir().unwrap();
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("boxes-harness"))
        .env("NO_COLOR", "1")
        .env("TMPDIR", tmp.path())
        .env_remove("CONFORMANCE_CONTAINMENT")
        .args(["--bin", fixture_bin(), "--test-threads", "2", "--cases"])
        .arg(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until both programs run.
    let start = std::time::Instant::now();
    while processes_with(marker).len() < 2 && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        processes_with(marker).len(),
        2,
        "the hanging programs never started"
    );
    let zygotes = zygotes_of(child.id());
    let pid = rustix::process::Pid::from_child(&child);
    rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
    let out = child.wait_with_output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{text}");
    assert!(
        text.contains("interrupted by SIGINT (2): 0 cases finished"),
        "{text}"
    );
    if namespaced(&text) {
        assert_eq!(
            zygotes.len(),
            1,
            "contained runs share one zygote: {zygotes:?}"
        );
    }
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(processes_with(marker), Vec::<String>::new(), "{text}");
    all_gone(&zygotes, tmp.path());
}

#[test]
fn the_keepers_zygote_ends_before_the_harness_does() {
    let marker = "zygote-marker-2718";
    let dir = hanging_suite(marker, 2, 1);
    let tmp = tempfile::tempdir().unwrap();
    let child = spawn_harness_on(dir.path(), tmp.path());
    wait_for_processes(marker, 1, true, 30);
    let zygotes = zygotes_of(child.id());
    let out = child.wait_with_output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}");
    if namespaced(&text) {
        assert_eq!(zygotes.len(), 1, "{zygotes:?}\n{text}");
    }
    // Not a moment later: the harness waited for the zygote.
    all_gone(&zygotes, tmp.path());
    assert_eq!(processes_with(marker), Vec::<String>::new(), "{text}");
}

#[test]
fn a_harness_killed_outright_leaves_no_program_running() {
    // SIGKILL: no handler runs, nothing is cleaned up by the harness; the
    // sandbox's own processes must see their caller gone and end.
    let marker = "sigkill-marker-1618";
    let dir = hanging_suite(marker, 60, 1);
    // A harness killed outright cannot remove its run folders: they go
    // where this test removes them.
    let tmp = tempfile::tempdir().unwrap();
    let mut child = spawn_harness_on(dir.path(), tmp.path());
    wait_for_processes(marker, 1, true, 30);
    assert_eq!(processes_with(marker).len(), 1, "the program never started");
    child.kill().unwrap();
    child.wait().unwrap();
    wait_for_processes(marker, 1, false, 10);
    assert_eq!(processes_with(marker), Vec::<String>::new());
}

#[test]
fn sigterm_with_the_output_closed_still_ends_the_harness() {
    // The interrupt report met a closed stdout: `println!` panicked, the
    // quiet hook stopped every run again under the lock the report ran
    // under, and the harness hung for ever (found by benches/hostile.rs).
    let marker = "sigterm-closed-marker-4712";
    let dir = hanging_suite(marker, 60, 2);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("boxes-harness"))
        .env("NO_COLOR", "1")
        .args(["--bin", fixture_bin(), "--test-threads", "2", "--cases"])
        .arg(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while processes_with(marker).len() < 2 && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(child.stdout.take());
    let pid = rustix::process::Pid::from_child(&child);
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    // Not a timing: a minute only bounds the wait for a harness that hangs.
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let status = status.expect("the harness never ended after SIGTERM");
    assert_eq!(status.code(), Some(143));
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(processes_with(marker), Vec::<String>::new());
}

#[test]
fn ctrl_c_during_diff_kills_every_program_and_removes_every_folder() {
    // `diff` and the preflight of `--bin` are interrupted as cleanly as a
    // run of cases: in a process group (the weakest level), nothing else
    // would kill the sleeping programs.
    let marker = "61.9";
    let bin_dir = tempfile::tempdir().unwrap();
    let bin = bin_dir.path().join("sleeper");
    std::fs::write(&bin, format!("#!/bin/sh\nexec sleep {marker}\n")).unwrap();
    std::fs::set_permissions(&bin, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("boxes-harness"))
        .env("TMPDIR", tmp.path())
        .env("CONFORMANCE_CONTAINMENT", "group")
        .args(["diff", "--timeout", "60", "--bin"])
        .arg(&bin)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while processes_with(marker).is_empty() && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !processes_with(marker).is_empty(),
        "the program never started"
    );
    let pid = rustix::process::Pid::from_child(&child);
    rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
    let out = child.wait_with_output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{text}");
    assert!(text.contains("interrupted by SIGINT (2)"), "{text}");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(processes_with(marker), Vec::<String>::new(), "{text}");
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().flatten().collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}
