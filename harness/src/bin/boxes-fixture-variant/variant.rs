//! The departures this fixture can make, by name, and the two readings
//! of a number field several of them share; below `main`, which picks
//! one, and `departure`, which makes it.

/// One departure from the rulings each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Variant {
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
    pub(crate) const ALL: [(&'static str, Self); 39] = [
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
    pub(crate) fn parts(self) -> &'static [Self] {
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

    pub(crate) fn from_name(name: &[u8]) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(n, _)| n.as_bytes() == name)
            .map(|&(_, v)| v)
    }
}

/// `007` becomes `7`; `0` stays.
pub(crate) fn trim_zeros(digits: &[u8]) -> &[u8] {
    let start = digits
        .iter()
        .position(|&b| b != b'0')
        .unwrap_or(digits.len().saturating_sub(1));
    &digits[start..]
}

/// A field of ten or more digits as a C `int` holds it after wrapping.
pub(crate) fn wrap_like_int(word: &[u8]) -> Vec<u8> {
    if word.len() > 9 && word.iter().all(u8::is_ascii_digit) {
        let value = word.iter().fold(0u32, |acc, d| {
            acc.wrapping_mul(10).wrapping_add(u32::from(d - b'0'))
        });
        value.cast_signed().to_string().into_bytes()
    } else {
        word.to_vec()
    }
}
