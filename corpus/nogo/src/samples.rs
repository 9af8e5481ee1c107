//! Every class's files, in memory. Valid files come from the reference's
//! serialiser (`savefile::to_bytes`) applied to positions reached by play;
//! each faulty file is that text with one precise change, so it breaks
//! exactly the rule its class names. No file is parsed here: the
//! reference's loader classifies them (see [`crate::generate`]).
//!
//! One piece: every class's files are edits of the same base text
//! (`Parts`) by one `Builder`: each section (header, ranges, grid,
//! controls) changes one field that the others keep.

use nogo_reference::savefile::to_bytes;
use nogo_reference::{Cell, Player, State, Stone};

use crate::class::Class;
use crate::play;
use conformance_engine::rng::SplitMix64;

/// One labelled file.
pub type Sample = conformance_engine::corpus_cli::Sample<Class>;

/// The size and seed a corpus is built for: the options of
/// `nogo-corpus generate` too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
pub struct Spec {
    /// Rows (4..=1000).
    #[arg(long)]
    pub height: usize,
    /// Columns (4..=1000).
    #[arg(long)]
    pub width: usize,
    /// Picks the base position and the places of the changes.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// A file split into its header fields and grid rows, to change one piece.
#[derive(Debug, Clone)]
struct Parts {
    fields: Vec<String>,
    rows: Vec<Vec<u8>>,
}

impl Parts {
    fn of(state: &State) -> Self {
        let bytes = to_bytes(state);
        let mut lines = bytes.split(|&b| b == b'\n');
        let header = String::from_utf8_lossy(lines.next().unwrap_or_default()).into_owned();
        let fields = header.split(' ').map(str::to_owned).collect();
        let rows = lines
            .take(state.grid.height())
            .map(<[u8]>::to_vec)
            .collect();
        Self { fields, rows }
    }

    fn header(&self) -> Vec<u8> {
        self.fields.join(" ").into_bytes()
    }

    fn grid(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for r in &self.rows {
            out.extend_from_slice(r);
            out.push(b'\n');
        }
        out
    }

    fn with_header(&self, header: &[u8]) -> Vec<u8> {
        [header, b"\n", &self.grid()].concat()
    }

    fn bytes(&self) -> Vec<u8> {
        self.with_header(&self.header())
    }

