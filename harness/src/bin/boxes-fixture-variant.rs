//! Deliberately wrong `boxes` programs for the suite's own tests
//! (`harness/tests/variants.rs`): each variant departs from the rulings in
//! exactly one rule, the way a student's program typically does, and the
//! suite must fail it.
//!
//! The variant is picked by the basename of `argv[0]` (the harness clears the
//! environment, so a symlink named after the variant is the only channel).
//! Everything else is the reference: arguments, loading, grid, rendering,
//! move parsing and saving come from `boxes_reference`; only the turn loop is
//! repeated here so that each departure can be placed where a student would
//! make it.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufRead, BufWriter, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;
use std::process::ExitCode;

use boxes_reference::command::{self, Command};
use boxes_reference::game::{self, SaveOutcome};
use boxes_reference::gridfile::{self, LoadFailure};
use boxes_reference::input::{self, Line};
use boxes_reference::player::MAX_PLAYERS;
use boxes_reference::render::Rendered;
use boxes_reference::status::{self, Exit};
use boxes_reference::{State, args};

/// One departure from the rulings each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variant {
    /// ARGS-1: the usage line goes to stdout.
    UsageOnStdout,
    /// ARGS-3: "Invalid grid dimension" (singular).
    DimensionWording,
    /// ARGS-3: a height or width of 1000 is accepted.
    Dimension1000,
    /// ARGS-5: the player count is checked before the dimensions.
    PlayersBeforeDimensions,
    /// DISP-1: trailing spaces of grid lines are trimmed.
    TrimmedTrailingSpaces,
    /// DISP-1: a blank line follows every grid.
    BlankLineAfterGrid,
    /// DISP-3: the grid is printed again after a save.
    SaveReprintsGrid,
    /// TURN-1: the prompt ends with a newline.
    PromptNewline,
    /// TURN-2: a `\r` at the end of a move line is ignored (CRLF input).
    CrTolerant,
    /// TURN-2 (ambiguous part): leading zeros in move numbers are accepted.
    LeadingZeroMoves,
    /// TURN-5: one extra turn per completed cell instead of per move.
    ExtraTurnPerCell,
    /// TURN-5: completing a cell never gives an extra turn.
    NoExtraTurn,
    /// SAVE-2: the saved next player is zero-based.
    ZeroBasedSave,
    /// END-1: only the first of the top scorers is named.
    WinnersWithoutTies,
    /// EOF-1: end of input ends the game with a winners line and exit 0.
    WinnersAtEof,
    /// DISP-1: a debug line left in after every valid move (the report
    /// must group its many failures as one cause).
    EchoMoves,
}

impl Variant {
    const ALL: [(&'static str, Self); 16] = [
        ("usage-on-stdout", Self::UsageOnStdout),
        ("dimension-wording", Self::DimensionWording),
        ("dimension-1000", Self::Dimension1000),
        ("players-before-dimensions", Self::PlayersBeforeDimensions),
        ("trimmed-trailing-spaces", Self::TrimmedTrailingSpaces),
        ("blank-line-after-grid", Self::BlankLineAfterGrid),
        ("save-reprints-grid", Self::SaveReprintsGrid),
        ("prompt-newline", Self::PromptNewline),
        ("cr-tolerant", Self::CrTolerant),
        ("leading-zero-moves", Self::LeadingZeroMoves),
        ("extra-turn-per-cell", Self::ExtraTurnPerCell),
        ("no-extra-turn", Self::NoExtraTurn),
        ("zero-based-save", Self::ZeroBasedSave),
        ("winners-without-ties", Self::WinnersWithoutTies),
        ("winners-at-eof", Self::WinnersAtEof),
        ("echo-moves", Self::EchoMoves),
    ];

    fn from_name(name: &[u8]) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(n, _)| n.as_bytes() == name)
            .map(|&(_, v)| v)
    }
}

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let name = argv
        .first()
        .and_then(|p| Path::new(p).file_name())
        .map(|n| n.as_bytes().to_vec())
        .unwrap_or_default();
    let Some(variant) = Variant::from_name(&name) else {
        let known: Vec<&str> = Variant::ALL.iter().map(|(n, _)| *n).collect();
        eprintln!(
            "boxes-fixture-variant: run me through a link named after a variant: {}",
            known.join(", ")
        );
        return ExitCode::from(2);
    };
    let operands = argv.get(1..).unwrap_or_default();
    let stdin = io::stdin().lock();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut err = io::stderr().lock();
    let exit = run(variant, operands, stdin, &mut out, &mut err);
    ExitCode::from(exit.code())
}

