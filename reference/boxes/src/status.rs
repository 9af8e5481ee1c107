//! Every message `boxes` prints to stderr and every exit status, in one place
//! (rulings ARGS-1..6, FILE-6, SAVE-3, EOF-1, SYS-1).
//!
//! The texts are ASCII `&str`s, written as bytes and compared byte for byte;
//! the trailing `\n` is added by the writer, never stored here, so no
//! message can lose it.

pub use reference_kit::exit::ExitTable;

reference_kit::exit_table! {
    /// Why the program stopped: each variant is one row of the assignment's
    /// error table, plus the normal end of a game.
    pub enum Exit {
        /// The game ended normally (END-1, END-2).
        Normal = 0, None, "END-1";
        /// Wrong argument count (ARGS-1).
        Usage = 1, Some(USAGE), "ARGS-1";
        /// Height or width is not a number in 2..=999 (ARGS-3).
        Dimensions = 2, Some("Invalid grid dimensions"), "ARGS-3";
        /// Player count is not a number in 2..=100 (ARGS-4).
        PlayerCount = 3, Some("Invalid player count"), "ARGS-4";
        /// The grid file cannot be opened for reading (ARGS-6).
        GridFileOpen = 4, Some("Invalid grid file"), "ARGS-6";
        /// The grid file opened but its contents are wrong (FILE-6).
        GridFileContents = 5, Some("Error reading grid contents"), "FILE-6";
        /// Input ended where a line was expected (EOF-1).
        EndOfInput = 6, Some("End of user input"), "EOF-1";
        /// A system call failed that the program cannot predict (SYS-1).
        SystemCall = 9, Some("System call failure"), "SYS-1";
    }
    cites crate::rules::ids;
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
    fn args_1_usage_and_sys_1_by_status() {
        let usage = "Usage: boxes height width playercount [filename]";
        assert_eq!(Exit::from_code(1).and_then(Exit::message), Some(usage));
        assert_eq!(Exit::from_code(9), Some(Exit::SystemCall));
    }

    #[test]
    fn save_3_messages() {
        assert_eq!(SAVE_COMPLETE, "Save complete");
        assert_eq!(SAVE_FAILED, "Can not open file for write");
    }
}
