//! Smaller variants of a boxes session for `diff`'s shrink loop: fewer
//! stdin lines, played moves folded into a loaded file, a smaller grid,
//! fewer players, a simpler file, shorter lines and plainer arguments. The
//! loop itself (greedy, budgeted) is the engine's; this module only says
//! what "smaller" means for boxes.
//!
//! One piece: each way a boxes session gets smaller is one candidate
//! generator of `candidates`, and they share the session's replay
//! (`start`, `with_file`); about 80 lines are tests.

use std::ffi::OsString;

use boxes_reference::command::{self, Command};
use boxes_reference::{Cell, Edge, Grid, Player, State, args, gridfile};

use crate::session::{InputFile, Session, SessionKind};

/// The path a folded game is loaded from when the session had no file.
const FOLDED_PATH: &str = "grid.txt";

/// Smaller variants of `session`, the most reducing first.
pub fn candidates(session: &Session) -> Vec<Session> {
    let mut out = Vec::new();
    let n = session.lines.len();
    // Whole halves, quarters, … of stdin first: big cuts are cheap wins.
    let mut chunk = n.div_ceil(2);
    while chunk >= 2 {
        drop_lines(session, chunk, &mut out);
        chunk = chunk.div_ceil(2).min(chunk - 1);
    }
    for k in (1..=n).rev() {
        if let Some(s) = fold(session, k) {
            push(&mut out, session, s);
        }
    }
    drop_lines(session, 1, &mut out);
    out.extend(smaller_grid(session));
    out.extend(fewer_players(session));
    out.extend(simpler_file(session));
    for (i, line) in session.lines.iter().enumerate() {
        if line.len() > 8 {
            let mut s = session.clone();
            s.lines[i].truncate(line.len() / 2);
            push(&mut out, session, s);
        }
    }
    if !session.final_newline {
        let mut s = session.clone();
        s.final_newline = true;
        push(&mut out, session, s);
    }
    if session.args.len() > 4 {
        let mut s = session.clone();
        s.args.pop();
        push(&mut out, session, s);
    }
    // Plain values in a bad argument list, while the same check still fails.
    let bad_args = args::parse(&session.os_args()).is_err();
    if bad_args && session.args.len() == 4 {
        let mut s = session.clone();
        s.args.pop();
        s.files.clear();
        push(&mut out, session, s);
    }
    for i in 0..session.args.len().min(3) {
        if bad_args && session.args[i] != "2" {
            let mut s = session.clone();
            "2".clone_into(&mut s.args[i]);
            push(&mut out, session, s);
        }
    }
    for (i, arg) in session.args.iter().enumerate() {
        let plain = arg.trim_start_matches('0');
        if plain.len() < arg.len() && !plain.is_empty() && plain.bytes().all(|b| b.is_ascii_digit())
        {
            let mut s = session.clone();
            plain.clone_into(&mut s.args[i]);
            push(&mut out, session, s);
        }
    }
    out
}

/// Every variant of `session` without one run of `chunk` stdin lines.
fn drop_lines(session: &Session, chunk: usize, out: &mut Vec<Session>) {
    let n = session.lines.len();
    let mut start = 0;
    while start < n {
        let end = (start + chunk).min(n);
        let mut s = session.clone();
        s.lines.drain(start..end);
        push(out, session, s);
        start = end;
    }
}

/// Adds `s` relabelled, unless it equals the original.
fn push(out: &mut Vec<Session>, original: &Session, mut s: Session) {
    s.relabel();
    if &s != original {
        out.push(s);
    }
}

/// The game a valid session starts from, with the path it was loaded from.
fn start(session: &Session) -> Option<(State, Option<String>)> {
    let os: Vec<OsString> = session.os_args();
    let config = args::parse(&os).ok()?;
    match config.file {
        None => Some((
            State::new(config.height, config.width, config.players),
            None,
        )),
        Some(path) => {
            let path = path.into_string().ok()?;
            let file = session.files.iter().find(|f| f.path == path)?;
            let state =
                gridfile::load_bytes(&file.bytes, config.height, config.width, config.players)
                    .ok()?;
            Some((state, Some(path)))
        }
    }
}

/// `session` with `state` as its loaded file (replacing any other).
fn with_file(session: &Session, state: &State, path: Option<String>) -> Session {
    let path = path.unwrap_or_else(|| FOLDED_PATH.to_owned());
    let mut s = session.clone();
    s.args.truncate(3);
    s.args.push(path.clone());
    s.files.retain(|f| f.path != path);
    s.files.push(InputFile {
        path,
        bytes: gridfile::to_bytes(state),
    });
    s.kind = SessionKind::LoadedGame;
    s
}

