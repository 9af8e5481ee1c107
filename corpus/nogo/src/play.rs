//! Valid positions by seeded random play under the reference's rules: a
//! stone that would end the game is taken back, so every string of the
//! result has a liberty (CAPTURE-4 never matters for it) and an empty cell
//! is left (FILE-4).

use nogo_reference::capture::winner_after;
use nogo_reference::{Cell, GenState, Generator, Player, State, Stone};

use conformance_engine::rng::SplitMix64;

/// A position of an H×W game with about `fill` per cent of its cells taken
/// by play (fewer when captures block), random generator states and a
/// random next player.
pub fn mid_game(height: usize, width: usize, fill: usize, rng: &mut SplitMix64) -> State {
    let mut state = State::new(height, width);
    let cells = height * width;
    let target = cells * fill.min(90) / 100;
    let mut placed = 0;
    let mut tries = 0;
    while placed < target && tries < 8 * cells {
        tries += 1;
        let cell = Cell::new(rng.below(height), rng.below(width));
        if !state.grid.is_free(cell) {
            continue;
        }
        state.grid.set(cell, Stone::Taken(state.next));
        if winner_after(&mut state.grid, cell, state.next).is_some() {
            state.grid.set(cell, Stone::Empty);
            continue;
        }
        state.next = state.next.other();
        placed += 1;
    }
    let random_state = |rng: &mut SplitMix64| GenState {
        row: rng.below(height),
        col: rng.below(width),
        number: rng.below(100_000) as u64,
    };
    let o = random_state(rng);
    let x = random_state(rng);
    state.generators = [
        Generator::with_state(Player::O, height, width, o),
        Generator::with_state(Player::X, height, width, x),
    ];
    state
}

/// `state` with both move numbers set to the largest a file may hold.
pub fn with_max_numbers(mut state: State) -> State {
    let (h, w) = (state.grid.height(), state.grid.width());
    for p in Player::BOTH {
        let s = state.generators[p.index()].state();
        state.generators[p.index()] = Generator::with_state(
            p,
            h,
            w,
            GenState {
                // The largest move number no ruling calls ambiguous.
                number: 2_147_483_647,
                ..s
            },
        );
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_by_play_keep_every_string_alive() {
        for seed in 0..20 {
            let mut rng = SplitMix64::new(seed);
            let mut state = mid_game(4, 5, 60, &mut rng);
            assert!(state.grid.empty_cells() > 0);
            for r in 0..4 {
                for c in 0..5 {
                    assert!(
                        state.grid.has_liberty(Cell::new(r, c)),
                        "seed {seed} {r} {c}"
                    );
                }
            }
        }
    }

    #[test]
    fn same_seed_same_position() {
        let a = mid_game(9, 7, 40, &mut SplitMix64::new(5));
        let b = mid_game(9, 7, 40, &mut SplitMix64::new(5));
        assert_eq!(a, b);
    }
}
