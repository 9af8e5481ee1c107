//! `cargo test`: every case of `cases/gridgame`, ambiguous ones included,
//! against the gridgame reference (this test binary re-executed in reference
//! mode).

use std::ffi::OsString;
use std::process::ExitCode;

fn main() -> ExitCode {
    if let Some(code) = boxes_harness::reference_mode() {
        return code;
    }
    // libtest's own options (a filter, --quiet) follow the pack choice.
    let mut argv: Vec<OsString> = std::env::args_os().collect();
    let rest = argv.split_off(argv.len().min(1));
    argv.extend(["--spec".into(), "gridgame".into()]);
    argv.extend(rest);
    boxes_harness::main_with_args(
        argv,
        boxes_harness::engine::Defaults {
            include_ambiguous: true,
            ignore_bin_env: true,
            libtest_output: true,
        },
    )
}
