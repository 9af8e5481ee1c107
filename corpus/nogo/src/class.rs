//! The classes of the corpus: every way the FILE rulings say a save file
//! can be wrong, and the valid files a strict but wrong loader rejects.
//! Each class names the rules its files rest on, whether a ruling marked
//! (ambiguous) decides them, and which loader errors prove a faulty file
//! broke exactly that class's rule.
//!
//! One piece: the closed set of classes as one table (`Class::info`, an
//! exhaustive `match`): each class's rules, ambiguity and the loader
//! errors that prove it, so a new class cannot be left without one.

use nogo_reference::savefile::LoadErrorKind;

/// One class of save files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// No bytes at all.
    EmptyFile,
    /// The header line cut short (no newline yet).
    HeaderTruncated,
    /// Eight header fields or fewer.
    HeaderTooFewFields,
    /// Ten header fields or more.
    HeaderTooManyFields,
    /// A space before the first field.
    HeaderLeadingSpace,
    /// Two spaces between two fields.
    HeaderDoubledSpace,
    /// A space after the last field.
    HeaderTrailingSpace,
    /// A `+` or `-` before a field.
    HeaderSigned,
    /// A tab or a CR in the header: white space that `scanf("%d")` skips.
    HeaderWhitespaceByte,
    /// A byte other than a digit or white space in the header.
    HeaderForeignByte,
    /// H or W outside 4..=1000.
    DimensionOutOfRange,
    /// `next` neither 0 nor 1.
    NextPlayerOutOfRange,
    /// A generator row >= H.
    GeneratorRowOutOfRange,
    /// A generator column >= W.
    GeneratorColumnOutOfRange,
    /// A move number above 18446744073709551615 (FILE-3: the reference
    /// takes any 64-bit one; anything above 2147483647 is ambiguous).
    MoveNumberOutOfRange,
    /// A grid byte other than `.`, `O`, `X`.
    GridForeignByte,
    /// A grid line shorter than W.
    GridLineShort,
    /// A grid line longer than W.
    GridLineLong,
    /// The file ends before the last grid line's newline.
    GridTruncated,
    /// CR LF line ends.
    CrlfLineEnds,
    /// No empty cell.
    GridFull,
    /// A header for another size than the grid below it.
    HeaderOtherSize,
    /// A position reached by play, as the reference saves it.
    ValidMidGame,
    /// A new game as the reference saves it.
    ValidNewGame,
    /// X to play.
    ValidXToPlay,
    /// Leading zeros in header fields other than `next`.
    ValidLeadingZeros,
    /// `next` written `00` or `01` (Decision 1).
    ValidNextLeadingZero,
    /// Generator states at the edges of their ranges.
    ValidGeneratorBounds,
    /// Bytes after the last grid line.
    ValidTrailingBytes,
    /// One empty cell left.
    ValidOneEmptyCell,
    /// A string without liberty in the grid.
    ValidDeadString,
}

struct Info {
    name: &'static str,
    description: &'static str,
    rules: &'static [&'static str],
    ambiguous: bool,
    control: bool,
}

/// A name or a description: text of the table.
type Text = &'static str;
/// The rule IDs a class breaks.
type Rules = &'static [&'static str];

const fn faulty(name: Text, description: Text, rules: Rules, ambiguous: bool) -> Info {
    Info {
        name,
        description,
        rules,
        ambiguous,
        control: false,
    }
}

/// A valid file: [`faulty`]'s fields, but the reference accepts it.
const fn control(name: Text, description: Text, rules: Rules, ambiguous: bool) -> Info {
    Info {
        control: true,
        ..faulty(name, description, rules, ambiguous)
    }
}

impl Class {
    /// Every class, faulty ones first.
    pub const ALL: [Self; 31] = [
        Self::EmptyFile,
        Self::HeaderTruncated,
        Self::HeaderTooFewFields,
        Self::HeaderTooManyFields,
        Self::HeaderLeadingSpace,
        Self::HeaderDoubledSpace,
        Self::HeaderTrailingSpace,
        Self::HeaderSigned,
        Self::HeaderWhitespaceByte,
        Self::HeaderForeignByte,
        Self::DimensionOutOfRange,
        Self::NextPlayerOutOfRange,
        Self::GeneratorRowOutOfRange,
        Self::GeneratorColumnOutOfRange,
        Self::MoveNumberOutOfRange,
        Self::GridForeignByte,
        Self::GridLineShort,
        Self::GridLineLong,
        Self::GridTruncated,
        Self::CrlfLineEnds,
        Self::GridFull,
        Self::HeaderOtherSize,
        Self::ValidMidGame,
        Self::ValidNewGame,
        Self::ValidXToPlay,
        Self::ValidLeadingZeros,
        Self::ValidNextLeadingZero,
        Self::ValidGeneratorBounds,
        Self::ValidTrailingBytes,
        Self::ValidOneEmptyCell,
        Self::ValidDeadString,
    ];

