//! Embeds the gridgame suite (`cases/gridgame`) in the pack, so that a
//! binary registering it checks programs from any directory.

fn main() -> std::io::Result<()> {
    conformance_embed::suite("gridgame")
}
