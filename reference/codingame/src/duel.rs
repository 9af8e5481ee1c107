//! Matches between in-process strategies, straight on the [`Judge`]: no
//! processes and no clocks, so strength can be measured quickly and
//! deterministically (the protocol is proved elsewhere).

use std::time::{Duration, Instant};

use crate::board::{Board, Edge, Seat};
use crate::client::answer_line;
use crate::greedy;
use crate::judge::Judge;
use crate::record::Record;
use crate::strategy;

/// A strategy: the board, the mover's lead in boxes, its random source.
pub type Strategy = fn(&Board, i32, &mut fastrand::Rng) -> Option<Edge>;

/// `cg-bot`'s strategy.
pub fn strong(board: &Board, lead: i32, rng: &mut fastrand::Rng) -> Option<Edge> {
    strategy::choose(board, lead, rng)
}

/// The greedy fixture's strategy.
pub fn greedy(board: &Board, _lead: i32, rng: &mut fastrand::Rng) -> Option<Edge> {
    greedy::choose(board, rng)
}

/// Plays a match of `size` between `a` (seat A) and `b`, seeded.
pub fn duel(size: u8, a: Strategy, b: Strategy, seeds: [u64; 2]) -> Record {
    timed_duel(size, a, b, seeds).0
}

/// [`duel`], with each seat's slowest answer (the strategy's own time,
/// in process).
pub fn timed_duel(size: u8, a: Strategy, b: Strategy, seeds: [u64; 2]) -> (Record, [Duration; 2]) {
    let mut slowest = [Duration::ZERO; 2];
    let Ok(mut judge) = Judge::new(u64::from(size)) else {
        return (empty_record(), slowest);
    };
    let mut rngs = seeds.map(fastrand::Rng::with_seed);
    while let Some(req) = judge.next_request() {
        let board = judge.board().clone();
        let lead = i64::from(board.score(req.seat)) - i64::from(board.score(req.seat.other()));
        let (play, rng) = match req.seat {
            Seat::A => (a, &mut rngs[0]),
            Seat::B => (b, &mut rngs[1]),
        };
        let started = Instant::now();
        let chosen = play(&board, lead as i32, rng);
        let took = started.elapsed();
        if let Some(s) = slowest.get_mut(req.seat.index()) {
            *s = (*s).max(took);
        }
        let line = chosen
            .and_then(|e| greedy::name_of(&board, e))
            .map_or_else(Vec::new, |(bx, s)| answer_line(bx, s));
        let _ = judge.answer(&line);
    }
    (judge.record(), slowest)
}

/// The record of a match that could not start (a size out of range).
fn empty_record() -> Record {
    Record {
        size: 0,
        winner: None,
        score: crate::record::Score { a: 0, b: 0 },
        forfeit: None,
        moves: Vec::new(),
        ranking: None,
    }
}

/// Wins of `cg-bot` against greedy over `rounds` seeds per size and seat.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Matches played.
    pub played: u32,
    /// Matches won by cg-bot.
    pub won: u32,
    /// Matches drawn.
    pub drawn: u32,
    /// Matches with a forfeit (by either side).
    pub forfeits: u32,
    /// cg-bot's wins, draws and losses in seat A and in seat B.
    pub per_seat: [SeatTally; 2],
    /// cg-bot's slowest answer, in process.
    pub slowest: Duration,
}

/// Wins, draws and losses in one seat.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SeatTally {
    /// Won.
    pub won: u32,
    /// Drawn.
    pub drawn: u32,
    /// Lost.
    pub lost: u32,
}

/// Plays cg-bot against greedy at every size in `sizes`, both seats, with
/// `rounds` seeds each.
pub fn strong_vs_greedy(sizes: std::ops::RangeInclusive<u8>, rounds: u64) -> Tally {
    let mut t = Tally::default();
    for size in sizes {
        for seed in 0..rounds {
            for seat in Seat::BOTH {
                let (a, b): (Strategy, Strategy) = match seat {
                    Seat::A => (strong, greedy),
                    Seat::B => (greedy, strong),
                };
                let (rec, slowest) = timed_duel(size, a, b, [seed, seed + 1_000_000]);
                t.played += 1;
                t.forfeits += u32::from(rec.forfeit.is_some());
                t.slowest = t.slowest.max(slowest[seat.index()]);
                let Some(mine) = t.per_seat.get_mut(seat.index()) else {
                    continue;
                };
                match rec.winner {
                    Some(w) if w == seat => {
                        t.won += 1;
                        mine.won += 1;
                    }
                    None => {
                        t.drawn += 1;
                        mine.drawn += 1;
                    }
                    _ => mine.lost += 1,
                }
            }
        }
    }
    t
}
