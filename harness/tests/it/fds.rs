//! A program under test gets fds 0, 1 and 2 and nothing else of ours, at
//! every containment level, however many descriptors the harness's caller
//! left open without close-on-exec (a file, a pipe, a socket).

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]

use std::path::Path;

/// A program that lists the descriptors `ls` holds: 0-2 and its own 3 (the
/// listed folder) when nothing else is inherited. (Not a shell loop over
/// `>&N`: bash saves redirected descriptors at 10 and above.)
const LIST_FDS: &str = "ls /proc/self/fd | tr '\\n' ' '";

/// A one-case suite whose program is `bash -c LIST_FDS`.
fn suite() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("suite.yaml"),
        "name: fds\ncategories:\n  - name: fds\n    marks: 1\n",
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("fds")).unwrap();
    std::fs::write(
        dir.path().join("fds/only-0-2.yaml"),
        format!(
            "summary: the program holds no descriptor above 2\ncategory: fds\nrules: [T-1]\n\
             args: [-c, {LIST_FDS:?}]\nstdout: \"0 1 2 3 \"\nstatus: 0\n"
        ),
    )
    .unwrap();
    dir
}

/// Runs `command` (words) with a socket inherited without close-on-exec,
/// from a shell that also opens fd 7 on a file and fds 8 and 9 on pipes.
fn with_extra_fds(dir: &Path, command: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let (socket, peer) = std::os::unix::net::UnixStream::pair().unwrap();
    rustix::io::fcntl_setfd(&socket, rustix::io::FdFlags::empty()).unwrap();
    let file = dir.join("held.txt");
    let script = format!(
        "exec 7>{file} 8< <(exec sleep 5 2>/dev/null) 9< <(exec sleep 5 2>/dev/null); exec \"$@\"",
        file = file.display()
    );
    let mut cmd = std::process::Command::new("bash");
    cmd.args(["-c", &script, "bash"])
        .args(command)
        .envs(env.iter().copied());
    let out = cmd.output().unwrap();
    drop((socket, peer));
    out
}

#[test]
fn a_case_sees_only_fds_0_to_2_at_every_level() {
    let cases = suite();
    let harness = env!("CARGO_BIN_EXE_boxes-harness");
    for level in ["group", "pid", "full"] {
        let out = with_extra_fds(
            cases.path(),
            &[
                harness,
                "--bin",
                "/bin/bash",
                "--cases",
                cases.path().to_str().unwrap(),
                "-v",
            ],
            &[("CONFORMANCE_CONTAINMENT", level), ("NO_COLOR", "1")],
        );
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{level}: {text}");
        assert!(text.contains("1 passed"), "{level}: {text}");
    }
}

#[test]
fn a_bot_sees_only_fds_0_to_2_at_every_level() {
    let dir = tempfile::tempdir().unwrap();
    let referee = Path::new(env!("CARGO_BIN_EXE_boxes-harness")).with_file_name("cg-referee");
    if !referee.exists() {
        // The referee is another package's binary: built by `cargo test
        // --workspace`, not always by `cargo test -p boxes-harness`.
        eprintln!("skipped: {} not built", referee.display());
        return;
    }
    let greedy = referee.with_file_name("cg-fixture-greedy");
    // The bot plays (as the greedy fixture, copied beside it: a bot reads
    // its own folder, not `target/`) only if it holds no extra
    // descriptor; otherwise it quits, a forfeit.
    let bot = dir.path().join("bot.sh");
    let own_greedy = dir.path().join("greedy");
    std::fs::copy(&greedy, &own_greedy).unwrap();
    std::fs::write(
        &bot,
        format!(
            "#!/bin/bash\nif [ \"$({LIST_FDS})\" != \"0 1 2 3 \" ]; then exit 3; fi\nexec {}\n",
            own_greedy.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&bot, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    for level in ["group", "pid", "full"] {
        let out = with_extra_fds(
            dir.path(),
            &[
                referee.to_str().unwrap(),
                "--p1",
                bot.to_str().unwrap(),
                "--p2",
                greedy.to_str().unwrap(),
                "--size",
                "2",
            ],
            &[("CONFORMANCE_CONTAINMENT", level)],
        );
        let record = String::from_utf8_lossy(&out.stdout);
        assert!(
            record.contains("\"forfeit\":null"),
            "{level}: {record}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
