//! Deliberately wrong `nogo` programs for the nogo pack's own tests
//! (`harness/tests/it/nogo_variants.rs`): each variant departs from the
//! rulings in exactly one rule, the way a student's program typically does;
//! the suite must fail it and `diff --spec nogo` must find and shrink it.
//!
//! The variant is picked by the basename of `argv[0]` (the harness clears
//! the environment, so a symlink named after the variant is the only
//! channel); any other name runs the rulings unchanged. Everything else is
//! the reference: arguments, loading, grid, rendering, move reading,
//! placing, capture and saving come from `nogo_reference`; only the turn
//! loop is repeated here so that each departure sits where a student would
//! make it.
//!
//! Past 600 lines: a table of deliberately wrong programs, one arm each,
//! beside the one turn loop they bend; splitting the table would scatter it.

use std::ffi::OsString;
use std::io::{self, BufRead, BufWriter, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::ExitCode;

use boxes_harness::cstdio::{self, Buffering};
use nogo_reference::args::{self, Source};
use nogo_reference::command::Command;
use nogo_reference::input::Line;
use nogo_reference::render::Rendered;
use nogo_reference::savefile::{self, LoadFailure};
use nogo_reference::status::{self, Exit, ExitTable};
use nogo_reference::{Cell, Kind, Player, State, Stone, capture, game, save};

/// One departure from the rulings each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variant {
    /// The rulings unchanged.
    None,
    /// ARGS-5: the dimensions are checked before the player types.
    DimsBeforeTypes,
    /// ARGS-3: a height or width of 1000 is refused (`<` for `<=`).
    Dimension1000Refused,
    /// FILE-7: a loaded game always starts with O.
    LoadIgnoresNext,
    /// TURN-1: the prompt lacks its space.
    PromptNoSpace,
    /// TURN-2 (ambiguous part): leading zeros in a move are refused.
    LeadingZerosRefused,
    /// COMP-3: an occupied candidate is skipped by scanning on, without
    /// advancing the generator.
    SkipWithoutAdvancing,
    /// COMP-4: the computer's line gives column then row.
    ComputerColumnFirst,
    /// CAPTURE-2: the mover's own string is checked first.
    SuicideFirst,
    /// CAPTURE-4 (ambiguous): every string of the grid is checked.
    WholeBoardScan,
    /// END-1: `Player O wins.` with a full stop.
    WinsFullStop,
    /// SAVE-2: the two generator states are saved X first.
    SaveStatesSwapped,
    /// SAVE-3: the grid is printed again after a save.
    SaveReprintsGrid,
    /// EOF-1: the end-of-input message goes to stdout.
    EofOnStdout,
    /// COMP-3, COMP-4: no computer player: a `c` seat is played as a
    /// human, prompted and read.
    NoComputer,
    /// SAVE-4: after a failed save the program crashes (SIGABRT).
    CrashAfterFailedSave,
    /// FILE-7, GRID-1: the loader leaves empty cells unset: the first grid
    /// of a loaded game shows a byte of whatever memory held, which
    /// changes from run to run (here: from the process ID).
    LoaderGarbage,
    /// FILE-2: a save file's height and width are read into a C `int`:
    /// 2^32+5 wraps to 5 and loads.
    FileHugeDimension,
    /// FILE-2: the `\r` of a CRLF save file is skipped.
    FileCrlfAccepted,
    /// FILE-4: a grid line longer than W is cut to W.
    FileLongLineAccepted,
    /// FILE-5: a save file without its final newline loads.
    FileNoFinalNewline,
    /// FILE-1: header fields past the ninth are ignored.
    FileExtraFields,
    /// FILE-2: the next player is not checked (anything but 1 is O).
    FileNextUnchecked,
    /// Three missing checks at once: `FileCrlfAccepted`,
    /// `FileLongLineAccepted` and `FileExtraFields`.
    FileCombo,
    /// TURN-2, EOF-1: `getc`'s result kept in a `char`: a byte 0xFF reads
    /// as end of input.
    ByteFfIsEof,
    /// CAPTURE-2: capture is checked only when the placed stone touches an
    /// opponent's stone, so a suicide with none beside it goes unseen.
    CaptureBesideOnly,
    /// FILE-4, FILE-5: the last grid line is read for W bytes and the rest
    /// left as what follows the grid (a long last line, or its CR, loads).
    FileLastLineCut,
    /// Three crash sites (SIGABRT), as in a real program: an unchecked
    /// `fopen` on a failed save (SAVE-4), a header longer than its 20-byte
    /// buffer (FILE-1), `strtol` on the missing second number of a line
    /// holding one (TURN-2).
    CrashThreeSites,
    /// SAVE-2 (ambiguous part): a saved generator state is moved on past
    /// candidates already taken; the file loads into the same game.
    SaveSkipsTaken,
    /// SAVE-2 (ambiguous part): the generator states are saved unreduced
    /// (H added to each row, W to each column); the file loads into the
    /// same game, so the `save-game` checker passes it.
    SaveUnreduced,
    /// SAVE-1: a save is answered as if it were made, and nothing is
    /// written (one bug: one save cause, not one a file).
    NeverSaves,
    /// SAVE-2: the saved file names the other player as the next to move.
    SaveWrongNext,
    /// FILE-3: a save file whose move number is past H·W/2 is refused
    /// (no game of new play reaches one, but the rulings set no bound).
    FileMoveNumberBounded,
    /// FILE-6: the loader spins for ever on a save file it should refuse
    /// (a loop waiting for a byte that never comes): a genuine infinite
    /// loop in every faulty-file case, to measure what hangs cost.
    LoaderSpin,
    /// None: the rulings with C's stdio buffering
    /// ([`boxes_harness::cstdio`]), the prompt printed without a flush; at a
    /// terminal glibc flushes stdout before each read, so every case passes.
    CStdio,
    /// TURN-1: as `CStdio`, but stdout fully buffered even on a terminal:
    /// the prompt never shows before the program waits for input.
    CStdioFullyBuffered,
}

