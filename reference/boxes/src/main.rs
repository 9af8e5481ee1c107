//! The `boxes` binary: everything lives in the library.

use std::process::ExitCode;

fn main() -> ExitCode {
    boxes_reference::main_with_args(std::env::args_os())
}
