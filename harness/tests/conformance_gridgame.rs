//! `cargo test`: every case of `cases/gridgame`, ambiguous ones included,
//! against the gridgame reference (this test binary re-executed in
//! reference mode). It is also the judge of a mutation run over
//! `gridgame-reference` (`.cargo/mutants-gridgame.toml`).

fn main() -> std::process::ExitCode {
    boxes_harness::conformance_test_main("gridgame")
}
