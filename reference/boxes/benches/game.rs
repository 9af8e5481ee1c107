//! Whole-process benchmarks of the release `boxes` binary (not timed tests:
//! they print numbers and check only that each run did its work).
//!
//! - a full 60×60 game, 2 players, 7,320 moves in a seeded shuffled order,
//!   stdout to a file (about 108 MB): min and median wall time;
//! - a 999×999 load + render + save: wall time and peak RSS;
//! - a 1 GB input line with no newline fed to a 2×2 game: wall time and
//!   peak RSS.
//!
//! Peak RSS is the child's `VmHWM` read from `/proc` once the child has
//! done all its work and sleeps waiting for more input.
//!
//! Run with `cargo bench -p boxes-reference`; `BOXES_BENCH_RUNS` sets the
//! number of 60×60 runs (default 20).

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark that cannot set up should stop loudly"
)]

use std::fmt::Write as _;
use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use boxes_reference::gridfile::to_bytes;
use boxes_reference::{Grid, State};

#[path = "../../bench_support.rs"]
mod bench_support;

use bench_support::{median, peak_when_waiting, seconds};

const BOXES: &str = env!("CARGO_BIN_EXE_boxes");

/// SplitMix64: a tiny deterministic generator for the move order.
struct Prng(u64);

impl Prng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = usize::try_from(self.next_u64() % (i as u64 + 1)).unwrap();
            items.swap(i, j);
        }
    }
}

fn mib(kib: u64) -> f64 {
    f64::from(u32::try_from(kib).unwrap_or(u32::MAX)) / 1024.0
}

/// CPU time (user + system) of all waited-for children so far, from
/// `/proc/self/stat` (`cutime` + `cstime`, in USER_HZ = 100 ticks a second).
fn children_cpu() -> Duration {
    let stat = fs::read_to_string("/proc/self/stat").unwrap();
    let (_, rest) = stat.rsplit_once(") ").unwrap();
    // Fields after the command: state is field 3; cutime, cstime are 16, 17.
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = fields[13].parse::<u64>().unwrap() + fields[14].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10)
}

/// (a) A full 60×60 game written to a file.
fn full_game(dir: &Path, runs: usize) {
    let (h, w) = (60, 60);
    let mut moves: Vec<_> = Grid::new(h, w).edges().collect();
    Prng(2015).shuffle(&mut moves);
    let input = dir.join("moves60.txt");
    let lines = moves.iter().fold(String::new(), |mut s, e| {
        let _ = writeln!(s, "{e}");
        s
    });
    fs::write(&input, lines).unwrap();
    let output = dir.join("out60.txt");
    let mut times = Vec::with_capacity(runs);
    let cpu_before = children_cpu();
    for _ in 0..runs {
        // Truncating last run's 108 MB is no part of the game: do it first.
        let (stdin, stdout) = (File::open(&input).unwrap(), File::create(&output).unwrap());
        let start = Instant::now();
        let status = Command::new(BOXES)
            .args(["60", "60", "2"])
            .stdin(stdin)
            .stdout(stdout)
            .stderr(Stdio::null())
            .status()
            .unwrap();
        times.push(start.elapsed());
        assert_eq!(status.code(), Some(0), "the 60x60 game must end normally");
    }
    let cpu = children_cpu().saturating_sub(cpu_before) / u32::try_from(runs).unwrap();
    let size = fs::metadata(&output).unwrap().len();
    let mut tail = Vec::new();
    let mut out = File::open(&output).unwrap();
    out.seek(SeekFrom::End(-200)).unwrap();
    out.read_to_end(&mut tail).unwrap();
    let last = tail.rsplit(|&b| b == b'\n').nth(1).unwrap_or_default();
    assert!(last.starts_with(b"Winner(s): "));
    times.sort();
    println!(
        "60x60 full game, {} moves, {runs} runs, {size} bytes out: min {}, median {}, max {}; \
         CPU (user + system) {} a run on average",
        moves.len(),
        seconds(times[0]),
        seconds(median(&times)),
        seconds(times[times.len() - 1]),
        seconds(cpu),
    );
}

