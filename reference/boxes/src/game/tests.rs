//! Tests of `game`, beside it.

use super::*;
use crate::grid::{Cell, Edge, Grid};
use std::cell::RefCell;
use std::io::{self, Cursor, Read};
use std::rc::Rc;

/// An empty 2×2 grid, every line 2W+1 = 5 bytes (DISP-1).
const EMPTY_2X2: &[u8] = b"+ + +\n     \n+ + +\n     \n+ + +\n";

struct Outcome {
    out: Vec<u8>,
    err: Vec<u8>,
    exit: Exit,
}

fn play_bytes(state: State, input: &[u8]) -> Outcome {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let exit = play(state, &mut Cursor::new(input.to_vec()), &mut out, &mut err);
    Outcome { out, err, exit }
}

fn new_game(h: usize, w: usize, p: usize, input: &[u8]) -> Outcome {
    play_bytes(State::new(h, w, p), input)
}

fn player(n: usize) -> Player {
    Player::new(n).unwrap_or(Player::FIRST)
}

fn count(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .filter(|w| *w == needle)
        .count()
}

/// Every edge of an H×W grid as move lines, in file order.
fn all_moves(h: usize, w: usize) -> Vec<u8> {
    let mut moves = Vec::new();
    for e in Grid::new(h, w).edges() {
        moves.extend_from_slice(format!("{e}\n").as_bytes());
    }
    moves
}

#[test]
fn turn_1_prompt_is_symbol_gt_space_without_newline() {
    let o = new_game(2, 2, 2, b"");
    assert_eq!(o.out, [EMPTY_2X2, b"A> "].concat());
    assert_eq!(o.exit, Exit::EndOfInput);
    assert!(o.err.is_empty(), "the caller prints the exit message");
}

/// Records what was written and how much of it was flushed; the reader
/// notes every read that finds written bytes not yet flushed.
#[derive(Default)]
struct Tty {
    written: usize,
    flushed: usize,
    unflushed_reads: usize,
}

struct TtyOut(Rc<RefCell<Tty>>);

impl Write for TtyOut {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().written += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        let mut t = self.0.borrow_mut();
        t.flushed = t.written;
        Ok(())
    }
}

struct TtyIn(Rc<RefCell<Tty>>, Cursor<Vec<u8>>);

impl Read for TtyIn {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut t = self.0.borrow_mut();
        if t.flushed != t.written {
            t.unflushed_reads += 1;
        }
        // One byte at a time: every byte is a wait for the person.
        let n = buf.len().min(1);
        self.1.read(&mut buf[..n])
    }
}

#[test]
fn turn_1_prompt_is_flushed_before_every_read() {
    let tty = Rc::new(RefCell::new(Tty::default()));
    let mut input = io::BufReader::with_capacity(
        1,
        TtyIn(Rc::clone(&tty), Cursor::new(b"0 0 h\nbad\nw \n".to_vec())),
    );
    let exit = play(
        State::new(2, 2, 2),
        &mut input,
        &mut TtyOut(Rc::clone(&tty)),
        &mut Vec::new(),
    );
    assert_eq!(exit, Exit::EndOfInput);
    let t = tty.borrow();
    assert!(t.written > 0);
    assert_eq!(t.unflushed_reads, 0);
}

#[test]
fn turn_2_game_rejects_lines_outside_the_grammar() {
    let o = new_game(
        2,
        2,
        2,
        b"00 0 h\n0 0 h \n+0 0 h\n0 0 H\n0 0 h\r\n0 0\0 h\n",
    );
    assert_eq!(o.out, [EMPTY_2X2, b"A> A> A> A> A> A> A> "].concat());
}

#[test]
fn turn_3_out_of_range_numbers_are_invalid_never_wrapped() {
    let o = new_game(
        2,
        2,
        2,
        b"2 0 v\n0 2 h\n3 0 h\n0 3 v\n18446744073709551616 0 h\n0 18446744073709551617 v\n",
    );
    assert_eq!(o.out, [EMPTY_2X2, b"A> A> A> A> A> A> A> "].concat());
    assert_eq!(o.exit, Exit::EndOfInput);
}

