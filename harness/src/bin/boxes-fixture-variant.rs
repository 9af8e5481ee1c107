//! Deliberately wrong `boxes` programs for the suite's own tests
//! (`harness/tests/it/variants.rs`) and for `diff`'s (`harness/tests/it/diff.rs`):
//! each variant departs from the rulings in exactly one rule, the way a
//! student's program typically does, and the suite (or `diff`) must catch
//! it.
//!
//! The variant is picked by the basename of `argv[0]` (the harness clears
//! the environment, so a symlink named after the variant is the only
//! channel); `boxes` runs the reference unchanged. Everything is the
//! reference program (`boxes_reference::app::run_with`): arguments,
//! loading, the turn rule (`State::apply`), rendering, move parsing and
//! saving. A variant overrides one of the reference's [`Hooks`], changing
//! its output or its input at that one point.
//!
//! Past 600 lines: a table of deliberately wrong programs, one arm each; splitting the table would scatter it.

use boxes_reference::ExitTable;
use std::borrow::Cow;
use std::ffi::OsString;
use std::io::{self, BufWriter, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::ExitCode;

use boxes_harness::cstdio::{self, Buffering};
use boxes_reference::command::{self, Command};
use boxes_reference::grid::{Completed, Direction, Edge};
use boxes_reference::gridfile;
use boxes_reference::hooks::Hooks;
use boxes_reference::status::Exit;
use boxes_reference::{Player, State, app, args};

/// One departure from the rulings each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variant {
    /// None: the reference itself.
    Reference,
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
    /// TURN-2: spaces around and between move fields accepted.
    LaxMoves,
    /// TURN-3: move numbers wrap like a C `int` read by `sscanf`.
    Wrap,
    /// TURN-3: horizontal edges' rows checked against W instead of H (and
    /// the column inclusive): `3 14 h` is played on a 2x14 grid.
    HorizontalRowsAgainstWidth,
    /// TURN-3: vertical edges' columns checked against H instead of W (and
    /// the row inclusive): `12 8 v` is played on a 12x8 grid.
    VerticalColumnsAgainstHeight,
    /// TURN-3: a horizontal edge's row checked against W instead of H: on a
    /// wide grid `3 14 h` is played on 2x14 (the column bound is right).
    HorizontalRowAgainstWidth,
    /// TURN-3: a vertical edge's column checked against H instead of W: on
    /// a tall grid `0 9 v` is played on 12x8 (the row bound is right).
    VerticalColumnAgainstHeight,
    /// TURN-2: extra spaces around and between a move's fields accepted
    /// (saves untouched).
    ExtraSpaces,
    /// FILE-2: a grid file's next player is not checked against 1..P (0
    /// or above P plays as player 1).
    NextPlayerUnchecked,
    /// FILE-5: the `\r` of CRLF line ends in a grid file is skipped.
    CrlfFileAccepted,
    /// FILE-3: a grid file's owners are not checked against 0..P (one
    /// above P counts as nobody's).
    OwnerUnchecked,
    /// FILE-1: an edge row longer than the grid needs is cut to its length.
    LongEdgeRowAccepted,
    /// Three missing checks at once: `Wrap`, `ExtraSpaces` and
    /// `HorizontalRowAgainstWidth`.
    ComboMoves,
    /// Three missing checks at once: `NextPlayerUnchecked`,
    /// `CrlfFileAccepted` and `OwnerUnchecked`.
    ComboFile,
    /// TURN-5: one extra turn per completed cell instead of per move.
    ExtraTurnPerCell,
    /// TURN-5: completing a cell never gives an extra turn.
    NoExtraTurn,
    /// SAVE-2: the saved next player is zero-based.
    ZeroBasedSave,
    /// SAVE-2: the save names the following player as next.
    SaveNext,
    /// FILE-1: the grid file is read with H and W swapped.
    LoadSwappedDimensions,
    /// FILE-7: a loaded game starts with player 1.
    LoadFirst,
    /// END-1: only the first of the top scorers is named.
    WinnersWithoutTies,
    /// EOF-1: end of input ends the game with a winners line and exit 0.
    WinnersAtEof,
    /// DISP-3: a debug line (`DEBUG: valid move NN`) before the grid after
    /// every valid move, the one-line bug behind a hundred failures.
    EchoMoves,
    /// DISP-3, TURN-1: every line read is printed back (and its newline)
    /// before the program answers it, as a student's leftover `printf`.
    EchoLines,
    /// None: the reference's rules with C's stdio buffering
    /// ([`boxes_harness::cstdio`]), the prompt printed without a flush. At a
    /// terminal stdin glibc flushes the line-buffered stdout before each
    /// read, so the prompt shows: every case passes.
    CStdio,
    /// TURN-1: as `CStdio`, but stdout fully buffered even on a terminal,
    /// so the prompt never shows before the program waits for input.
    CStdioFullyBuffered,
}

