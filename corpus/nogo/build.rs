//! Embeds the nogo suite (`cases/nogo`) in the pack, so that a binary
//! registering it checks programs from any directory.

fn main() -> std::io::Result<()> {
    conformance_embed::suite("nogo")
}
