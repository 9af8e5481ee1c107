//! Every message `nogo` prints and every exit status, in one place (rulings
//! ARGS-1..4, FILE-6, TURN-1, COMP-4, END-1, SAVE-4, EOF-1).
//!
//! The texts are compared byte for byte; the trailing `\n` of a message is
//! added by the writer, never stored here, so no message can lose it.

pub use reference_kit::exit::ExitTable;

reference_kit::exit_table! {
    /// Why the program stopped: each variant is one row of the assignment's
    /// error table, plus the normal end of a game.
    pub enum Exit {
        /// A player won (END-1).
        Normal = 0, None, "END-1";
        /// Wrong argument count (ARGS-1).
        Usage = 1, Some(USAGE), "ARGS-1";
        /// A player type is not `c` or `h` (ARGS-2).
        PlayerType = 2, Some("Invalid player type"), "ARGS-2";
        /// Height or width is not a number in 4..=1000 (ARGS-3).
        Dimension = 3, Some("Invalid board dimension"), "ARGS-3";
        /// The save file cannot be opened for reading (ARGS-4).
        FileOpen = 4, Some("Unable to open file"), "ARGS-4";
        /// The save file opened but its contents are wrong (FILE-6).
        FileContents = 5, Some("Incorrect file contents"), "FILE-6";
        /// Input ended where a human's line was expected (EOF-1).
        EndOfInput = 6, Some("End of input from user"), "EOF-1";
    }
    cites crate::rules::ids;
}

/// The usage line of ARGS-1 (with the ` | ` the seed's table lost).
pub const USAGE: &str = "Usage: nogo p1type p2type [height width | filename]";
/// Printed on stderr when a save fails; the game goes on (SAVE-4).
pub const SAVE_FAILED: &str = "Unable to save game";
/// Starts a human's prompt, before the symbol (TURN-1).
pub const PROMPT_PREFIX: &str = "Player ";
/// Ends a human's prompt, after the symbol; no newline (TURN-1).
pub const PROMPT_SUFFIX: &str = "> ";
/// Starts a computer's move line, before the symbol (COMP-4).
pub const MOVE_PREFIX: &str = "Player ";
/// Follows the symbol in a computer's move line, before `r c` (COMP-4).
pub const MOVE_SEPARATOR: &str = ": ";
/// Starts the winner line, before the symbol (END-1).
pub const WINS_PREFIX: &str = "Player ";
/// Ends the winner line, after the symbol; no full stop (END-1).
pub const WINS_SUFFIX: &str = " wins";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_1_usage_text_and_status() {
        assert_eq!(Exit::Usage.code(), 1);
        assert_eq!(
            Exit::Usage.message(),
            Some("Usage: nogo p1type p2type [height width | filename]")
        );
    }

    #[test]
    fn error_table_messages_and_statuses() {
        let table: [(Exit, u8, Option<&str>); 7] = [
            (Exit::Normal, 0, None),
            (Exit::Usage, 1, Some(USAGE)),
            (Exit::PlayerType, 2, Some("Invalid player type")),
            (Exit::Dimension, 3, Some("Invalid board dimension")),
            (Exit::FileOpen, 4, Some("Unable to open file")),
            (Exit::FileContents, 5, Some("Incorrect file contents")),
            (Exit::EndOfInput, 6, Some("End of input from user")),
        ];
        for (exit, code, message) in table {
            assert_eq!((exit.code(), exit.message()), (code, message));
            assert_eq!(Exit::from_code(code), Some(exit));
        }
        assert_eq!(Exit::from_code(7), None);
    }

    #[test]
    fn save_4_failure_message() {
        assert_eq!(SAVE_FAILED, "Unable to save game");
    }

    #[test]
    fn end_1_wins_line_has_no_full_stop() {
        assert_eq!(format!("{WINS_PREFIX}O{WINS_SUFFIX}"), "Player O wins");
    }
}
