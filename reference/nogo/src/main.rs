//! The `nogo` binary: everything lives in the library.

use std::process::ExitCode;

fn main() -> ExitCode {
    nogo_reference::main_with_args(std::env::args_os())
}
