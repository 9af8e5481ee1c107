//! Everything a save file holds (rulings FILE-7, SAVE-2): the grid, the
//! player to move and both generators. The player kinds come from the
//! command line and are not part of it.

use crate::generator::Generator;
use crate::grid::Grid;
use crate::player::Player;

/// A game position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// The board.
    pub grid: Grid,
    /// The player to move.
    pub next: Player,
    /// The generators of `O` and `X`, in that order; a human's is carried
    /// unused and saved unchanged (FILE-3).
    pub generators: [Generator; 2],
}

impl State {
    /// A new game: an empty H×W grid, `O` to move, both generators at
    /// their start (COMP-2).
    pub fn new(height: usize, width: usize) -> Self {
        Self {
            grid: Grid::new(height, width),
            next: Player::O,
            generators: Player::BOTH.map(|p| Generator::new(p, height, width)),
        }
    }

    /// The generator of `player`.
    pub fn generator(&mut self, player: Player) -> &mut Generator {
        &mut self.generators[player.index()]
    }
}
