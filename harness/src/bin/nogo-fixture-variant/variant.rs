//! The departures this fixture can make, by name, and the unreduced save
//! one of them writes; below `main`, which picks one, and `round`, which
//! plays it.

use std::ffi::OsString;
use std::path::Path;

use nogo_reference::savefile;

/// One departure from the rulings each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Variant {
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
    pub(crate) const ALL: [(&'static str, Self); 35] = [
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
    pub(crate) fn misses(self, check: Self) -> bool {
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
    pub(crate) const fn lenient_loader(self) -> bool {
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
    pub(crate) fn lenient(self, mut bytes: Vec<u8>) -> Vec<u8> {
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

    pub(crate) fn from_argv0(argv0: Option<&OsString>) -> Self {
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
pub(crate) fn unreduced(bytes: &[u8]) -> Vec<u8> {
    savefile::with_generator_places(bytes, u128::saturating_add).unwrap_or_else(|| bytes.to_vec())
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
