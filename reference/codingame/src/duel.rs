//! Matches between in-process strategies, straight on the [`Judge`]: no
//! processes and no clocks, so strength can be measured quickly and
//! deterministically (the protocol is proved elsewhere).

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
    let Ok(mut judge) = Judge::new(u64::from(size)) else {
        return empty_record();
    };
    let mut rngs = seeds.map(fastrand::Rng::with_seed);
    while let Some(req) = judge.next_request() {
        let board = judge.board().clone();
        let lead = i64::from(board.score(req.seat)) - i64::from(board.score(req.seat.other()));
        let (play, rng) = match req.seat {
            Seat::A => (a, &mut rngs[0]),
            Seat::B => (b, &mut rngs[1]),
        };
        let line = play(&board, lead as i32, rng)
            .and_then(|e| greedy::name_of(&board, e))
            .map_or_else(Vec::new, |(bx, s)| answer_line(bx, s));
        let _ = judge.answer(&line);
    }
    judge.record()
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
                let rec = duel(size, a, b, [seed, seed + 1_000_000]);
                t.played += 1;
                t.forfeits += u32::from(rec.forfeit.is_some());
                match rec.winner {
                    Some(w) if w == seat => t.won += 1,
                    None => t.drawn += 1,
                    _ => {}
                }
            }
        }
    }
    t
}
