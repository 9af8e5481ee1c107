//! The loony endgame: the chains and loops of boxes with two free sides,
//! and their value for the player who must open one (Berlekamp's simple
//! endgame, solved exactly over the counts of each kind of part).

use std::collections::HashMap;

use crate::board::{Board, BoxId, Edge, Side};

/// A chain or loop of the loony endgame, by its boxes in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Component {
    /// The boxes, each with two free sides, in walking order.
    pub boxes: Vec<BoxId>,
    /// Whether the walk closes on itself.
    pub is_loop: bool,
}

/// The side between two neighbouring boxes.
pub(super) fn shared(board: &Board, a: BoxId, b: BoxId) -> Option<Edge> {
    Side::ALL
        .into_iter()
        .map(|s| board.edge(a, s))
        .find(|&e| board.boxes_of(e).into_iter().flatten().any(|(x, _)| x == b))
}

/// Across free side `edge` from box `from`: the box there, if any.
pub(super) fn across(board: &Board, edge: Edge, from: BoxId) -> Option<BoxId> {
    board
        .boxes_of(edge)
        .into_iter()
        .flatten()
        .map(|(b, _)| b)
        .find(|&b| b != from)
}

pub(super) fn free_edges_of(board: &Board, b: BoxId) -> Vec<Edge> {
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
