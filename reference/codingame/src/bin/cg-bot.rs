//! `cg-bot`: the reference bot for CodinGame's Dots and Boxes (see
//! `codingame_reference::strategy`), deterministic for `CG_BOT_SEED`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    codingame_reference::reference_bot::main_with_args(&args)
}