    fn set(&self, field: usize, value: &str) -> Self {
        let mut p = self.clone();
        value.clone_into(&mut p.fields[field]);
        p
    }
}

/// Header field names, for variant names and details.
const FIELD_NAMES: [&str; 9] = ["h", "w", "next", "ro", "co", "mo", "rx", "cx", "mx"];

struct Builder {
    out: Vec<Sample>,
}

impl Builder {
    fn push(
        &mut self,
        class: Class,
        variant: impl Into<String>,
        detail: impl Into<String>,
        bytes: Vec<u8>,
    ) {
        self.out.push(Sample {
            class,
            variant: variant.into(),
            detail: detail.into(),
            bytes,
        });
    }
}

/// Every class's files for `spec`.
pub fn build(spec: &Spec) -> Vec<Sample> {
    let (h, w) = (spec.height, spec.width);
    let rng = SplitMix64::new(spec.seed);
    let base_state = play::mid_game(h, w, 40, &mut rng.fork(1));
    let base = Parts::of(&base_state);
    let mut rng = rng.fork(2);
    let mut out = Builder { out: Vec::new() };
    header_samples(&mut out, &base, &mut rng);
    range_samples(&mut out, &base, h, w);
    grid_samples(&mut out, &base, &base_state, &mut rng);
    control_samples(&mut out, &base, &base_state, &mut rng);
    out.out
}

#[expect(
    clippy::too_many_lines,
    reason = "one short block per class and variant, in class order"
)]
fn header_samples(out: &mut Builder, base: &Parts, rng: &mut SplitMix64) {
    out.push(Class::EmptyFile, "empty", "no bytes", Vec::new());
    let header = base.header();
    for keep in [1, header.len() / 2, header.len() - 1, header.len()] {
        out.push(
            Class::HeaderTruncated,
            format!("keep-{keep:04}"),
            format!("only the first {keep} bytes of the header, no newline"),
            header[..keep].to_vec(),
        );
    }
    let field = rng.below(9);
    let mut fewer = base.clone();
    fewer.fields.remove(field);
    out.push(
        Class::HeaderTooFewFields,
        format!("without-{}", FIELD_NAMES[field]),
        format!("the header without its field {}", FIELD_NAMES[field]),
        fewer.bytes(),
    );
    let mut fewer = base.clone();
    fewer.fields.truncate(8);
    out.push(
        Class::HeaderTooFewFields,
        "without-mx",
        "the header without mX",
        fewer.bytes(),
    );
    let one = base.fields[0].clone().into_bytes();
    out.push(
        Class::HeaderTooFewFields,
        "height-only",
        "a header of one field",
        base.with_header(&one),
    );
    let mut more = base.clone();
    more.fields.push("0".into());
    out.push(
        Class::HeaderTooManyFields,
        "extra-zero",
        "a tenth field 0",
        more.bytes(),
    );
    let mut more = base.clone();
    let dup = rng.below(9);
    more.fields.insert(dup, base.fields[dup].clone());
    out.push(
        Class::HeaderTooManyFields,
        format!("doubled-{}", FIELD_NAMES[dup]),
        format!("field {} written twice", FIELD_NAMES[dup]),
        more.bytes(),
    );
    out.push(
        Class::HeaderLeadingSpace,
        "space",
        "a space before the height",
        base.with_header(&[b" ", &header[..]].concat()),
    );
    for gap in [0, 1 + rng.below(7)] {
        let mut fields = base.fields.clone();
        fields[gap].push(' ');
        out.push(
            Class::HeaderDoubledSpace,
            format!("after-{}", FIELD_NAMES[gap]),
            format!("two spaces after field {}", FIELD_NAMES[gap]),
            base.with_header(fields.join(" ").as_bytes()),
        );
    }
    out.push(
        Class::HeaderTrailingSpace,
        "space",
        "a space after mX",
        base.with_header(&[&header[..], b" "].concat()),
    );
    let signed = rng.below(9);
    for (variant, field, sign) in [
        ("plus", signed, "+"),
        ("minus-mx", 8, "-"),
        ("plus-height", 0, "+"),
    ] {
        let p = base.set(field, &format!("{sign}{}", base.fields[field]));
        out.push(
            Class::HeaderSigned,
            format!("{variant}-{}", FIELD_NAMES[field]),
            format!("field {} written {}", FIELD_NAMES[field], p.fields[field]),
            p.bytes(),
        );
    }
    let mut tab = base.fields[..2].join("\t");
    tab.push(' ');
    tab.push_str(&base.fields[2..].join(" "));
    out.push(
        Class::HeaderWhitespaceByte,
        "tab",
        "a tab between height and width",
        base.with_header(tab.as_bytes()),
    );
    out.push(
        Class::HeaderWhitespaceByte,
        "cr-before-newline",
        "the header ends in CR LF",
        base.with_header(&[&header[..], b"\r"].concat()),
    );
    out.push(
        Class::HeaderForeignByte,
        "letter-next",
        "next written O",
        base.set(2, "O").bytes(),
    );
    let at = rng.below(9);
    for (variant, byte) in [("nul", 0u8), ("high", 0xe9), ("dot", b'.')] {
        let mut hdr = base.fields[..at].join(" ").into_bytes();
        if at > 0 {
            hdr.push(b' ');
        }
        hdr.extend_from_slice(base.fields[at].as_bytes());
        hdr.push(byte);
        hdr.extend_from_slice(b"0");
        for f in &base.fields[at + 1..] {
            hdr.push(b' ');
            hdr.extend_from_slice(f.as_bytes());
        }
        out.push(
            Class::HeaderForeignByte,
            format!("{variant}-in-{}", FIELD_NAMES[at]),
            format!("byte {byte:#04x} inside field {}", FIELD_NAMES[at]),
            base.with_header(&hdr),
        );
    }
}

fn range_samples(out: &mut Builder, base: &Parts, h: usize, w: usize) {
    let huge = "99999999999999999999";
    for (variant, field, value) in [
        ("height-3", 0, "3".to_owned()),
        ("height-1001", 0, "1001".to_owned()),
        ("height-huge", 0, huge.to_owned()),
        ("width-3", 1, "3".to_owned()),
        ("width-0", 1, "0".to_owned()),
        ("width-2-pow-32-plus-4", 1, "4294967300".to_owned()),
    ] {
        out.push(
            Class::DimensionOutOfRange,
            variant,
            format!("field {} is {value}", FIELD_NAMES[field]),
            base.set(field, &value).bytes(),
        );
    }
    for value in ["2", "9", "10", "4294967296"] {
        out.push(
            Class::NextPlayerOutOfRange,
            format!("next-{value}"),
            format!("next is {value}"),
            base.set(2, value).bytes(),
        );
    }
    for (field, value, class) in [
        (3, h.to_string(), Class::GeneratorRowOutOfRange),
        (6, (h + 7).to_string(), Class::GeneratorRowOutOfRange),
        (3, huge.to_owned(), Class::GeneratorRowOutOfRange),
        (4, w.to_string(), Class::GeneratorColumnOutOfRange),
        (7, (w + 1).to_string(), Class::GeneratorColumnOutOfRange),
        (
            7,
            "18446744073709551616".to_owned(),
            Class::GeneratorColumnOutOfRange,
        ),
        // FILE-3: any 64-bit move number loads; only past 2^64 - 1 is the
        // file an error (and anything above 2147483647 is ambiguous).
        (
            8,
            "18446744073709551616".to_owned(),
            Class::MoveNumberOutOfRange,
        ),
        (
            5,
            "18446744073709551617".to_owned(),
            Class::MoveNumberOutOfRange,
        ),
    ] {
        out.push(
            class,
            format!("{}-{value}", FIELD_NAMES[field]),
            format!("field {} is {value}", FIELD_NAMES[field]),
            base.set(field, &value).bytes(),
        );
    }
}