impl Variant {
    /// Each variant's name; `diff`'s tests use the `boxes-` names.
    const ALL: [(&'static str, Self); 39] = [
        ("boxes", Self::Reference),
        ("usage-on-stdout", Self::UsageOnStdout),
        ("dimension-wording", Self::DimensionWording),
        ("dimension-1000", Self::Dimension1000),
        ("players-before-dimensions", Self::PlayersBeforeDimensions),
        ("boxes-players-first", Self::PlayersBeforeDimensions),
        ("trimmed-trailing-spaces", Self::TrimmedTrailingSpaces),
        ("boxes-trim", Self::TrimmedTrailingSpaces),
        ("blank-line-after-grid", Self::BlankLineAfterGrid),
        ("save-reprints-grid", Self::SaveReprintsGrid),
        ("prompt-newline", Self::PromptNewline),
        ("cr-tolerant", Self::CrTolerant),
        ("leading-zero-moves", Self::LeadingZeroMoves),
        ("boxes-lax-moves", Self::LaxMoves),
        ("boxes-wrap", Self::Wrap),
        ("h-rows-against-width", Self::HorizontalRowsAgainstWidth),
        (
            "v-columns-against-height",
            Self::VerticalColumnsAgainstHeight,
        ),
        ("extra-turn-per-cell", Self::ExtraTurnPerCell),
        ("no-extra-turn", Self::NoExtraTurn),
        ("boxes-no-extra-turn", Self::NoExtraTurn),
        ("zero-based-save", Self::ZeroBasedSave),
        ("boxes-save-next", Self::SaveNext),
        ("load-swapped-dimensions", Self::LoadSwappedDimensions),
        ("boxes-load-first", Self::LoadFirst),
        ("winners-without-ties", Self::WinnersWithoutTies),
        ("winners-at-eof", Self::WinnersAtEof),
        ("echo-moves", Self::EchoMoves),
        ("echo-lines", Self::EchoLines),
        ("c-stdio", Self::CStdio),
        ("c-stdio-fully-buffered", Self::CStdioFullyBuffered),
        ("h-row-against-width", Self::HorizontalRowAgainstWidth),
        ("v-col-against-height", Self::VerticalColumnAgainstHeight),
        ("extra-spaces", Self::ExtraSpaces),
        ("file-next-player-unchecked", Self::NextPlayerUnchecked),
        ("file-crlf-accepted", Self::CrlfFileAccepted),
        ("file-owner-unchecked", Self::OwnerUnchecked),
        ("file-long-edge-row-accepted", Self::LongEdgeRowAccepted),
        ("combo-wrap-spaces-h-row", Self::ComboMoves),
        ("combo-file-three", Self::ComboFile),
    ];

    /// The single departures a variant makes: itself, or a combination's
    /// three.
    fn parts(self) -> &'static [Self] {
        match self {
            Self::ComboMoves => &[
                Self::Wrap,
                Self::ExtraSpaces,
                Self::HorizontalRowAgainstWidth,
            ],
            Self::ComboFile => &[
                Self::NextPlayerUnchecked,
                Self::CrlfFileAccepted,
                Self::OwnerUnchecked,
            ],
            Self::Wrap => &[Self::Wrap],
            Self::ExtraSpaces => &[Self::ExtraSpaces],
            Self::HorizontalRowAgainstWidth => &[Self::HorizontalRowAgainstWidth],
            Self::VerticalColumnAgainstHeight => &[Self::VerticalColumnAgainstHeight],
            Self::NextPlayerUnchecked => &[Self::NextPlayerUnchecked],
            Self::CrlfFileAccepted => &[Self::CrlfFileAccepted],
            Self::OwnerUnchecked => &[Self::OwnerUnchecked],
            Self::LongEdgeRowAccepted => &[Self::LongEdgeRowAccepted],
            _ => &[],
        }
    }

