//! `cg-referee` as a process: every END-3 reason from the faulty fixture in
//! both seats, valid variants accepted, records that replay, a tampered
//! record rejected, a draw, transcripts, usage errors and process clean-up.

#![expect(
    clippy::unwrap_used,
    clippy::panic,
    reason = "helpers of tests fail the test by panicking"
)]

use std::path::Path;

use assert_cmd::Command;
use codingame_reference::Record;
use codingame_reference::board::Seat;
use codingame_reference::faulty::Fault;
use codingame_reference::judge::Reason;

const REFEREE: &str = env!("CARGO_BIN_EXE_cg-referee");
const FAULTY: &str = env!("CARGO_BIN_EXE_cg-fixture-faulty");

fn referee(args: &[&str]) -> (Record, String) {
    let out = Command::new(REFEREE).args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "one JSON object on one line");
    (Record::from_json(&text).unwrap(), text)
}

fn replay_status(dir: &Path, record: &str) -> Option<i32> {
    let path = dir.join("r.json");
    std::fs::write(&path, record).unwrap();
    Command::new(REFEREE)
        .args(["replay", path.to_str().unwrap()])
        .output()
        .unwrap()
        .status
        .code()
}

fn check_fault(name: &str) {
    let fault = Fault::from_name(name).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for seat in Seat::BOTH {
        let faulty = format!("env CG_FAULT={name} {FAULTY}");
        let (p1, p2) = match seat {
            Seat::A => (faulty.as_str(), FAULTY),
            Seat::B => (FAULTY, faulty.as_str()),
        };
        let (rec, text) = referee(&["--p1", p1, "--p2", p2, "--size", "3"]);
        if let Some(reason) = fault.expected() {
            let f = rec
                .forfeit
                .unwrap_or_else(|| panic!("{name} in {seat}: no forfeit"));
            assert_eq!((f.seat, f.reason), (seat, reason), "{name} in {seat}");
            assert_eq!(rec.winner, Some(seat.other()));
            assert_eq!(f.request as usize, rec.moves.len());
            assert_eq!(rec.moves.last().unwrap().seat, seat);
        } else {
            assert_eq!(rec.forfeit, None, "{name} in {seat}");
            assert_eq!(rec.moves.len(), 24, "MOVE-4");
            assert_eq!(rec.score.a + rec.score.b, 9);
        }
        assert_eq!(
            replay_status(dir.path(), &text),
            Some(0),
            "{name} in {seat} replays"
        );
    }
}