#[expect(
    clippy::too_many_lines,
    reason = "one short block per class and variant, in class order"
)]
fn grid_samples(out: &mut Builder, base: &Parts, state: &State, rng: &mut SplitMix64) {
    let (h, w) = (state.grid.height(), state.grid.width());
    let header = base.header();
    for (variant, byte) in [
        ("lower-o", b'o'),
        ("digit-zero", b'0'),
        ("space", b' '),
        ("tab", b'\t'),
        ("nul", 0),
        ("high", 0xd8),
        ("lower-x", b'x'),
        ("dash", b'-'),
        ("bar", b'|'),
    ] {
        let (row, col) = (rng.below(h), rng.below(w));
        let mut p = base.clone();
        p.rows[row][col] = byte;
        out.push(
            Class::GridForeignByte,
            format!("{variant}-{row}-{col}"),
            format!("byte {byte:#04x} at row {row}, column {col}"),
            p.bytes(),
        );
    }
    let mut rows = vec![0, h - 1, rng.below(h)];
    rows.sort_unstable();
    rows.dedup();
    for r in rows {
        let mut short = base.clone();
        short.rows[r].pop();
        out.push(
            Class::GridLineShort,
            format!("row-{r}"),
            format!("row {r} one byte short"),
            short.bytes(),
        );
        let mut long = base.clone();
        long.rows[r].push(if r % 2 == 0 { b'.' } else { b'O' });
        out.push(
            Class::GridLineLong,
            format!("row-{r}"),
            format!("row {r} one byte long"),
            long.bytes(),
        );
    }
    let mut keeps: Vec<usize> = if h <= 24 {
        (0..h).collect()
    } else {
        let mut k = vec![0, 1, h / 2, h - 2, h - 1];
        k.extend((0..10).map(|_| rng.below(h)));
        k.sort_unstable();
        k.dedup();
        k
    };
    keeps.retain(|&k| k < h);
    for keep in keeps {
        let mut p = base.clone();
        p.rows.truncate(keep);
        out.push(
            Class::GridTruncated,
            format!("rows-{keep:04}"),
            format!("only {keep} of {h} grid lines"),
            p.bytes(),
        );
    }
    let full = base.bytes();
    out.push(
        Class::GridTruncated,
        "no-final-newline",
        "the last grid line without its newline",
        full[..full.len() - 1].to_vec(),
    );
    out.push(
        Class::GridTruncated,
        "half-last-line",
        "the file ends in the middle of the last grid line",
        full[..full.len() - 1 - w / 2].to_vec(),
    );
    let crlf = |rows_only: bool, last_only: bool| {
        let mut out = header.clone();
        out.extend_from_slice(if rows_only || last_only {
            b"\n"
        } else {
            b"\r\n"
        });
        for (i, r) in base.rows.iter().enumerate() {
            out.extend_from_slice(r);
            let cr = if last_only { i + 1 == h } else { true };
            out.extend_from_slice(if cr { b"\r\n" } else { b"\n" });
        }
        out
    };
    out.push(
        Class::CrlfLineEnds,
        "every-line",
        "CR LF on every line",
        crlf(false, false),
    );
    out.push(
        Class::CrlfLineEnds,
        "grid-lines",
        "CR LF on the grid lines only",
        crlf(true, false),
    );
    out.push(
        Class::CrlfLineEnds,
        "last-line",
        "CR LF on the last line only",
        crlf(false, true),
    );
    let mut full_grid = base.clone();
    for (r, row) in full_grid.rows.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            if *cell == b'.' {
                *cell = if (r + c) % 2 == 0 { b'O' } else { b'X' };
            }
        }
    }
    out.push(
        Class::GridFull,
        "filled",
        "every empty cell filled",
        full_grid.bytes(),
    );
    if h < 1000 {
        out.push(
            Class::HeaderOtherSize,
            "one-row-more",
            format!("header height {} over {h} rows", h + 1),
            base.set(0, &(h + 1).to_string()).bytes(),
        );
    }
    if w < 1000 {
        out.push(
            Class::HeaderOtherSize,
            "one-column-more",
            format!("header width {} over rows of {w}", w + 1),
            base.set(1, &(w + 1).to_string()).bytes(),
        );
    }
    let narrower = base.set(1, &(w - 1).to_string()).set(4, "0").set(7, "0");
    out.push(
        Class::HeaderOtherSize,
        "one-column-fewer",
        format!("header width {} over rows of {w}", w - 1),
        narrower.bytes(),
    );
}

