//! The `boxes` binary as a whole process: exit statuses, files, full games,
//! and the faults a process meets (a full disk, a closed pipe, huge lines).

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "helpers of tests fail the test by panicking"
)]

use crate::common;

use std::fs;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

use common::{Model, boxes, expected_stdout, input_of, shuffled_moves};

const EMPTY_2X2: &[u8] = b"+ + +\n     \n+ + +\n     \n+ + +\n";

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

#[test]
fn exit_1_usage() {
    for args in [&[][..], &["2", "2"], &["2", "2", "2", "f", "x"]] {
        boxes()
            .args(args)
            .assert()
            .code(1)
            .stdout("")
            .stderr("Usage: boxes height width playercount [filename]\n");
    }
}

#[test]
fn exit_2_dimensions() {
    for args in [
        ["1", "2", "2"],
        ["2", "1000", "2"],
        ["3x", "3", "2"],
        ["", "3", "2"],
    ] {
        boxes()
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr("Invalid grid dimensions\n");
    }
    let not_utf8 = std::ffi::OsStr::from_bytes(b"\xff");
    boxes()
        .arg(not_utf8)
        .args(["2", "2"])
        .assert()
        .code(2)
        .stderr("Invalid grid dimensions\n");
}

#[test]
fn exit_3_player_count() {
    for args in [["2", "2", "1"], ["2", "2", "101"], ["2", "2", "0x10"]] {
        boxes()
            .args(args)
            .assert()
            .code(3)
            .stdout("")
            .stderr("Invalid player count\n");
    }
}

#[test]
fn exit_4_unopenable_grid_file() {
    let dir = tempdir();
    boxes()
        .args(["2", "2", "2"])
        .arg(dir.path().join("missing"))
        .write_stdin("0 0 h\n")
        .assert()
        .code(4)
        .stdout("")
        .stderr("Invalid grid file\n");
}

#[test]
fn exit_5_grid_contents_and_directory() {
    let dir = tempdir();
    let bad = dir.path().join("bad");
    fs::write(&bad, b"1\n00\n000\n00\n000\n00\n0,0\n0,3\n").unwrap();
    for path in [bad.as_path(), dir.path()] {
        boxes()
            .args(["2", "2", "2"])
            .arg(path)
            .assert()
            .code(5)
            .stdout("")
            .stderr("Error reading grid contents\n");
    }
}

#[test]
fn exit_6_end_of_user_input() {
    boxes()
        .args(["2", "2", "2"])
        .write_stdin("0 0 h")
        .assert()
        .code(6)
        .stdout([EMPTY_2X2, b"A> +-+ +\n     \n+ + +\n     \n+ + +\nB> "].concat())
        .stderr("End of user input\n");
}

#[test]
fn worked_example_is_byte_exact() {
    let input = "0 0 h\n0 0 v\n0 2 v\n1 2 h\n1 2 v\n1 1 h\n0 1 h\n0 1 v\n1 0 h\n2 0 h\n1 0 v\n2 1 h\n1 1 v\n";
    let expected: &[u8] = b"+ + +\n     \n+ + +\n     \n+ + +\n\
        A> +-+ +\n     \n+ + +\n     \n+ + +\n\
        B> +-+ +\n|    \n+ + +\n     \n+ + +\n\
        A> +-+ +\n|   |\n+ + +\n     \n+ + +\n\
        B> B> +-+ +\n|   |\n+ + +\n    |\n+ + +\n\
        A> +-+ +\n|   |\n+ +-+\n    |\n+ + +\n\
        B> +-+-+\n|   |\n+ +-+\n    |\n+ + +\n\
        A> +-+-+\n| |A|\n+ +-+\n    |\n+ + +\n\
        A> +-+-+\n|A|A|\n+-+-+\n    |\n+ + +\n\
        A> +-+-+\n|A|A|\n+-+-+\n    |\n+-+ +\n\
        B> +-+-+\n|A|A|\n+-+-+\n|   |\n+-+ +\n\
        A> +-+-+\n|A|A|\n+-+-+\n|   |\n+-+-+\n\
        B> +-+-+\n|A|A|\n+-+-+\n|B|B|\n+-+-+\n\
        Winner(s): A, B\n";
    boxes()
        .args(["2", "2", "2"])
        .write_stdin(input)
        .assert()
        .code(0)
        .stdout(expected)
        .stderr("");
}

