//! `cg-bot`'s play: exact search once few sides remain; before that, safe
//! moves while there are any, and in the loony endgame the chains-and-loops
//! analysis: sacrifice where it costs least, take what is offered, and keep
//! control by declining the last two boxes of a chain (four of a loop) when
//! that wins more (the long-chain rule's double-dealing).
//!
//! Past 600 lines: the bot's strategy phases share one position type; about a third is tests.

use std::collections::HashMap;

use crate::board::{Board, BoxId, Edge, Seat, Side};
use crate::book;
use crate::greedy::{completes, gives_third};

/// Free sides at or below which the bot searches the game to its end, on
/// boards up to [`SMALL_BOARD`]; small boards need it most, large ones
/// must keep within 10 ms.
pub const EXACT_LIMIT: usize = 14;
/// The largest board searched from [`EXACT_LIMIT`] sides.
pub const SMALL_BOARD: u8 = 4;
/// Free sides at or below which larger boards are searched to the end.
pub const EXACT_LIMIT_LARGE: usize = 12;

/// What a draw is worth when playing for the greedy bot's mistakes: less
/// than half a win, since only wins count.
const DRAW_WORTH: f32 = 0.3;

/// A chain or loop of the loony endgame, by its boxes in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Component {
    /// The boxes, each with two free sides, in walking order.
    pub boxes: Vec<BoxId>,
    /// Whether the walk closes on itself.
    pub is_loop: bool,
}

/// The side between two neighbouring boxes.
fn shared(board: &Board, a: BoxId, b: BoxId) -> Option<Edge> {
    Side::ALL
        .into_iter()
        .map(|s| board.edge(a, s))
        .find(|&e| board.boxes_of(e).into_iter().flatten().any(|(x, _)| x == b))
}

/// Across free side `edge` from box `from`: the box there, if any.
fn across(board: &Board, edge: Edge, from: BoxId) -> Option<BoxId> {
    board
        .boxes_of(edge)
        .into_iter()
        .flatten()
        .map(|(b, _)| b)
        .find(|&b| b != from)
}

fn free_edges_of(board: &Board, b: BoxId) -> Vec<Edge> {
    board.free_sides(b).map(|s| board.edge(b, s)).collect()
}

/// The chains and loops of boxes with exactly two free sides.
pub fn components(board: &Board) -> Vec<Component> {
    let n = usize::from(board.size());
    let idx = |b: BoxId| usize::from(b.row) * n + usize::from(b.col);
    let is_link = |b: BoxId| board.drawn_count(b) == 2;
    let mut seen = vec![false; n * n];
    let mut out = Vec::new();
    for start in board.boxes() {
        if seen[idx(start)] || !is_link(start) {
            continue;
        }
        seen[idx(start)] = true;
        let mut halves: Vec<Vec<BoxId>> = Vec::new();
        let mut is_loop = false;
        for first_edge in free_edges_of(board, start) {
            let mut half = Vec::new();
            let mut prev = start;
            let mut via = first_edge;
            while let Some(next) = across(board, via, prev) {
                if next == start {
                    is_loop = true;
                    break;
                }
                if seen[idx(next)] || !is_link(next) {
                    break;
                }
                seen[idx(next)] = true;
                half.push(next);
                let Some(out_edge) = free_edges_of(board, next).into_iter().find(|&e| e != via)
                else {
                    break;
                };
                prev = next;
                via = out_edge;
            }
            halves.push(half);
            if is_loop {
                break;
            }
        }
        let mut boxes: Vec<BoxId> = halves.first().cloned().unwrap_or_default();
        boxes.reverse();
        boxes.push(start);
        if let Some(second) = halves.get(1) {
            boxes.extend(second.iter().copied());
        }
        out.push(Component { boxes, is_loop });
    }
    out
}

/// The loony endgame's value for the player who must open a component, by
/// chain and loop lengths (Berlekamp's simple endgame, solved exactly over
/// the counts of each kind of part).
#[derive(Debug, Default)]
pub struct Endgame {
    kinds: Vec<(u8, bool)>,
    counts: Vec<u32>,
    radix: Vec<u64>,
    memo: HashMap<u64, i32>,
}