/// The whole program, as `boxes_reference::run` but with `v`'s departure.
fn run<R: BufRead, O: Write, E: Write>(
    v: Variant,
    operands: &[OsString],
    mut input: R,
    out: &mut O,
    err: &mut E,
) -> Exit {
    let exit = match start(v, operands) {
        Ok(state) => turns(v, state, &mut input, out, err).unwrap_or(Exit::SystemCall),
        Err(exit) => exit,
    };
    let exit = if out.flush().is_err() {
        Exit::SystemCall
    } else {
        exit
    };
    if let Some(message) = exit.message() {
        let message = match (v, exit) {
            (Variant::DimensionWording, Exit::Dimensions) => "Invalid grid dimension",
            _ => message,
        };
        let _ = if v == Variant::UsageOnStdout && exit == Exit::Usage {
            writeln!(out, "{message}").and_then(|()| out.flush())
        } else {
            writeln!(err, "{message}")
        };
    }
    exit
}

/// Arguments and loading, in ARGS-5 order unless the variant changes it.
fn start(v: Variant, operands: &[OsString]) -> Result<State, Exit> {
    if !(3..=4).contains(&operands.len()) {
        return Err(Exit::Usage);
    }
    let max_dimension = if v == Variant::Dimension1000 {
        args::MAX_DIMENSION + 1
    } else {
        args::MAX_DIMENSION
    };
    let number = |arg: &OsString, min: usize, max: usize| {
        args::parse_c_long(arg.as_bytes())
            .and_then(|n| usize::try_from(n).ok())
            .filter(|n| (min..=max).contains(n))
    };
    let dimensions = || {
        let height = number(&operands[0], args::MIN_DIMENSION, max_dimension);
        let width = number(&operands[1], args::MIN_DIMENSION, max_dimension);
        height.zip(width).ok_or(Exit::Dimensions)
    };
    let players = || number(&operands[2], args::MIN_PLAYERS, MAX_PLAYERS).ok_or(Exit::PlayerCount);
    let ((height, width), players) = if v == Variant::PlayersBeforeDimensions {
        let p = players()?;
        (dimensions()?, p)
    } else {
        let d = dimensions()?;
        (d, players()?)
    };
    match operands.get(3) {
        None => Ok(State::new(height, width, players)),
        Some(path) => {
            gridfile::load_path(Path::new(path), height, width, players).map_err(|e| match e {
                LoadFailure::Open(_) => Exit::GridFileOpen,
                LoadFailure::Contents(_) => Exit::GridFileContents,
            })
        }
    }
}

