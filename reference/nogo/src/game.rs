//! The turn loop (rulings GRID-2, TURN-1..5, COMP-3, COMP-4, END-1,
//! SAVE-3, SAVE-4, EOF-1, EOF-2, SYS-1): whose turn, computer or human,
//! placing, deciding a winner, printing.
//!
//! Stdout is written and never checked (SYS-1: a failed write changes no
//! status); stderr likewise, since there is nowhere left to report to.

use std::io::{BufRead, Write};

use reference_kit::trace::{self, Channel, Context};

use crate::capture;
use crate::command::Command;
use crate::grid::{Cell, Stone};
use crate::input::Line;
use crate::player::{Kind, Player};
use crate::render::Rendered;
use crate::save;
use crate::state::State;
use crate::status::{self, Exit};
use crate::why::Why;

/// Plays `state` to its end with the players' `kinds` (`O` then `X`):
/// prints the grid, then takes turns until a capture decides the winner
/// (exit 0) or input ends on a human's turn (exit 6). The caller prints the
/// exit's message. `out` is flushed before every read.
pub fn play<R: BufRead, O: Write, E: Write>(
    mut state: State,
    kinds: [Kind; 2],
    input: &mut R,
    out: &mut O,
    err: &mut E,
) -> Exit {
    let mut shown = Rendered::new(&state.grid);
    trace::enter(Context::new(
        "GRID-1,GRID-2,FILE-7",
        "the grid at the start (a new game or the loaded file)",
    ));
    emit(out, shown.as_bytes());
    let mut line = Line::new();
    let mut text = Vec::with_capacity(64);
    loop {
        let mover = state.next;
        let cell = match kinds[mover.index()] {
            Kind::Computer => {
                let cell = computer_move(&mut state, mover);
                trace::enter(Context::new(
                    "COMP-4,COMP-1,COMP-2,COMP-3",
                    "the computer's move",
                ));
                text.clear();
                // Writing to a Vec cannot fail.
                let _ = writeln!(
                    text,
                    "{}{}{}{} {}",
                    status::MOVE_PREFIX,
                    char::from(mover.symbol()),
                    status::MOVE_SEPARATOR,
                    cell.row,
                    cell.col
                );
                emit(out, &text);
                cell
            }
            Kind::Human => match human_move(&state, mover, &mut line, input, out, err) {
                Some(cell) => cell,
                None => return Exit::EndOfInput,
            },
        };
        let winner = place(&mut state, cell, mover);
        shown.set(cell, mover.symbol());
        trace::enter(Context::new(
            "GRID-1,GRID-2,TURN-5",
            "the grid after a stone is placed",
        ));
        emit(out, shown.as_bytes());
        if let Some(winner) = winner {
            let line = [
                status::WINS_PREFIX.as_bytes(),
                &[winner.symbol()],
                status::WINS_SUFFIX.as_bytes(),
                b"\n",
            ]
            .concat();
            trace::enter(Context::new(
                "END-1,CAPTURE-1,CAPTURE-2,CAPTURE-3,CAPTURE-4",
                "the winner line",
            ));
            emit(out, &line);
            let _ = out.flush();
            return Exit::Normal;
        }
        state.next = mover.other();
    }
}

/// Places `mover`'s stone on the empty `cell` and says who has won, if
/// anyone (TURN-5, CAPTURE-2); the caller passes the turn when no one has.
pub fn place(state: &mut State, cell: Cell, mover: Player) -> Option<Player> {
    state.grid.set(cell, Stone::Taken(mover));
    capture::winner_after(&mut state.grid, cell, mover)
}

/// Takes candidates until one is empty (COMP-3). A loaded grid always has
/// an empty cell (FILE-4) and a game ends before the grid fills (the last
/// stone leaves its own string no liberty), so the search ends; every cell
/// is a candidate within 1000003 jumps.
pub fn computer_move(state: &mut State, mover: Player) -> Cell {
    loop {
        let cell = state.generator(mover).take();
        if state.grid.is_free(cell) {
            return cell;
        }
    }
}

/// Prompts and reads until a valid move; saves on request. `None` at the
/// end of input (EOF-1).
fn human_move<R: BufRead, O: Write, E: Write>(
    state: &State,
    mover: Player,
    line: &mut Line,
    input: &mut R,
    out: &mut O,
    err: &mut E,
) -> Option<Cell> {
    let prompt = [
        status::PROMPT_PREFIX.as_bytes(),
        &[mover.symbol()],
        status::PROMPT_SUFFIX.as_bytes(),
    ]
    .concat();
    let mut context = Context::new("TURN-1,TURN-5,CAPTURE-2", "the prompt of a new turn");
    loop {
        trace::enter(context);
        emit(out, &prompt);
        let _ = out.flush();
        if !line.read(input) {
            crate::why::stopped(Why::EndOfInput, Exit::EndOfInput, || {
                "input ends where a line was expected".to_owned()
            });
            return None;
        }
        match line.command() {
            Command::Save(path) => {
                // The file saved, or the message of a failed save: a
                // program that writes neither is blamed on these rules.
                let saving = Context::new("SAVE-1,SAVE-2,SAVE-4", "save the game");
                match (save::save(state, path), path) {
                    (Ok(()), Some(path)) => trace::wrote_aside(Channel::File, path, saving),
                    (Ok(()), None) => {}
                    (Err(_), _) => {
                        let _ = writeln!(err, "{}", status::SAVE_FAILED);
                        let said = [status::SAVE_FAILED.as_bytes(), b"\n"].concat();
                        trace::wrote_aside(Channel::Stderr, &said, saving);
                    }
                }
                context = Context::new("SAVE-1,SAVE-3,SAVE-4", "the prompt after a save");
            }
            Command::Move(cell) if state.grid.is_free(cell) => return Some(cell),
            Command::Move(cell) => {
                let why = Why::of_move(cell, &state.grid);
                trace::rejected(why, line.kept(), || why.rejection(Some(cell), &state.grid));
                context = Context::new("TURN-2,TURN-3,TURN-4", "the prompt after a rejected line");
            }
            Command::Invalid => {
                trace::rejected(Why::Form, line.kept(), || {
                    Why::Form.rejection(None, &state.grid)
                });
                context = Context::new("TURN-2,TURN-3,TURN-4", "the prompt after a rejected line");
            }
        }
    }
}