    fn from_name(name: &[u8]) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(n, _)| n.as_bytes() == name)
            .map(|&(_, v)| v)
    }
}

/// A variant's hooks, with the little state one of them needs.
struct Departure {
    variant: Variant,
    /// Extra turns still owed to the mover (`ExtraTurnPerCell`).
    owed: usize,
    /// Grids printed so far and the digits of the last line read
    /// (`EchoMoves`: every grid after the first follows a valid move).
    grids: usize,
    digits: Vec<u8>,
    /// The line read and not yet echoed (`EchoLines`).
    echo: Option<Vec<u8>>,
}

impl Departure {
    /// Whether the variant makes the single departure `v` (alone or in a
    /// combination).
    fn has(&self, v: Variant) -> bool {
        self.variant.parts().contains(&v)
    }

    /// A grid file's bytes with the checks this variant misses made moot.
    fn lenient_file(
        &self,
        mut bytes: Vec<u8>,
        (height, width): (usize, usize),
        players: usize,
    ) -> Vec<u8> {
        if self.has(Variant::LongEdgeRowAccepted) {
            bytes = bytes
                .split_inclusive(|&b| b == b'\n')
                .enumerate()
                .map(|(i, line)| {
                    let body = line.strip_suffix(b"\n").unwrap_or(line);
                    // Edge rows alternate W and W+1 bytes; more `0`s
                    // and `1`s are cut (a foreign byte is another check's).
                    let len = if i % 2 == 1 { width } else { width + 1 };
                    let edge_row = (1..=2 * height + 1).contains(&i);
                    let extra = body.get(len..).unwrap_or_default();
                    if edge_row
                        && !extra.is_empty()
                        && extra.iter().all(|b| matches!(b, b'0' | b'1'))
                    {
                        [&body[..len], b"\n"].concat()
                    } else {
                        line.to_vec()
                    }
                })
                .collect::<Vec<_>>()
                .concat();
        }
        if self.has(Variant::CrlfFileAccepted) {
            bytes.retain(|&b| b != b'\r');
        }
        if self.has(Variant::OwnerUnchecked) {
            let lines: Vec<Vec<u8>> = bytes
                .split_inclusive(|&b| b == b'\n')
                .enumerate()
                .map(|(i, line)| {
                    if i < 2 * height + 2 {
                        return line.to_vec();
                    }
                    let (body, nl) = line
                        .strip_suffix(b"\n")
                        .map_or((line, &b""[..]), |b| (b, &b"\n"[..]));
                    let fields: Vec<Vec<u8>> = body
                        .split(|&b| b == b',')
                        .map(|f| {
                            let owner = std::str::from_utf8(f)
                                .ok()
                                .and_then(|t| t.parse::<usize>().ok());
                            if owner.is_some_and(|o| o > players) {
                                b"0".to_vec()
                            } else {
                                f.to_vec()
                            }
                        })
                        .collect();
                    [fields.join(&b','), nl.to_vec()].concat()
                })
                .collect();
            bytes = lines.concat();
        }
        if self.has(Variant::NextPlayerUnchecked) {
            let end = bytes
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(bytes.len());
            let next = std::str::from_utf8(&bytes[..end])
                .ok()
                .and_then(|t| t.parse::<usize>().ok());
            if next.is_some_and(|n| n == 0 || n > players) {
                bytes.splice(..end, *b"1");
            }
        }
        bytes
    }