/// Above this many sub-positions the endgame is estimated, not solved.
const ENDGAME_STATES: u64 = 200_000;

impl Endgame {
    /// Net boxes for the player to move in `parts` (lengths, loop flags).
    pub fn value(&mut self, parts: &[(u8, bool)]) -> i32 {
        let mut kinds: Vec<(u8, bool)> = parts.to_vec();
        kinds.sort_unstable();
        kinds.dedup();
        let counts: Vec<u32> = kinds
            .iter()
            .map(|k| parts.iter().filter(|p| *p == k).count() as u32)
            .collect();
        let mut radix = Vec::with_capacity(kinds.len());
        let mut states: u64 = 1;
        for &c in &counts {
            radix.push(states);
            states = states.saturating_mul(u64::from(c) + 1);
        }
        if states > ENDGAME_STATES {
            return Self::estimate(parts);
        }
        if kinds != self.kinds {
            self.memo.clear();
        }
        self.kinds = kinds;
        self.counts = counts;
        self.radix = radix;
        self.solve()
    }

    /// Whoever opens first in a big endgame loses nearly everything but what
    /// keeping control costs the other side (two boxes a chain, four a loop).
    fn estimate(parts: &[(u8, bool)]) -> i32 {
        let total: i32 = parts.iter().map(|&(l, _)| i32::from(l)).sum();
        let cost: i32 = parts
            .iter()
            .map(|&(l, is_loop)| match (is_loop, l) {
                (true, _) => 8,
                (false, 3..) => 4,
                _ => 0,
            })
            .sum();
        (cost - total).min(0)
    }

    fn key(&self) -> u64 {
        self.counts
            .iter()
            .zip(&self.radix)
            .map(|(&c, &r)| u64::from(c) * r)
            .sum()
    }

    fn solve(&mut self) -> i32 {
        if self.counts.iter().all(|&c| c == 0) {
            return 0;
        }
        let key = self.key();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut best = i32::MIN;
        for i in 0..self.kinds.len() {
            if self.counts.get(i).copied().unwrap_or(0) == 0 {
                continue;
            }
            let Some(&(len, is_loop)) = self.kinds.get(i) else {
                continue;
            };
            if let Some(c) = self.counts.get_mut(i) {
                *c -= 1;
            }
            let f = self.solve();
            if let Some(c) = self.counts.get_mut(i) {
                *c += 1;
            }
            best = best.max(-Self::reply(len, is_loop, f));
        }
        self.memo.insert(key, best);
        best
    }

    /// The opponent's best after a part of `len` is opened, when the rest is
    /// worth `f` to whoever must move in it.
    fn reply(len: u8, is_loop: bool, f: i32) -> i32 {
        let l = i32::from(len);
        let take = l + f;
        let keep = if is_loop { 4 } else { 2 };
        if (is_loop && len >= 4) || (!is_loop && len >= 3) {
            take.max(l - 2 * keep - f)
        } else {
            take
        }
    }
}

/// The lengths and loop flags of `comps`, as [`Endgame::value`] takes them.
pub fn parts_of(comps: &[Component]) -> Vec<(u8, bool)> {
    comps
        .iter()
        .map(|c| (c.boxes.len().min(255) as u8, c.is_loop))
        .collect()
}

/// A run of capturable boxes, from a box with three sides drawn.
#[derive(Debug, Clone)]
struct Run {
    boxes: Vec<BoxId>,
    /// Whether the far end is also capturable (an opened loop, or a chain
    /// opened inside).
    closed: bool,
}

fn runs(board: &Board) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for start in board.boxes().filter(|&b| board.drawn_count(b) == 3) {
        if out.iter().any(|r| r.boxes.contains(&start)) {
            continue;
        }
        let mut boxes = vec![start];
        let mut closed = false;
        let mut prev = start;
        let mut via = free_edges_of(board, start).first().copied();
        while let Some(e) = via {
            let Some(next) = across(board, e, prev) else {
                break;
            };
            match board.drawn_count(next) {
                3 => {
                    boxes.push(next);
                    closed = true;
                    break;
                }
                2 if !boxes.contains(&next) => {
                    boxes.push(next);
                    via = free_edges_of(board, next).into_iter().find(|&x| x != e);
                    prev = next;
                }
                _ => break,
            }
        }
        out.push(Run { boxes, closed });
    }
    out
}

