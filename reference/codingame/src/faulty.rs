//! The faulty-bot fixture's faults: a correct simple bot (first free side of
//! the first box listed) that breaks one rule, chosen by name
//! (`CG_FAULT`), each fault mapped to the END-3 reason it must produce, or
//! to no forfeit for the valid variants a referee must accept; and the
//! fixture program itself ([`main`]), run by `cg-fixture-faulty` and by
//! the conformance harness's own copy of it.

use std::io::{self, Write as _};
use std::process::ExitCode;
use std::time::Duration;

use crate::board::{Board, BoxId, Side};
use crate::client::{Client, View, answer_line};
use crate::reason::Reason;

/// One fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// No fault: the simple bot.
    None,
    /// `a1 l`: lower case (ANSWER-4).
    LowerCase,
    /// A drawn side, by the name it was drawn with (MOVE-1).
    SideAlreadyDrawn,
    /// A drawn inner side, by its other box's name (MOVE-1).
    OtherNameOfDrawnSide,
    /// A box one column past the board (MOVE-1).
    NoSuchBox,
    /// The first answer comes late (TIME-2).
    SlowFirst,
    /// The second answer comes late (TIME-2).
    SlowLater,
    /// Exits at its second request without answering (END-3).
    ExitEarly,
    /// Its second answer has no `\n`, then it exits (END-3).
    NoNewline,
    /// Reads rows from the top: names the mirror image of its move (BOARD-2).
    RowsFromTop,
    /// Ends lines with CR LF: valid (ANSWER-2).
    Crlf,
    /// Adds a message: valid (ANSWER-3).
    Msg,
    /// A space after the side (ANSWER-4).
    TrailingSpace,
    /// A line that is no answer at all (ANSWER-3).
    Garbage,
    /// Writes its first answer before reading the first request: valid
    /// (ANSWER-1, TIME-3).
    EarlyLine,
    /// A message past 10,240 bytes (ANSWER-5).
    TooLong,
    /// Two spaces between box and side (ANSWER-4).
    TwoSpaces,
}

impl Fault {
    /// Every fault with its `CG_FAULT` name.
    pub const ALL: [(&'static str, Fault); 17] = [
        ("none", Fault::None),
        ("lower-case", Fault::LowerCase),
        ("side-already-drawn", Fault::SideAlreadyDrawn),
        ("other-name-of-drawn-side", Fault::OtherNameOfDrawnSide),
        ("no-such-box", Fault::NoSuchBox),
        ("slow-first", Fault::SlowFirst),
        ("slow-later", Fault::SlowLater),
        ("exit-early", Fault::ExitEarly),
        ("no-newline", Fault::NoNewline),
        ("rows-from-top", Fault::RowsFromTop),
        ("crlf", Fault::Crlf),
        ("msg", Fault::Msg),
        ("trailing-space", Fault::TrailingSpace),
        ("garbage", Fault::Garbage),
        ("early-line", Fault::EarlyLine),
        ("too-long", Fault::TooLong),
        ("two-spaces", Fault::TwoSpaces),
    ];

    /// The fault named `name`.
    pub fn from_name(name: &str) -> Option<Fault> {
        Fault::ALL.iter().find(|(n, _)| *n == name).map(|&(_, f)| f)
    }

    /// The END-3 reason this fault must produce; `None` for a valid bot.
    pub fn expected(self) -> Option<Reason> {
        match self {
            Fault::None | Fault::Crlf | Fault::Msg | Fault::EarlyLine => None,
            Fault::LowerCase | Fault::TrailingSpace | Fault::Garbage | Fault::TwoSpaces => {
                Some(Reason::Syntax)
            }
            Fault::SideAlreadyDrawn | Fault::OtherNameOfDrawnSide | Fault::RowsFromTop => {
                Some(Reason::SideTaken)
            }
            Fault::NoSuchBox => Some(Reason::NoSuchBox),
            Fault::SlowFirst | Fault::SlowLater => Some(Reason::Timeout),
            Fault::ExitEarly | Fault::NoNewline => Some(Reason::Eof),
            Fault::TooLong => Some(Reason::TooLong),
        }
    }

    /// How long a slow fault sleeps by default: three times the limit and
    /// more (TIME-5's margin).
    pub fn default_sleep(self) -> Duration {
        match self {
            Fault::SlowFirst => Duration::from_millis(3_500),
            _ => Duration::from_millis(350),
        }
    }
}

/// What the fixture does for one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Write these bytes (the line and its end).
    Write(Vec<u8>),
    /// Sleep, then write.
    Late(Duration, Vec<u8>),
    /// Write these bytes, then exit.
    WriteAndExit(Vec<u8>),
    /// Answer nothing: this request was answered early (ANSWER-1).
    Skip,
}

/// The simple bot's move: the first free side of the first box listed.
pub fn simple(board: &Board) -> Option<(BoxId, Side)> {
    board
        .boxes()
        .find_map(|b| board.free_sides(b).next().map(|s| (b, s)))
}