/// The first `k` stdin lines played and saved into the loaded file, when
/// they hold a valid move and leave the game open.
fn fold(session: &Session, k: usize) -> Option<Session> {
    let (mut state, path) = start(session)?;
    if state.grid.open_edges() == 0 {
        return None;
    }
    let mut moved = false;
    for line in session.lines.get(..k)? {
        if let Command::Move(edge) = command::parse(line)
            && state.apply(edge).is_ok()
        {
            moved = true;
            if state.grid.open_edges() == 0 {
                return None;
            }
        }
    }
    if !moved {
        return None;
    }
    let mut s = with_file(session, &state, path);
    s.lines.drain(..k);
    Some(s)
}

/// A window of a grid: the cells `top..top + height`, `left..left + width`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Window {
    top: usize,
    left: usize,
    height: usize,
    width: usize,
}

impl Window {
    /// Where `edge` of the old grid lies in the window's grid, if it does.
    fn map(self, edge: Edge) -> Option<Edge> {
        let moved = Edge {
            row: edge.row.checked_sub(self.top)?,
            col: edge.col.checked_sub(self.left)?,
            dir: edge.dir,
        };
        Grid::new(self.height, self.width)
            .contains(moved)
            .then_some(moved)
    }
}

/// The game on a smaller grid: a 2×2 corner, or one row or column fewer at
/// either side, keeping the edges and owners that fit and moving the move
/// lines with the grid.
fn smaller_grid(session: &Session) -> Vec<Session> {
    let mut out = Vec::new();
    let Some((state, path)) = start(session) else {
        return out;
    };
    let (h, w) = (state.grid.height(), state.grid.width());
    let windows = [
        (0, 0, 2, 2),
        (h - 2, w - 2, 2, 2),
        (0, 0, h - 1, w),
        (1, 0, h - 1, w),
        (0, 0, h, w - 1),
        (0, 1, h, w - 1),
    ];
    for (top, left, height, width) in windows {
        if height < 2 || width < 2 || (height, width) == (h, w) {
            continue;
        }
        let window = Window {
            top,
            left,
            height,
            width,
        };
        let mut s = session.clone();
        s.args[0] = height.to_string();
        s.args[1] = width.to_string();
        if path.is_some() {
            s = with_file(&s, &crop(&state, window), path.clone());
        }
        if (top, left) != (0, 0) {
            for line in &mut s.lines {
                if let Command::Move(edge) = command::parse(line)
                    && state.grid.contains(edge)
                    && let Some(moved) = window.map(edge)
                {
                    *line = moved.to_string().into_bytes();
                }
            }
        }
        push(&mut out, session, s);
    }
    out
}

/// `state` cut down to `window`: the edges that still exist, and the
/// owners of cells that are still closed.
fn crop(state: &State, window: Window) -> State {
    let mut grid = Grid::new(window.height, window.width);
    for edge in state.grid.edges() {
        if state.grid.is_closed(edge)
            && let Some(moved) = window.map(edge)
        {
            grid.set_edge(moved, true);
        }
    }
    for cell in state.grid.cells() {
        let (Some(row), Some(col)) = (
            cell.row.checked_sub(window.top),
            cell.col.checked_sub(window.left),
        ) else {
            continue;
        };
        let moved = Cell { row, col };
        if row < window.height && col < window.width && grid.is_cell_closed(moved) {
            grid.set_owner(moved, state.grid.owner(cell));
        }
    }
    if grid.open_edges() == 0 {
        // A full grid would load only under END-2: reopen one edge.
        let corner = Cell { row: 0, col: 0 };
        grid.set_edge(corner.edges()[0], false);
        grid.set_owner(corner, None);
    }
    State {
        grid,
        next: state.next,
        players: state.players,
    }
}

/// The game with two players, or one fewer; a loaded file's next player
/// and owners above the new count become its last player.
fn fewer_players(session: &Session) -> Vec<Session> {
    let mut out = Vec::new();
    let Some((state, path)) = start(session) else {
        return out;
    };
    for p in [2, state.players.saturating_sub(1)] {
        if p < 2 || p >= state.players {
            continue;
        }
        let Some(last) = Player::new(p) else {
            continue;
        };
        let mut s = session.clone();
        s.args[2] = p.to_string();
        if path.is_some() {
            let mut fewer = state.clone();
            fewer.players = p;
            fewer.next = fewer.next.min(last);
            for cell in state.grid.cells() {
                if fewer.grid.owner(cell).is_some_and(|o| o > last) {
                    fewer.grid.set_owner(cell, Some(last));
                }
            }
            s = with_file(&s, &fewer, path.clone());
        }
        push(&mut out, session, s);
    }
    out
}

