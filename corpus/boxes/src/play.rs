//! Valid game states reached by seeded random play, for the corpus's base
//! files and for any later tool (differential testing) that needs many
//! realistic positions: every state here is one a real game could reach, so
//! closed cells always have an owner and the next player follows TURN-5.

use boxes_reference::{Edge, Grid, Player, State};

use conformance_engine::rng::SplitMix64;

/// A game in progress: the state and the moves that led to it, in order,
/// each as the move line (`Edge`'s `Display`) a player would type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RandomGame {
    /// The position now; `state.next` is the player to move.
    pub state: State,
    /// Every move played from the empty grid, oldest first.
    pub moves: Vec<Edge>,
    /// Edges still open, in no meaningful order (kept for O(1) draws).
    open: Vec<Edge>,
}

impl RandomGame {
    /// A new game: empty grid, player 1 to move (the reference's own start).
    pub fn new(height: usize, width: usize, players: usize) -> Self {
        let state = State::new(height, width, players);
        let open = state.grid.edges().collect();
        Self {
            state,
            moves: Vec::new(),
            open,
        }
    }

    /// Plays `count` random moves from a new game (fewer if the game ends
    /// first).
    pub fn random(
        height: usize,
        width: usize,
        players: usize,
        count: usize,
        rng: &mut SplitMix64,
    ) -> Self {
        let mut game = Self::new(height, width, players);
        for _ in 0..count {
            if game.play_one(rng).is_none() {
                break;
            }
        }
        game
    }

    /// Plays random moves until no edge is open.
    pub fn to_end(height: usize, width: usize, players: usize, rng: &mut SplitMix64) -> Self {
        Self::random(height, width, players, usize::MAX, rng)
    }

    /// Plays one random open edge for the player to move (TURN-5: a move
    /// that completes a cell keeps the turn, any other passes it on).
    /// Returns the edge, or `None` when the game is over.
    pub fn play_one(&mut self, rng: &mut SplitMix64) -> Option<Edge> {
        if self.open.is_empty() {
            return None;
        }
        let edge = self.open.swap_remove(rng.below(self.open.len()));
        self.state.apply(edge).ok()?;
        self.moves.push(edge);
        Some(edge)
    }

    /// Whether every edge is closed.
    pub fn is_over(&self) -> bool {
        self.open.is_empty()
    }

    /// Edges still open.
    pub fn open_edges(&self) -> usize {
        self.open.len()
    }

    /// The input a player would type to reach this position from a new
    /// game: one move line each, `\n`-terminated.
    pub fn move_lines(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for edge in &self.moves {
            out.extend_from_slice(edge.to_string().as_bytes());
            out.push(b'\n');
        }
        out
    }
}

/// A mid-game state with at least one owned (closed) cell and at least one
/// open edge, so that every kind of grid-file line has something to say:
/// the corpus mutates such a state into its faulty files.
pub fn mid_game(height: usize, width: usize, players: usize, rng: &mut SplitMix64) -> RandomGame {
    let mut game = RandomGame::new(height, width, players);
    while owned_cells(&game.state.grid) == 0 && game.open_edges() > 1 {
        if game.play_one(rng).is_none() {
            break;
        }
    }
    // A few more moves spread the position out, always leaving one open.
    let extra = rng.below(game.open_edges());
    for _ in 0..extra {
        if game.open_edges() <= 1 || game.play_one(rng).is_none() {
            break;
        }
    }
    game
}

/// How many cells have an owner.
pub fn owned_cells(grid: &Grid) -> usize {
    grid.scores(usize::from(u8::MAX)).iter().sum()
}

/// The player numbered `n`, or player 1 when `n` is not a possible player:
/// callers pass numbers they already checked against 2..=100.
pub(crate) fn player(n: usize) -> Player {
    Player::new(n).unwrap_or(Player::FIRST)
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;
    use std::io::Cursor;

    use boxes_reference::gridfile;

    use super::*;

    #[test]
    fn random_play_is_deterministic() {
        let a = RandomGame::random(3, 4, 3, 10, &mut SplitMix64::new(5));
        let b = RandomGame::random(3, 4, 3, 10, &mut SplitMix64::new(5));
        let c = RandomGame::random(3, 4, 3, 10, &mut SplitMix64::new(6));
        assert_eq!(a, b);
        assert_ne!(a.moves, c.moves);
        assert_eq!(a.moves.len(), 10);
        assert_eq!(a.state.grid.open_edges(), 31 - 10);
    }

    #[test]
    fn to_end_closes_everything_and_owns_every_cell() {
        let g = RandomGame::to_end(3, 2, 4, &mut SplitMix64::new(1));
        assert!(g.is_over());
        assert_eq!(g.state.grid.open_edges(), 0);
        assert_eq!(owned_cells(&g.state.grid), 6);
    }

    #[test]
    fn mid_game_has_an_owned_cell_and_an_open_edge() {
        for seed in 0..50 {
            let g = mid_game(2, 2, 2, &mut SplitMix64::new(seed));
            assert!(owned_cells(&g.state.grid) >= 1, "seed {seed}");
            assert!(g.open_edges() >= 1, "seed {seed}");
            assert_eq!(g.state.grid.owned_open_cell(), None);
        }
    }

    /// The reference program, fed the same moves and asked to save, writes
    /// exactly the state random play computed: the turn logic here agrees
    /// with TURN-5 as the reference implements it.
    #[test]
    fn random_play_agrees_with_the_reference_turn_loop() {
        let dir = tempfile::tempdir().expect("temp dir");
        for seed in 0..20 {
            let game = RandomGame::random(3, 3, 3, 3 + seed as usize, &mut SplitMix64::new(seed));
            let save = dir.path().join(format!("save-{seed}"));
            let mut input = game.move_lines();
            input.extend_from_slice(b"w ");
            input.extend_from_slice(save.as_os_str().as_encoded_bytes());
            input.push(b'\n');
            let args: Vec<OsString> = ["3", "3", "3"].map(OsString::from).to_vec();
            let (mut out, mut err) = (Vec::new(), Vec::new());
            boxes_reference::run(&args, Cursor::new(input), &mut out, &mut err);
            let saved = std::fs::read(&save).unwrap_or_else(|e| {
                panic!(
                    "{e}: {}",
                    String::from_utf8_lossy(&[&out[..], &err[..]].concat())
                )
            });
            assert_eq!(saved, gridfile::to_bytes(&game.state), "seed {seed}");
        }
    }
}
