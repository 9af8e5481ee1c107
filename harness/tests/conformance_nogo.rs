//! `cargo test`: every case of `cases/nogo`, ambiguous ones included,
//! against the nogo reference (this test binary re-executed in reference
//! mode). It is also the judge of the mutation run over `nogo-reference`
//! (`cases/nogo/MUTANTS.md`).

fn main() -> std::process::ExitCode {
    boxes_harness::conformance_test_main("nogo")
}
