//! The book's tests: the whole board solved again and compared with
//! `book3x3.txt`, and the bot answering from it.

use super::*;

#[test]
fn symmetries_are_permutations_and_a_group_of_eight() {
    let perms = symmetries();
    for p in perms {
        let mut seen = [false; EDGES];
        for &e in p {
            seen[usize::from(e)] = true;
        }
        assert!(seen.iter().all(|&s| s), "{p:?}");
    }
    let distinct: std::collections::HashSet<_> = perms.iter().collect();
    assert_eq!(distinct.len(), 8);
    // An outer corner-adjacent side has 8 images, a middle outer side 4.
    let images = |e: u32| {
        let set: std::collections::HashSet<_> = perms.iter().map(|p| permute(1 << e, p)).collect();
        set.len()
    };
    assert_eq!(images(0), 8);
    assert_eq!(images(1), 4);
}

/// The whole board solved again: the book is exactly what it derives,
/// so every entry is a move of the best value and every position the
/// book's player can meet is in it. Regenerate with
/// `CG_BOOK_WRITE=1 cargo test -p codingame-reference book_is`.
#[test]
fn book_is_the_solved_boards() {
    let value = solved();
    assert_eq!(value.first(), Some(&-3), "the opener loses 3×3 by 3");
    let derived = derive(value);
    if std::env::var_os("CG_BOOK_WRITE").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/book3x3.txt");
        std::fs::write(path, &derived).expect("write the book");
    }
    assert!(
        derived == BOOK,
        "book3x3.txt is stale: CG_BOOK_WRITE=1 cargo test -p codingame-reference book_is"
    );
    // Every lookup from a board orientation is a best move there.
    let boxes = box_masks();
    for entry in entries() {
        for perm in symmetries() {
            let mask = permute(entry.mask, perm);
            let (e, v) = lookup(mask).expect("an image of an entry is in the book");
            assert_eq!(mask & (1 << e), 0, "a free side");
            assert_eq!(after(value, &boxes, mask, usize::from(e)), v);
            assert_eq!(value.get(mask as usize), Some(&v));
        }
    }
    // The bot answers from it: after any opening side, and after any
    // two more, seat B's move keeps the win by 3.
    let mut rng = fastrand::Rng::with_seed(7);
    for first in 0..EDGES {
        for second in (0..EDGES).filter(|&e| e != first) {
            let mut board = crate::board::Board::new(3).expect("3×3");
            board.draw(crate::board::Edge(first as u16), crate::board::Seat::A);
            let reply = crate::strategy::choose(&board, 0, &mut rng).expect("a move");
            board.draw(reply, crate::board::Seat::B);
            let mask = 1 << first | 1 << reply.0;
            assert_eq!(after(value, &boxes, 1 << first, usize::from(reply.0)), 3);
            if mask & (1 << second) != 0 {
                continue;
            }
            board.draw(crate::board::Edge(second as u16), crate::board::Seat::A);
            let mask = mask | 1 << second;
            let reply = crate::strategy::choose(&board, 0, &mut rng).expect("a move");
            let best = value.get(mask as usize).copied();
            assert_eq!(Some(after(value, &boxes, mask, usize::from(reply.0))), best);
        }
    }
    // Seat A too: its opening and its answer to any reply are moves
    // of the best value (a loss by 3 at worst, never more).
    let empty = crate::board::Board::new(3).expect("3×3");
    let open = crate::strategy::choose(&empty, 0, &mut rng).expect("a move");
    assert_eq!(after(value, &boxes, 0, usize::from(open.0)), -3);
    for reply in (0..EDGES).filter(|&e| e != usize::from(open.0)) {
        let mut board = empty.clone();
        board.draw(open, crate::board::Seat::A);
        let again = board.draw(crate::board::Edge(reply as u16), crate::board::Seat::B);
        if again > 0 {
            continue;
        }
        let mask = 1 << open.0 | 1 << reply;
        let answer = crate::strategy::choose(&board, 0, &mut rng).expect("a move");
        let best = value.get(mask as usize).copied();
        assert_eq!(
            Some(after(value, &boxes, mask, usize::from(answer.0))),
            best
        );
    }
    // Whole games: seat A plays a best move (odd seeds) or any move
    // (even seeds); seat B, the bot, wins by at least 3 every time.
    for seed in 0..60u64 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut board = crate::board::Board::new(3).expect("3×3");
        let mut mask = 0u32;
        let mut seat = crate::board::Seat::A;
        while let Some(first_free) = (0..EDGES).find(|&e| mask & (1 << e) == 0) {
            let e = if seat == crate::board::Seat::B {
                let lead =
                    board.score(seat).cast_signed() - board.score(seat.other()).cast_signed();
                usize::from(
                    crate::strategy::choose(&board, lead, &mut rng)
                        .expect("a move")
                        .0,
                )
            } else {
                let free: Vec<usize> = (0..EDGES).filter(|&e| mask & (1 << e) == 0).collect();
                let top = free.iter().map(|&e| after(value, &boxes, mask, e)).max();
                let good: Vec<usize> = free
                    .iter()
                    .copied()
                    .filter(|&e| seed % 2 == 0 || Some(after(value, &boxes, mask, e)) == top)
                    .collect();
                good.get(rng.usize(..good.len().max(1)))
                    .copied()
                    .unwrap_or(first_free)
            };
            mask |= 1 << e;
            if board.draw(crate::board::Edge(e as u16), seat) == 0 {
                seat = seat.other();
            }
        }
        let margin = board.score(crate::board::Seat::B).cast_signed()
            - board.score(crate::board::Seat::A).cast_signed();
        assert!(margin >= 3, "seed {seed}: seat B won by {margin} only");
    }
}