/// Simpler grid files: a broken file with each line in turn replaced by
/// an empty grid's line (so only the fault that matters stays), and a
/// valid one with a closed edge opened.
fn simpler_file(session: &Session) -> Vec<Session> {
    let mut out = Vec::new();
    let Ok(config) = args::parse(&session.os_args()) else {
        return out;
    };
    let Some(path) = config.file.and_then(|p| p.into_string().ok()) else {
        return out;
    };
    let Some(index) = session.files.iter().position(|f| f.path == path) else {
        return out;
    };
    let bytes = &session.files[index].bytes;
    let (height, width, players) = (config.height, config.width, config.players);
    if let Ok(state) = gridfile::load_bytes(bytes, height, width, players) {
        // A new game instead of a loaded one.
        let mut s = session.clone();
        s.args.truncate(3);
        s.files.remove(index);
        s.kind = SessionKind::NewGame;
        push(&mut out, session, s);
        for edge in state.grid.edges().filter(|&e| state.grid.is_closed(e)) {
            let mut grid = state.grid.clone();
            grid.set_edge(edge, false);
            let (a, b) = grid.cells_beside(edge);
            for cell in [a, b].into_iter().flatten() {
                grid.set_owner(cell, None);
            }
            let opened = State {
                grid,
                next: state.next,
                players: state.players,
            };
            push(
                &mut out,
                session,
                with_file(session, &opened, Some(path.clone())),
            );
        }
    } else {
        let plain = gridfile::to_bytes(&State::new(height, width, players));
        let plain: Vec<&[u8]> = plain.split(|&b| b == b'\n').collect();
        let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(&replacement) = plain.get(i) else {
                continue;
            };
            if *line == replacement {
                continue;
            }
            let mut edited: Vec<&[u8]> = lines.clone();
            edited[i] = replacement;
            let mut s = session.clone();
            s.files[index].bytes = edited.join(&b'\n');
            push(&mut out, session, s);
        }
    }
    out
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn folding_moves_makes_a_loaded_game_that_resumes_the_same() {
        let s = Session::new_game(&["2", "2", "2"], &["0 0 h", "x", "1 0 h", "0 0 v", "2 0 h"]);
        let folded = fold(&s, 3).expect("two valid moves fold");
        assert_eq!(folded.args, ["2", "2", "2", FOLDED_PATH]);
        assert_eq!(folded.lines, [b"0 0 v".to_vec(), b"2 0 h".to_vec()]);
        let state = gridfile::load_bytes(&folded.files[0].bytes, 2, 2, 2).expect("valid");
        assert_eq!(state.grid.open_edges(), 10);
        assert_eq!(state.next.number(), 1, "two moves without a box: back to A");
        assert!(folded.labels.is_empty());
        assert!(
            fold(&s, 0).is_none()
                && fold(&Session::new_game(&["2", "2", "2"], &["x"]), 1).is_none()
        );
    }

    #[test]
    fn candidates_are_all_smaller_and_never_the_original() {
        let s = Session::new_game(
            &["003", "3", "4"],
            &["0 0 h", "0 0 h", "9 9 v", "w save.txt"],
        );
        let all = candidates(&s);
        assert!(all.iter().all(|c| c != &s));
        assert!(all.iter().any(|c| c.lines.is_empty()));
        assert!(all.iter().any(|c| c.args[0] == "3"));
        assert!(all.iter().any(|c| c.args[..3] == ["2", "3", "4"]));
        assert!(all.iter().any(|c| c.args[2] == "2"));
    }

    #[test]
    fn dropping_a_first_row_moves_the_move_lines_with_the_grid() {
        let s = Session::new_game(&["3", "3", "2"], &["2 2 v", "0 0 h", "x", "9 9 h"]);
        let all = smaller_grid(&s);
        let shifted = all
            .iter()
            .find(|c| c.args[..3] == ["2", "3", "2"] && c.lines[0] == b"1 2 v")
            .expect("the grid without its first row");
        assert_eq!(
            shifted.lines[1..],
            [b"0 0 h".to_vec(), b"x".to_vec(), b"9 9 h".to_vec()]
        );
    }

    #[test]
    fn fewer_players_keep_a_loaded_file_valid() {
        let mut state = State::new(2, 2, 5);
        state.next = Player::new(5).expect("player 5");
        let mut s = Session::new_game(&["2", "2", "5"], &["0 0 h"]);
        s = with_file(&s, &state, None);
        let fewer = fewer_players(&s);
        assert_eq!(fewer.len(), 2);
        for f in &fewer {
            let p: usize = f.args[2].parse().expect("a count");
            let loaded = gridfile::load_bytes(&f.files[0].bytes, 2, 2, p).expect("still loads");
            assert_eq!(loaded.next.number(), p);
        }
    }

    #[test]
    fn cropping_keeps_only_what_fits_and_stays_loadable() {
        let mut state = State::new(3, 3, 2);
        for edge in state.grid.edges().collect::<Vec<_>>() {
            let _ = state.apply(edge);
        }
        let small = crop(
            &state,
            Window {
                top: 0,
                left: 0,
                height: 2,
                width: 2,
            },
        );
        let bytes = gridfile::to_bytes(&small);
        let back = gridfile::load_bytes(&bytes, 2, 2, 2).expect("a cropped state loads");
        assert_eq!(back.grid.open_edges(), 1);
    }
}
