//! `cargo test`: every case of `cases/`, ambiguous ones included, against
//! the reference (this test binary re-executed in reference mode).

use std::process::ExitCode;

fn main() -> ExitCode {
    if let Some(code) = boxes_harness::reference_mode() {
        return code;
    }
    boxes_harness::main_with_args(
        std::env::args_os().collect(),
        boxes_harness::engine::Defaults {
            include_ambiguous: true,
            ignore_bin_env: true,
            libtest_output: true,
        },
    )
}
