//! Who wins when a stone is placed (rulings CAPTURE-2..4).
//!
//! Only the strings touching the placed stone can have lost their last
//! liberty to it, so only they are searched: the opponent's strings next to
//! it first, then the mover's own (CAPTURE-4). A string of a loaded grid
//! that had no liberty before and does not touch the stone is left alone.

use crate::grid::{Cell, Grid, Stone};
use crate::player::Player;

/// The winner after `mover` placed a stone on `placed`, if any: the mover
/// when an opponent's string next to it has no liberty (checked first, so
/// it also wins when both would be captured, CAPTURE-3), else the opponent
/// when the mover's own string has none (a suicide, CAPTURE-2).
pub fn winner_after(grid: &mut Grid, placed: Cell, mover: Player) -> Option<Player> {
    let opponent = Stone::Taken(mover.other());
    for next in grid.neighbours(placed) {
        if grid.get(next) == Some(opponent) && !grid.has_liberty(next) {
            return Some(mover);
        }
    }
    if grid.has_liberty(placed) {
        None
    } else {
        Some(mover.other())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::grid_of;

    /// Places `mover` at (`row`, `col`) on `rows` and asks who won.
    fn after(rows: &[&str], row: usize, col: usize, mover: Player) -> Option<Player> {
        let mut g = grid_of(rows);
        let at = Cell::new(row, col);
        assert!(g.is_free(at));
        g.set(at, Stone::Taken(mover));
        winner_after(&mut g, at, mover)
    }

    #[test]
    fn capture_3_the_texts_example_mover_wins() {
        let rows = ["OX.OX", "OOXXX", "O....", "....."];
        assert_eq!(after(&rows, 0, 2, Player::O), Some(Player::O));
    }

    #[test]
    fn capture_2_opponent_string_captured_mover_wins() {
        // Corner: X at 0,0 loses its last liberty to O at 1,0.
        assert_eq!(
            after(&["XO..", "....", "....", "...."], 1, 0, Player::O),
            Some(Player::O)
        );
        // Edge: X at 0,2 surrounded on the top edge.
        assert_eq!(
            after(&[".OXO", "....", "....", "...."], 1, 2, Player::O),
            Some(Player::O)
        );
        // Multi-stone string in the middle.
        let rows = [".OO..", "O.XO.", ".OXO.", "..O..", "....."];
        assert_eq!(after(&rows, 1, 1, Player::O), Some(Player::O));
        // X there instead joins its string and fills its last liberty.
        assert_eq!(after(&rows, 1, 1, Player::X), Some(Player::O));
        let rows = [".OO..", "O.XO.", ".OX..", "..O..", "....."];
        assert_eq!(after(&rows, 1, 1, Player::X), None);
    }

    #[test]
    fn capture_2_suicide_is_legal_and_loses() {
        assert_eq!(
            after(&[".X..", "X...", "....", "...."], 0, 0, Player::O),
            Some(Player::X)
        );
        // A suicide that joins a string with no other liberty.
        let rows = ["OX..", ".X..", "XX..", "...."];
        assert_eq!(after(&rows, 1, 0, Player::O), Some(Player::X));
    }

    #[test]
    fn capture_2_no_capture_no_winner() {
        assert_eq!(
            after(&["....", "....", "....", "...."], 2, 2, Player::O),
            None
        );
        // Filling the liberty of one's own string next to a living one.
        assert_eq!(
            after(&["XO..", "....", "....", "...."], 0, 2, Player::O),
            None
        );
    }

    #[test]
    fn capture_4_dead_string_elsewhere_is_ignored() {
        // X at 0,0 has no liberty already (a loaded grid); a move far away
        // does not end the game.
        let rows = ["XO..", "O...", "....", "...."];
        assert_eq!(after(&rows, 3, 3, Player::X), None);
        assert_eq!(after(&rows, 3, 3, Player::O), None);
        // Touching it (its string, not a liberty) decides: O next to the
        // dead X string wins for O.
        let rows = ["XO..", "X...", "O...", "...."];
        assert_eq!(after(&rows, 1, 1, Player::O), Some(Player::O));
    }

    #[test]
    fn capture_4_own_dead_string_elsewhere_is_ignored() {
        // O's loaded stone at 0,0 has no liberty; neither O's move far away
        // nor X's move next to its X neighbours (not to it) ends the game.
        let rows = ["OX..", "X...", "....", "...."];
        assert_eq!(after(&rows, 2, 2, Player::O), None);
        assert_eq!(after(&rows, 1, 1, Player::X), None);
    }
}
