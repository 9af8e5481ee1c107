//! `cargo test`: every case of `cases/nogo`, ambiguous ones included,
//! against the nogo reference (this test binary re-executed in reference
//! mode). It is also the judge of the mutation run over `nogo-reference`
//! (`cases/nogo/MUTANTS.md`).

use std::ffi::OsString;
use std::process::ExitCode;

fn main() -> ExitCode {
    if let Some(code) = boxes_harness::reference_mode() {
        return code;
    }
    // libtest's own options (a filter, --quiet) follow the pack choice.
    let mut argv: Vec<OsString> = std::env::args_os().collect();
    let rest = argv.split_off(argv.len().min(1));
    argv.extend(["--spec".into(), "nogo".into()]);
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