    /// Prints the line just read, once (`EchoLines`).
    fn echo<O: Write>(&mut self, out: &mut O) -> io::Result<()> {
        match self.echo.take() {
            Some(line) => {
                out.write_all(&line)?;
                out.write_all(b"\n")
            }
            None => Ok(()),
        }
    }
}

impl Hooks for Departure {
    fn start(&mut self, operands: &[OsString]) -> Option<Result<State, Exit>> {
        let lenient = [
            Variant::LongEdgeRowAccepted,
            Variant::NextPlayerUnchecked,
            Variant::CrlfFileAccepted,
            Variant::OwnerUnchecked,
        ];
        if lenient.iter().any(|&v| self.has(v)) {
            let config = args::parse(operands).ok()?;
            let bytes = std::fs::read(config.file?).ok()?;
            let size = (config.height, config.width);
            let bytes = self.lenient_file(bytes, size, config.players);
            return Some(
                gridfile::load_bytes(&bytes, config.height, config.width, config.players)
                    .map_err(|_| Exit::GridFileContents),
            );
        }
        match self.variant {
            Variant::PlayersBeforeDimensions if (3..=4).contains(&operands.len()) => {
                // The reference's own player check, run first.
                let players_only = [
                    OsString::from("2"),
                    OsString::from("2"),
                    operands[2].clone(),
                ];
                args::parse(&players_only).err().map(Err)
            }
            Variant::Dimension1000 => {
                // 1000 read as 999 passes the reference's check; the game
                // is then built at the size asked for.
                let as_999 = |a: &OsString| {
                    if args::parse_c_long(a.as_bytes()) == Some(1000) {
                        OsString::from("999")
                    } else {
                        a.clone()
                    }
                };
                let lowered: Vec<OsString> = operands.iter().map(as_999).collect();
                let size = |a: &OsString| {
                    args::parse_c_long(a.as_bytes()).and_then(|n| usize::try_from(n).ok())
                };
                let config = args::parse(&lowered).ok()?;
                let (h, w) = (size(&operands[0])?, size(&operands[1])?);
                Some(match config.file {
                    None => Ok(State::new(h, w, config.players)),
                    Some(path) => app::load(Path::new(&path), h, w, config.players),
                })
            }
            Variant::LoadSwappedDimensions | Variant::LoadFirst => {
                let config = args::parse(operands).ok()?;
                let path = config.file?;
                let (h, w) = if self.variant == Variant::LoadSwappedDimensions {
                    (config.width, config.height)
                } else {
                    (config.height, config.width)
                };
                let mut loaded = app::load(Path::new(&path), h, w, config.players);
                if let (Ok(state), Variant::LoadFirst) = (&mut loaded, self.variant) {
                    state.next = Player::FIRST;
                }
                Some(loaded)
            }
            _ => None,
        }
    }

    fn report<O: Write, E: Write>(&mut self, exit: Exit, message: &str, out: &mut O, err: &mut E) {
        let message = match (self.variant, exit) {
            (Variant::DimensionWording, Exit::Dimensions) => "Invalid grid dimension",
            _ => message,
        };
        let _ = if self.variant == Variant::UsageOnStdout && exit == Exit::Usage {
            writeln!(out, "{message}").and_then(|()| out.flush())
        } else {
            writeln!(err, "{message}")
        };
    }

