//! The built-in checker `save-game` (`match: {files: {PATH: {checker:
//! "builtin:save-game"}}}`): two saved files are the same when they load
//! into the same game (SAVE-2): the same grid, the same player to move,
//! and for each generator the same next candidate, reduced and past the
//! candidates it would skip. A saved state that is unreduced (a column
//! of W on a W-wide grid) or that names a candidate already taken is
//! **(ambiguous)** in SAVE-2, so it passes; a wrong grid or player fails.
//!
//! Files are read by the reference's own loader (`nogo_reference::
//! savefile`), after the generator rows and columns are reduced modulo
//! H and W (FILE-3 leaves a row >= H ambiguous; the loader refuses it).

use conformance_engine::pack::CheckerInput;
use nogo_reference::generator::GenState;
use nogo_reference::savefile;
use nogo_reference::{Cell, Generator, Player, State};

/// The checker's name, as cases declare it (`builtin:save-game`).
pub const NAME: &str = "save-game";

/// `bytes` with the generator rows and columns of its header reduced
/// modulo H and W, when the header has nine numbers; else unchanged (the
/// loader then says what is wrong).
fn reduced(bytes: &[u8]) -> Vec<u8> {
    savefile::with_generator_places(bytes, |value, bound| value % bound)
        .unwrap_or_else(|| bytes.to_vec())
}

/// The candidate a generator takes next on `state`'s grid: its state once
/// past every candidate that is not free (COMP-3 skips them). A grid
/// where it finds none within a bound keeps the state as loaded.
fn next_candidate(state: &State, player: Player) -> GenState {
    let mut generator: Generator = state.generators[player.index()].clone();
    let grid = &state.grid;
    let bound = grid.height().saturating_mul(grid.width()).saturating_mul(8) + 64;
    for _ in 0..bound {
        let s = generator.state();
        if grid.is_free(Cell::new(s.row, s.col)) {
            return s;
        }
        generator.take();
    }
    state.generators[player.index()].state()
}

fn load(bytes: &[u8], whose: &str) -> Result<State, String> {
    savefile::load_bytes(&reduced(bytes)).map_err(|e| format!("{whose} does not load: {e}"))
}

/// Whether the program's saved file loads into the model's game.
pub fn save_game(input: &CheckerInput) -> Result<(), String> {
    let expected = load(&input.expected, "the reference's saved file")?;
    let actual = load(&input.actual, "the saved file")?;
    let (eh, ew) = (expected.grid.height(), expected.grid.width());
    let (ah, aw) = (actual.grid.height(), actual.grid.width());
    if (eh, ew) != (ah, aw) {
        return Err(format!(
            "saved a {ah}x{aw} grid, the game is {eh}x{ew} (SAVE-2)"
        ));
    }
    if expected.grid != actual.grid {
        let row = (0..eh)
            .find(|&r| expected.grid.row(r) != actual.grid.row(r))
            .unwrap_or(0);
        return Err(format!(
            "saved grid row {row} differs from the game's (SAVE-2)"
        ));
    }
    if expected.next != actual.next {
        return Err(format!(
            // The players quoted: a cause's key masks quoted words, so
            // X-for-O and O-for-X are one bug, one cause.
            "saved `{:?}` as the player to move; it is `{:?}` (SAVE-2)",
            actual.next, expected.next
        ));
    }
    for player in Player::BOTH {
        let (e, a) = (
            next_candidate(&expected, player),
            next_candidate(&actual, player),
        );
        if e != a {
            return Err(format!(
                "`{player:?}`'s generator: the saved state next plays ({}, {}) as move {}; the game's \
                 plays ({}, {}) as move {} (SAVE-2, COMP-2)",
                a.row, a.col, a.number, e.row, e.col, e.number
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(expected: &str, actual: &str) -> Result<(), String> {
        save_game(&CheckerInput {
            stream: "file:out".to_owned(),
            expected: expected.as_bytes().to_vec(),
            actual: actual.as_bytes().to_vec(),
            ..CheckerInput::default()
        })
    }

    const GRID: &str = "....\n....\n....\n....\n";

    #[test]
    fn an_unreduced_generator_state_is_the_same_game() {
        let model = format!("4 4 0 1 0 0 2 2 0\n{GRID}");
        assert_eq!(check(&model, &model), Ok(()));
        // O's initial column I_c = 4, unreduced on a 4-wide grid.
        assert_eq!(check(&model, &format!("4 4 0 1 4 0 2 2 0\n{GRID}")), Ok(()));
        assert_eq!(
            check(&model, &format!("4 4 0 5 4 0 6 10 0\n{GRID}")),
            Ok(())
        );
    }

    #[test]
    fn a_candidate_already_taken_is_the_same_game() {
        // O's candidate (1, 0) is taken: its generator skips it to (2, 1)
        // as move 1, the state the reference would save after skipping.
        let grid = "....\nO...\n....\n....\n";
        let skipped = format!("4 4 1 2 1 1 2 2 0\n{grid}");
        assert_eq!(
            check(&skipped, &format!("4 4 1 1 0 0 2 2 0\n{grid}")),
            Ok(())
        );
    }

    #[test]
    fn a_wrong_grid_player_or_candidate_fails() {
        let model = format!("4 4 0 1 0 0 2 2 0\n{GRID}");
        let grid = check(&model, "4 4 0 1 0 0 2 2 0\nO...\n....\n....\n....\n").unwrap_err();
        assert!(grid.contains("row 0"), "{grid}");
        let next = check(&model, &format!("4 4 1 1 0 0 2 2 0\n{GRID}")).unwrap_err();
        assert!(next.contains("player to move"), "{next}");
        let generator = check(&model, &format!("4 4 0 1 1 0 2 2 0\n{GRID}")).unwrap_err();
        assert!(generator.contains("generator"), "{generator}");
        let broken = check(&model, "4 4 0\n").unwrap_err();
        assert!(broken.contains("does not load"), "{broken}");
    }
}
