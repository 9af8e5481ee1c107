//! A variant's departure: the reference's [`Hooks`] overridden at the
//! one point where the variant departs from the rulings.

use std::borrow::Cow;
use std::ffi::OsString;
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use boxes_reference::command::{self, Command};
use boxes_reference::grid::{Completed, Direction, Edge};
use boxes_reference::gridfile;
use boxes_reference::hooks::Hooks;
use boxes_reference::status::Exit;
use boxes_reference::{Player, State, app, args};

use crate::variant::{Variant, trim_zeros, wrap_like_int};

/// A variant's hooks, with the little state one of them needs.
pub(crate) struct Departure {
    pub(crate) variant: Variant,
    /// Extra turns still owed to the mover (`ExtraTurnPerCell`).
    pub(crate) owed: usize,
    /// Grids printed so far and the digits of the last line read
    /// (`EchoMoves`: every grid after the first follows a valid move).
    pub(crate) grids: usize,
    pub(crate) digits: Vec<u8>,
    /// The line read and not yet echoed (`EchoLines`).
    pub(crate) echo: Option<Vec<u8>>,
}

impl Departure {
    /// Whether the variant makes the single departure `v` (alone or in a
    /// combination).
    pub(crate) fn has(&self, v: Variant) -> bool {
        self.variant.parts().contains(&v)
    }

    /// A grid file's bytes with the checks this variant misses made moot.
    pub(crate) fn lenient_file(
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
    pub(crate) fn echo<O: Write>(&mut self, out: &mut O) -> io::Result<()> {
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