    fn grid<O: Write>(&mut self, rendered: &[u8], out: &mut O) -> io::Result<()> {
        self.echo(out)?;
        if self.variant == Variant::EchoMoves && self.grids > 0 {
            out.write_all(b"DEBUG: valid move ")?;
            out.write_all(&self.digits)?;
            out.write_all(b"\n")?;
        }
        self.grids += 1;
        match self.variant {
            Variant::TrimmedTrailingSpaces => {
                for line in rendered.split_inclusive(|&b| b == b'\n') {
                    let body = line.strip_suffix(b"\n").unwrap_or(line);
                    let end = body.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
                    out.write_all(&body[..end])?;
                    out.write_all(b"\n")?;
                }
                Ok(())
            }
            Variant::BlankLineAfterGrid => {
                out.write_all(rendered)?;
                out.write_all(b"\n")
            }
            _ => out.write_all(rendered),
        }
    }

    fn prompt<O: Write>(&mut self, player: Player, out: &mut O) -> io::Result<()> {
        self.echo(out)?;
        out.write_all(&[player.symbol(), b'>', b' '])?;
        if self.variant == Variant::PromptNewline {
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    fn line<'a>(&mut self, line: &'a [u8]) -> Cow<'a, [u8]> {
        if self.has(Variant::Wrap) || self.has(Variant::ExtraSpaces) {
            let mut owned = line.to_vec();
            if self.has(Variant::Wrap) {
                owned = owned
                    .split(|&b| b == b' ')
                    .map(wrap_like_int)
                    .collect::<Vec<_>>()
                    .join(&b' ');
            }
            if self.has(Variant::ExtraSpaces) {
                let collapsed = owned
                    .split(|&b| b == b' ')
                    .filter(|w| !w.is_empty())
                    .collect::<Vec<_>>()
                    .join(&b' ');
                if matches!(command::parse(&collapsed), Command::Move(_)) {
                    owned = collapsed;
                }
            }
            return Cow::Owned(owned);
        }
        if self.variant == Variant::EchoLines {
            self.echo = Some(line.to_vec());
        }
        if self.variant == Variant::EchoMoves {
            self.digits = line.iter().copied().filter(u8::is_ascii_digit).collect();
        }
        match self.variant {
            Variant::CrTolerant => Cow::Borrowed(line.strip_suffix(b"\r").unwrap_or(line)),
            Variant::LeadingZeroMoves => match command::move_shape(line) {
                Some(shape) => Cow::Owned(
                    format!(
                        "{} {} {}",
                        String::from_utf8_lossy(trim_zeros(shape.row)),
                        String::from_utf8_lossy(trim_zeros(shape.col)),
                        char::from(shape.dir.letter())
                    )
                    .into_bytes(),
                ),
                None => Cow::Borrowed(line),
            },
            Variant::LaxMoves if !matches!(command::parse(line), Command::Save(_)) => Cow::Owned(
                line.split(|&b| b == b' ')
                    .filter(|w| !w.is_empty())
                    .collect::<Vec<_>>()
                    .join(&b' '),
            ),
            _ => Cow::Borrowed(line),
        }
    }

    fn save_bytes(&mut self, state: &State) -> Vec<u8> {
        match self.variant {
            Variant::ZeroBasedSave => {
                let bytes = gridfile::to_bytes(state);
                let first_end = bytes.iter().position(|&b| b == b'\n').unwrap_or(0);
                let zero_based = state.next.number().saturating_sub(1).to_string();
                [zero_based.as_bytes(), &bytes[first_end..]].concat()
            }
            Variant::SaveNext => {
                let mut saved = state.clone();
                saved.next = saved.next.next(saved.players);
                gridfile::to_bytes(&saved)
            }
            _ => gridfile::to_bytes(state),
        }
    }

    fn after_save<O: Write>(&mut self, rendered: &[u8], out: &mut O) -> io::Result<()> {
        if self.variant == Variant::SaveReprintsGrid {
            self.grid(rendered, out)?;
        }
        Ok(())
    }

