//! Exact search of the last free sides: negamax memoised by the set of
//! sides left, and the expected value against the greedy bot's mistakes
//! when the game is lost.

use std::collections::HashMap;

use crate::board::{Board, BoxId, Edge};

use crate::strategy::pick::pick;

/// What a draw is worth when playing for the greedy bot's mistakes: less
/// than half a win, since only wins count.
const DRAW_WORTH: f32 = 0.3;

/// Exact negamax over the remaining free sides, memoised by the set left:
/// a dense table of every subset (2^n values of one byte, [`UNSOLVED`]
/// until solved), since a search visits most of them.
struct Exact {
    edge_boxes: Vec<[Option<usize>; 2]>,
    drawn: Vec<u8>,
    memo: Vec<i8>,
    expected: HashMap<(u32, bool, i8), f32>,
}

/// A subset the search has not solved yet: no net score is this low (a
/// board has at most 81 boxes).
const UNSOLVED: i8 = i8::MIN;

/// Free sides at or below which boards up to [`SMALL_BOARD`] are searched
/// to the end before [`EXACT_LIMIT`], while the search says the game is not
/// lost (a lost game is left to the heuristics, which play for the
/// opponent's mistakes); the table is then 2^17 bytes and an answer under
/// 10 ms (16 ms at 18 sides, for no more wins in the bench).
pub const EXACT_UNLESS_LOST: usize = 17;

impl Exact {
    fn new(board: &Board, free: &[Edge]) -> Exact {
        let mut ids: Vec<BoxId> = Vec::new();
        let mut edge_boxes = Vec::with_capacity(free.len());
        for &e in free {
            let mut pair = [None, None];
            for (slot, (b, _)) in pair.iter_mut().zip(board.boxes_of(e).into_iter().flatten()) {
                let i = ids.iter().position(|&x| x == b).unwrap_or_else(|| {
                    ids.push(b);
                    ids.len() - 1
                });
                *slot = Some(i);
            }
            edge_boxes.push(pair);
        }
        let drawn = ids.iter().map(|&b| board.drawn_count(b)).collect();
        Exact {
            memo: vec![UNSOLVED; 1usize << edge_boxes.len().min(EXACT_UNLESS_LOST)],
            edge_boxes,
            drawn,
            expected: HashMap::new(),
        }
    }

    fn play(&mut self, i: usize, delta: i8) -> i8 {
        let mut completed = 0;
        for b in self
            .edge_boxes
            .get(i)
            .copied()
            .unwrap_or_default()
            .into_iter()
            .flatten()
        {
            if let Some(d) = self.drawn.get_mut(b) {
                *d = d.wrapping_add_signed(delta);
                if delta > 0 && *d == 4 {
                    completed += 1;
                }
            }
        }
        completed
    }

    fn value_after(&mut self, mask: u32, i: usize) -> i8 {
        let completed = self.play(i, 1);
        let rest = self.solve(mask & !(1 << i));
        self.play(i, -1);
        if completed > 0 {
            completed + rest
        } else {
            -rest
        }
    }

    fn solve(&mut self, mask: u32) -> i8 {
        if mask == 0 {
            return 0;
        }
        let slot = usize::try_from(mask).unwrap_or(usize::MAX);
        if let Some(&v) = self.memo.get(slot)
            && v != UNSOLVED
        {
            return v;
        }
        let mut best = i8::MIN + 1;
        for i in 0..self.edge_boxes.len() {
            if mask & (1 << i) != 0 {
                best = best.max(self.value_after(mask, i));
            }
        }
        if let Some(v) = self.memo.get_mut(slot) {
            *v = best;
        }
        best
    }
}

impl Exact {
    fn boxes_at(&self, i: usize, count: u8) -> bool {
        self.edge_boxes
            .get(i)
            .copied()
            .unwrap_or_default()
            .into_iter()
            .flatten()
            .any(|b| self.drawn.get(b) == Some(&count))
    }

