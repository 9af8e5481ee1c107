//! `boxes-harness`: the conformance engine ([`conformance_engine`]) with
//! its spec packs registered. This is the one registration point: a new
//! pack is one more entry of [`PACKS`]; the first is the default.
//! [`cstdio`] imitates C's stdio buffering for the fixture programs.

use std::ffi::OsString;
use std::process::ExitCode;

pub use conformance_engine as engine;
use conformance_engine::{App, Defaults, Pack};

pub mod cstdio;

/// The registered spec packs, the default first.
pub static PACKS: &[&dyn Pack] = &[
    &boxes_corpus::PACK,
    &nogo_corpus::PACK,
    &gridgame_corpus::PACK,
    &codingame_pack::PACK,
];

/// The binary's name, used in usage lines and printed commands.
pub const PROGRAM: &str = "boxes-harness";

/// The application: the program name and its packs.
pub fn app() -> App<'static> {
    App {
        program: PROGRAM,
        packs: PACKS,
    }
}

/// Runs the reference of the pack named by the reference-mode variable
/// instead of the caller; every binary that runs cases calls this first
/// thing in `main` (see [`conformance_engine::reference_mode`]).
pub fn reference_mode() -> Option<ExitCode> {
    conformance_engine::reference_mode(PACKS)
}

/// The `main` of a `cargo test` target that runs every case of the pack
/// `spec`, ambiguous ones included, against its reference (the test
/// binary re-executed in reference mode); libtest's own options (a filter,
/// `--quiet`) follow the pack choice.
pub fn conformance_test_main(spec: &str) -> ExitCode {
    if let Some(code) = reference_mode() {
        return code;
    }
    let mut argv: Vec<OsString> = std::env::args_os().collect();
    let rest = argv.split_off(argv.len().min(1));
    argv.extend(["--spec".into(), spec.into()]);
    argv.extend(rest);
    main_with_args(
        argv,
        Defaults {
            include_ambiguous: true,
            ignore_bin_env: true,
            libtest_output: true,
        },
    )
}

/// The whole program for `argv` (the program name first).
pub fn main_with_args(argv: Vec<OsString>, defaults: Defaults) -> ExitCode {
    conformance_engine::main_with_args(&app(), argv, defaults)
}
