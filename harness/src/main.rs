//! The `boxes-harness` binary: everything lives in the libraries.

use std::process::ExitCode;

fn main() -> ExitCode {
    // First thing: in reference mode this process *is* a pack's reference.
    if let Some(code) = boxes_harness::reference_mode() {
        return code;
    }
    // A closed output pipe (`| head`) ends the command quietly.
    boxes_harness::engine::quiet::run(|| {
        boxes_harness::main_with_args(
            std::env::args_os().collect(),
            boxes_harness::engine::Defaults::default(),
        )
    })
}