macro_rules! fault_tests {
    ($($test:ident => $name:literal),* $(,)?) => {
        $(#[test] fn $test() { check_fault($name); })*

        #[test]
        fn every_fault_has_a_test() {
            let tested = [$($name),*];
            for (name, _) in Fault::ALL {
                assert!(tested.contains(&name), "{name}");
            }
        }
    };
}

fault_tests! {
    fault_none => "none",
    fault_lower_case => "lower-case",
    fault_side_already_drawn => "side-already-drawn",
    fault_other_name_of_drawn_side => "other-name-of-drawn-side",
    fault_no_such_box => "no-such-box",
    fault_slow_first => "slow-first",
    fault_slow_later => "slow-later",
    fault_exit_early => "exit-early",
    fault_no_newline => "no-newline",
    fault_rows_from_top => "rows-from-top",
    fault_crlf => "crlf",
    fault_msg => "msg",
    fault_trailing_space => "trailing-space",
    fault_garbage => "garbage",
    fault_early_line => "early-line",
    fault_too_long => "too-long",
    fault_two_spaces => "two-spaces",
}

#[test]
fn crlf_and_msg_are_recorded_as_accepted() {
    let crlf = format!("env CG_FAULT=crlf {FAULTY}");
    let (rec, _) = referee(&["--p1", &crlf, "--p2", FAULTY, "--size", "2"]);
    assert_eq!(rec.moves[0].line, "A1 L");
    let msg = format!("env CG_FAULT=msg {FAULTY}");
    let (rec, _) = referee(&["--p1", &msg, "--p2", FAULTY, "--size", "2"]);
    assert_eq!(rec.moves[0].line, "A1 L MSG hello, referee");
}

#[test]
fn end_2_draw_on_an_even_board_from_early_lines() {
    // Every answer written at once, before any request (ANSWER-1).
    let a = r#"sh -c 'printf "A1 R\nB2 T\nB1 B\nB1 R\nA1 T\nA1 B\n"; exec sleep 30'"#;
    let b = r#"sh -c 'printf "A2 R\nA1 L\nA2 L\nB1 T\nB2 R\nA2 T\n"; exec sleep 30'"#;
    let (rec, text) = referee(&["--p1", a, "--p2", b, "--size", "2"]);
    assert_eq!(rec.forfeit, None);
    assert_eq!(rec.winner, None);
    assert_eq!((rec.score.a, rec.score.b), (2, 2));
    assert!(text.contains(r#""winner":null"#));
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(replay_status(dir.path(), &text), Some(0));
}

#[test]
fn rec_2_tampered_records_exit_3() {
    let (rec, _) = referee(&["--p1", FAULTY, "--p2", FAULTY, "--size", "4"]);
    let dir = tempfile::tempdir().unwrap();
    let mut t = rec.clone();
    t.score.a += 1;
    assert_eq!(replay_status(dir.path(), &t.to_json()), Some(3));
    let mut t = rec.clone();
    t.moves.swap(0, 1);
    assert_eq!(replay_status(dir.path(), &t.to_json()), Some(3));
    let mut t = rec.clone();
    t.moves.pop();
    assert_eq!(replay_status(dir.path(), &t.to_json()), Some(3));
    let mut t = rec;
    t.forfeit = Some(codingame_reference::record::ForfeitRecord {
        seat: Seat::A,
        reason: Reason::Syntax,
        request: 1,
    });
    assert_eq!(replay_status(dir.path(), &t.to_json()), Some(3));
    assert_eq!(replay_status(dir.path(), "{}"), Some(2));
}

#[test]
fn record_file_and_transcript() {
    let dir = tempfile::tempdir().unwrap();
    let rec_path = dir.path().join("m.json");
    let tr = dir.path().join("tr");
    let (_, text) = referee(&[
        "--p1",
        FAULTY,
        "--p2",
        FAULTY,
        "--size",
        "3",
        "--record",
        rec_path.to_str().unwrap(),
        "--transcript",
        tr.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read_to_string(&rec_path).unwrap(), text);
    let a_sent = std::fs::read(tr.join("A.sent")).unwrap();
    assert!(a_sent.starts_with(b"3\nA\n0 0\n9\nA1 LTRB\n"));
    let b_sent = std::fs::read(tr.join("B.sent")).unwrap();
    assert!(b_sent.starts_with(b"3\nB\n0 0\n9\nA1 TRB\n"));
    assert!(
        std::fs::read(tr.join("A.received"))
            .unwrap()
            .starts_with(b"A1 L\n")
    );
}

#[test]
fn match_2_size_from_seed() {
    let (rec, _) = referee(&["--p1", FAULTY, "--p2", FAULTY, "--seed", "13"]);
    assert_eq!(rec.size, 7);
}

#[test]
fn end_3_a_bot_that_cannot_start_is_eof() {
    let (rec, _) = referee(&["--p1", FAULTY, "--p2", "/nonexistent/bot", "--size", "2"]);
    let f = rec.forfeit.unwrap();
    assert_eq!((f.seat, f.reason, f.request), (Seat::B, Reason::Eof, 2));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["--p1", "x"][..],
        &["--p1", "x", "--p2", "y", "--size", "10"],
        &["--p1", "x", "--p2", "'y", "--size", "3"],
        &["--p1", "x", "--p2", "y", "--time-factor", "0"],
        &["--bogus"],
    ] {
        let out = Command::new(REFEREE).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn end_5_every_process_dead_after_the_match() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let bot = format!(
        "sh -c 'sleep 60 & echo $! > {}; exec {FAULTY}'",
        pidfile.display()
    );
    let (rec, _) = referee(&["--p1", &bot, "--p2", FAULTY, "--size", "2"]);
    assert_eq!(rec.forfeit, None);
    let pid = std::fs::read_to_string(&pidfile).unwrap();
    // A killed process may linger as a zombie until its new parent reaps
    // it: only a running one counts.
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).unwrap_or_default();
    let state = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .next();
    let alive = state.is_some_and(|s| s != "Z" && s != "X");
    assert!(!alive, "the bot's background child outlived the match");
}
