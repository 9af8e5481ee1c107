//! Players: their 1-based numbers, their symbols and the turn order
//! (rulings DISP-2, TURN-5, FILE-7).

use std::fmt;

/// Most players a game may have (ARGS-4: P < 101).
pub const MAX_PLAYERS: usize = 100;

/// One player, numbered from 1 as in the grid file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Player(u8);

impl Player {
    /// The first player, `A`.
    pub const FIRST: Self = Self(1);

    /// Player `number` (1-based), if it is a possible player at all.
    pub fn new(number: usize) -> Option<Self> {
        let n = u8::try_from(number).ok()?;
        (1..=MAX_PLAYERS as u8).contains(&n).then_some(Self(n))
    }

    /// The player's 1-based number.
    pub const fn number(self) -> usize {
        self.0 as usize
    }

    /// The symbol byte: 64 + number (DISP-2). Above 62 players this passes
    /// `~` into DEL and bytes above 127, written raw.
    pub const fn symbol(self) -> u8 {
        64 + self.0
    }

    /// The player after this one in a game of `count` players, wrapping to 1.
    #[must_use]
    pub fn next(self, count: usize) -> Self {
        if self.number() >= count {
            Self::FIRST
        } else {
            Self(self.0 + 1)
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disp_2_symbols_are_64_plus_number() {
        assert_eq!(Player::FIRST.symbol(), b'A');
        assert_eq!(Player::new(26).map(Player::symbol), Some(b'Z'));
        assert_eq!(Player::new(62).map(Player::symbol), Some(b'~'));
        assert_eq!(Player::new(63).map(Player::symbol), Some(0x7f));
        assert_eq!(Player::new(100).map(Player::symbol), Some(164));
        assert_eq!(Player::new(0), None);
        assert_eq!(Player::new(101), None);
    }

    #[test]
    fn turn_5_play_wraps_from_last_to_first() {
        let p3 = Player::new(3);
        assert_eq!(p3.map(|p| p.next(3)), Some(Player::FIRST));
        assert_eq!(
            Player::FIRST.next(3),
            Player::new(2).unwrap_or(Player::FIRST)
        );
    }
}