#[test]
fn turn_4_invalid_line_reprints_only_the_prompt() {
    let o = new_game(2, 2, 2, b"x\n\n0 0 h\n0 0 h\n9 9 v\n");
    let after: &[u8] = b"+-+ +\n     \n+ + +\n     \n+ + +\n";
    assert_eq!(
        o.out,
        [EMPTY_2X2, b"A> A> A> ", after, b"B> B> B> "].concat()
    );
    assert!(o.err.is_empty());
}

#[test]
fn turn_4_huge_line_is_one_invalid_line() {
    let mut input = vec![b'1'; 5 * crate::input::LINE_CAP];
    input.extend_from_slice(b" 0 h\n0 0 h\n");
    let o = new_game(2, 2, 2, &input);
    let after: &[u8] = b"+-+ +\n     \n+ + +\n     \n+ + +\n";
    assert_eq!(o.out, [EMPTY_2X2, b"A> A> ", after, b"B> "].concat());
}

#[test]
fn turn_5_no_completion_passes_the_turn_wrapping_to_a() {
    let o = new_game(2, 2, 3, b"0 0 h\n0 1 h\n1 0 h\n");
    assert_eq!(count(&o.out, b"A> "), 2);
    assert_eq!(count(&o.out, b"B> "), 1);
    assert_eq!(count(&o.out, b"C> "), 1);
    assert!(o.out.ends_with(b"+ + +\nA> "));
}

#[test]
fn turn_5_one_edge_two_cells_gives_one_extra_turn() {
    // A's 0 1 v closes both top cells at once: one extra turn.
    let moves = b"0 0 h\n0 1 h\n1 0 h\n1 1 h\n0 0 v\n0 2 v\n0 1 v\n";
    let o = new_game(2, 2, 2, moves);
    // A B A B A B, then A's 0 1 v completes both top cells.
    assert!(
        o.out
            .ends_with(b"A> +-+-+\n|A|A|\n+-+-+\n     \n+ + +\nA> "),
        "{}",
        String::from_utf8_lossy(&o.out)
    );
}

#[test]
fn turn_5_chained_completions_keep_the_turn() {
    // Outer edges, then A's 1 0 h; B's 0 1 v completes one cell, its
    // extra 1 1 h another, its next extra 1 1 v the last two.
    let moves =
        b"0 0 h\n0 1 h\n2 0 h\n2 1 h\n0 0 v\n0 2 v\n1 0 v\n1 2 v\n1 0 h\n0 1 v\n1 1 h\n1 1 v\n";
    let o = new_game(2, 2, 2, moves);
    let tail: &[u8] = b"B> +-+-+\n|B| |\n+-+ +\n|   |\n+-+-+\n\
            B> +-+-+\n|B|B|\n+-+-+\n|   |\n+-+-+\n\
            B> +-+-+\n|B|B|\n+-+-+\n|B|B|\n+-+-+\nWinner(s): B\n";
    assert!(o.out.ends_with(tail), "{}", String::from_utf8_lossy(&o.out));
    assert_eq!(o.exit, Exit::Normal);
}

#[test]
fn disp_3_grid_printed_at_start_and_after_valid_moves_only() {
    let dir = tempfile::tempdir().ok();
    let path = dir.as_ref().map(|d| d.path().join("s")).unwrap_or_default();
    let input = [
        &b"0 0 h\nbad\n"[..],
        b"w ",
        path.as_os_str().as_bytes(),
        b"\n1 1 v\n",
    ]
    .concat();
    let o = new_game(2, 2, 2, &input);
    let g1: &[u8] = b"+-+ +\n     \n+ + +\n     \n+ + +\n";
    let g2: &[u8] = b"+-+ +\n     \n+ + +\n  |  \n+ + +\n";
    assert_eq!(
        o.out,
        [EMPTY_2X2, b"A> ", g1, b"B> B> B> ", g2, b"A> "].concat()
    );
    assert_eq!(o.err, b"Save complete\n");
}

