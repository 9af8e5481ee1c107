//! Links this package's executables at a fixed address instead of as
//! position-independent executables. Every contained case starts the
//! harness's own executable once or twice (as the sandbox's keeper, and
//! for the reference as the program itself), and a position-independent
//! executable this large spends about half of its start-up applying some
//! 7,600 relocations: 1.05-1.5 ms per start against 0.75-1.0 ms linked at
//! a fixed address (`perf stat -r 500`, see docs/containment.md and docs/hangs.md).
fn main() {
    for kind in ["bins", "benches", "tests"] {
        println!("cargo:rustc-link-arg-{kind}=-no-pie");
    }
}