/// Whether any free side gives no box its third side.
fn has_safe(board: &Board) -> bool {
    board
        .free_edges()
        .any(|e| !completes(board, e) && !gives_third(board, e))
}

fn capture_all(board: &mut Board) {
    loop {
        let next = board.free_edges().find(|&e| completes(board, e));
        let Some(e) = next else { break };
        board.draw(e, Seat::A);
    }
}

fn pick(edges: &[Edge], rng: &mut fastrand::Rng) -> Option<Edge> {
    if edges.is_empty() {
        None
    } else {
        edges.get(rng.usize(..edges.len())).copied()
    }
}

/// The bot's move on `board` when it leads by `lead` boxes (negative when
/// behind), or `None` when no side is free.
pub fn choose(board: &Board, lead: i32, rng: &mut fastrand::Rng) -> Option<Edge> {
    let free: Vec<Edge> = board.free_edges().collect();
    if free.is_empty() {
        return None;
    }
    let limit = if board.size() <= SMALL_BOARD {
        EXACT_LIMIT
    } else {
        EXACT_LIMIT_LARGE
    };
    if free.len() <= limit {
        return exact_best(board, &free, lead, rng);
    }
    if board.size() == book::SIZE
        && free.len() > book::FROM_FREE
        && let Some(e) = from_book(board)
    {
        return Some(e);
    }
    if board.size() <= SMALL_BOARD
        && free.len() <= EXACT_UNLESS_LOST
        && let Some(e) = exact_unless_lost(board, &free, lead, rng)
    {
        return Some(e);
    }
    let all_runs = runs(board);
    if !all_runs.is_empty() {
        return Some(capture_move(board, &all_runs, rng));
    }
    let safe: Vec<Edge> = free
        .iter()
        .copied()
        .filter(|&e| !gives_third(board, e))
        .collect();
    // The end of the safe phase searched on small boards, where it wins
    // more (4×4 against greedy, 400 seeds a seat: 787/800 against 773);
    // on 5×5 it won no more, and on 9×9 it cost up to 47 ms an answer.
    let searched = (board.size() <= SMALL_BOARD)
        .then(|| crate::safe::best(board, &safe, rng))
        .flatten();
    if let Some(e) = searched.or_else(|| pick(&safe, rng)) {
        return Some(e);
    }
    sacrifice(board, rng).or_else(|| pick(&free, rng))
}

/// The book's move: a move of the best value, whoever is to move. Played
/// even in a lost position (seat A's opening): on 3×3 a best move there
/// won more against greedy than the heuristics' play for mistakes (399
/// against 393 of 400), and it keeps the game on the book.
fn from_book(board: &Board) -> Option<Edge> {
    let mask = board
        .edges()
        .filter(|&e| board.is_drawn(e))
        .fold(0u32, |m, e| m | 1 << e.0);
    book::lookup(mask).map(|(edge, _)| Edge(u16::from(edge)))
}

fn capture_move(board: &Board, all_runs: &[Run], rng: &mut fastrand::Rng) -> Edge {
    let first_edge = |r: &Run| {
        r.boxes
            .first()
            .and_then(|&b| free_edges_of(board, b).first().copied())
    };
    // Keep the longest run for last: it is the one worth declining.
    let keep = all_runs
        .iter()
        .enumerate()
        .max_by_key(|(_, r)| r.boxes.len())
        .map_or(0, |(i, _)| i);
    if let Some(e) = all_runs
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != keep)
        .find_map(|(_, r)| first_edge(r))
    {
        return e;
    }
    let Some(run) = all_runs.get(keep) else {
        return board.free_edges().next().unwrap_or(Edge(0));
    };
    let take = first_edge(run).unwrap_or(Edge(0));
    let decline_at = if run.closed { 4 } else { 2 };
    if run.boxes.len() != decline_at {
        return take;
    }
    let mut after = board.clone();
    capture_all(&mut after);
    if has_safe(&after) {
        return take;
    }
    let f = Endgame::default().value(&parts_of(&components(&after)));
    let gain = i32::from(decline_at as u8);
    if -gain - f <= gain + f {
        return take;
    }
    let decline = if run.closed {
        run.boxes
            .get(1)
            .zip(run.boxes.get(2))
            .and_then(|(&y, &z)| shared(board, y, z))
    } else {
        // The far side of the second box, when it gives no one else a box.
        run.boxes.get(1).and_then(|&y| {
            free_edges_of(board, y).into_iter().find(|&e| {
                across(board, e, y).is_none_or(|z| {
                    Some(z) != run.boxes.first().copied() && board.drawn_count(z) < 2
                })
            })
        })
    };
    let _ = rng;
    decline.unwrap_or(take)
}