#[expect(
    clippy::too_many_lines,
    reason = "one short block per class and variant, in class order"
)]
fn control_samples(out: &mut Builder, base: &Parts, state: &State, rng: &mut SplitMix64) {
    let (h, w) = (state.grid.height(), state.grid.width());
    out.push(
        Class::ValidMidGame,
        "base",
        "the base position",
        base.bytes(),
    );
    out.push(
        Class::ValidMidGame,
        "max-move-numbers",
        "the base position, move numbers 2147483647",
        to_bytes(&play::with_max_numbers(state.clone())),
    );
    out.push(
        Class::ValidNewGame,
        "new",
        "a new game",
        to_bytes(&State::new(h, w)),
    );
    let mut x_next = state.clone();
    x_next.next = Player::X;
    out.push(
        Class::ValidXToPlay,
        "x",
        "the base position, X to play",
        to_bytes(&x_next),
    );
    let zeros = {
        let mut p = base.clone();
        for (i, f) in p.fields.iter_mut().enumerate() {
            if i != 2 {
                f.insert_str(0, if i % 2 == 0 { "0" } else { "000" });
            }
        }
        p
    };
    out.push(
        Class::ValidLeadingZeros,
        "zeros",
        "leading zeros on every field but next",
        zeros.bytes(),
    );
    for next in ["00", "01"] {
        out.push(
            Class::ValidNextLeadingZero,
            format!("next-{next}"),
            format!("next written {next}"),
            base.set(2, next).bytes(),
        );
    }
    let bounds = base
        .set(3, &(h - 1).to_string())
        .set(4, &(w - 1).to_string())
        .set(5, "2147483647")
        .set(6, "0")
        .set(7, "0")
        .set(8, "0");
    out.push(
        Class::ValidGeneratorBounds,
        "edges",
        "rO H-1, cO W-1, mO 2147483647; X at 0 0 0",
        bounds.bytes(),
    );
    let full = base.bytes();
    let last = base.rows.last().cloned().unwrap_or_default();
    for (variant, tail) in [
        ("blank-lines", b"\n\n".to_vec()),
        ("extra-grid-line", [&last[..], b"\n"].concat()),
        ("binary", (0..=255u8).rev().collect()),
    ] {
        out.push(
            Class::ValidTrailingBytes,
            variant,
            format!("{variant} after the last grid line"),
            [&full[..], &tail[..]].concat(),
        );
    }
    let mut one = state.clone();
    let empties: Vec<Cell> = (0..h)
        .flat_map(|r| (0..w).map(move |c| Cell::new(r, c)))
        .filter(|c| one.grid.is_free(*c))
        .collect();
    let keep = empties.get(rng.below(empties.len())).copied();
    for (i, cell) in empties.iter().enumerate() {
        if Some(*cell) != keep {
            let p = if i % 2 == 0 { Player::O } else { Player::X };
            one.grid.set(*cell, Stone::Taken(p));
        }
    }
    out.push(
        Class::ValidOneEmptyCell,
        "one-left",
        "one empty cell left",
        to_bytes(&one),
    );
    let mut dead = state.clone();
    dead.grid.set(Cell::new(0, 0), Stone::Taken(Player::X));
    dead.grid.set(Cell::new(0, 1), Stone::Taken(Player::O));
    dead.grid.set(Cell::new(1, 0), Stone::Taken(Player::O));
    if dead.grid.empty_cells() == 0 {
        dead.grid.set(Cell::new(h - 1, w - 1), Stone::Empty);
    }
    out.push(
        Class::ValidDeadString,
        "corner",
        "an X in the corner between two Os",
        to_bytes(&dead),
    );
}
