//! The state of a game: the grid, whose turn it is and how many play, and
//! the one place a move is applied (TURN-5). Shared by the turn loop
//! ([`crate::game`]) and the grid-file reader and writer
//! ([`crate::gridfile`]), which both depend on it and not on each other's
//! concerns.

use crate::grid::{Completed, Edge, Grid, MoveError};
use crate::player::Player;

/// Everything a grid file holds: the grid and whose turn it is, for a game
/// of `players` players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// Edges and owners.
    pub grid: Grid,
    /// The player to move next.
    pub next: Player,
    /// How many players the game has (P).
    pub players: usize,
}

impl State {
    /// A new game: empty grid, player A to move.
    pub fn new(height: usize, width: usize, players: usize) -> Self {
        Self {
            grid: Grid::new(height, width),
            next: Player::FIRST,
            players,
        }
    }

    /// Plays `edge` for the player to move, the one place TURN-5 lives: the
    /// edge closes, every cell it completes takes the mover's symbol, and a
    /// move that completes nothing passes the turn on (wrapping to A)
    /// unless it ended the game. Refuses edges that do not exist or are
    /// closed, changing nothing.
    pub fn apply(&mut self, edge: Edge) -> Result<Completed, MoveError> {
        let done = self.grid.play(edge, self.next)?;
        if done.count() == 0 && self.grid.open_edges() > 0 {
            self.next = self.next.next(self.players);
        }
        Ok(done)
    }
}