    fn outside<O: Write>(
        &mut self,
        state: &mut State,
        edge: Edge,
        rendered: &[u8],
        out: &mut O,
    ) -> io::Result<()> {
        let (h, w) = (state.grid.height(), state.grid.width());
        // The wrong bound check of one edge kind: both numbers against one
        // dimension, inclusive, as the program issue 14 found does (it
        // accepts `3 14 h` on 2x14, `9 12 h` on 8x12, `12 8 v` on 12x8).
        let accepted = match (self.variant, edge.dir) {
            (_, Direction::Horizontal) if self.has(Variant::HorizontalRowAgainstWidth) => {
                edge.row <= w && edge.col < w
            }
            (_, Direction::Vertical) if self.has(Variant::VerticalColumnAgainstHeight) => {
                edge.row < h && edge.col <= h
            }
            (Variant::HorizontalRowsAgainstWidth, Direction::Horizontal) => {
                edge.row <= w && edge.col <= w
            }
            (Variant::VerticalColumnsAgainstHeight, Direction::Vertical) => {
                edge.row <= h && edge.col <= h
            }
            _ => false,
        };
        if accepted {
            // The C program writes outside its arrays: nothing shows, but
            // the move counts and the turn passes.
            self.grid(rendered, out)?;
            state.next = state.next.next(state.players);
        }
        Ok(())
    }

    fn after_move(&mut self, state: &mut State, mover: Player, done: Completed) {
        match self.variant {
            Variant::NoExtraTurn if done.count() > 0 => {
                state.next = mover.next(state.players);
            }
            Variant::ExtraTurnPerCell => {
                if done.count() > 0 {
                    self.owed = done.count();
                } else if self.owed > 1 {
                    self.owed -= 1;
                    state.next = mover;
                } else {
                    self.owed = 0;
                }
            }
            _ => {}
        }
    }

    fn end_of_input_finishes(&mut self) -> bool {
        self.variant == Variant::WinnersAtEof
    }

    fn winners(&mut self, mut winners: Vec<Player>) -> Vec<Player> {
        if self.variant == Variant::WinnersWithoutTies {
            winners.truncate(1);
        }
        winners
    }
}

/// `007` becomes `7`; `0` stays.
fn trim_zeros(digits: &[u8]) -> &[u8] {
    let start = digits
        .iter()
        .position(|&b| b != b'0')
        .unwrap_or(digits.len().saturating_sub(1));
    &digits[start..]
}

/// A field of ten or more digits as a C `int` holds it after wrapping.
fn wrap_like_int(word: &[u8]) -> Vec<u8> {
    if word.len() > 9 && word.iter().all(u8::is_ascii_digit) {
        let value = word.iter().fold(0u32, |acc, d| {
            acc.wrapping_mul(10).wrapping_add(u32::from(d - b'0'))
        });
        value.cast_signed().to_string().into_bytes()
    } else {
        word.to_vec()
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
    let err = io::stderr().lock();
    let mut departure = Departure {
        variant,
        owed: 0,
        grids: 0,
        digits: Vec::new(),
        echo: None,
    };
    let buffering = match variant {
        Variant::CStdio => Some(Buffering::Glibc),
        Variant::CStdioFullyBuffered => Some(Buffering::Full),
        _ => None,
    };
    let exit = match buffering {
        None => {
            let stdin = io::stdin().lock();
            let out = BufWriter::new(io::stdout().lock());
            app::run_with(operands, stdin, out, err, &mut departure)
        }
        Some(buffering) => {
            let Ok((stdin, mut out)) = cstdio::process_streams(buffering) else {
                eprintln!("boxes-fixture-variant: cannot duplicate stdin or stdout");
                return ExitCode::from(2);
            };
            let exit = app::run_with(operands, stdin, &mut out, err, &mut departure);
            out.exit_flush();
            exit
        }
    };
    ExitCode::from(exit.code())
}
