//! The `boxes-harness` binary: everything lives in the library.

use std::process::ExitCode;

fn main() -> ExitCode {
    // First thing: in reference mode this process *is* the reference.
    if let Some(code) = boxes_harness::reference_mode() {
        return code;
    }
    boxes_harness::cli::main_with_args(
        std::env::args_os().collect(),
        boxes_harness::cli::Defaults::default(),
    )
}
