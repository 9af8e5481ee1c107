//! The command line: argument count, player types, dimensions, and the
//! order in which they are checked (rulings ARGS-1..3, ARGS-5). Opening a
//! save file (ARGS-4) happens later, in [`crate::app`].

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;

use reference_kit::number::{number_parts, saturating_decimal};

use crate::grid::{MAX_DIMENSION, MIN_DIMENSION};
use crate::player::Kind;
use crate::status::Exit;
use crate::why::{self, Why};

/// Where the game starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A new, empty grid of this size.
    New {
        /// Rows (H).
        height: usize,
        /// Columns (W).
        width: usize,
    },
    /// A save file to load.
    File(OsString),
}

/// A valid command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The kinds of `O` and `X`, in that order.
    pub kinds: [Kind; 2],
    /// A new game or a file to load.
    pub source: Source,
}

/// Checks the arguments after the program name in the order of ARGS-5,
/// stopping at the first failure.
pub fn parse(args: &[OsString]) -> Result<Config, Exit> {
    if !(3..=4).contains(&args.len()) {
        why::stopped(Why::ArgumentCount, Exit::Usage, || {
            format!("{} argument(s)", args.len())
        });
        return Err(Exit::Usage);
    }
    let (Some(o), Some(x)) = (
        Kind::from_arg(args[0].as_bytes()),
        Kind::from_arg(args[1].as_bytes()),
    ) else {
        why::stopped(Why::PlayerType, Exit::PlayerType, || {
            format!(
                "player types `{}` `{}`",
                args[0].to_string_lossy(),
                args[1].to_string_lossy()
            )
        });
        return Err(Exit::PlayerType);
    };
    let source = match args.get(3) {
        None => Source::File(args[2].clone()),
        Some(width) => {
            let (Some(height), Some(width)) = (dimension(&args[2]), dimension(width)) else {
                why::stopped(Why::Dimension, Exit::Dimension, || {
                    format!(
                        "a board of `{}` by `{}`",
                        args[2].to_string_lossy(),
                        width.to_string_lossy()
                    )
                });
                return Err(Exit::Dimension);
            };
            Source::New { height, width }
        }
    };
    Ok(Config {
        kinds: [o, x],
        source,
    })
}

fn dimension(arg: &OsStr) -> Option<usize> {
    let value = parse_strtol(arg.as_bytes())?;
    let value = usize::try_from(value).ok()?;
    (MIN_DIMENSION..=MAX_DIMENSION)
        .contains(&value)
        .then_some(value)
}

/// Reads `s` as C's `strtol(s, &end, 10)` with the whole string consumed
/// (ARGS-3): leading C whitespace, an optional sign, at least one decimal
/// digit and nothing after. A magnitude too large for any sensible check
/// saturates, so it stays out of range instead of wrapping into it.
pub fn parse_strtol(s: &[u8]) -> Option<i64> {
    let parts = number_parts(s);
    if !parts.is_whole_number() {
        return None;
    }
    let magnitude = i64::try_from(saturating_decimal(parts.digits)).unwrap_or(i64::MAX);
    Some(if parts.sign == Some(b'-') {
        -magnitude
    } else {
        magnitude
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    fn new_game(h: usize, w: usize) -> Source {
        Source::New {
            height: h,
            width: w,
        }
    }

    #[test]
    fn args_1_count_must_be_three_or_four() {
        for bad in [
            &[][..],
            &["c"],
            &["c", "c"],
            &["c", "c", "4", "4", "x"],
            &["c", "c", "4", "4", "x", "y"],
        ] {
            assert_eq!(parse(&args(bad)), Err(Exit::Usage), "{bad:?}");
        }
        assert!(parse(&args(&["c", "h", "f"])).is_ok());
        assert!(parse(&args(&["c", "h", "4", "4"])).is_ok());
    }

    #[test]
    fn args_2_types_checked_both() {
        assert_eq!(parse(&args(&["x", "h", "4", "4"])), Err(Exit::PlayerType));
        assert_eq!(parse(&args(&["h", "cc", "f"])), Err(Exit::PlayerType));
        assert_eq!(parse(&args(&["", "h", "f"])), Err(Exit::PlayerType));
        assert_eq!(
            parse(&args(&["h", "c", "f"])).map(|c| c.kinds),
            Ok([Kind::Human, Kind::Computer])
        );
    }

    #[test]
    fn args_3_strtol_whole_string() {
        assert_eq!(parse_strtol(b"007"), Some(7));
        assert_eq!(parse_strtol(b" +5"), Some(5));
        assert_eq!(parse_strtol(b"\t-5"), Some(-5));
        assert_eq!(parse_strtol(b"5x"), None);
        assert_eq!(parse_strtol(b"5 "), None);
        assert_eq!(parse_strtol(b""), None);
        assert_eq!(parse_strtol(b"+"), None);
        assert_eq!(parse_strtol(b"0x10"), None);
        assert_eq!(parse_strtol(b"99999999999999999999999999"), Some(i64::MAX));
        assert_eq!(
            parse_strtol(b"-99999999999999999999999999"),
            Some(-i64::MAX)
        );
    }

    #[test]
    fn args_3_dimension_bounds() {
        for (h, w) in [
            ("3", "4"),
            ("4", "3"),
            ("1001", "4"),
            ("4", "-4"),
            ("4", "5x"),
        ] {
            assert_eq!(parse(&args(&["c", "c", h, w])), Err(Exit::Dimension));
        }
        assert_eq!(
            parse(&args(&["c", "c", "4", "1000"])).map(|c| c.source),
            Ok(new_game(4, 1000))
        );
        assert_eq!(
            parse(&args(&["c", "c", " 007", "+9"])).map(|c| c.source),
            Ok(new_game(7, 9))
        );
    }

    #[test]
    fn args_4_three_arguments_name_a_file() {
        assert_eq!(
            parse(&args(&["h", "h", "4"])).map(|c| c.source),
            Ok(Source::File("4".into()))
        );
    }

    #[test]
    fn args_5_order_count_types_dimensions() {
        assert_eq!(parse(&args(&["x", "y"])), Err(Exit::Usage));
        assert_eq!(parse(&args(&["x", "h", "3", "5"])), Err(Exit::PlayerType));
        assert_eq!(parse(&args(&["h", "h", "3", "5"])), Err(Exit::Dimension));
    }
}
