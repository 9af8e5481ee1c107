//! The `nogo-corpus` command: `generate` writes a corpus folder of cases,
//! `classes` lists the classes ([`nogo_corpus::command`]).

fn main() -> std::process::ExitCode {
    conformance_engine::corpus_cli::main::<nogo_corpus::command::Corpus>()
}