#[test]
fn loading_the_example_file_and_playing_on() {
    let dir = tempdir();
    let path = dir.path().join("example");
    fs::write(
        &path,
        b"1\n000\n0100\n011\n0111\n011\n1000\n100\n0,0,0\n0,1,2\n0,0,0\n",
    )
    .unwrap();
    let start: &[u8] = b"+ + + +\n  |    \n+ +-+-+\n  |A|B|\n+ +-+-+\n|      \n+-+ + +\n";
    // A closes 1 0 v: cell (1, 0) lacks only its left edge... and 0 0 h.
    let after: &[u8] = b"+ + + +\n  |    \n+ +-+-+\n| |A|B|\n+ +-+-+\n|      \n+-+ + +\n";
    boxes()
        .args(["3", "3", "2"])
        .arg(&path)
        .write_stdin("1 0 v\n")
        .assert()
        .code(6)
        .stdout([start, b"A> ", after, b"B> "].concat())
        .stderr("End of user input\n");
}

#[test]
fn save_success_writes_the_file_format() {
    let dir = tempdir();
    let path = dir.path().join("saved game");
    let mut input = b"0 0 h\n1 1 v\nw ".to_vec();
    input.extend_from_slice(path.as_os_str().as_bytes());
    input.push(b'\n');
    boxes()
        .args(["2", "3", "2"])
        .write_stdin(input)
        .assert()
        .code(6)
        .stderr("Save complete\nEnd of user input\n");
    assert_eq!(
        fs::read(&path).unwrap(),
        b"1\n100\n0000\n000\n0100\n000\n0,0,0\n0,0,0\n"
    );
}

#[test]
fn save_over_the_grid_file_being_played_replaces_it() {
    let dir = tempdir();
    let path = dir.path().join("game");
    fs::write(&path, b"2\n10\n000\n00\n000\n00\n0,0\n0,0\n").unwrap();
    let mut input = b"1 1 v\nw ".to_vec();
    input.extend_from_slice(path.as_os_str().as_bytes());
    input.push(b'\n');
    boxes()
        .args(["2", "2", "2"])
        .arg(&path)
        .write_stdin(input)
        .assert()
        .code(6)
        .stderr("Save complete\nEnd of user input\n");
    assert_eq!(
        fs::read(&path).unwrap(),
        b"1\n10\n000\n00\n010\n00\n0,0\n0,0\n"
    );
}

#[test]
fn save_failures_report_and_play_goes_on() {
    let dir = tempdir();
    let missing = dir.path().join("no").join("such").join("file");
    let mut input = Vec::new();
    for path in [
        missing.as_os_str().as_bytes(),
        dir.path().as_os_str().as_bytes(),
        b"/dev/full",
    ] {
        input.extend_from_slice(b"w ");
        input.extend_from_slice(path);
        input.push(b'\n');
    }
    let moves = shuffled_moves(2, 2, 7);
    input.extend(input_of(&moves));
    let (game, _) = expected_stdout(&Model::new(2, 2, 2), &moves);
    let mut expected = game[..EMPTY_2X2.len()].to_vec();
    expected.extend_from_slice(b"A> A> A> ");
    expected.extend_from_slice(&game[EMPTY_2X2.len()..]);
    boxes()
        .args(["2", "2", "2"])
        .write_stdin(input)
        .assert()
        .code(0)
        .stdout(expected)
        .stderr("Can not open file for write\n".repeat(3));
    assert!(!missing.exists());
}

