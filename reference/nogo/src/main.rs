//! The `nogo` binary: everything lives in the library. It speaks the span
//! protocol (`reference_kit::trace`): with `CONFORMANCE_PROVENANCE` set it
//! records which rule each span of its stdout obeys, so a folder pack
//! naming this binary as its model (`examples/nogo-folder`) names causes
//! by rule as the built-in pack does.

use std::process::ExitCode;

fn main() -> ExitCode {
    reference_kit::trace::run_traced(|| nogo_reference::main_with_args(std::env::args_os()))
}
