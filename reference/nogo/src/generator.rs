//! The computer players' move generator (rulings COMP-1..3, FILE-3).
//!
//! Every computation is exact: the move number is a `u64` and the jump
//! `N = (B + (m / 5) * F) mod 1000003` is reduced term by term, so no
//! loaded number overflows, wraps or panics.

use crate::grid::Cell;
use crate::player::Player;

/// The prime modulus of the jump formula (COMP-2).
pub const MODULUS: u64 = 1_000_003;
/// The largest move number a save file may hold (FILE-3: the text gives
/// none; the reference takes any a u64 holds, and counts on in 64 bits).
pub const MAX_MOVE_NUMBER: u64 = u64::MAX;

/// A player's constants (COMP-1): initial row, initial column, factor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Constants {
    /// I_r.
    pub row: u64,
    /// I_c.
    pub col: u64,
    /// F.
    pub factor: u64,
}

/// The constants of `player` (COMP-1).
pub const fn constants(player: Player) -> Constants {
    match player {
        Player::O => Constants {
            row: 1,
            col: 4,
            factor: 29,
        },
        Player::X => Constants {
            row: 2,
            col: 10,
            factor: 17,
        },
    }
}

/// The part of a generator a save file holds: the next candidate (reduced)
/// and its move number (FILE-3, SAVE-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GenState {
    /// Row of the next candidate, < H.
    pub row: usize,
    /// Column of the next candidate, < W.
    pub col: usize,
    /// The next candidate's move number m.
    pub number: u64,
}

/// One computer player's generator on an H×W grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generator {
    height: usize,
    width: usize,
    factor: u64,
    /// B = I_r * W + I_c, fixed by the player and W (COMP-1).
    base: u64,
    state: GenState,
}

impl Generator {
    /// The generator of `player` for a new H×W game: (I_r mod H, I_c mod W,
    /// 0) (COMP-2).
    pub fn new(player: Player, height: usize, width: usize) -> Self {
        let k = constants(player);
        let state = GenState {
            row: reduce(k.row, height),
            col: reduce(k.col, width),
            number: 0,
        };
        Self::with_state(player, height, width, state)
    }

    /// The generator of `player` resuming from `state` (FILE-7); B still
    /// comes from the player and W alone (COMP-1).
    pub fn with_state(player: Player, height: usize, width: usize, state: GenState) -> Self {
        let k = constants(player);
        let base = k.row.saturating_mul(width as u64).saturating_add(k.col);
        Self {
            height,
            width,
            factor: k.factor,
            base,
            state: GenState {
                row: reduce(state.row as u64, height),
                col: reduce(state.col as u64, width),
                number: state.number,
            },
        }
    }

    /// The state a save would write: the next candidate and its number.
    pub const fn state(&self) -> GenState {
        self.state
    }

    /// Takes the next candidate and advances the state (COMP-2).
    pub fn take(&mut self) -> Cell {
        let GenState { row, col, number } = self.state;
        let m = number.saturating_add(1);
        let (h, w) = (self.height, self.width);
        let (next_row, next_col) = if m % 5 == 0 {
            let n = ((m / 5) % MODULUS * self.factor + self.base % MODULUS) % MODULUS;
            let w64 = (w as u64).max(1);
            (reduce(n / w64, h), reduce(n % w64, w))
        } else {
            let (dr, dc) = match m % 5 {
                1 => (1, 1),
                2 => (2, 1),
                3 => (1, 0),
                _ => (0, 1),
            };
            (reduce(row as u64 + dr, h), reduce(col as u64 + dc, w))
        };
        self.state = GenState {
            row: next_row,
            col: next_col,
            number: m,
        };
        Cell::new(row, col)
    }
}

