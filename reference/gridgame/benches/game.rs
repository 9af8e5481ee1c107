//! Benchmarks of the gridgame reference (not timed tests: they print
//! numbers and check only that each game reached its end):
//!
//! - a whole 8x8 game in process (the human trying every edge in order,
//!   the computer answering by its four-level rule), stdout to memory;
//! - the computer's choices alone: every decision of those games.
//!
//! Run with `cargo bench -p gridgame-reference`; `GRIDGAME_BENCH_RUNS`
//! sets the runs (default 200).

#![expect(
    clippy::unwrap_used,
    reason = "a benchmark that cannot set up should stop loudly"
)]

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use gridgame_reference::chooser;
use gridgame_reference::grid::{Grid, Player};

fn input(n: u8) -> Vec<u8> {
    let mut text = format!("{n}\n");
    let g = Grid::new(n);
    for _ in 0..3 {
        for e in g.edges() {
            let (a, b) = e.dots();
            let _ = writeln!(
                text,
                "{} {}",
                String::from_utf8_lossy(&a.name()),
                String::from_utf8_lossy(&b.name())
            );
        }
    }
    text.into_bytes()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let runs: usize = std::env::var("GRIDGAME_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    for n in [2u8, 5, 8] {
        let stdin = input(n);
        let mut times = Vec::with_capacity(runs);
        let mut bytes = 0;
        for _ in 0..runs {
            let mut out = Vec::new();
            let start = Instant::now();
            gridgame_reference::run(&stdin[..], &mut out);
            times.push(start.elapsed());
            assert!(out.ends_with(b".\n") || out.ends_with(b"!\n"));
            bytes = out.len();
        }
        println!(
            "whole {n}x{n} game in process: min {:?}, median {:?} over {runs} runs ({bytes} bytes of stdout)",
            times.iter().min().unwrap(),
            median(times.clone())
        );
    }
    // The chooser alone, on a game where the computer plays both sides.
    let mut decisions = 0u32;
    let start = Instant::now();
    for _ in 0..runs {
        let mut g = Grid::new(8);
        while let Some(e) = chooser::choose(&g) {
            g.fill(e, Player::Computer);
            decisions += 1;
        }
    }
    let each = start.elapsed() / decisions.max(1);
    println!("chooser on 8x8: {decisions} decisions, {each:?} each on average");
}