#[test]
fn disp_3_final_grid_printed_before_winners() {
    // File order: B completes the top cells (h 1 0, h 1 1), A the
    // bottom ones (h 2 0, h 2 1).
    let o = new_game(2, 2, 2, &all_moves(2, 2));
    let end: &[u8] = b"A> +-+-+\n|B|B|\n+-+-+\n|A|A|\n+-+-+\nWinner(s): A, B\n";
    assert!(o.out.ends_with(end), "{}", String::from_utf8_lossy(&o.out));
    assert_eq!(o.exit, Exit::Normal);
}

#[test]
fn save_1_path_keeps_spaces_and_ends_at_nul() {
    let dir = tempfile::tempdir().ok();
    let base = dir
        .as_ref()
        .map(|d| d.path().to_path_buf())
        .unwrap_or_default();
    let input = [
        &b"w "[..],
        base.as_os_str().as_bytes(),
        b"/ a b \0ignored\n",
    ]
    .concat();
    let o = new_game(2, 2, 2, &input);
    assert_eq!(o.err, b"Save complete\n");
    assert!(base.join(" a b ").is_file());
    assert!(!base.join("ignored").exists());
    let o = new_game(2, 2, 2, b"w\nwpath\n w path\n");
    assert!(o.err.is_empty());
    assert_eq!(o.out, [EMPTY_2X2, b"A> A> A> A> "].concat());
}

#[test]
fn save_2_file_holds_state_with_the_saver_next() {
    let dir = tempfile::tempdir().ok();
    let path = dir.as_ref().map(|d| d.path().join("g")).unwrap_or_default();
    let input = [&b"0 0 h\nw "[..], path.as_os_str().as_bytes(), b"\n"].concat();
    let o = new_game(2, 2, 2, &input);
    assert_eq!(o.err, b"Save complete\n");
    let saved = std::fs::read(&path).ok();
    let expected: &[u8] = b"2\n10\n000\n00\n000\n00\n0,0\n0,0\n";
    assert_eq!(saved.as_deref(), Some(expected));
}

#[test]
fn save_2_existing_file_is_truncated_and_replaced() {
    let dir = tempfile::tempdir().ok();
    let path = dir.as_ref().map(|d| d.path().join("g")).unwrap_or_default();
    assert!(std::fs::write(&path, vec![b'x'; 10_000]).is_ok());
    let input = [&b"w "[..], path.as_os_str().as_bytes(), b"\n"].concat();
    let o = new_game(2, 2, 2, &input);
    assert_eq!(o.err, b"Save complete\n");
    let saved = std::fs::read(&path).ok();
    let expected: &[u8] = b"1\n00\n000\n00\n000\n00\n0,0\n0,0\n";
    assert_eq!(saved.as_deref(), Some(expected));
}

#[test]
fn save_2_saved_game_loads_and_resumes_identically() {
    let dir = tempfile::tempdir().ok();
    let path = dir.as_ref().map(|d| d.path().join("g")).unwrap_or_default();
    let first: &[u8] = b"0 0 h\n1 0 h\n0 0 v\n";
    let rest = b"0 1 v\n0 1 h\n0 2 v\n1 1 h\n1 0 v\n1 1 v\n1 2 v\n2 0 h\n2 1 h\n";
    let whole = new_game(2, 2, 2, &[first, rest].concat());
    let saving = [first, b"w ", path.as_os_str().as_bytes(), b"\n"].concat();
    let _ = new_game(2, 2, 2, &saving);
    let loaded = std::fs::read(&path)
        .ok()
        .and_then(|b| gridfile::load_bytes(&b, 2, 2, 2).ok());
    let Some(loaded) = loaded else {
        panic!("the saved game does not load");
    };
    let resumed = play_bytes(loaded, rest);
    assert_eq!(resumed.exit, whole.exit);
    // The resumed game prints its start grid where the whole game printed
    // the grid after the third move, then the same bytes to the end.
    let tail = &whole.out[whole.out.len() - resumed.out.len()..];
    assert_eq!(tail, &resumed.out[..]);
}

