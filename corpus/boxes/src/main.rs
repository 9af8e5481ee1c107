//! The `boxes-corpus` command: `generate` writes a corpus folder, `classes`
//! lists the error classes ([`boxes_corpus::command`]).

fn main() -> std::process::ExitCode {
    conformance_engine::corpus_cli::main::<boxes_corpus::command::Corpus>()
}