/// Writes to stdout, ignoring failure (SYS-1).
fn emit<O: Write>(out: &mut O, bytes: &[u8]) {
    let _ = out.write_all(bytes);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::GenState;
    use crate::savefile;
    use std::io::Cursor;

    const EMPTY_4X4: &[u8] = b"/----\\\n|....|\n|....|\n|....|\n|....|\n\\----/\n";

    fn play_bytes(state: State, kinds: [Kind; 2], input: &[u8]) -> (Vec<u8>, Vec<u8>, Exit) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let exit = play(
            state,
            kinds,
            &mut Cursor::new(input.to_vec()),
            &mut out,
            &mut err,
        );
        (out, err, exit)
    }

    const HUMANS: [Kind; 2] = [Kind::Human, Kind::Human];

    #[test]
    fn grid_2_not_reprinted_after_invalid_lines_or_saves() {
        let (out, _, exit) = play_bytes(State::new(4, 4), HUMANS, b"4 0\n0 4\nx\n\nw\n0 0\n");
        let mut expected = EMPTY_4X4.to_vec();
        expected.extend_from_slice(&b"Player O> ".repeat(6));
        expected.extend_from_slice(b"/----\\\n|O...|\n|....|\n|....|\n|....|\n\\----/\nPlayer X> ");
        assert_eq!(out, expected);
        assert_eq!(exit, Exit::EndOfInput);
    }

    #[test]
    fn turn_4_occupied_cell_reprompts_the_same_player() {
        let (out, _, _) = play_bytes(State::new(4, 4), HUMANS, b"1 1\n1 1\n");
        assert!(out.ends_with(b"\\----/\nPlayer X> Player X> "));
    }

    #[test]
    fn turn_5_human_moves_never_touch_the_generator() {
        let mut state = State::new(4, 4);
        let before = state.generators.clone();
        state.grid.set(Cell::new(3, 3), Stone::Taken(Player::X));
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("s");
        let mut input = b"0 0\n1 1\n".to_vec();
        input.extend_from_slice(b"w");
        input.extend_from_slice(path.to_string_lossy().as_bytes());
        input.push(b'\n');
        let (_, err, _) = play_bytes(state, HUMANS, &input);
        assert!(err.is_empty());
        let saved = savefile::load_path(&path).expect("saved game loads");
        assert_eq!(saved.generators, before);
        assert_eq!(saved.next, Player::O);
    }

    #[test]
    fn comp_3_every_candidate_taken_advances_the_state() {
        // O's first candidates on 4x4 are 1 0, 2 1, 0 2: the first two
        // occupied, O plays 0 2 and its state is the one after it.
        let mut state = State::new(4, 4);
        state.grid.set(Cell::new(1, 0), Stone::Taken(Player::X));
        state.grid.set(Cell::new(2, 1), Stone::Taken(Player::X));
        let (out, _, _) = play_bytes(state, [Kind::Computer, Kind::Human], b"");
        assert!(out.windows(14).any(|w| w == b"Player O: 0 2\n"));
        let mut state = State::new(4, 4);
        state.grid.set(Cell::new(1, 0), Stone::Taken(Player::X));
        state.grid.set(Cell::new(2, 1), Stone::Taken(Player::X));
        let cell = computer_move(&mut state, Player::O);
        assert_eq!(cell, Cell::new(0, 2));
        assert_eq!(
            state.generators[0].state(),
            GenState {
                row: 1,
                col: 2,
                number: 3
            }
        );
    }

    #[test]
    fn end_1_grid_then_winner_line_input_left_unread() {
        let (out, err, exit) = play_bytes(State::new(4, 4), HUMANS, b"0 1\n0 0\n1 0\n9 9\n");
        let expected_tail: &[u8] =
            b"Player O> /----\\\n|XO..|\n|O...|\n|....|\n|....|\n\\----/\nPlayer O wins\n";
        assert!(out.ends_with(expected_tail));
        assert!(err.is_empty());
        assert_eq!(exit, Exit::Normal);
    }

    #[test]
    fn capture_2_suicide_loses_through_the_loop() {
        let mut state = State::new(4, 4);
        state.grid.set(Cell::new(0, 1), Stone::Taken(Player::X));
        state.grid.set(Cell::new(1, 0), Stone::Taken(Player::X));
        let (out, _, exit) = play_bytes(state, HUMANS, b"0 0\n");
        assert!(out.ends_with(b"|OX..|\n|X...|\n|....|\n|....|\n\\----/\nPlayer X wins\n"));
        assert_eq!(exit, Exit::Normal);
    }
}