#[test]
fn save_3_success_prompts_the_same_player_without_grid() {
    let dir = tempfile::tempdir().ok();
    let path = dir.as_ref().map(|d| d.path().join("g")).unwrap_or_default();
    let input = [&b"w "[..], path.as_os_str().as_bytes(), b"\n"].concat();
    let o = new_game(2, 2, 2, &input);
    assert_eq!(o.out, [EMPTY_2X2, b"A> A> "].concat());
    assert_eq!(o.err, b"Save complete\n");
    assert_eq!(o.exit, Exit::EndOfInput);
}

#[test]
fn save_3_failures_report_and_play_goes_on_to_a_normal_end() {
    let dir = tempfile::tempdir().ok();
    let base = dir
        .as_ref()
        .map(|d| d.path().to_path_buf())
        .unwrap_or_default();
    let missing = base.join("no/such/dir/g");
    let mut input = Vec::new();
    for path in [
        missing.as_os_str().as_bytes(),
        base.as_os_str().as_bytes(),
        b"/dev/full",
        b"",
    ] {
        input.extend_from_slice(b"w ");
        input.extend_from_slice(path);
        input.push(b'\n');
    }
    input.extend_from_slice(&all_moves(2, 2));
    let o = new_game(2, 2, 2, &input);
    assert_eq!(o.err, b"Can not open file for write\n".repeat(4));
    assert!(
        o.out
            .starts_with(&[EMPTY_2X2, b"A> A> A> A> A> +-+ +"].concat())
    );
    assert_eq!(o.exit, Exit::Normal);
    assert!(!missing.exists());
}

#[test]
fn save_3_path_longer_than_the_kept_line_fails() {
    let mut input = b"w ".to_vec();
    input.extend(std::iter::repeat_n(b'a', 3 * crate::input::LINE_CAP));
    input.push(b'\n');
    let o = new_game(2, 2, 2, &input);
    assert_eq!(o.err, b"Can not open file for write\n");
    assert_eq!(o.out, [EMPTY_2X2, b"A> A> "].concat());
}

#[test]
fn end_1_winners_are_the_top_scorers_in_player_order() {
    // File order with three players: C completes all four cells.
    let o = new_game(2, 2, 3, &all_moves(2, 2));
    assert!(
        o.out
            .ends_with(b"|C|C|\n+-+-+\n|C|C|\n+-+-+\nWinner(s): C\n")
    );
    assert_eq!(o.exit, Exit::Normal);
    // Two players tie 2–2: both, A first.
    let o = new_game(2, 2, 2, &all_moves(2, 2));
    assert!(o.out.ends_with(b"+-+-+\nWinner(s): A, B\n"));
}

#[test]
fn end_1_all_players_listed_when_every_score_is_zero() {
    let mut state = State::new(2, 2, 4);
    for e in Grid::new(2, 2).edges() {
        let _ = state.grid.set_edge(e, true);
    }
    let _ = state.grid.set_edge(Edge::h(0, 0), false);
    let o = play_bytes(state, b"0 0 h\n");
    assert_eq!(o.exit, Exit::Normal);
    // Closing the last edge completes cell (0, 0) for A: A wins alone.
    assert!(
        o.out
            .ends_with(b"|A| |\n+-+-+\n| | |\n+-+-+\nWinner(s): A\n")
    );
    let mut zero = State::new(2, 2, 4);
    for e in Grid::new(2, 2).edges() {
        let _ = zero.grid.set_edge(e, true);
    }
    let o = play_bytes(zero, b"");
    assert!(o.out.ends_with(b"+-+-+\nWinner(s): A, B, C, D\n"));
}

