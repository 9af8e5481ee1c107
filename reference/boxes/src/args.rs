//! The command line: argument count, the numbers in it, and the order in
//! which they are checked (rulings ARGS-1..5).

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;

use crate::player::MAX_PLAYERS;
use crate::status::Exit;
use crate::why::Why;

// How `strtol` splits an argument is the kit's (nogo reads its numbers the
// same way); which values count is this program's ruling (ARGS-2..4).
pub use reference_kit::number::{NumberParts, is_c_space, number_parts};

/// Smallest accepted height or width (ARGS-3: 1 < n).
pub const MIN_DIMENSION: usize = 2;
/// Largest accepted height or width (ARGS-3: n < 1000).
pub const MAX_DIMENSION: usize = 999;
/// Smallest accepted player count (ARGS-4: 1 < P).
pub const MIN_PLAYERS: usize = 2;

/// A valid command line: the game's size and, for a loaded game, its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Rows of cells (H).
    pub height: usize,
    /// Columns of cells (W).
    pub width: usize,
    /// Number of players (P).
    pub players: usize,
    /// The grid file to load, when a fourth argument was given.
    pub file: Option<OsString>,
}

/// Checks the arguments after the program name in the order of ARGS-5,
/// stopping at the first failure. File checks (open, contents) come later.
pub fn parse(args: &[OsString]) -> Result<Config, Exit> {
    if !(3..=4).contains(&args.len()) {
        crate::why::stopped(Why::ArgumentCount, Exit::Usage, || {
            format!("{} argument(s)", args.len())
        });
        return Err(Exit::Usage);
    }
    let height = parse_in_range(&args[0], MIN_DIMENSION, MAX_DIMENSION);
    let width = parse_in_range(&args[1], MIN_DIMENSION, MAX_DIMENSION);
    let (Some(height), Some(width)) = (height, width) else {
        let (name, arg) = if height.is_none() {
            ("height", &args[0])
        } else {
            ("width", &args[1])
        };
        let why = if number_parts(arg.as_bytes()).is_whole_number() {
            Why::DimensionRange
        } else {
            Why::DimensionNotANumber
        };
        crate::why::stopped(why, Exit::Dimensions, || {
            format!("a {name} of {}", crate::why::quoted(arg))
        });
        return Err(Exit::Dimensions);
    };
    let Some(players) = parse_in_range(&args[2], MIN_PLAYERS, MAX_PLAYERS) else {
        let why = if number_parts(args[2].as_bytes()).is_whole_number() {
            Why::PlayersRange
        } else {
            Why::PlayersNotANumber
        };
        crate::why::stopped(why, Exit::PlayerCount, || {
            format!("a player count of {}", crate::why::quoted(&args[2]))
        });
        return Err(Exit::PlayerCount);
    };
    Ok(Config {
        height,
        width,
        players,
        file: args.get(3).cloned(),
    })
}

fn parse_in_range(arg: &OsStr, min: usize, max: usize) -> Option<usize> {
    let value = parse_c_long(arg.as_bytes())?;
    let value = usize::try_from(value).ok()?;
    (min..=max).contains(&value).then_some(value)
}

/// Reads `s` as C's `strtol(s, &end, 10)` does when the whole string must be
/// consumed (ARGS-2): leading C whitespace, an optional sign, at least one
/// decimal digit and nothing after. Values beyond a C `int` are `None`, since
/// a C program storing the result in an `int` could not hold them.
pub fn parse_c_long(s: &[u8]) -> Option<i64> {
    let parts = number_parts(s);
    if !parts.is_whole_number() {
        return None;
    }
    let mut value: i64 = 0;
    for d in parts.digits {
        value = value.checked_mul(10)?.checked_add(i64::from(d - b'0'))?;
        if value > i64::from(i32::MAX) + 1 {
            return None;
        }
    }
    let value = if parts.sign == Some(b'-') {
        -value
    } else {
        value
    };
    i32::try_from(value).ok().map(i64::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn args_1_count_must_be_three_or_four() {
        assert_eq!(parse(&args(&[])), Err(Exit::Usage));
        assert_eq!(parse(&args(&["2", "2"])), Err(Exit::Usage));
        assert_eq!(parse(&args(&["2", "2", "2", "f", "x"])), Err(Exit::Usage));
        assert!(parse(&args(&["2", "2", "2"])).is_ok());
        assert!(parse(&args(&["2", "2", "2", "f"])).is_ok());
    }

    #[test]
    fn args_1_count_checked_before_contents() {
        assert_eq!(parse(&args(&["x", "y"])), Err(Exit::Usage));
    }

    #[test]
    fn args_2_numbers_read_like_strtol() {
        assert_eq!(parse_c_long(b"007"), Some(7));
        assert_eq!(parse_c_long(b"  +12"), Some(12));
        assert_eq!(parse_c_long(b"\t-3"), Some(-3));
        assert_eq!(parse_c_long(b"3x"), None);
        assert_eq!(parse_c_long(b"3 "), None);
        assert_eq!(parse_c_long(b""), None);
        assert_eq!(parse_c_long(b" "), None);
        assert_eq!(parse_c_long(b"+"), None);
        assert_eq!(parse_c_long(b"0x10"), None);
        assert_eq!(parse_c_long(b"2147483647"), Some(2_147_483_647));
        assert_eq!(parse_c_long(b"2147483648"), None);
        assert_eq!(parse_c_long(b"-2147483648"), Some(-2_147_483_648));
        assert_eq!(parse_c_long(b"99999999999999999999999"), None);
    }

    #[test]
    fn args_2_number_parts_name_space_sign_and_digits() {
        let parts = number_parts(b" \t+12");
        assert!(parts.leading_space && parts.is_whole_number());
        assert_eq!((parts.sign, parts.digits), (Some(b'+'), &b"12"[..]));
        assert!(!number_parts(b"-").is_whole_number());
        assert!(!number_parts(b"3x").is_whole_number());
        assert!(!number_parts(b"7").leading_space);
    }

    #[test]
    fn args_3_dimension_bounds() {
        assert_eq!(parse(&args(&["1", "5", "2"])), Err(Exit::Dimensions));
        assert_eq!(parse(&args(&["5", "1000", "2"])), Err(Exit::Dimensions));
        assert_eq!(parse(&args(&["-2", "5", "2"])), Err(Exit::Dimensions));
        let ok = parse(&args(&["2", "999", "2"])).ok();
        assert_eq!(ok.map(|c| (c.height, c.width)), Some((2, 999)));
    }

    #[test]
    fn args_4_player_bounds() {
        assert_eq!(parse(&args(&["2", "2", "1"])), Err(Exit::PlayerCount));
        assert_eq!(parse(&args(&["2", "2", "101"])), Err(Exit::PlayerCount));
        assert_eq!(parse(&args(&["2", "2", "two"])), Err(Exit::PlayerCount));
        assert_eq!(parse(&args(&["2", "2", "100"])).map(|c| c.players), Ok(100));
        assert_eq!(parse(&args(&["2", "2", "2"])).map(|c| c.players), Ok(2));
    }

    #[test]
    fn args_5_dimensions_checked_before_players() {
        assert_eq!(parse(&args(&["2", "0", "1"])), Err(Exit::Dimensions));
        assert_eq!(
            parse(&args(&["2", "2", "1", "/nonexistent"])),
            Err(Exit::PlayerCount)
        );
    }
}