    /// Our chance of winning (a draw counting half) against the greedy bot
    /// (take a fourth side, else a safe one, else any, at random) when we
    /// play our best from here with a lead of `lead` boxes: used only to
    /// choose among moves that are equal under perfect play.
    fn expect(&mut self, mask: u32, ours: bool, lead: i8) -> f32 {
        if mask == 0 {
            return match lead.signum() {
                1 => 1.0,
                0 => DRAW_WORTH,
                _ => 0.0,
            };
        }
        if let Some(&v) = self.expected.get(&(mask, ours, lead)) {
            return v;
        }
        let live: Vec<usize> = (0..self.edge_boxes.len())
            .filter(|&i| mask & (1 << i) != 0)
            .collect();
        let v = if ours {
            let mut best = f32::MIN;
            for &i in &live {
                best = best.max(self.expect_after(mask, i, true, lead));
            }
            best
        } else {
            let taking: Vec<usize> = live
                .iter()
                .copied()
                .filter(|&i| self.boxes_at(i, 3))
                .collect();
            let safe: Vec<usize> = live
                .iter()
                .copied()
                .filter(|&i| !self.boxes_at(i, 2))
                .collect();
            let choices = if !taking.is_empty() {
                taking
            } else if !safe.is_empty() {
                safe
            } else {
                live
            };
            let mut sum = 0.0;
            for &i in &choices {
                sum += self.expect_after(mask, i, false, lead);
            }
            sum / f32::from(u16::try_from(choices.len().max(1)).unwrap_or(u16::MAX))
        };
        self.expected.insert((mask, ours, lead), v);
        v
    }

    fn expect_after(&mut self, mask: u32, i: usize, ours: bool, lead: i8) -> f32 {
        let completed = self.play(i, 1);
        let rest = mask & !(1 << i);
        let v = if completed == 0 {
            self.expect(rest, !ours, lead)
        } else if ours {
            self.expect(rest, true, lead.saturating_add(completed))
        } else {
            self.expect(rest, false, lead.saturating_sub(completed))
        };
        self.play(i, -1);
        v
    }
}

/// A move of the best value, when that value does not lose: the exact
/// search without the greedy model's tie-break (too dear this early).
pub(super) fn exact_unless_lost(
    board: &Board,
    free: &[Edge],
    lead: i32,
    rng: &mut fastrand::Rng,
) -> Option<Edge> {
    let mut ex = Exact::new(board, free);
    let full: u32 = (1u32 << free.len()) - 1;
    let values: Vec<i8> = (0..free.len()).map(|i| ex.value_after(full, i)).collect();
    let best = values.iter().copied().max()?;
    if lead + i32::from(best) < 0 {
        return None;
    }
    let optimal: Vec<Edge> = free
        .iter()
        .zip(&values)
        .filter(|&(_, &v)| v == best)
        .map(|(&e, _)| e)
        .collect();
    pick(&optimal, rng)
}

pub(super) fn exact_best(
    board: &Board,
    free: &[Edge],
    lead: i32,
    rng: &mut fastrand::Rng,
) -> Option<Edge> {
    let lead = lead.clamp(-81, 81) as i8;
    let mut ex = Exact::new(board, free);
    let full: u32 = (1u32 << free.len()) - 1;
    let values: Vec<i8> = (0..free.len()).map(|i| ex.value_after(full, i)).collect();
    let best = values.iter().copied().max()?;
    // A match lost against perfect play can only be saved through a
    // mistake: then every move may be played for the likeliest one.
    // Otherwise keep the win, or the draw, that perfect play guarantees: a
    // sure draw is never gambled away.
    let lost = i32::from(lead) + i32::from(best) < 0;
    let optimal: Vec<usize> = (0..free.len())
        .filter(|&i| lost || values.get(i) == Some(&best))
        .collect();
    let hopes: Vec<f32> = optimal
        .iter()
        .map(|&i| ex.expect_after(full, i, true, lead))
        .collect();
    let top = hopes.iter().copied().fold(f32::MIN, f32::max);
    let tied: Vec<Edge> = optimal
        .iter()
        .zip(&hopes)
        .filter(|&(_, &h)| h >= top - 1e-4)
        .filter_map(|(&i, _)| free.get(i).copied())
        .collect();
    pick(&tied, rng)
}