/// The first shuffle seed whose game (per the model) gives a cell to the
/// last player: a game that exercises every symbol's turn.
fn seed_where_last_player_scores(h: usize, w: usize, p: usize) -> u64 {
    (0..1000)
        .find(|&seed| {
            let (_, end) = expected_stdout(&Model::new(h, w, p), &shuffled_moves(h, w, seed));
            end.owner.contains(&p)
        })
        .expect("a seed where the last player scores")
}

/// Plays a shuffled full game and checks every byte against the model.
fn full_game(h: usize, w: usize, p: usize) -> (Vec<u8>, Model) {
    let seed = seed_where_last_player_scores(h, w, p);
    let moves = shuffled_moves(h, w, seed);
    let (expected, end) = expected_stdout(&Model::new(h, w, p), &moves);
    let out = boxes()
        .args([h.to_string(), w.to_string(), p.to_string()])
        .write_stdin(input_of(&moves))
        .assert()
        .code(0)
        .stderr("")
        .get_output()
        .stdout
        .clone();
    assert!(
        out == expected,
        "the {h}x{w} game of {p} players differs from the model"
    );
    assert!(out.ends_with(&end.winners_line()));
    (out, end)
}

#[test]
fn full_game_2_players() {
    let (out, _) = full_game(5, 7, 2);
    assert!(out.ends_with(b"\n") && out.windows(11).any(|w| w == b"Winner(s): "));
}

#[test]
fn full_game_3_players() {
    let (_, end) = full_game(6, 6, 3);
    assert!(end.owner.contains(&3), "C should own a cell in this game");
}

#[test]
fn full_game_26_players() {
    let (out, end) = full_game(9, 11, 26);
    assert!(end.owner.contains(&26), "Z should own a cell in this game");
    assert!(out.contains(&b'Z'));
}

#[test]
fn full_game_100_players_raw_symbol_bytes() {
    let (out, end) = full_game(15, 15, 100);
    let high = end.owner.iter().filter(|&&o| o > 63).count();
    assert!(high > 0, "players above 63 should own cells in this game");
    // Their symbols are single raw bytes: DEL (127) and bytes above it.
    let grid_start = out.len() - end.render().len() - end.winners_line().len();
    assert!(out[grid_start..].iter().any(|&b| b > 127));
    assert!(out.iter().all(|&b| b != 0));
}

#[test]
fn player_100_symbol_is_the_raw_byte_a4() {
    // A loaded game where player 100 completes every open cell and wins.
    let dir = tempdir();
    let path = dir.path().join("g");
    fs::write(&path, b"100\n11\n101\n10\n111\n11\n0,0\n50,0\n").unwrap();
    let expected = [
        &b"+-+-+\n|   |\n+-+ +\n|r| |\n+-+-+\n\xa4> "[..],
        b"+-+-+\n|\xa4| |\n+-+ +\n|r| |\n+-+-+\n\xa4> ",
        b"+-+-+\n|\xa4|\xa4|\n+-+-+\n|r|\xa4|\n+-+-+\nWinner(s): \xa4\n",
    ]
    .concat();
    boxes()
        .args(["2", "2", "100"])
        .arg(&path)
        .write_stdin("0 1 v\n1 1 h\n")
        .assert()
        .code(0)
        .stdout(expected)
        .stderr("");
}

#[test]
fn double_cell_completion_gives_one_extra_turn() {
    // B's 0 1 v closes both top cells; B moves again, once.
    let input = "0 0 h\n0 1 h\n1 1 h\n1 0 h\n0 2 v\n0 0 v\n1 0 v\n0 1 v\n";
    let out = boxes()
        .args(["2", "2", "2"])
        .write_stdin(input)
        .assert()
        .code(6)
        .get_output()
        .stdout
        .clone();
    assert!(out.ends_with(b"B> +-+-+\n|B|B|\n+-+-+\n|    \n+ + +\nB> "));
}

