//! The `nogo` binary as a whole process: every exit status, the COMP-5
//! game, files, and the faults a process meets (huge lines, full stdout).

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "helpers of tests fail the test by panicking"
)]

use std::fs;
use std::io::Write;
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

const NOGO: &str = env!("CARGO_BIN_EXE_nogo");

fn nogo() -> assert_cmd::Command {
    assert_cmd::Command::new(NOGO)
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

const EMPTY_4X4: &str = "/----\\\n|....|\n|....|\n|....|\n|....|\n\\----/\n";

#[test]
fn exit_0_comp_5_game_byte_for_byte() {
    // Written by hand from COMP-5 and GRID-1.
    let expected = [
        EMPTY_4X4,
        "Player O: 1 0\n/----\\\n|....|\n|O...|\n|....|\n|....|\n\\----/\n",
        "Player X: 2 2\n/----\\\n|....|\n|O...|\n|..X.|\n|....|\n\\----/\n",
        "Player O: 2 1\n/----\\\n|....|\n|O...|\n|.OX.|\n|....|\n\\----/\n",
        "Player X: 3 3\n/----\\\n|....|\n|O...|\n|.OX.|\n|...X|\n\\----/\n",
        "Player O: 0 2\n/----\\\n|..O.|\n|O...|\n|.OX.|\n|...X|\n\\----/\n",
        "Player X: 2 0\n/----\\\n|..O.|\n|O...|\n|XOX.|\n|...X|\n\\----/\n",
        "Player O: 1 2\n/----\\\n|..O.|\n|O.O.|\n|XOX.|\n|...X|\n\\----/\n",
        "Player X: 0 3\n/----\\\n|..OX|\n|O.O.|\n|XOX.|\n|...X|\n\\----/\n",
        "Player O: 1 3\n/----\\\n|..OX|\n|O.OO|\n|XOX.|\n|...X|\n\\----/\n",
        "Player O wins\n",
    ]
    .concat();
    nogo()
        .args(["c", "c", "4", "4"])
        .assert()
        .code(0)
        .stdout(expected)
        .stderr("");
}

#[test]
fn exit_1_usage() {
    for args in [&[][..], &["c"], &["c", "h"], &["c", "h", "4", "4", "f"]] {
        nogo()
            .args(args)
            .assert()
            .code(1)
            .stdout("")
            .stderr("Usage: nogo p1type p2type [height width | filename]\n");
    }
}

#[test]
fn exit_2_player_type() {
    for args in [
        ["C", "h", "4", "4"],
        ["c", "hh", "4", "4"],
        ["c", "", "x", "y"],
    ] {
        nogo()
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr("Invalid player type\n");
    }
}

#[test]
fn exit_3_dimension() {
    for args in [
        ["c", "c", "3", "4"],
        ["c", "c", "4", "1001"],
        ["c", "c", "5x", "4"],
        ["c", "c", "", "4"],
        ["c", "c", "4", "99999999999999999999999"],
    ] {
        nogo()
            .args(args)
            .assert()
            .code(3)
            .stdout("")
            .stderr("Invalid board dimension\n");
    }
}

#[test]
fn exit_4_unable_to_open() {
    let dir = tempdir();
    nogo()
        .args(["h", "h"])
        .arg(dir.path().join("missing"))
        .assert()
        .code(4)
        .stdout("")
        .stderr("Unable to open file\n");
}

#[test]
fn exit_5_contents_and_directory() {
    let dir = tempdir();
    let bad = dir.path().join("bad");
    fs::write(&bad, "4 4 0 1 0 0 2 2 0\n....\n....\n....\n").unwrap();
    for path in [bad.as_path(), dir.path()] {
        nogo()
            .args(["h", "c"])
            .arg(path)
            .assert()
            .code(5)
            .stdout("")
            .stderr("Incorrect file contents\n");
    }
}

#[test]
fn exit_6_end_of_input() {
    nogo()
        .args(["h", "h", "4", "4"])
        .write_stdin("1 1\n")
        .assert()
        .code(6)
        .stdout(format!(
            "{EMPTY_4X4}Player O> /----\\\n|....|\n|.O..|\n|....|\n|....|\n\\----/\nPlayer X> "
        ))
        .stderr("End of input from user\n");
}

#[test]
fn save_and_reload_round_trip() {
    let dir = tempdir();
    let path = dir.path().join("game");
    nogo()
        .args(["h", "c", "5", "6"])
        .write_stdin(format!("0 0\n3 3\nw{}\n", path.display()))
        .assert()
        .code(6);
    let saved = fs::read(&path).unwrap();
    // O played 0 0, X 2 4 (its start: 2, 10 mod 6), O 3 3, X 3 5 (m1:
    // +1 +1); X's next is m2: (5, 6) reduced to (0, 0). O saved.
    assert_eq!(
        saved,
        b"5 6 0 1 4 0 0 0 2\nO.....\n......\n....X.\n...O.X\n......\n"
    );
    nogo()
        .args(["h", "c"])
        .arg(&path)
        .write_stdin(format!("w{}\n", path.display()))
        .assert()
        .code(6);
    assert_eq!(fs::read(&path).unwrap(), saved);
}

#[test]
fn stdout_full_changes_no_status() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let status = Command::new(NOGO)
        .args(["c", "c", "20", "20"])
        .stdout(full)
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
}

/// The peak resident memory of a live process, in KiB.
fn peak_rss_kib(pid: u32) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc status")
}

/// Whether the process sleeps (waits on its read of stdin).
fn sleeping(pid: u32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit_once(") ").map(|(_, rest)| rest.starts_with('S')))
        .unwrap_or(false)
}

#[test]
fn turn_4_hundred_megabyte_line_in_bounded_memory() {
    let mut child = Command::new(NOGO)
        .args(["h", "h", "4", "4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let chunk = vec![b'0'; 1 << 20];
    for _ in 0..100 {
        stdin.write_all(&chunk).unwrap();
    }
    // 100 MB of zeros, then " 1\n": one line, a valid move (row 0).
    stdin.write_all(b" 1\n").unwrap();
    let pid = child.id();
    while !sleeping(pid) {
        thread::sleep(Duration::from_millis(1));
    }
    let peak = peak_rss_kib(pid);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(6));
    assert!(
        out.stdout
            .ends_with(b"|.O..|\n|....|\n|....|\n|....|\n\\----/\nPlayer X> "),
        "the long line is the move 0 1"
    );
    assert!(peak < 16 * 1024, "peak RSS {peak} KiB for a 100 MB line");
}

/// FILE-3: a game loaded at move number 2147483647 and played on saves
/// 2147483648 and up, and that save loads again: the reference never
/// writes a file it then refuses.
#[test]
fn a_save_past_2147483647_loads_again() {
    let dir = tempdir();
    std::fs::write(
        dir.path().join("game"),
        "4 4 0 1 0 2147483647 2 2 2147483647\n....\n....\n....\n....\n",
    )
    .unwrap();
    nogo()
        .current_dir(dir.path())
        .args(["h", "c", "game"])
        .write_stdin("0 0\nwout\n")
        .assert()
        .code(6);
    let saved = std::fs::read_to_string(dir.path().join("out")).unwrap();
    let header: Vec<&str> = saved.lines().next().unwrap().split(' ').collect();
    assert_eq!(header[8], "2147483648", "{saved}");
    nogo()
        .current_dir(dir.path())
        .args(["h", "h", "out"])
        .assert()
        .code(6);
}