    #[expect(clippy::too_many_lines, reason = "one table row per class")]
    const fn info(self) -> Info {
        match self {
            Self::EmptyFile => faulty("empty-file", "no bytes at all", &["FILE-5"], false),
            Self::HeaderTruncated => faulty(
                "header-truncated",
                "the file ends inside the header line",
                &["FILE-5"],
                false,
            ),
            Self::HeaderTooFewFields => faulty(
                "header-too-few-fields",
                "a header of fewer than nine fields",
                &["FILE-1"],
                false,
            ),
            Self::HeaderTooManyFields => faulty(
                "header-too-many-fields",
                "a header of more than nine fields",
                &["FILE-1"],
                false,
            ),
            Self::HeaderLeadingSpace => faulty(
                "header-leading-space",
                "a space before the header's first field",
                &["FILE-1", "FILE-2"],
                true,
            ),
            Self::HeaderDoubledSpace => faulty(
                "header-doubled-space",
                "two spaces between two header fields",
                &["FILE-1", "FILE-2"],
                true,
            ),
            Self::HeaderTrailingSpace => faulty(
                "header-trailing-space",
                "a space after the header's last field",
                &["FILE-1", "FILE-2"],
                true,
            ),
            Self::HeaderSigned => faulty(
                "header-signed",
                "a + or - sign before a header field",
                &["FILE-2"],
                true,
            ),
            Self::HeaderWhitespaceByte => faulty(
                "header-whitespace-byte",
                "a tab between two header fields, or a CR before the header's newline",
                &["FILE-2"],
                true,
            ),
            Self::HeaderForeignByte => faulty(
                "header-foreign-byte",
                "a NUL, a letter, a dot or a byte above 127 in the header",
                &["FILE-2"],
                false,
            ),
            Self::DimensionOutOfRange => faulty(
                "dimension-out-of-range",
                "a height or width outside 4..=1000",
                &["FILE-2"],
                false,
            ),
            Self::NextPlayerOutOfRange => faulty(
                "next-player-out-of-range",
                "a next player other than 0 or 1",
                &["FILE-2"],
                false,
            ),
            Self::GeneratorRowOutOfRange => faulty(
                "generator-row-out-of-range",
                "a generator row not below the height",
                &["FILE-3"],
                true,
            ),
            Self::GeneratorColumnOutOfRange => faulty(
                "generator-column-out-of-range",
                "a generator column not below the width",
                &["FILE-3"],
                true,
            ),
            Self::MoveNumberOutOfRange => faulty(
                "move-number-out-of-range",
                "a move number above 18446744073709551615",
                &["FILE-3"],
                true,
            ),
            Self::GridForeignByte => faulty(
                "grid-foreign-byte",
                "a grid byte other than '.', 'O', 'X'",
                &["FILE-4"],
                false,
            ),
            Self::GridLineShort => faulty(
                "grid-line-short",
                "a grid line shorter than W",
                &["FILE-4"],
                false,
            ),
            Self::GridLineLong => faulty(
                "grid-line-long",
                "a grid line longer than W",
                &["FILE-4"],
                false,
            ),
            Self::GridTruncated => faulty(
                "grid-truncated",
                "the file ends before the last grid line's newline",
                &["FILE-1", "FILE-5"],
                false,
            ),
            Self::CrlfLineEnds => faulty(
                "crlf-line-ends",
                "CR LF line ends",
                &["FILE-2", "FILE-4"],
                false,
            ),
            Self::GridFull => faulty("grid-full", "a grid with no empty cell", &["FILE-4"], true),
            Self::HeaderOtherSize => faulty(
                "header-other-size",
                "a header for one more row, or one column more or fewer, than the grid",
                &["FILE-4", "FILE-5"],
                false,
            ),
            Self::ValidMidGame => control(
                "valid-mid-game",
                "a position reached by play, as the reference saves it",
                &["FILE-1", "FILE-7"],
                false,
            ),
            Self::ValidNewGame => control(
                "valid-new-game",
                "a new game as the reference saves it",
                &["FILE-1", "FILE-7"],
                false,
            ),
            Self::ValidXToPlay => control(
                "valid-x-to-play",
                "next player 1: X is prompted",
                &["FILE-2", "FILE-7"],
                false,
            ),
            Self::ValidLeadingZeros => control(
                "valid-leading-zeros",
                "header fields other than next with leading zeros",
                &["FILE-2"],
                false,
            ),
            Self::ValidNextLeadingZero => control(
                "valid-next-leading-zero",
                "next written 00 or 01 (Decision 1 of the rulings copy)",
                &["FILE-2"],
                true,
            ),
            Self::ValidGeneratorBounds => control(
                "valid-generator-bounds",
                "generator rows H-1, columns W-1, move numbers 0 and 2147483647",
                &["FILE-3"],
                false,
            ),
            Self::ValidTrailingBytes => control(
                "valid-trailing-bytes",
                "blank lines, an extra grid line or binary bytes after the grid",
                &["FILE-5"],
                true,
            ),
            Self::ValidOneEmptyCell => control(
                "valid-one-empty-cell",
                "every cell but one taken (strings without liberty among them)",
                &["FILE-4", "CAPTURE-4"],
                true,
            ),
            Self::ValidDeadString => control(
                "valid-dead-string",
                "a string without liberty in a loaded grid",
                &["FILE-4", "CAPTURE-4"],
                true,
            ),
        }
    }

