//! Whole-process benchmarks of the release `nogo` binary (not timed tests:
//! they print numbers and check only that each run did its work).
//!
//! - computer against computer on 20×20 and on 100×100, stdout to a file
//!   and to `/dev/null`: min and median wall time, moves, bytes;
//! - a 1000×1000 load + one move + save (`nogo h h FILE` with stdin
//!   `r c` then `wOUT`, then end of input): wall time and peak RSS.
//!
//! Run with `cargo bench -p nogo-reference`; `NOGO_BENCH_RUNS` sets the
//! number of runs of each (default 10).

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark that cannot set up should stop loudly"
)]

use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use nogo_reference::savefile::to_bytes;
use nogo_reference::{Cell, Player, State, Stone};

#[path = "../../bench_support.rs"]
mod bench_support;

use bench_support::{median, peak_when_waiting, seconds};

const NOGO: &str = env!("CARGO_BIN_EXE_nogo");

/// (a) A computer game of `size`×`size`, stdout to `sink`.
fn computer_game(dir: &Path, size: usize, to_null: bool, runs: usize) {
    let output = dir.join(format!("out{size}.txt"));
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let stdout: File = if to_null {
            File::create("/dev/null").unwrap()
        } else {
            File::create(&output).unwrap()
        };
        let start = Instant::now();
        let status = Command::new(NOGO)
            .args(["c", "c", &size.to_string(), &size.to_string()])
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(Stdio::null())
            .status()
            .unwrap();
        times.push(start.elapsed());
        assert_eq!(status.code(), Some(0), "a computer game ends with a winner");
    }
    times.sort();
    // One more run, captured, for the game's length and size.
    let out = Command::new(NOGO)
        .args(["c", "c", &size.to_string(), &size.to_string()])
        .output()
        .unwrap();
    let moves = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| l.starts_with(b"Player ") && l.contains(&b':'))
        .count();
    let last = out
        .stdout
        .rsplit(|&b| b == b'\n')
        .nth(1)
        .unwrap_or_default();
    println!(
        "{size}x{size} computer game to {}: {moves} moves, {} bytes, {}; {runs} runs: min {}, median {}",
        if to_null { "/dev/null" } else { "a file" },
        out.stdout.len(),
        String::from_utf8_lossy(last),
        seconds(times[0]),
        seconds(median(&times)),
    );
}

/// A 1000×1000 position: a seeded pattern of stones over most of the board
/// with the top-left corner area left empty for the move.
fn big_state() -> State {
    let mut state = State::new(1000, 1000);
    let mut x: u64 = 2016;
    for r in 0..1000 {
        for c in 0..1000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let stone = match (r < 3 && c < 3, x % 3) {
                (true, _) | (false, 0) => Stone::Empty,
                (false, 1) => Stone::Taken(Player::O),
                (false, _) => Stone::Taken(Player::X),
            };
            state.grid.set(Cell::new(r, c), stone);
        }
    }
    state
}

/// (b) Load + one move + save of a 1000×1000 game, then end of input.
fn load_move_save(dir: &Path, runs: usize) {
    let file = dir.join("game1000.txt");
    let bytes = to_bytes(&big_state());
    fs::write(&file, &bytes).unwrap();
    let saved = dir.join("saved1000.txt");
    let input = format!("1 1\nw{}\n", saved.display());
    let stdin_file = dir.join("input.txt");
    fs::write(&stdin_file, &input).unwrap();
    let output = dir.join("out1000.txt");
    let spawn = |stdin: Stdio, stderr: Stdio| {
        Command::new(NOGO)
            .args(["h", "h"])
            .arg(&file)
            .stdin(stdin)
            .stdout(File::create(&output).unwrap())
            .stderr(stderr)
            .spawn()
            .unwrap()
    };
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        fs::remove_file(&saved).ok();
        let start = Instant::now();
        let status = spawn(File::open(&stdin_file).unwrap().into(), Stdio::null())
            .wait()
            .unwrap();
        times.push(start.elapsed());
        assert_eq!(
            status.code(),
            Some(6),
            "load, move, save, then end of input"
        );
        let after = fs::read(&saved).unwrap();
        assert_eq!(after.len(), bytes.len(), "the save has the loaded size");
        assert_eq!(&after[..2], b"10");
    }
    times.sort();
    let mut child = spawn(Stdio::piped(), Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    let peak = peak_when_waiting(&child);
    drop(stdin);
    let mut said = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut said)
        .unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(6));
    assert_eq!(said, "End of input from user\n");
    println!(
        "1000x1000 load + one move + save, {} byte file, {runs} runs: min {}, median {}; peak RSS {peak} KiB",
        bytes.len(),
        seconds(times[0]),
        seconds(median(&times)),
    );
}

fn main() {
    let runs = std::env::var("NOGO_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    println!("nogo binary: {NOGO}");
    for size in [20, 100] {
        computer_game(dir, size, false, runs);
        computer_game(dir, size, true, runs);
    }
    load_move_save(dir, runs);
}
