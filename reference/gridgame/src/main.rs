//! `gridgame`: dots and boxes against a rule-based computer (see the
//! library); arguments are ignored (PROG-1).

use std::process::ExitCode;

use gridgame_reference::ExitTable;

fn main() -> ExitCode {
    let stdin = std::io::stdin().lock();
    let stdout = reference_kit::stdout::process_stdout();
    ExitCode::from(gridgame_reference::run(stdin, stdout).code())
}
