//! Embeds the boxes suite (`cases/boxes`) in the pack, so that a binary
//! registering it checks programs from any directory.

fn main() -> std::io::Result<()> {
    conformance_embed::suite("boxes")
}
