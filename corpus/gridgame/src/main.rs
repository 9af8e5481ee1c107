//! The `gridgame-corpus` command: `generate --out DIR` writes the corpus of
//! hostile size and move lines as a folder of cases
//! ([`gridgame_corpus::command`]).

fn main() -> std::process::ExitCode {
    conformance_engine::corpus_cli::main::<gridgame_corpus::command::Corpus>()
}
