//! The ambiguous rulings a `diff` difference rests on beyond those a
//! session's input touches: a saved generator state spelled otherwise
//! that loads into the same game (SAVE-2), and move numbers that play took
//! past 2147483647 (FILE-3). Without `--ambiguous`, `diff` sets such
//! differences apart instead of reporting them as bugs.

use std::collections::BTreeMap;

use nogo_reference::generator::{GenState, Generator};
use nogo_reference::savefile::load_bytes;
use nogo_reference::{Player, State, Stone};

use crate::session::Ambiguity;
use crate::sim::Sim;
use nogo_reference::rules::Rule;

/// SAVE-2's ambiguous part: another generator state, the same game.
pub const SAVED_STATE: Ambiguity = Ambiguity::new("saved-state-same-game", Rule::Save2);

/// FILE-3's ambiguous part: a move number past 2147483647.
pub const MOVE_NUMBER: Ambiguity = Ambiguity::new("move-number-past-2-31", Rule::File3);

/// The largest move number no ruling calls ambiguous.
const LAST_PLAIN_NUMBER: u64 = 2_147_483_647;

/// What makes a difference between two runs of `session` ambiguous, when
/// anything does: `expected` and `actual` are the files each run left.
pub fn of_difference(
    session: &crate::session::Session,
    expected: &BTreeMap<String, Vec<u8>>,
    actual: &BTreeMap<String, Vec<u8>>,
) -> Vec<Ambiguity> {
    let mut found = Vec::new();
    if past_plain_numbers(session) {
        found.push(MOVE_NUMBER);
    }
    let differing: Vec<(&Vec<u8>, &Vec<u8>)> = expected
        .iter()
        .filter_map(|(path, e)| actual.get(path).filter(|a| *a != e).map(|a| (e, a)))
        .collect();
    if !differing.is_empty() && differing.iter().all(|(e, a)| same_game(e, a)) {
        found.push(SAVED_STATE);
    }
    found
}

/// Whether a move number of the game is past 2147483647 at its start or
/// once its lines are played.
fn past_plain_numbers(session: &crate::session::Session) -> bool {
    let Some(start) = crate::classify::start(session) else {
        return false;
    };
    let past = |state: &State| {
        state
            .generators
            .iter()
            .any(|g| g.state().number > LAST_PLAIN_NUMBER)
    };
    if past(&start) {
        return true;
    }
    let mut sim = Sim::new(session.kinds(), Some(start));
    for line in &session.lines {
        sim.feed(&line.bytes);
    }
    past(sim.state())
}

/// Whether two save files hold the same game with generator states
/// spelled otherwise: the same header up to the next player, the same
/// grid bytes, both loading, and each player's computer choosing the same
/// cells from either state whatever is played.
fn same_game(expected: &[u8], actual: &[u8]) -> bool {
    let split = |bytes: &[u8]| -> Option<(Vec<Vec<u8>>, Vec<u8>)> {
        let end = bytes.iter().position(|&b| b == b'\n')?;
        let fields = bytes[..end]
            .split(|&b| b == b' ')
            .map(<[u8]>::to_vec)
            .collect();
        Some((fields, bytes[end..].to_vec()))
    };
    let (Some((fe, ge)), Some((fa, ga))) = (split(expected), split(actual)) else {
        return false;
    };
    if fe.get(..3) != fa.get(..3) || ge != ga {
        return false;
    }
    let (Ok(e), Ok(a)) = (load_bytes(expected), load_bytes(actual)) else {
        return false;
    };
    Player::BOTH.into_iter().all(|p| {
        let (se, sa) = (
            e.generators[p.index()].state(),
            a.generators[p.index()].state(),
        );
        se == sa || same_choices(&e, p, se, sa)
    })
}

/// Whether `player`'s computer picks the same cells from either generator
/// state on `state`'s grid, move after move until the grid is full.
fn same_choices(state: &State, player: Player, one: GenState, other: GenState) -> bool {
    let (height, width) = (state.grid.height(), state.grid.width());
    let mut grid = state.grid.clone();
    let mut ga = Generator::with_state(player, height, width, one);
    let mut gb = Generator::with_state(player, height, width, other);
    // Every cell is a candidate within 1000003 jumps (COMP-3); a few
    // grids' worth of candidates is plenty to tell two sequences apart.
    let budget = 4 * height * width + 16;
    while grid.empty_cells() > 0 {
        let pick = |g: &mut Generator| (0..budget).map(|_| g.take()).find(|&c| grid.is_free(c));
        let (ca, cb) = (pick(&mut ga), pick(&mut gb));
        match (ca, cb) {
            (Some(cell), Some(same)) if cell == same => grid.set(cell, Stone::Taken(player)),
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use nogo_reference::Cell;
    use nogo_reference::savefile::to_bytes;

    #[test]
    fn a_skipped_candidate_saved_is_the_same_game_and_swapped_states_are_not() {
        let mut state = State::new(4, 4);
        // O's first candidate (1 0) is taken: a state one candidate on
        // loads into the same game.
        state.grid.set(Cell::new(1, 0), Stone::Taken(Player::X));
        let good = to_bytes(&state);
        let mut on = state.clone();
        let mut g = on.generators[0].clone();
        g.take();
        on.generators[0] = g;
        let skipped = to_bytes(&on);
        assert_ne!(good, skipped);
        assert!(same_game(&good, &skipped));
        let mut swapped = state.clone();
        swapped.generators.swap(0, 1);
        assert!(!same_game(&good, &to_bytes(&swapped)));
        let mut other = state;
        other.grid.set(Cell::new(0, 0), Stone::Taken(Player::O));
        assert!(!same_game(&good, &to_bytes(&other)));
    }
}