#[test]
fn end_2_full_grid_ends_at_once_without_prompt() {
    let mut state = State::new(2, 2, 2);
    for e in Grid::new(2, 2).edges() {
        let _ = state.grid.set_edge(e, true);
    }
    state
        .grid
        .set_owner(Cell { row: 1, col: 0 }, Some(player(2)));
    let o = play_bytes(state, b"0 0 h\n");
    let expected: &[u8] = b"+-+-+\n| | |\n+-+-+\n|B| |\n+-+-+\nWinner(s): B\n";
    assert_eq!(o.out, expected);
    assert_eq!(o.exit, Exit::Normal);
    assert!(o.err.is_empty());
}

#[test]
fn eof_1_stdout_ends_with_the_prompt_and_no_winners() {
    let o = new_game(2, 2, 2, b"0 0 h\n");
    let after: &[u8] = b"+-+ +\n     \n+ + +\n     \n+ + +\n";
    assert_eq!(o.out, [EMPTY_2X2, b"A> ", after, b"B> "].concat());
    assert_eq!(o.exit, Exit::EndOfInput);
}

#[test]
fn eof_1_read_error_ends_input() {
    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("gone"))
        }
    }
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let exit = play(
        State::new(2, 2, 2),
        &mut io::BufReader::new(Broken),
        &mut out,
        &mut err,
    );
    assert_eq!(exit, Exit::EndOfInput);
    assert!(out.ends_with(b"A> "));
}

#[test]
fn eof_2_last_line_without_newline_is_played() {
    let o = new_game(2, 2, 2, b"0 0 h");
    let after: &[u8] = b"+-+ +\n     \n+ + +\n     \n+ + +\n";
    assert_eq!(o.out, [EMPTY_2X2, b"A> ", after, b"B> "].concat());
    assert_eq!(o.exit, Exit::EndOfInput);
}

#[test]
fn file_7_loaded_game_plays_on_after_last_player_comes_a() {
    let file = b"3\n10\n110\n10\n000\n00\n1,0\n0,0\n";
    let Ok(state) = gridfile::load_bytes(file, 2, 2, 3) else {
        panic!("file must load");
    };
    let o = play_bytes(state, b"2 0 h\n");
    let start: &[u8] = b"+-+ +\n|A|  \n+-+ +\n     \n+ + +\n";
    let after: &[u8] = b"+-+ +\n|A|  \n+-+ +\n     \n+-+ +\n";
    assert_eq!(o.out, [start, b"C> ", after, b"A> "].concat());
}

#[test]
fn file_7_loaded_owners_count_in_the_score() {
    // A owns two cells and B one from the file; B closes the last edge
    // and ties A at two: both win. Counting only this game's cells
    // would make B the sole winner.
    let file = b"2\n11\n111\n11\n111\n10\n1,2\n1,0\n";
    let Ok(state) = gridfile::load_bytes(file, 2, 2, 2) else {
        panic!("file must load");
    };
    let o = play_bytes(state, b"2 1 h\n");
    let start: &[u8] = b"+-+-+\n|A|B|\n+-+-+\n|A| |\n+-+ +\n";
    let end: &[u8] = b"+-+-+\n|A|B|\n+-+-+\n|A|B|\n+-+-+\n";
    assert_eq!(o.out, [start, b"B> ", end, b"Winner(s): A, B\n"].concat());
    assert_eq!(o.exit, Exit::Normal);
}

#[test]
fn sys_1_failing_stdout_is_a_system_call_failure() {
    struct Full;
    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(io::ErrorKind::StorageFull))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut err = Vec::new();
    let exit = play(
        State::new(2, 2, 2),
        &mut Cursor::new(b"0 0 h\n".to_vec()),
        &mut Full,
        &mut err,
    );
    assert_eq!(exit, Exit::SystemCall);
    assert!(err.is_empty(), "the caller prints the message");
}
