//! What a corpus is generated for: the grid size, the player count and the
//! seed, checked against the ranges `boxes` itself accepts (ARGS-3, ARGS-4)
//! so every generated file is one the program really gets to load.

use std::ffi::OsString;

use boxes_reference::player::MAX_PLAYERS;

/// Smallest and largest height or width `boxes` accepts (ARGS-3).
pub const DIMENSIONS: std::ops::RangeInclusive<usize> = 2..=999;

/// Smallest and largest player count `boxes` accepts (ARGS-4).
pub const PLAYERS: std::ops::RangeInclusive<usize> = 2..=MAX_PLAYERS;

/// A size or player count `boxes` would refuse before loading any file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Height or width outside 2..=999.
    #[error("{what} {value} is outside 2..=999, which boxes refuses before loading a file")]
    Dimension {
        /// `height` or `width`.
        what: &'static str,
        /// The value given.
        value: usize,
    },
    /// Player count outside 2..=100.
    #[error("player count {0} is outside 2..=100, which boxes refuses before loading a file")]
    Players(usize),
}

/// The parameters of one corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    /// Rows of cells (H).
    pub height: usize,
    /// Columns of cells (W).
    pub width: usize,
    /// Player count (P).
    pub players: usize,
    /// Picks the random base states and positions.
    pub seed: u64,
}

impl Spec {
    /// A spec, if `boxes H W P FILE` would get as far as loading FILE.
    pub fn new(height: usize, width: usize, players: usize, seed: u64) -> Result<Self, SpecError> {
        if !DIMENSIONS.contains(&height) {
            return Err(SpecError::Dimension {
                what: "height",
                value: height,
            });
        }
        if !DIMENSIONS.contains(&width) {
            return Err(SpecError::Dimension {
                what: "width",
                value: width,
            });
        }
        if !PLAYERS.contains(&players) {
            return Err(SpecError::Players(players));
        }
        Ok(Self {
            height,
            width,
            players,
            seed,
        })
    }

    /// The arguments of `boxes H W P FILE`, without the program name.
    pub fn args(&self, file: impl Into<OsString>) -> Vec<OsString> {
        boxes_args(self.height, self.width, self.players, file)
    }

    /// How many lines a valid file has (FILE-1).
    pub const fn lines(&self) -> usize {
        3 * self.height + 2
    }
}

/// The arguments of `boxes H W P FILE`, without the program name: one
/// spelling for the generator and the manifest reader.
pub fn boxes_args(
    height: usize,
    width: usize,
    players: usize,
    file: impl Into<OsString>,
) -> Vec<OsString> {
    vec![
        height.to_string().into(),
        width.to_string().into(),
        players.to_string().into(),
        file.into(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_follow_args_3_and_args_4() {
        assert!(Spec::new(2, 999, 100, 0).is_ok());
        assert_eq!(
            Spec::new(1, 2, 2, 0),
            Err(SpecError::Dimension {
                what: "height",
                value: 1
            })
        );
        assert!(matches!(
            Spec::new(2, 1000, 2, 0),
            Err(SpecError::Dimension { what: "width", .. })
        ));
        assert_eq!(Spec::new(2, 2, 1, 0), Err(SpecError::Players(1)));
        assert_eq!(Spec::new(2, 2, 101, 0), Err(SpecError::Players(101)));
    }

    #[test]
    fn args_and_line_count() {
        let s = Spec::new(3, 5, 26, 9).expect("valid");
        assert_eq!(
            s.args("f"),
            ["3", "5", "26", "f"].map(OsString::from).to_vec()
        );
        assert_eq!(s.lines(), 11);
    }
}