/// `value mod n` as an index (0 when `n` is 0, which no grid has).
fn reduce(value: u64, n: usize) -> usize {
    match n as u64 {
        0 => 0,
        n => (value % n) as usize,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidates(g: &mut Generator, n: usize) -> Vec<(usize, usize)> {
        (0..n)
            .map(|_| {
                let c = g.take();
                (c.row, c.col)
            })
            .collect()
    }

    #[test]
    fn comp_1_constants_and_base() {
        assert_eq!(
            constants(Player::O),
            Constants {
                row: 1,
                col: 4,
                factor: 29
            }
        );
        assert_eq!(
            constants(Player::X),
            Constants {
                row: 2,
                col: 10,
                factor: 17
            }
        );
        assert_eq!(Generator::new(Player::O, 7, 7).base, 11);
        assert_eq!(Generator::new(Player::O, 4, 4).base, 8);
        assert_eq!(Generator::new(Player::X, 4, 4).base, 18);
        // B depends on W only, never on a loaded state.
        let loaded = GenState {
            row: 3,
            col: 2,
            number: 40,
        };
        assert_eq!(Generator::with_state(Player::X, 9, 4, loaded).base, 18);
    }

    #[test]
    fn comp_5_seven_by_seven_sequence_for_o() {
        let mut g = Generator::new(Player::O, 7, 7);
        let expected = [
            (1, 4),
            (2, 5),
            (4, 6),
            (5, 6),
            (5, 0),
            (5, 5),
            (6, 6),
            (1, 0),
            (2, 0),
            (2, 1),
            (2, 6),
            (3, 0),
            (5, 1),
        ];
        assert_eq!(candidates(&mut g, expected.len()), expected);
        assert_eq!(g.state().number, 13);
    }

    #[test]
    fn comp_2_new_game_starts_reduced() {
        let g = Generator::new(Player::X, 4, 4);
        assert_eq!(
            g.state(),
            GenState {
                row: 2,
                col: 2,
                number: 0
            }
        );
        let g = Generator::new(Player::O, 4, 1000);
        assert_eq!(
            g.state(),
            GenState {
                row: 1,
                col: 4,
                number: 0
            }
        );
        let g = Generator::new(Player::X, 1000, 10);
        assert_eq!(
            g.state(),
            GenState {
                row: 2,
                col: 0,
                number: 0
            }
        );
    }

    #[test]
    fn comp_2_state_after_a_take_is_the_next_candidate() {
        let mut g = Generator::new(Player::X, 4, 4);
        assert_eq!(candidates(&mut g, 3), [(2, 2), (3, 3), (1, 0)]);
        assert_eq!(
            g.state(),
            GenState {
                row: 2,
                col: 0,
                number: 3
            }
        );
        // m 4 -> 5 jumps: N = 18 + 17 = 35 -> (8, 3) -> (0, 3).
        assert_eq!(candidates(&mut g, 3), [(2, 0), (2, 1), (0, 3)]);
    }

    #[test]
    fn comp_2_resuming_equals_continuing() {
        let mut whole = Generator::new(Player::O, 9, 13);
        let first = candidates(&mut whole, 17);
        let mut resumed = Generator::with_state(Player::O, 9, 13, whole.state());
        let mut again = Generator::new(Player::O, 9, 13);
        assert_eq!(candidates(&mut again, 17), first);
        assert_eq!(candidates(&mut resumed, 40), candidates(&mut again, 40));
    }

    #[test]
    fn comp_2_huge_move_numbers_never_overflow() {
        let start = GenState {
            row: 0,
            col: 0,
            number: 2_147_483_647,
        };
        let mut g = Generator::with_state(Player::O, 1000, 1000, start);
        // 2147483648 is a multiple of 5 plus 3: two steps, then a jump.
        for _ in 0..10 {
            let c = g.take();
            assert!(c.row < 1000 && c.col < 1000);
        }
        assert_eq!(g.state().number, 2_147_483_657);
        let mut g = Generator::with_state(
            Player::X,
            4,
            4,
            GenState {
                number: u64::MAX,
                ..start
            },
        );
        let c = g.take();
        assert!(c.row < 4 && c.col < 4);
    }

    #[test]
    fn comp_3_jumps_reach_every_cell() {
        // The jump targets N = B + kF mod p, k = 0, 1, … run through every
        // residue, so every cell is a candidate within p jumps: an empty
        // cell is always found.
        for (player, h, w) in [
            (Player::X, 5, 7),
            (Player::O, 4, 1000),
            (Player::O, 1000, 4),
        ] {
            let mut g = Generator::new(player, h, w);
            let mut seen = vec![false; h * w];
            let mut left = h * w;
            let mut taken = 0u64;
            while left > 0 && taken < 5 * (MODULUS + 1) {
                let c = g.take();
                taken += 1;
                if !std::mem::replace(&mut seen[c.row * w + c.col], true) {
                    left -= 1;
                }
            }
            assert_eq!(left, 0, "{player:?} {h}x{w}");
        }
    }
}