/// A 999×999 state with about half its edges closed by random play.
fn big_state() -> State {
    let (h, w) = (999, 999);
    let mut state = State::new(h, w, 2);
    let mut edges: Vec<_> = Grid::new(h, w).edges().collect();
    Prng(999).shuffle(&mut edges);
    let half = edges.len() / 2;
    for edge in edges.into_iter().take(half) {
        // A refused edge changes nothing; TURN-5 is the reference's own.
        let _ = state.apply(edge);
    }
    state
}

/// (b) Load + render + save of a 999×999 grid, then end of input.
fn load_render_save(dir: &Path, runs: usize) {
    let file = dir.join("grid999.txt");
    let bytes = to_bytes(&big_state());
    fs::write(&file, &bytes).unwrap();
    let saved = dir.join("saved999.txt");
    let save_line = format!("w {}\n", saved.display());
    let stdin_file = dir.join("save-line.txt");
    fs::write(&stdin_file, &save_line).unwrap();
    let output = dir.join("out999.txt");
    let run = |stdin: Stdio, stdout: File, stderr: Stdio| {
        Command::new(BOXES)
            .args(["999", "999", "2"])
            .arg(&file)
            .stdin(stdin)
            .stdout(stdout)
            .stderr(stderr)
            .spawn()
            .unwrap()
    };
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        fs::remove_file(&saved).ok();
        let (stdin, stdout) = (
            File::open(&stdin_file).unwrap(),
            File::create(&output).unwrap(),
        );
        let start = Instant::now();
        let status = run(stdin.into(), stdout, Stdio::null()).wait().unwrap();
        times.push(start.elapsed());
        assert_eq!(status.code(), Some(6), "load, save, then end of input");
        assert!(
            fs::read(&saved).unwrap() == bytes,
            "the save must equal the loaded file"
        );
    }
    times.sort();
    // Peak memory: keep stdin open so the process waits after the save.
    let mut child = run(
        Stdio::piped(),
        File::create(&output).unwrap(),
        Stdio::piped(),
    );
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(save_line.as_bytes()).unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let mut said = Vec::new();
    let mut buf = [0u8; 256];
    while !said.ends_with(b"Save complete\n") {
        let n = stderr.read(&mut buf).unwrap();
        assert!(n > 0, "no save message: {}", String::from_utf8_lossy(&said));
        said.extend_from_slice(&buf[..n]);
    }
    let peak = peak_when_waiting(&child);
    drop(stdin);
    assert_eq!(child.wait().unwrap().code(), Some(6));
    println!(
        "999x999 load + render + save, {} byte file, {runs} runs: min {}, median {}; peak RSS {} KiB ({:.1} MiB)",
        bytes.len(),
        seconds(times[0]),
        seconds(median(&times)),
        peak,
        mib(peak),
    );
}

/// (c) A 1 GB line with no newline fed through a pipe to a 2×2 game.
fn gigabyte_line(runs: usize) {
    const GB: usize = 1 << 30;
    for _ in 0..runs {
        let start = Instant::now();
        let mut child = Command::new(BOXES)
            .args(["2", "2", "2"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let chunk = vec![b'7'; 1 << 20];
        for _ in 0..GB / chunk.len() {
            stdin.write_all(&chunk).unwrap();
        }
        // All written: once the child sleeps it has read the whole line.
        let peak = peak_when_waiting(&child);
        drop(stdin);
        let status = child.wait().unwrap();
        let elapsed = start.elapsed();
        assert_eq!(status.code(), Some(6), "an invalid line, then end of input");
        println!(
            "1 GiB line without newline, 2x2 game: {}; peak RSS {peak} KiB ({:.1} MiB)",
            seconds(elapsed),
            mib(peak),
        );
    }
}

fn main() {
    let runs = std::env::var("BOXES_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let temp = tempfile::tempdir().unwrap();
    let dir: PathBuf = temp.path().to_path_buf();
    println!("boxes binary: {BOXES}");
    full_game(&dir, runs);
    load_render_save(&dir, 5);
    gigabyte_line(3);
}