    /// The class's name, as folders and case names use it.
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// What files of this class hold.
    pub const fn description(self) -> &'static str {
        self.info().description
    }

    /// The rules the class's files break (or, for controls, rest on).
    pub const fn rules(self) -> &'static [&'static str] {
        self.info().rules
    }

    /// Whether a ruling marked (ambiguous) decides the outcome.
    pub const fn ambiguous(self) -> bool {
        self.info().ambiguous
    }

    /// Whether the class's files are valid.
    pub const fn is_control(self) -> bool {
        self.info().control
    }

    /// Whether the loader error `kind` is the one a file of this faulty
    /// class must give: proof that the file breaks exactly its rule.
    pub const fn accepts(self, kind: LoadErrorKind) -> bool {
        use LoadErrorKind as K;
        match self {
            Self::EmptyFile => matches!(kind, K::Empty),
            Self::HeaderTruncated => matches!(kind, K::HeaderUnterminated),
            Self::HeaderTooFewFields | Self::HeaderTooManyFields | Self::HeaderTrailingSpace => {
                matches!(kind, K::HeaderFieldCount)
            }
            Self::HeaderLeadingSpace | Self::HeaderDoubledSpace => {
                matches!(kind, K::HeaderEmptyField)
            }
            Self::HeaderSigned | Self::HeaderWhitespaceByte | Self::HeaderForeignByte => {
                matches!(kind, K::HeaderByte(_))
            }
            Self::DimensionOutOfRange => matches!(kind, K::Dimension),
            Self::NextPlayerOutOfRange => matches!(kind, K::NextPlayer),
            Self::GeneratorRowOutOfRange => matches!(kind, K::GeneratorRow),
            Self::GeneratorColumnOutOfRange => matches!(kind, K::GeneratorColumn),
            Self::MoveNumberOutOfRange => matches!(kind, K::MoveNumber),
            Self::GridForeignByte => matches!(kind, K::GridByte(_)),
            Self::GridLineShort => matches!(kind, K::GridLineShort),
            Self::GridLineLong => matches!(kind, K::GridLineLong),
            Self::GridTruncated => matches!(kind, K::GridTruncated),
            Self::CrlfLineEnds => matches!(kind, K::HeaderByte(b'\r') | K::GridByte(b'\r')),
            Self::GridFull => matches!(kind, K::NoEmptyCell),
            Self::HeaderOtherSize => matches!(
                kind,
                K::GridLineShort | K::GridLineLong | K::GridTruncated | K::Dimension
            ),
            _ => false,
        }
    }

    /// The class named `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        for c in Class::ALL {
            assert_eq!(Class::from_name(c.name()), Some(c));
        }
        let mut names: Vec<_> = Class::ALL.iter().map(|c| c.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Class::ALL.len());
    }

    #[test]
    fn controls_accept_no_error_and_faulty_classes_some() {
        let kinds = [
            LoadErrorKind::Empty,
            LoadErrorKind::HeaderUnterminated,
            LoadErrorKind::HeaderByte(b'+'),
            LoadErrorKind::HeaderEmptyField,
            LoadErrorKind::HeaderFieldCount,
            LoadErrorKind::Dimension,
            LoadErrorKind::NextPlayer,
            LoadErrorKind::GeneratorRow,
            LoadErrorKind::GeneratorColumn,
            LoadErrorKind::MoveNumber,
            LoadErrorKind::GridByte(b'o'),
            LoadErrorKind::GridByte(b'\r'),
            LoadErrorKind::GridLineShort,
            LoadErrorKind::GridLineLong,
            LoadErrorKind::GridTruncated,
            LoadErrorKind::NoEmptyCell,
            LoadErrorKind::Unreadable,
        ];
        for c in Class::ALL {
            let any = kinds.iter().any(|k| c.accepts(*k));
            assert_eq!(any, !c.is_control(), "{}", c.name());
            assert!(
                c.rules()
                    .iter()
                    .all(|r| r.starts_with("FILE-") || *r == "CAPTURE-4")
            );
        }
    }
}
