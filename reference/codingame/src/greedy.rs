//! The greedy bot of the target (and fixture `cg-fixture-greedy`): take a
//! fourth side if any, else a side that gives no box its third side, else
//! any side; ties at random.

use crate::board::{Board, BoxId, Edge, Side};

/// The box-and-side name a side is answered with: its first box's name.
pub fn name_of(board: &Board, edge: Edge) -> Option<(BoxId, Side)> {
    board.boxes_of(edge).into_iter().flatten().next()
}

/// Whether drawing `edge` completes a box.
pub fn completes(board: &Board, edge: Edge) -> bool {
    board
        .boxes_of(edge)
        .into_iter()
        .flatten()
        .any(|(b, _)| board.drawn_count(b) == 3)
}

/// Whether drawing `edge` gives some box its third side.
pub fn gives_third(board: &Board, edge: Edge) -> bool {
    board
        .boxes_of(edge)
        .into_iter()
        .flatten()
        .any(|(b, _)| board.drawn_count(b) == 2)
}

/// The greedy choice on `board`, or `None` when no side is free.
pub fn choose(board: &Board, rng: &mut fastrand::Rng) -> Option<Edge> {
    let free: Vec<Edge> = board.free_edges().collect();
    let taking: Vec<Edge> = free
        .iter()
        .copied()
        .filter(|&e| completes(board, e))
        .collect();
    if !taking.is_empty() {
        return taking.get(rng.usize(..taking.len())).copied();
    }
    let safe: Vec<Edge> = free
        .iter()
        .copied()
        .filter(|&e| !gives_third(board, e))
        .collect();
    if !safe.is_empty() {
        return safe.get(rng.usize(..safe.len())).copied();
    }
    if free.is_empty() {
        None
    } else {
        free.get(rng.usize(..free.len())).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Seat;

    #[test]
    fn takes_a_fourth_side_first() {
        let mut b = Board::new(3).unwrap();
        let a1 = BoxId { col: 0, row: 0 };
        for s in [Side::L, Side::T, Side::B] {
            b.draw(b.edge(a1, s), Seat::A);
        }
        let mut rng = fastrand::Rng::with_seed(1);
        for _ in 0..20 {
            assert_eq!(choose(&b, &mut rng), Some(b.edge(a1, Side::R)));
        }
    }
}
