//! Every message `boxes` prints to stderr and every exit status, in one place
//! (rulings ARGS-1..6, FILE-6, SAVE-3, EOF-1, SYS-1).
//!
//! The texts are ASCII `&str`s, written as bytes and compared byte for byte;
//! the trailing `\n` is added by the writer, never stored here, so no
//! message can lose it.

use std::fmt;

pub use reference_kit::exit::ExitTable;

/// Why the program stopped: each variant is one row of the assignment's
/// error table, plus the normal end of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Exit {
    /// The game ended normally (END-1, END-2).
    Normal,
    /// Wrong argument count (ARGS-1).
    Usage,
    /// Height or width is not a number in 2..=999 (ARGS-3).
    Dimensions,
    /// Player count is not a number in 2..=100 (ARGS-4).
    PlayerCount,
    /// The grid file cannot be opened for reading (ARGS-6).
    GridFileOpen,
    /// The grid file opened but its contents are wrong (FILE-6).
    GridFileContents,
    /// Input ended where a line was expected (EOF-1).
    EndOfInput,
    /// A system call failed that the program cannot predict (SYS-1).
    SystemCall,
}

impl ExitTable for Exit {
    const ALL: &'static [Self] = &[
        Self::Normal,
        Self::Usage,
        Self::Dimensions,
        Self::PlayerCount,
        Self::GridFileOpen,
        Self::GridFileContents,
        Self::EndOfInput,
        Self::SystemCall,
    ];

    fn code(self) -> u8 {
        match self {
            Self::Normal => 0,
            Self::Usage => 1,
            Self::Dimensions => 2,
            Self::PlayerCount => 3,
            Self::GridFileOpen => 4,
            Self::GridFileContents => 5,
            Self::EndOfInput => 6,
            Self::SystemCall => 9,
        }
    }

    fn message(self) -> Option<&'static str> {
        match self {
            Self::Normal => None,
            Self::Usage => Some(USAGE),
            Self::Dimensions => Some("Invalid grid dimensions"),
            Self::PlayerCount => Some("Invalid player count"),
            Self::GridFileOpen => Some("Invalid grid file"),
            Self::GridFileContents => Some("Error reading grid contents"),
            Self::EndOfInput => Some("End of user input"),
            Self::SystemCall => Some("System call failure"),
        }
    }

    fn rule(self) -> &'static str {
        match self {
            Self::Normal => "END-1",
            Self::Usage => "ARGS-1",
            Self::Dimensions => "ARGS-3",
            Self::PlayerCount => "ARGS-4",
            Self::GridFileOpen => "ARGS-6",
            Self::GridFileContents => "FILE-6",
            Self::EndOfInput => "EOF-1",
            Self::SystemCall => "SYS-1",
        }
    }
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        reference_kit::exit::describe(*self, f)
    }
}

/// The usage line of ARGS-1.
pub const USAGE: &str = "Usage: boxes height width playercount [filename]";
/// Printed on stderr after a successful save (SAVE-3).
pub const SAVE_COMPLETE: &str = "Save complete";
/// Printed on stderr after a failed save (SAVE-3).
pub const SAVE_FAILED: &str = "Can not open file for write";
/// Starts the line that names the winners (END-1).
pub const WINNERS_PREFIX: &str = "Winner(s): ";
/// Separates the winners' symbols (END-1).
pub const WINNERS_SEPARATOR: &str = ", ";
/// Follows the player's symbol in the prompt (TURN-1).
pub const PROMPT_SUFFIX: &str = "> ";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_1_usage_text_and_status() {
        assert_eq!(Exit::Usage.code(), 1);
        assert_eq!(
            Exit::Usage.message(),
            Some("Usage: boxes height width playercount [filename]")
        );
    }

    #[test]
    fn error_table_is_well_formed_and_cites_known_rules() {
        let ids: Vec<&str> = crate::rules::ALL.iter().map(|r| r.id()).collect();
        assert_eq!(reference_kit::exit::check_table::<Exit>(&ids), Ok(()));
        assert_eq!(Exit::from_code(9), Some(Exit::SystemCall));
    }

    #[test]
    fn save_3_messages() {
        assert_eq!(SAVE_COMPLETE, "Save complete");
        assert_eq!(SAVE_FAILED, "Can not open file for write");
    }
}
