//! The two players and the two kinds of player (rulings ARGS-2, COMP-1).

/// One of the two players: `O` moves first in a new game, `X` second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Player {
    /// Player 0, symbol `O`.
    O,
    /// Player 1, symbol `X`.
    X,
}

impl Player {
    /// Both players, in turn order.
    pub const BOTH: [Self; 2] = [Self::O, Self::X];

    /// The byte that shows the player's stones and names it in messages.
    pub const fn symbol(self) -> u8 {
        match self {
            Self::O => b'O',
            Self::X => b'X',
        }
    }

    /// 0 for `O`, 1 for `X`: the `next` field of a save file (FILE-2).
    pub const fn index(self) -> usize {
        match self {
            Self::O => 0,
            Self::X => 1,
        }
    }

    /// The player with save-file number `index` (0 or 1).
    pub const fn from_index(index: u64) -> Option<Self> {
        match index {
            0 => Some(Self::O),
            1 => Some(Self::X),
            _ => None,
        }
    }

    /// The other player.
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Self::O => Self::X,
            Self::X => Self::O,
        }
    }
}

/// Who chooses a player's moves (ARGS-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `c`: the move generator (COMP-1..4).
    Computer,
    /// `h`: lines read from stdin (TURN-1..5).
    Human,
}

impl Kind {
    /// The kind named by a command-line argument: exactly `c` or `h`.
    pub fn from_arg(arg: &[u8]) -> Option<Self> {
        match arg {
            b"c" => Some(Self::Computer),
            b"h" => Some(Self::Human),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_2_types_are_exactly_c_or_h() {
        assert_eq!(Kind::from_arg(b"c"), Some(Kind::Computer));
        assert_eq!(Kind::from_arg(b"h"), Some(Kind::Human));
        for bad in [&b"C"[..], b"H", b"cc", b"c ", b" c", b"", b"x", b"c\0"] {
            assert_eq!(Kind::from_arg(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn players_alternate_and_number_as_in_files() {
        assert_eq!(Player::O.other(), Player::X);
        assert_eq!(Player::X.other(), Player::O);
        assert_eq!((Player::O.index(), Player::X.index()), (0, 1));
        assert_eq!(Player::from_index(1), Some(Player::X));
        assert_eq!(Player::from_index(2), None);
        assert_eq!((Player::O.symbol(), Player::X.symbol()), (b'O', b'X'));
    }
}
