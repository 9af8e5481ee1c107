//! One game under a variant: its start (arguments, loading), the turns
//! (a human's read, the computer's chosen), the winner, and the final
//! message, each with the variant's departure at its point.

use std::ffi::OsString;
use std::io::{self, BufRead, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use nogo_reference::args::{self, Source};
use nogo_reference::command::Command;
use nogo_reference::input::Line;
use nogo_reference::render::Rendered;
use nogo_reference::savefile::{self, LoadFailure};
use nogo_reference::status::{self, Exit, ExitTable};
use nogo_reference::{Cell, Kind, Player, State, Stone, capture, game, save};

use crate::variant::{Variant, unreduced};

/// The whole program on these streams, its final message printed.
pub(crate) fn program<R: BufRead, O: Write>(
    variant: Variant,
    operands: &[OsString],
    input: &mut R,
    out: &mut O,
) -> Exit {
    let mut err = io::stderr().lock();
    let exit = match start(variant, operands) {
        Ok((state, kinds)) => {
            // A saved game is loaded from the one operand after the types.
            let loaded = operands.len() == 3;
            play(variant, state, kinds, loaded, input, out, &mut err)
        }
        Err(exit) => exit,
    };
    if let Some(message) = exit.message() {
        if variant == Variant::EofOnStdout && exit == Exit::EndOfInput {
            let _ = writeln!(out, "{message}");
        } else {
            let _ = writeln!(err, "{message}");
        }
    }
    exit
}

pub(crate) fn start(variant: Variant, operands: &[OsString]) -> Result<(State, [Kind; 2]), Exit> {
    if variant == Variant::DimsBeforeTypes && operands.len() == 4 {
        let bad = |a: &OsString| {
            args::parse_strtol(a.as_bytes()).is_none_or(|n| !(4..=1000).contains(&n))
        };
        if bad(&operands[2]) || bad(&operands[3]) {
            return Err(Exit::Dimension);
        }
    }
    let config = args::parse(operands)?;
    let state = match &config.source {
        Source::New { height, width } => {
            if variant == Variant::Dimension1000Refused && (*height == 1000 || *width == 1000) {
                return Err(Exit::Dimension);
            }
            State::new(*height, *width)
        }
        Source::File(path)
            if variant == Variant::CrashThreeSites
                && std::fs::read(path).is_ok_and(|bytes| {
                    bytes
                        .iter()
                        .position(|&b| b == b'\n')
                        .unwrap_or(bytes.len())
                        > 20
                }) =>
        {
            std::process::abort()
        }
        Source::File(path) if variant.lenient_loader() => {
            let bytes = std::fs::read(path).map_err(|_| Exit::FileOpen)?;
            savefile::load_bytes(&variant.lenient(bytes)).map_err(|_| Exit::FileContents)?
        }
        Source::File(path) => {
            let mut state = savefile::load_path(Path::new(path)).map_err(|e| match e {
                LoadFailure::Open(_) => Exit::FileOpen,
                LoadFailure::Contents(_) if variant == Variant::LoaderSpin => spin(),
                LoadFailure::Contents(_) => Exit::FileContents,
            })?;
            if variant == Variant::LoadIgnoresNext {
                state.next = Player::O;
            }
            let half = u64::try_from(state.grid.height() * state.grid.width() / 2).unwrap_or(0);
            if variant == Variant::FileMoveNumberBounded
                && state.generators.iter().any(|g| g.state().number > half)
            {
                return Err(Exit::FileContents);
            }
            state
        }
    };
    Ok((state, config.kinds))
}

/// Never returns, using the CPU all the while.
pub(crate) fn spin() -> ! {
    let mut n: u64 = 0;
    loop {
        n = std::hint::black_box(n.wrapping_add(1));
    }
}

pub(crate) fn play<R: BufRead, O: Write, E: Write>(
    variant: Variant,
    mut state: State,
    kinds: [Kind; 2],
    loaded: bool,
    input: &mut R,
    out: &mut O,
    err: &mut E,
) -> Exit {
    let mut shown = Rendered::new(&state.grid);
    if variant == Variant::LoaderGarbage && loaded {
        // Unset cells hold garbage: one byte, another in every run.
        let garbage = b'0' + u8::try_from(std::process::id() % 10).unwrap_or(0);
        let first = shown
            .as_bytes()
            .iter()
            .map(|&b| if b == b'.' { garbage } else { b });
        let _ = out.write_all(&first.collect::<Vec<u8>>());
    } else {
        let _ = out.write_all(shown.as_bytes());
    }
    let mut line = Line::new();
    loop {
        let mover = state.next;
        let cell = match kinds[mover.index()] {
            Kind::Computer if variant != Variant::NoComputer => {
                let cell = computer_move(variant, &mut state, mover);
                let (a, b) = if variant == Variant::ComputerColumnFirst {
                    (cell.col, cell.row)
                } else {
                    (cell.row, cell.col)
                };
                let _ = writeln!(out, "Player {}: {a} {b}", char::from(mover.symbol()));
                cell
            }
            Kind::Computer | Kind::Human => {
                let turn = Turn {
                    variant,
                    state: &state,
                    shown: &shown,
                    mover,
                };
                match turn.read_move(&mut line, input, out, err) {
                    Some(cell) => cell,
                    None => return Exit::EndOfInput,
                }
            }
        };
        state.grid.set(cell, Stone::Taken(mover));
        shown.set(cell, mover.symbol());
        let _ = out.write_all(shown.as_bytes());
        if let Some(winner) = winner(variant, &mut state, cell, mover) {
            let stop = if variant == Variant::WinsFullStop {
                "."
            } else {
                ""
            };
            let _ = writeln!(out, "Player {} wins{stop}", char::from(winner.symbol()));
            return Exit::Normal;
        }
        state.next = mover.other();
    }
}

pub(crate) fn computer_move(variant: Variant, state: &mut State, mover: Player) -> Cell {
    if variant != Variant::SkipWithoutAdvancing {
        return game::computer_move(state, mover);
    }
    let first = state.generator(mover).take();
    let (h, w) = (state.grid.height(), state.grid.width());
    let start = first.row * w + first.col;
    (0..h * w)
        .map(|k| (start + k) % (h * w))
        .map(|i| Cell::new(i / w, i % w))
        .find(|&c| state.grid.is_free(c))
        .unwrap_or(first)
}

pub(crate) fn winner(
    variant: Variant,
    state: &mut State,
    cell: Cell,
    mover: Player,
) -> Option<Player> {
    match variant {
        Variant::SuicideFirst if !state.grid.has_liberty(cell) => Some(mover.other()),
        Variant::CaptureBesideOnly
            if !state
                .grid
                .neighbours(cell)
                .any(|n| state.grid.get(n) == Some(Stone::Taken(mover.other()))) =>
        {
            None
        }
        Variant::WholeBoardScan => {
            capture::winner_after(&mut state.grid, cell, mover).or_else(|| {
                let (h, w) = (state.grid.height(), state.grid.width());
                let cells: Vec<Cell> = (0..h)
                    .flat_map(|r| (0..w).map(move |c| Cell::new(r, c)))
                    .collect();
                cells.into_iter().find_map(|c| match state.grid.get(c) {
                    Some(Stone::Taken(p)) if !state.grid.has_liberty(c) => Some(p.other()),
                    _ => None,
                })
            })
        }
        _ => capture::winner_after(&mut state.grid, cell, mover),
    }
}

/// A human's turn.
struct Turn<'a> {
    variant: Variant,
    state: &'a State,
    shown: &'a Rendered,
    mover: Player,
}