impl Variant {
    const ALL: [(&'static str, Self); 35] = [
        ("dims-before-types", Self::DimsBeforeTypes),
        ("dimension-1000-refused", Self::Dimension1000Refused),
        ("load-ignores-next", Self::LoadIgnoresNext),
        ("prompt-no-space", Self::PromptNoSpace),
        ("leading-zeros-refused", Self::LeadingZerosRefused),
        ("skip-without-advancing", Self::SkipWithoutAdvancing),
        ("computer-column-first", Self::ComputerColumnFirst),
        ("suicide-first", Self::SuicideFirst),
        ("whole-board-scan", Self::WholeBoardScan),
        ("wins-full-stop", Self::WinsFullStop),
        ("save-states-swapped", Self::SaveStatesSwapped),
        ("save-reprints-grid", Self::SaveReprintsGrid),
        ("eof-on-stdout", Self::EofOnStdout),
        ("no-computer", Self::NoComputer),
        ("crash-after-failed-save", Self::CrashAfterFailedSave),
        ("loader-garbage", Self::LoaderGarbage),
        ("c-stdio", Self::CStdio),
        ("c-stdio-fully-buffered", Self::CStdioFullyBuffered),
        ("file-huge-dimension", Self::FileHugeDimension),
        ("file-crlf-accepted", Self::FileCrlfAccepted),
        ("file-long-line-accepted", Self::FileLongLineAccepted),
        ("file-no-final-newline", Self::FileNoFinalNewline),
        ("file-extra-fields", Self::FileExtraFields),
        ("file-next-unchecked", Self::FileNextUnchecked),
        ("combo-file-three", Self::FileCombo),
        ("loader-spin", Self::LoaderSpin),
        ("byte-ff-is-eof", Self::ByteFfIsEof),
        ("capture-beside-only", Self::CaptureBesideOnly),
        ("file-last-line-cut", Self::FileLastLineCut),
        ("crash-three-sites", Self::CrashThreeSites),
        ("save-skips-taken", Self::SaveSkipsTaken),
        ("save-unreduced", Self::SaveUnreduced),
        ("save-wrong-next", Self::SaveWrongNext),
        ("never-saves", Self::NeverSaves),
        ("file-move-number-bounded", Self::FileMoveNumberBounded),
    ];

    /// The save-file checks a variant misses: itself, or a combination's
    /// three.
    fn misses(self, check: Self) -> bool {
        match self {
            Self::FileCombo => [
                Self::FileCrlfAccepted,
                Self::FileLongLineAccepted,
                Self::FileExtraFields,
            ]
            .contains(&check),
            _ => self == check,
        }
    }

    /// Whether the variant's loader misses save-file checks.
    const fn lenient_loader(self) -> bool {
        matches!(
            self,
            Self::FileHugeDimension
                | Self::FileCrlfAccepted
                | Self::FileLongLineAccepted
                | Self::FileNoFinalNewline
                | Self::FileExtraFields
                | Self::FileNextUnchecked
                | Self::FileCombo
                | Self::FileLastLineCut
        )
    }

    /// A save file's bytes with the checks this variant misses made moot.
    fn lenient(self, mut bytes: Vec<u8>) -> Vec<u8> {
        if self.misses(Self::FileCrlfAccepted) {
            bytes.retain(|&b| b != b'\r');
        }
        if self.misses(Self::FileNoFinalNewline) && !bytes.ends_with(b"\n") {
            bytes.push(b'\n');
        }
        let header_end = bytes
            .iter()
            .position(|&b| b == b'\n')
            .unwrap_or(bytes.len());
        let (header, rest) = bytes.split_at(header_end);
        let mut fields: Vec<Vec<u8>> = header.split(|&b| b == b' ').map(<[u8]>::to_vec).collect();
        if self.misses(Self::FileExtraFields) {
            fields.truncate(9);
        }
        let number = |f: &[u8]| {
            std::str::from_utf8(f)
                .ok()
                .and_then(|t| t.parse::<u64>().ok())
        };
        if self.misses(Self::FileHugeDimension) {
            for f in fields.iter_mut().take(2) {
                if let Some(n) = number(f).filter(|&n| n > u64::from(u32::MAX)) {
                    *f = (n % (1 << 32)).to_string().into_bytes();
                }
            }
        }
        if self.misses(Self::FileNextUnchecked)
            && let Some(f) = fields.get_mut(2)
            && number(f).is_some_and(|n| n > 1)
        {
            *f = b"0".to_vec();
        }
        let width = fields.get(1).and_then(|f| number(f));
        let mut rest = rest.to_vec();
        if self.misses(Self::FileLongLineAccepted)
            && let Some(w) = width.and_then(|w| usize::try_from(w).ok())
        {
            rest = rest
                .split_inclusive(|&b| b == b'\n')
                .map(|line| {
                    let body = line.strip_suffix(b"\n").unwrap_or(line);
                    // Cut past W, but a `\r` is another check's.
                    if body.len() > w && !body[w..].contains(&b'\r') {
                        [&body[..w], b"\n"].concat()
                    } else {
                        line.to_vec()
                    }
                })
                .collect::<Vec<_>>()
                .concat();
        }
        if self.misses(Self::FileLastLineCut)
            && let (Some(h), Some(w)) = (
                fields.first().and_then(|f| number(f)),
                width.and_then(|w| usize::try_from(w).ok()),
            )
        {
            rest = cut_last_line(&rest, h, w);
        }
        [fields.join(&b' '), rest].concat()
    }

    fn from_argv0(argv0: Option<&OsString>) -> Self {
        let name = argv0
            .and_then(|a| Path::new(a).file_name())
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        Self::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(Self::None, |(_, v)| *v)
    }
}

/// A saved file with H added to each generator row and W to each column
/// of its header: the same game, written unreduced.
fn unreduced(bytes: &[u8]) -> Vec<u8> {
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(bytes.len());
    let header = String::from_utf8_lossy(&bytes[..end]);
    let mut fields: Vec<u64> = header.split(' ').filter_map(|f| f.parse().ok()).collect();
    if fields.len() != 9 {
        return bytes.to_vec();
    }
    let (h, w) = (fields[0], fields[1]);
    for i in [3, 6] {
        fields[i] += h;
    }
    for i in [4, 7] {
        fields[i] += w;
    }
    let mut out = fields
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
        .into_bytes();
    out.extend_from_slice(&bytes[end..]);
    out
}

/// `rest` (the header's `\n` and the grid) with grid line `height` cut to
/// `width` bytes and a `\n`: what such a loader takes from it.
fn cut_last_line(rest: &[u8], height: u64, width: usize) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = rest
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    // Line 0 is the header's own `\n`.
    if let Some(last) = usize::try_from(height).ok().and_then(|h| lines.get_mut(h))
        && last.len() > width
    {
        last.truncate(width);
        last.push(b'\n');
    }
    lines.concat()
}

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let variant = Variant::from_argv0(argv.first());
    let operands = argv.get(1..).unwrap_or_default();
    let buffering = match variant {
        Variant::CStdio => Some(Buffering::Glibc),
        Variant::CStdioFullyBuffered => Some(Buffering::Full),
        _ => None,
    };
    let exit = match buffering {
        None => {
            let mut input = io::stdin().lock();
            let mut out = BufWriter::new(io::stdout().lock());
            let exit = program(variant, operands, &mut input, &mut out);
            let _ = out.flush();
            exit
        }
        Some(buffering) => {
            let Ok((mut input, mut out)) = cstdio::process_streams(buffering) else {
                eprintln!("nogo-fixture-variant: cannot duplicate stdin or stdout");
                return ExitCode::from(2);
            };
            let exit = program(variant, operands, &mut input, &mut out);
            out.exit_flush();
            exit
        }
    };
    ExitCode::from(exit.code())
}

/// The whole program on these streams, its final message printed.
fn program<R: BufRead, O: Write>(
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

fn start(variant: Variant, operands: &[OsString]) -> Result<(State, [Kind; 2]), Exit> {
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
fn spin() -> ! {
    let mut n: u64 = 0;
    loop {
        n = std::hint::black_box(n.wrapping_add(1));
    }
}

fn play<R: BufRead, O: Write, E: Write>(
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

fn computer_move(variant: Variant, state: &mut State, mover: Player) -> Cell {
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

fn winner(variant: Variant, state: &mut State, cell: Cell, mover: Player) -> Option<Player> {
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
