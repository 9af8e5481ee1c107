//! The asides' tests: written, rendered and read back through the
//! trace's record (above the aside module, which knows no record).

use super::aside::{ASIDE_KEPT, Channel, parse_asides};
use super::{Context, Counted, parse, parse_record, record, render, wrote_aside};
use std::io::Write as _;

const SAVE: Context = Context::new("SAVE-1,SAVE-2,SAVE-4", "save the game");

#[test]
fn asides_keep_their_channel_offset_and_context_and_read_back() {
    let ((), record) = record(|| {
        let mut out = Counted(Vec::new());
        let _ = out.write_all(b"A> ");
        wrote_aside(Channel::File, b"sub/out", SAVE);
        wrote_aside(Channel::Stderr, b"Unable to save game\n", SAVE);
        wrote_aside(Channel::File, &[b'x'; ASIDE_KEPT + 1], SAVE);
    });
    assert_eq!(record.asides.len(), 2, "a path past the bound is not kept");
    let text = render(&record);
    let read = parse_record(&text);
    assert_eq!(read.asides, record.asides);
    assert_eq!(read.asides[0].at, 3);
    assert_eq!(read.asides[0].bytes, b"sub/out");
    assert_eq!(read.asides[1].channel, Channel::Stderr);
    assert_eq!(read.asides[1].rules, ["SAVE-1", "SAVE-2", "SAVE-4"]);
    assert_eq!(read.asides[1].what, "save the game");
    assert_eq!(parse(&text), record.spans, "spans read past asides");
    assert!(read.rulings.is_empty());
    assert!(parse_asides("> file 3 zz A-1\tbad hex\n> disk 0 - A-1\tx\n").is_empty());
}
