//! `cargo test`: every case of `cases/boxes`, ambiguous ones included,
//! against the reference (this test binary re-executed in reference mode).
//! It is also the judge of the mutation run over `boxes-reference`
//! (`.cargo/mutants.toml`).

fn main() -> std::process::ExitCode {
    boxes_harness::conformance_test_main("boxes")
}