fn line_with(line: Vec<u8>, end: &[u8]) -> Vec<u8> {
    let mut l = line;
    l.extend_from_slice(end);
    l
}

/// The fixture's action for its `nth` request (from 1).
pub fn act(fault: Fault, view: &View, nth: u32, sleep: Duration) -> Action {
    let board = &view.board;
    let good = simple(board).map_or_else(|| b"A1 L".to_vec(), |(b, s)| answer_line(b, s));
    let plain = |l: Vec<u8>| Action::Write(line_with(l, b"\n"));
    let drawn_named = |second: bool| {
        board.edges().filter(|&e| board.is_drawn(e)).find_map(|e| {
            let names = board.boxes_of(e);
            if second {
                names[1].filter(|_| names[0].is_some())
            } else {
                names.into_iter().flatten().next()
            }
        })
    };
    match fault {
        Fault::LowerCase => plain(good.to_ascii_lowercase()),
        Fault::SideAlreadyDrawn => {
            plain(drawn_named(false).map_or(good, |(b, s)| answer_line(b, s)))
        }
        Fault::OtherNameOfDrawnSide => {
            plain(drawn_named(true).map_or(good, |(b, s)| answer_line(b, s)))
        }
        Fault::NoSuchBox => plain(vec![b'A' + board.size(), b'1', b' ', b'L']),
        Fault::SlowFirst if nth == 1 => Action::Late(sleep, line_with(good, b"\n")),
        Fault::SlowLater if nth == 2 => Action::Late(sleep, line_with(good, b"\n")),
        Fault::ExitEarly if nth == 2 => Action::WriteAndExit(Vec::new()),
        Fault::NoNewline if nth == 2 => Action::WriteAndExit(good),
        Fault::RowsFromTop => {
            let mirrored = simple(board).map(|(b, s)| {
                let row = board.size() - 1 - b.row;
                let side = match s {
                    Side::T => Side::B,
                    Side::B => Side::T,
                    other => other,
                };
                answer_line(BoxId { col: b.col, row }, side)
            });
            plain(mirrored.unwrap_or(good))
        }
        Fault::Crlf => Action::Write(line_with(good, b"\r\n")),
        Fault::Msg => plain(line_with(good, b" MSG hello, referee")),
        Fault::TrailingSpace => plain(line_with(good, b" ")),
        Fault::Garbage => plain(b"hello world".to_vec()),
        Fault::EarlyLine if nth == 1 => Action::Skip,
        Fault::None
        | Fault::SlowFirst
        | Fault::SlowLater
        | Fault::ExitEarly
        | Fault::NoNewline
        | Fault::EarlyLine => plain(good),
        Fault::TooLong => {
            let mut l = line_with(good, b" MSG ");
            l.resize(11_000, b'x');
            plain(l)
        }
        Fault::TwoSpaces => {
            let mut l = good;
            l.insert(2, b' ');
            plain(l)
        }
    }
}

/// The line `early-line` writes before reading anything: a side that the
/// simple bot, moving first, does not draw.
pub const EARLY_LINE: &[u8] = b"B2 T\n";

/// The whole fixture program: `CG_FAULT` picks the fault,
/// `CG_FAULT_SLEEP_MS` how long a slow fault sleeps.
pub fn main() -> ExitCode {
    let name = std::env::var("CG_FAULT").unwrap_or_else(|_| "none".to_owned());
    let Some(fault) = Fault::from_name(&name) else {
        eprintln!("cg-fixture-faulty: unknown CG_FAULT `{name}`");
        return ExitCode::from(2);
    };
    let sleep = std::env::var("CG_FAULT_SLEEP_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or_else(|| fault.default_sleep(), Duration::from_millis);
    let mut out = io::stdout().lock();
    if fault == Fault::EarlyLine && (out.write_all(EARLY_LINE).is_err() || out.flush().is_err()) {
        return ExitCode::FAILURE;
    }
    let stdin = io::stdin();
    let mut client = Client::new(stdin.lock());
    let mut nth = 0;
    loop {
        let view = match client.next_view() {
            Ok(Some(v)) => v,
            Ok(None) => return ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("cg-fixture-faulty: {e}");
                return ExitCode::FAILURE;
            }
        };
        nth += 1;
        let written = match act(fault, &view, nth, sleep) {
            Action::Write(bytes) => out.write_all(&bytes).and_then(|()| out.flush()),
            Action::Late(d, bytes) => {
                std::thread::sleep(d);
                out.write_all(&bytes).and_then(|()| out.flush())
            }
            Action::WriteAndExit(bytes) => {
                let _ = out.write_all(&bytes).and_then(|()| out.flush());
                return ExitCode::SUCCESS;
            }
            Action::Skip => Ok(()),
        };
        if written.is_err() {
            return ExitCode::FAILURE;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_expectations_cover_every_reason() {
        for (name, f) in Fault::ALL {
            assert_eq!(Fault::from_name(name), Some(f));
        }
        for r in crate::reason::Reason::ALL {
            assert!(
                Fault::ALL.iter().any(|(_, f)| f.expected() == Some(r)),
                "{r:?}"
            );
        }
    }
}