#[test]
fn chained_extra_turns() {
    let input =
        "0 0 h\n0 1 h\n2 0 h\n2 1 h\n0 0 v\n0 2 v\n1 0 v\n1 2 v\n1 0 h\n0 1 v\n1 1 h\n1 1 v\n";
    let out = boxes()
        .args(["2", "2", "3"])
        .write_stdin(input)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    // Three players: the ninth move (1 0 h) is C's and completes nothing;
    // A's 0 1 v, 1 1 h and 1 1 v each complete cells: A keeps the turn.
    let tail: &[u8] = b"A> +-+-+\n|A| |\n+-+ +\n|   |\n+-+-+\n\
        A> +-+-+\n|A|A|\n+-+-+\n|   |\n+-+-+\n\
        A> +-+-+\n|A|A|\n+-+-+\n|A|A|\n+-+-+\nWinner(s): A\n";
    assert!(out.ends_with(tail), "{}", String::from_utf8_lossy(&out));
}

#[test]
fn save_then_load_resumes_identically() {
    let (h, w, p) = (5, 6, 3);
    let moves = shuffled_moves(h, w, 11);
    let k = moves.len() / 2;
    let args = [h.to_string(), w.to_string(), p.to_string()];
    let whole = boxes()
        .args(&args)
        .write_stdin(input_of(&moves))
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let dir = tempdir();
    let path = dir.path().join("half");
    let mut first = input_of(&moves[..k]);
    first.extend_from_slice(b"w ");
    first.extend_from_slice(path.as_os_str().as_bytes());
    first.push(b'\n');
    let part = boxes()
        .args(&args)
        .write_stdin(first)
        .assert()
        .code(6)
        .stderr("Save complete\nEnd of user input\n")
        .get_output()
        .stdout
        .clone();
    let (_, at_k) = expected_stdout(&Model::new(h, w, p), &moves[..k]);
    assert_eq!(fs::read(&path).unwrap(), at_k.file());
    let rest = boxes()
        .args(&args)
        .arg(&path)
        .write_stdin(input_of(&moves[k..]))
        .assert()
        .code(0)
        .stderr("")
        .get_output()
        .stdout
        .clone();
    // part = G0 … Gk P P (the save reprints the prompt); rest = Gk P … end.
    let split = part.len() - 2 * 3 - at_k.render().len();
    assert_eq!(whole[..split], part[..split]);
    assert_eq!(whole[split..], rest[..]);
}

#[test]
fn stdout_dev_full_is_system_call_failure() {
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_boxes"))
        .args(["2", "2", "2"])
        .stdin(Stdio::null())
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(9));
    assert_eq!(out.stderr, b"System call failure\n");
}

#[test]
fn stdout_closed_pipe_exits_9_without_sigpipe() {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_boxes"))
        .args(["2", "2", "2"])
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.signal(), None);
    assert_eq!(out.status.code(), Some(9));
    assert_eq!(out.stderr, b"System call failure\n");
}

/// Peak resident memory of a live process, in KiB.
fn peak_rss_kib(pid: u32) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc status")
}

#[test]
fn multi_megabyte_line_is_one_invalid_move_in_bounded_memory() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boxes"))
        .args(["2", "2", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'7'; 1 << 20];
        for _ in 0..24 {
            stdin.write_all(&chunk).unwrap();
        }
        stdin.write_all(b" 0 h\n0 0 h\n").unwrap();
        stdin
    });
    // Once B's prompt is out, the 24 MiB line and the move after it are
    // consumed and the process waits for input: its peak memory is known.
    let expected = [EMPTY_2X2, b"A> A> +-+ +\n     \n+ + +\n     \n+ + +\nB> "].concat();
    let mut out = child.stdout.take().unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while seen.len() < expected.len() {
        let n = std::io::Read::read(&mut out, &mut buf).unwrap();
        assert!(
            n > 0,
            "stdout ended early: {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&buf[..n]);
    }
    let peak = peak_rss_kib(child.id());
    drop(writer.join().unwrap());
    let status = child.wait().unwrap();
    assert_eq!(seen, expected);
    assert_eq!(status.code(), Some(6));
    assert!(peak < 16 * 1024, "peak RSS {peak} KiB for a 24 MiB line");
}
