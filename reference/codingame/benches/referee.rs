//! Benchmarks of the referee and cg-bot (not timed tests: they print
//! numbers and check only that each run did its work).
//!
//! - matches per second between two `cg-bot` processes on 9×9, 2 jobs;
//! - the referee's own time per request (request bytes + judging an answer,
//!   in process, over whole 9×9 matches);
//! - `cg-bot`'s slowest answer on 9×9 (reading the request + choosing), in
//!   process, over many positions of real matches, each the best of three
//!   runs;
//! - `cg-bot`'s win rate against the greedy bot, sizes 2–9, seats swapped
//!   (in process: deterministic, and free of a loaded machine's timeouts),
//!   with wins, draws and losses per seat and size and its slowest answer.
//!
//! Run with `cargo bench -p codingame-reference --bench referee [-- PART...]`
//! (parts: `referee`, `slowest`, `live`, `win-rate`; default all);
//! `CG_BENCH_MATCHES` sets the live matches (default 200) and
//! `CG_BENCH_ROUNDS` the seeds per size and seat for the win rate (default
//! 50, so 800 matches).

#![expect(
    clippy::unwrap_used,
    reason = "a benchmark that cannot set up should stop loudly"
)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use codingame_reference::client::Client;
use codingame_reference::clock::Limits;
use codingame_reference::duel::{duel, greedy, strong, strong_vs_greedy};
use codingame_reference::judge::Judge;
use codingame_reference::referee::run_match;
use codingame_reference::strategy;

const BOT: &str = env!("CARGO_BIN_EXE_cg-bot");

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn matches_per_second(count: usize) {
    let next = AtomicUsize::new(0);
    let forfeits = AtomicUsize::new(0);
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= count {
                        break;
                    }
                    let a = format!("env CG_BOT_SEED={k} {BOT}");
                    let b = format!("env CG_BOT_SEED={} {BOT}", k + 1);
                    let played = run_match(&a, &b, 9, Limits::default()).unwrap();
                    assert!(!played.record.moves.is_empty());
                    if let Some(f) = &played.record.forfeit
                        && forfeits.fetch_add(1, Ordering::Relaxed) == 0
                    {
                        println!(
                            "first forfeit: seat {} {} at request {}",
                            f.seat,
                            f.reason.code(),
                            f.request
                        );
                    }
                }
            });
        }
    });
    let secs = start.elapsed().as_secs_f64();
    println!(
        "live 9x9 cg-bot vs cg-bot, 2 jobs: {count} matches in {secs:.2} s = {:.1} matches/s ({} forfeits)",
        f64::from(u32::try_from(count).unwrap_or(u32::MAX)) / secs,
        forfeits.load(Ordering::Relaxed)
    );
}

fn referee_time_per_request() {
    let games: Vec<_> = (0..20)
        .map(|s| duel(9, strong, greedy, [s, s + 1]))
        .collect();
    let mut requests = 0u32;
    let start = Instant::now();
    for _ in 0..10 {
        for g in &games {
            let mut j = Judge::new(9).unwrap();
            for m in &g.moves {
                let req = j.next_request().unwrap();
                std::hint::black_box(&req.bytes);
                j.answer(m.line.as_bytes()).unwrap();
                requests += 1;
            }
        }
    }
    let per = start.elapsed() / requests;
    println!(
        "referee's own time per request on 9x9 (request bytes + judging): {per:?} over {requests} requests"
    );
}

fn slowest_answer() {
    let mut slowest = Duration::ZERO;
    let mut total = Duration::ZERO;
    let mut answers = 0u32;
    for seed in 0..30u64 {
        let game = duel(
            9,
            strong,
            if seed % 2 == 0 { greedy } else { strong },
            [seed, seed + 7],
        );
        let mut j = Judge::new(9).unwrap();
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut first = [true, true];
        for m in &game.moves {
            let req = j.next_request().unwrap();
            let mut bytes = req.bytes.clone();
            assert_eq!(req.first, first[req.seat.index()]);
            first[req.seat.index()] = false;
            if !req.first {
                // A bot's reader has already seen the init lines.
                let mut init = b"9\nA\n".to_vec();
                init.append(&mut bytes);
                bytes = init;
            }
            // The best of three runs of the same answer: a loaded machine's
            // descheduling is not the bot's time.
            let mut took = Duration::MAX;
            for _ in 0..3 {
                let mut r = rng.clone();
                let t = Instant::now();
                let view = Client::new(&bytes[..]).next_view().unwrap().unwrap();
                let lead = i64::from(view.own) - i64::from(view.opponent);
                let e = strategy::choose(&view.board, lead as i32, &mut r);
                took = took.min(t.elapsed());
                assert!(e.is_some());
            }
            rng.u64(..);
            slowest = slowest.max(took);
            total += took;
            answers += 1;
            j.answer(m.line.as_bytes()).unwrap();
        }
    }
    println!(
        "cg-bot on 9x9: slowest answer {slowest:?}, mean {:?} over {answers} requests",
        total / answers
    );
}

fn win_rate(rounds: u64) {
    let start = Instant::now();
    let t = strong_vs_greedy(2..=9, rounds);
    println!(
        "cg-bot vs greedy, sizes 2-9, seats swapped: {}/{} won = {:.1}% ({} drawn, {} forfeits) in {:.1} s",
        t.won,
        t.played,
        100.0 * f64::from(t.won) / f64::from(t.played),
        t.drawn,
        t.forfeits,
        start.elapsed().as_secs_f64()
    );
    for size in 2..=9u8 {
        let s = strong_vs_greedy(size..=size, rounds);
        let [a, b] = s.per_seat;
        println!(
            "  {size}x{size}: {}/{} won, {} drawn; seat A {}-{}-{}, seat B {}-{}-{} (W-D-L); \
             slowest answer {:.2} ms",
            s.won,
            s.played,
            s.drawn,
            a.won,
            a.drawn,
            a.lost,
            b.won,
            b.drawn,
            b.lost,
            s.slowest.as_secs_f64() * 1000.0
        );
    }
}

fn main() -> std::process::ExitCode {
    // Live matches contain their bots: this executable is their keeper.
    if let Some(code) = conformance_sandbox::keeper_mode() {
        return code;
    }
    // As `cg-referee` does: one zygote forks the bots' keepers.
    let _zygote = conformance_sandbox::zygote::Session::enter();
    let matches = usize::try_from(env_or("CG_BENCH_MATCHES", 200)).unwrap();
    let rounds = env_or("CG_BENCH_ROUNDS", 50);
    // `-- NAME...` runs only those parts (cargo passes `--bench` itself).
    let picked: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |name: &str| picked.is_empty() || picked.iter().any(|p| p == name);
    let known = ["referee", "slowest", "live", "win-rate"];
    if let Some(bad) = picked.iter().find(|p| !known.contains(&p.as_str())) {
        eprintln!("unknown part `{bad}`; the parts: {}", known.join(", "));
        return std::process::ExitCode::from(2);
    }
    if wanted("referee") {
        referee_time_per_request();
    }
    if wanted("slowest") {
        slowest_answer();
    }
    if wanted("live") {
        matches_per_second(matches);
    }
    if wanted("win-rate") {
        win_rate(rounds);
    }
    std::process::ExitCode::SUCCESS
}