/// How many boxes the opponent can take in a row after `edge` is drawn.
pub fn giveaway(board: &Board, edge: Edge) -> u32 {
    let mut after = board.clone();
    after.draw(edge, Seat::A);
    let mut stack: Vec<BoxId> = after
        .boxes_of(edge)
        .into_iter()
        .flatten()
        .map(|(b, _)| b)
        .filter(|&b| after.drawn_count(b) == 3)
        .collect();
    let mut taken = 0;
    while let Some(b) = stack.pop() {
        let Some(e) = free_edges_of(&after, b).first().copied() else {
            continue;
        };
        taken += u32::from(after.draw(e, Seat::B));
        stack.extend(
            after
                .boxes_of(e)
                .into_iter()
                .flatten()
                .map(|(x, _)| x)
                .filter(|&x| after.drawn_count(x) == 3),
        );
    }
    taken
}

/// The cheapest opening when every move gives boxes away: the fewest boxes
/// handed over, and among those a side the taker cannot decline (the middle
/// of a two-box chain), so that control is as hard to keep as possible.
fn sacrifice(board: &Board, rng: &mut fastrand::Rng) -> Option<Edge> {
    let mut best: Vec<(u32, bool, Edge)> = Vec::new();
    for e in board.free_edges() {
        let cost = giveaway(board, e);
        // Both boxes of the side become capturable: a split, not declinable.
        let split = board
            .boxes_of(e)
            .into_iter()
            .flatten()
            .all(|(b, _)| board.drawn_count(b) == 2)
            && board.boxes_of(e).iter().flatten().count() == 2;
        best.push((cost, !split, e));
    }
    let min = best.iter().map(|&(c, d, _)| (c, d)).min()?;
    let tied: Vec<Edge> = best
        .iter()
        .filter(|&&(c, d, _)| (c, d) == min)
        .map(|&(_, _, e)| e)
        .collect();
    pick(&tied, rng)
}

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
fn exact_unless_lost(
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

fn exact_best(board: &Board, free: &[Edge], lead: i32, rng: &mut fastrand::Rng) -> Option<Edge> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn endgame_values() {
        let mut eg = Endgame::default();
        // One chain of 3: the opener loses all 3.
        assert_eq!(eg.value(&[(3, false)]), -3);
        // Two chains of 3: the controller declines 2 of the first and takes
        // all of the second: 1 - 2 ... opener nets -(1 - 2 + 3) = -2.
        assert_eq!(eg.value(&[(3, false), (3, false)]), -2);
        // A 1-chain then a long chain: give the single, get the long one.
        assert_eq!(eg.value(&[(1, false), (5, false)]), 4);
    }

    #[test]
    fn components_find_chains_and_loops() {
        // A 2x2 board with every outer side drawn is a loop of four.
        let mut b = Board::new(2).unwrap();
        for e in b.edges().collect::<Vec<_>>() {
            if b.boxes_of(e).iter().flatten().count() == 1 {
                b.draw(e, Seat::A);
            }
        }
        let c = components(&b);
        assert_eq!(c.len(), 1);
        assert!(c[0].is_loop && c[0].boxes.len() == 4);
    }

    fn random_position(size: u64, drawn: usize, seed: u64) -> Board {
        let mut b = Board::new(size).unwrap();
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut edges: Vec<Edge> = b.edges().collect();
        rng.shuffle(&mut edges);
        for &e in edges.iter().take(drawn) {
            b.draw(e, Seat::A);
        }
        b
    }

    /// The value of `board` to the side to move under perfect play (boxes
    /// it will take minus boxes the other will), by plain negamax over the
    /// drawn sides: an implementation independent of [`Exact`].
    fn negamax(board: &Board, memo: &mut HashMap<Vec<bool>, i32>) -> i32 {
        let key: Vec<bool> = board.edges().map(|e| board.is_drawn(e)).collect();
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mut best = None;
        for e in board.free_edges().collect::<Vec<_>>() {
            let mut next = board.clone();
            let took = i32::from(next.draw(e, Seat::A));
            let rest = negamax(&next, memo);
            let v = if took > 0 { took + rest } else { -rest };
            best = Some(best.map_or(v, |b: i32| b.max(v)));
        }
        let v = best.unwrap_or(0);
        memo.insert(key, v);
        v
    }

    fn value_of(board: &Board, e: Edge, memo: &mut HashMap<Vec<bool>, i32>) -> i32 {
        let mut next = board.clone();
        let took = i32::from(next.draw(e, Seat::A));
        let rest = negamax(&next, memo);
        if took > 0 { took + rest } else { -rest }
    }

    /// Every 2x2 position with at most 8 free sides, at every lead from -2
    /// to 2: unless the match is lost whatever it plays, the bot's move has
    /// the best value perfect play can reach (a win kept, a draw kept).
    #[test]
    fn never_a_move_of_lower_value_on_2x2_unless_lost() {
        let mut memo = HashMap::new();
        let template = Board::new(2).unwrap();
        let edges: Vec<Edge> = template.edges().collect();
        let mut checked = 0;
        for mask in 0u32..(1 << edges.len()) {
            if mask.count_ones() < 4 || mask.count_ones() as usize == edges.len() {
                continue;
            }
            let mut b = Board::new(2).unwrap();
            for (i, &e) in edges.iter().enumerate() {
                if mask & (1 << i) != 0 {
                    b.set_drawn(e, true);
                }
            }
            let best = b
                .free_edges()
                .map(|e| value_of(&b, e, &mut memo))
                .max()
                .unwrap();
            for lead in -2..=2 {
                if lead + best < 0 {
                    continue;
                }
                let mut rng = fastrand::Rng::with_seed(u64::from(mask));
                let e = choose(&b, lead, &mut rng).unwrap();
                assert_eq!(
                    value_of(&b, e, &mut memo),
                    best,
                    "mask {mask:#x}, lead {lead}: {e:?} is not optimal"
                );
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// After `A1 T` on an empty 2x2 board, the only reply that keeps the
    /// draw is `B1 T`: the bot must not gamble it away.
    #[test]
    fn after_a1_t_on_2x2_the_bot_keeps_the_draw() {
        let mut b = Board::new(2).unwrap();
        let named = |b: &Board, name: &[u8; 2], side: Side| {
            b.edges()
                .find(|&e| {
                    b.boxes_of(e)
                        .into_iter()
                        .flatten()
                        .any(|(x, s)| &x.name() == name && s == side)
                })
                .unwrap()
        };
        let a1_t = named(&b, b"A1", Side::T);
        b.draw(a1_t, Seat::A);
        let b1_t = named(&b, b"B1", Side::T);
        let mut memo = HashMap::new();
        let best = b
            .free_edges()
            .map(|e| value_of(&b, e, &mut memo))
            .max()
            .unwrap();
        assert_eq!(best, 0, "the position is a draw");
        for seed in 0..20 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let e = choose(&b, 0, &mut rng).unwrap();
            assert_eq!(
                value_of(&b, e, &mut memo),
                0,
                "seed {seed}: {e:?} throws the draw"
            );
            assert_eq!(e, b1_t, "seed {seed}");
        }
    }

    proptest! {
        #[test]
        fn always_a_free_side(size in 2u64..=9, permille in 0usize..1000, seed: u64) {
            let total = 2 * size as usize * (size as usize + 1);
            let drawn = total * permille / 1000;
            let b = random_position(size, drawn.min(total - 1), seed);
            let mut rng = fastrand::Rng::with_seed(seed);
            let e = choose(&b, 0, &mut rng).unwrap();
            prop_assert!(!b.is_drawn(e));
        }
    }
}
