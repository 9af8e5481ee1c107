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
fn an_unstartable_bot_is_named_on_stderr_with_the_result_line() {
    for level in ["group", "pid"] {
        let out = Command::new(REFEREE)
            .env("CONFORMANCE_CONTAINMENT", level)
            .args(["--p1", "/nonexistent/bot", "--p2", FAULTY, "--size", "2"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("cg-referee: could not start bot A (`/nonexistent/bot`): "),
            "{level}: {err}"
        );
        assert!(
            err.contains("cg-referee: seat B wins, 0-0 on 2x2; seat A forfeits at request 1 (eof)"),
            "{level}: {err}"
        );
    }
    let out = Command::new(REFEREE)
        .args(["--p1", FAULTY, "--p2", FAULTY, "--size", "2"])
        .env("CG_FAULT", "none")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("could not start"), "{err}");
    assert!(err.contains(" on 2x2"), "{err}");
}

#[test]
fn end_3_a_bot_that_closes_its_stdout_is_eof_at_its_next_request_at_every_level() {
    let bot = "sh -c 'read a; read b; read c; read n; i=0; while [ $i -lt $n ]; do read l; \
               i=$((i+1)); done; echo A1 T; exec >&-; sleep 20'";
    for level in ["group", "pid", "full"] {
        let out = Command::new(REFEREE)
            .env("CONFORMANCE_CONTAINMENT", level)
            .env("CG_FAULT", "none")
            .args(["--p1", bot, "--p2", FAULTY, "--size", "2"])
            .output()
            .unwrap();
        let rec = Record::from_json(&String::from_utf8_lossy(&out.stdout)).unwrap();
        let f = rec.forfeit.unwrap();
        assert_eq!(
            (f.seat, f.reason),
            (Seat::A, Reason::Eof),
            "{level}: {rec:?}"
        );
        assert!(rec.moves.last().unwrap().nothing, "{level}: {rec:?}");
    }
}

#[test]
fn cg_bot_help_prints_its_usage() {
    let out = Command::new(env!("CARGO_BIN_EXE_cg-bot"))
        .arg("--help")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("cg-bot: the reference bot"), "{text}");
    assert!(text.contains("CG_BOT_SEED"), "{text}");
    let out = Command::new(env!("CARGO_BIN_EXE_cg-bot"))
        .arg("--bogus")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
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

/// Processes whose command line contains `marker` (a `sleep MARKER`).
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let state = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        // A killed process may linger as a zombie until its new parent
        // reaps it: only a running one counts.
        let zombie = state
            .rsplit_once(") ")
            .is_some_and(|(_, s)| s.starts_with('Z'));
        if text.starts_with("sleep ") && text.contains(marker) && !zombie {
            found.push(format!("{}: {text}", entry.file_name().to_string_lossy()));
        }
    }
    found
}

#[test]
fn end_5_every_process_dead_after_the_match() {
    // A child in the bot's group and a `setsid` daemon that left it: both
    // die with the bot's PID namespace.
    let bot = format!("sh -c 'sleep 61.25 & setsid -f sleep 61.5; exec \"$0\"' {FAULTY}");
    let (rec, _) = referee(&["--p1", &bot, "--p2", FAULTY, "--size", "2"]);
    assert_eq!(rec.forfeit, None);
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(processes_with("61.25"), Vec::<String>::new());
    assert_eq!(processes_with("61.5"), Vec::<String>::new());
}

#[test]
fn a_bot_writes_only_its_own_folder() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("escaped");
    let home_file = dir.path().join("home-was-writable");
    // The bot tries a file outside its folder, then proves its HOME is
    // writable by echoing the result to stderr, then plays.
    let bot = format!(
        "sh -c 'echo x > {o}; touch \"$HOME/mine\" && echo home-ok >&2; exec \"$0\"' {FAULTY}",
        o = outside.display()
    );
    let tr = dir.path().join("tr");
    let (rec, _) = referee(&[
        "--p1",
        &bot,
        "--p2",
        FAULTY,
        "--size",
        "2",
        "--transcript",
        tr.to_str().unwrap(),
    ]);
    assert_eq!(rec.forfeit, None);
    assert!(!outside.exists(), "the bot wrote outside its folder");
    assert!(!home_file.exists());
    let stderr = String::from_utf8(std::fs::read(tr.join("A.stderr")).unwrap()).unwrap();
    assert!(stderr.contains("home-ok"), "{stderr}");
}

#[test]
fn a_bots_environment_is_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let tr = dir.path().join("tr");
    let bot = format!("sh -c 'env >&2; exec \"$0\"' {FAULTY}");
    let out = Command::new(REFEREE)
        .args(["--p1", &bot, "--p2", FAULTY, "--size", "2", "--transcript"])
        .arg(&tr)
        .env("CG_BOT_SEED", "5")
        .env("SECRET_OF_THE_CALLER", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let env = String::from_utf8(std::fs::read(tr.join("A.stderr")).unwrap()).unwrap();
    assert!(env.contains("CG_BOT_SEED=5\n"), "{env}");
    assert!(env.contains("PATH=/usr/local/bin:/usr/bin:/bin\n"), "{env}");
    assert!(!env.contains("SECRET_OF_THE_CALLER"), "{env}");
}

#[test]
fn relative_commands_resolve_against_the_callers_folder() {
    // `./name` and a script argument relative to the caller's folder.
    // The script's program is named on the command line too: a bot reads
    // the files its command names, not the rest of the caller's folder.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(FAULTY, dir.path().join("bot")).unwrap();
    std::fs::write(dir.path().join("bot.sh"), "exec \"$1\"\n").unwrap();
    let out = Command::new(REFEREE)
        .current_dir(dir.path())
        .args(["--p1", "./bot", "--p2", "sh bot.sh ./bot", "--size", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let rec = Record::from_json(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert_eq!(rec.forfeit, None, "{rec:?}");
}