impl Turn<'_> {
    fn read_move<R: BufRead, O: Write, E: Write>(
        &self,
        line: &mut Line,
        input: &mut R,
        out: &mut O,
        err: &mut E,
    ) -> Option<Cell> {
        let space = if self.variant == Variant::PromptNoSpace {
            ""
        } else {
            " "
        };
        loop {
            let _ = write!(out, "Player {}>{space}", char::from(self.mover.symbol()));
            let _ = out.flush();
            if !line.read(input) {
                return None;
            }
            if self.variant == Variant::ByteFfIsEof && line.kept().contains(&0xFF) {
                return None;
            }
            match line.command() {
                Command::Save(path) => {
                    if self.save(path).is_err() {
                        let _ = writeln!(err, "{}", status::SAVE_FAILED);
                        if matches!(
                            self.variant,
                            Variant::CrashAfterFailedSave | Variant::CrashThreeSites
                        ) {
                            let _ = out.flush();
                            std::process::abort();
                        }
                    }
                    if self.variant == Variant::SaveReprintsGrid {
                        let _ = out.write_all(self.shown.as_bytes());
                    }
                }
                Command::Move(_)
                    if self.variant == Variant::LeadingZerosRefused
                        && line
                            .kept()
                            .split(|&b| b == b' ')
                            .any(|n| n.len() > 1 && n.starts_with(b"0")) => {}
                Command::Invalid
                    if self.variant == Variant::CrashThreeSites
                        && !line.kept().is_empty()
                        && line.kept().iter().all(u8::is_ascii_digit) =>
                {
                    let _ = out.flush();
                    std::process::abort();
                }
                Command::Move(cell) if self.state.grid.is_free(cell) => return Some(cell),
                Command::Move(_) | Command::Invalid => {}
            }
        }
    }

    fn save(&self, path: Option<&[u8]>) -> Result<(), save::SaveError> {
        let mut saved = self.state.clone();
        match self.variant {
            Variant::SaveStatesSwapped => saved.generators.swap(0, 1),
            Variant::SaveSkipsTaken => {
                let cells = saved.grid.height() * saved.grid.width();
                for g in &mut saved.generators {
                    for _ in 0..cells {
                        let next = g.state();
                        if self.state.grid.is_free(Cell::new(next.row, next.col)) {
                            break;
                        }
                        g.take();
                    }
                }
            }
            Variant::SaveWrongNext => saved.next = saved.next.other(),
            Variant::SaveUnreduced => {}
            Variant::NeverSaves => return Ok(()),
            _ => return save::save(self.state, path),
        }
        let mut bytes = savefile::to_bytes(&saved);
        if self.variant == Variant::SaveUnreduced {
            bytes = unreduced(&bytes);
        }
        let path = path
            .filter(|p| !p.is_empty())
            .ok_or(save::SaveError::EmptyPath)?;
        std::fs::write(std::ffi::OsStr::from_bytes(path), bytes).map_err(save::SaveError::Open)
    }
}