/// Prints the grid as the variant does.
fn show<O: Write>(v: Variant, state: &State, out: &mut O) -> io::Result<()> {
    let rendered = Rendered::new(&state.grid);
    let bytes = rendered.as_bytes();
    if v == Variant::TrimmedTrailingSpaces {
        for line in bytes.split_inclusive(|&b| b == b'\n') {
            let body = line.strip_suffix(b"\n").unwrap_or(line);
            let end = body.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
            out.write_all(&body[..end])?;
            out.write_all(b"\n")?;
        }
    } else {
        out.write_all(bytes)?;
    }
    if v == Variant::BlankLineAfterGrid {
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// `01 002 h` becomes `1 2 h`; anything else is left alone.
fn strip_move_zeros(line: &[u8]) -> Vec<u8> {
    let fields: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
    let numeric = |f: &[u8]| !f.is_empty() && f.iter().all(u8::is_ascii_digit);
    match fields.as_slice() {
        [row, col, dir] if numeric(row) && numeric(col) => {
            let trim = |f: &[u8]| {
                let start = f.iter().position(|&b| b != b'0').unwrap_or(f.len() - 1);
                f[start..].to_vec()
            };
            [
                trim(row),
                b" ".to_vec(),
                trim(col),
                b" ".to_vec(),
                dir.to_vec(),
            ]
            .concat()
        }
        _ => line.to_vec(),
    }
}

/// Saves with a zero-based next player (the SAVE-2 departure).
fn save_zero_based(state: &State, path: &[u8]) -> SaveOutcome {
    let bytes = gridfile::to_bytes(state);
    let first_end = bytes.iter().position(|&b| b == b'\n').unwrap_or(0);
    let zero_based = state.next.number().saturating_sub(1).to_string();
    let bytes = [zero_based.as_bytes(), &bytes[first_end..]].concat();
    if path.is_empty() {
        return SaveOutcome::Failed;
    }
    let path = OsString::from_vec(path.to_vec());
    match File::create(&path).and_then(|mut f| f.write_all(&bytes)) {
        Ok(()) => SaveOutcome::Saved,
        Err(_) => SaveOutcome::Failed,
    }
}

/// The turn loop of `boxes_reference::game::play`, with the variant's
/// departure. An error is a failed write to stdout.
fn turns<R: BufRead, O: Write, E: Write>(
    v: Variant,
    mut state: State,
    input: &mut R,
    out: &mut O,
    err: &mut E,
) -> io::Result<Exit> {
    show(v, &state, out)?;
    if state.grid.open_edges() == 0 {
        return finish(v, &state, out);
    }
    let mut line = Vec::new();
    // Extra turns still owed to the current player (ExtraTurnPerCell).
    let mut owed = 0usize;
    loop {
        out.write_all(&[state.next.symbol(), b'>', b' '])?;
        if v == Variant::PromptNewline {
            out.write_all(b"\n")?;
        }
        out.flush()?;
        let cut = match input::read_line(input, &mut line) {
            Line::End if v == Variant::WinnersAtEof => return finish(v, &state, out),
            Line::End => return Ok(Exit::EndOfInput),
            Line::Read { cut } => cut,
        };
        let text = match v {
            Variant::LeadingZeroMoves => strip_move_zeros(&line),
            Variant::CrTolerant => line.strip_suffix(b"\r").unwrap_or(&line).to_vec(),
            _ => line.clone(),
        };
        match command::parse(&text) {
            Command::Save(path) => {
                let outcome = if v == Variant::ZeroBasedSave {
                    save_zero_based(&state, path)
                } else {
                    game::save(&state, path)
                };
                let message = match outcome {
                    SaveOutcome::Saved => status::SAVE_COMPLETE,
                    SaveOutcome::Failed => status::SAVE_FAILED,
                };
                let _ = writeln!(err, "{message}");
                if v == Variant::SaveReprintsGrid {
                    show(v, &state, out)?;
                }
            }
            Command::Move(edge) if !cut => {
                let Ok(done) = state.grid.play(edge, state.next) else {
                    continue;
                };
                if v == Variant::EchoMoves {
                    let digits: Vec<u8> = text.iter().copied().filter(u8::is_ascii_digit).collect();
                    writeln!(
                        out,
                        "DEBUG: valid move {}",
                        String::from_utf8_lossy(&digits)
                    )?;
                }
                show(v, &state, out)?;
                if state.grid.open_edges() == 0 {
                    return finish(v, &state, out);
                }
                let cells = done.count();
                let again = match v {
                    Variant::NoExtraTurn => false,
                    Variant::ExtraTurnPerCell if cells > 0 => {
                        owed = cells;
                        true
                    }
                    Variant::ExtraTurnPerCell if owed > 1 => {
                        owed -= 1;
                        true
                    }
                    Variant::ExtraTurnPerCell => {
                        owed = 0;
                        false
                    }
                    _ => cells > 0,
                };
                if !again {
                    state.next = state.next.next(state.players);
                }
            }
            Command::Move(_) | Command::Invalid => {}
        }
    }
}

/// The winners line (END-1), or only the first top scorer.
fn finish<O: Write>(v: Variant, state: &State, out: &mut O) -> io::Result<Exit> {
    let mut winners = state.grid.winners(state.players);
    if v == Variant::WinnersWithoutTies {
        winners.truncate(1);
    }
    out.write_all(&game::winners_line(&winners))?;
    out.flush()?;
    Ok(Exit::Normal)
}
