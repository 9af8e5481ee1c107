//! Builds the corpus's files in memory: for each [`Class`], one or more
//! variants made from a valid state by random play. Valid files come from
//! the reference's own serializer (`gridfile::to_bytes`); faulty files are
//! that text with one precise change, so each breaks exactly one rule.
//!
//! The faulty variants of each error class are built in `faults`, the
//! valid controls in `controls`.

use boxes_reference::State;
use boxes_reference::layout::{first_cell_line, line_count};

use crate::class::Class;
use crate::filelines::Lines;
use crate::play;
use crate::spec::Spec;
use conformance_engine::rng::SplitMix64;

mod controls;
mod faults;

/// One generated file before it is written: which class, which variant of
/// it, what exactly was done, and the bytes.
pub type Sample = conformance_engine::corpus_cli::Sample<Class>;

/// The file's path inside a corpus folder, `/`-separated.
pub fn file(sample: &Sample) -> String {
    format!("{}/{}.grid", sample.class.name(), sample.variant)
}

/// The class description and the variant's detail, in one line.
pub fn description(sample: &Sample) -> String {
    format!("{}: {}", sample.class.description(), sample.detail)
}

/// Grids up to this many lines are cut after every line; larger ones after
/// a sample, so a 999-row corpus does not hold thousands of multi-megabyte
/// prefixes.
pub const MAX_CUTS: usize = 64;

/// How many lines each `too-few-lines` file keeps, ascending: every count
/// in 1..3H+2 for small grids; for larger ones every boundary between line
/// kinds (next player, edge rows, cell rows, the last line) plus random
/// counts, [`MAX_CUTS`] in all.
fn cut_points(height: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let total = line_count(height);
    if total - 1 <= MAX_CUTS {
        return (1..total).collect();
    }
    let mut kept: std::collections::BTreeSet<usize> = [
        1,
        2,
        3,
        first_cell_line(height) - 1,
        first_cell_line(height),
        total - 1,
    ]
    .into();
    while kept.len() < MAX_CUTS {
        kept.insert(rng.between(1, total - 1));
    }
    kept.into_iter().collect()
}

/// First, last and one random row out of `count`, without repeats.
fn pick_rows(count: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let mut rows = vec![0, count.saturating_sub(1), rng.below(count)];
    rows.sort_unstable();
    rows.dedup();
    rows
}

/// Builds every sample of a corpus, class by class in [`Class::all`] order.
pub fn build(spec: &Spec) -> Vec<Sample> {
    let root = SplitMix64::new(spec.seed);
    let base = base_state(spec);
    let mut out = Vec::new();
    for class in Class::all() {
        let mut b = Builder {
            spec,
            base: &base,
            lines: Lines::of(&base),
            // Keyed by name, so adding a class never moves another's draws.
            rng: root.fork(fnv1a(class.name().as_bytes())),
            class,
            out: &mut out,
        };
        b.class();
    }
    out
}

/// The valid base file every faulty sample is made from, and that the
/// exhaustive mode mutates.
pub fn base_state(spec: &Spec) -> State {
    let root = SplitMix64::new(spec.seed);
    play::mid_game(
        spec.height,
        spec.width,
        spec.players,
        &mut root.fork(u64::MAX),
    )
    .state
}

struct Builder<'a> {
    spec: &'a Spec,
    base: &'a State,
    lines: Lines,
    rng: SplitMix64,
    class: Class,
    out: &'a mut Vec<Sample>,
}

impl Builder<'_> {
    fn push(&mut self, variant: impl Into<String>, detail: impl Into<String>, bytes: Vec<u8>) {
        self.out.push(Sample {
            class: self.class,
            variant: variant.into(),
            detail: detail.into(),
            bytes,
        });
    }

    /// Pushes the base text with `edit` applied.
    fn edited(
        &mut self,
        variant: impl Into<String>,
        detail: impl Into<String>,
        edit: impl FnOnce(&mut Lines),
    ) {
        let mut lines = self.lines.clone();
        edit(&mut lines);
        let bytes = lines.bytes();
        self.push(variant, detail, bytes);
    }

    fn class(&mut self) {
        match self.class {
            Class::EmptyFile => self.push("empty", "zero bytes", Vec::new()),
            Class::TooFewLines => self.too_few_lines(),
            Class::NextPlayer(f) => self.next_player(f),
            Class::Edge(row, f) => self.edge(row, f),
            Class::Cell(f) => self.cell(f),
            Class::LinesAfterGrid => self.lines_after_grid(),
            Class::CrlfLineEnds => self.crlf(),
            Class::OtherDimensions(s) => self.other_dimensions(s),
            Class::Valid(c) => self.control(c),
        }
    }
}

/// FNV-1a, 64 bits: a stable hash for naming random streams.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashSet};

    use boxes_reference::gridfile::{self, LoadErrorKind, load_bytes};

    use super::*;
    use crate::class::{CellFault, EdgeFault};

    fn spec(h: usize, w: usize, p: usize, seed: u64) -> Spec {
        Spec::new(h, w, p, seed).expect("valid spec")
    }

    #[test]
    fn every_class_has_a_sample_and_files_are_unique() {
        for s in [spec(2, 2, 2, 0), spec(3, 5, 26, 1), spec(7, 2, 100, 2)] {
            let samples = build(&s);
            let classes: BTreeSet<Class> = samples.iter().map(|x| x.class).collect();
            assert_eq!(classes.len(), Class::all().len(), "{s:?}");
            let files: HashSet<String> = samples.iter().map(file).collect();
            assert_eq!(files.len(), samples.len(), "{s:?}");
        }
    }

    #[test]
    fn faulty_samples_are_rejected_and_controls_load() {
        for s in [spec(2, 2, 2, 0), spec(3, 5, 26, 1), spec(7, 2, 100, 2)] {
            for x in build(&s) {
                let loaded = load_bytes(&x.bytes, s.height, s.width, s.players);
                assert_eq!(loaded.is_ok(), x.class.is_control(), "{}", file(&x));
            }
        }
    }

    /// Each faulty file fails for the reason its class names, not by
    /// accident of some other damage.
    #[test]
    fn faulty_samples_fail_for_their_own_reason() {
        let s = spec(3, 4, 5, 4);
        for x in build(&s) {
            let Err(e) = load_bytes(&x.bytes, 3, 4, 5) else {
                continue;
            };
            let ok = match x.class {
                Class::EmptyFile => e.kind == LoadErrorKind::Empty,
                Class::TooFewLines => matches!(e.kind, LoadErrorKind::MissingLines { .. }),
                Class::NextPlayer(_) => e.line == 1,
                Class::Edge(_, EdgeFault::TooShort) => e.kind == LoadErrorKind::EdgeRowShort,
                Class::Edge(_, EdgeFault::TooLong) => e.kind == LoadErrorKind::EdgeRowLong,
                Class::Edge(_, EdgeFault::Byte(b)) => e.kind == LoadErrorKind::EdgeByte(b.byte()),
                Class::Cell(CellFault::TooFewFields) => e.kind == LoadErrorKind::TooFewFields,
                Class::Cell(CellFault::TooManyFields | CellFault::TrailingComma) => {
                    e.kind == LoadErrorKind::TooManyFields
                }
                Class::Cell(CellFault::EmptyField) => e.kind == LoadErrorKind::EmptyField,
                Class::Cell(CellFault::NonNumeric) => e.kind == LoadErrorKind::CellByte(b'A'),
                Class::Cell(CellFault::Signed) => {
                    matches!(e.kind, LoadErrorKind::CellByte(b'+' | b'-'))
                }
                Class::Cell(CellFault::Spaced) => e.kind == LoadErrorKind::CellByte(b' '),
                Class::Cell(CellFault::AbovePlayers) => e.kind == LoadErrorKind::OwnerRange,
                Class::Cell(CellFault::OwnerOnOpenCell) => {
                    matches!(e.kind, LoadErrorKind::OwnerOnOpenCell { .. })
                }
                Class::LinesAfterGrid => e.kind == LoadErrorKind::ExtraLine,
                Class::CrlfLineEnds => matches!(
                    e.kind,
                    LoadErrorKind::NextPlayerByte(b'\r')
                        | LoadErrorKind::EdgeByte(b'\r')
                        | LoadErrorKind::CellByte(b'\r')
                ),
                Class::OtherDimensions(_) => true,
                Class::Valid(_) => false,
            };
            assert!(ok, "{}: {e}", file(&x));
        }
    }

    #[test]
    fn too_few_lines_cuts_after_every_line() {
        let s = spec(2, 3, 2, 0);
        let cut: Vec<Sample> = build(&s)
            .into_iter()
            .filter(|x| x.class == Class::TooFewLines)
            .collect();
        assert_eq!(cut.len(), s.lines() - 1);
        for (i, x) in cut.iter().enumerate() {
            assert_eq!(x.bytes.split(|&b| b == b'\n').count(), i + 2);
            assert_eq!(x.bytes.last(), Some(&b'\n'));
        }
    }

    #[test]
    fn large_grids_are_cut_at_every_boundary_and_a_sample() {
        let cuts = cut_points(100, &mut SplitMix64::new(0));
        assert_eq!(cuts.len(), MAX_CUTS);
        for k in [1, 2, 3, 201, 202, 301] {
            assert!(cuts.contains(&k), "{k}");
        }
        assert!(cuts.windows(2).all(|w| w[0] < w[1]));
        assert!(cuts.iter().all(|&k| (1..302).contains(&k)));
        assert_eq!(cut_points(21, &mut SplitMix64::new(0)).len(), 64);
        assert_eq!(
            cut_points(2, &mut SplitMix64::new(0)),
            (1..8).collect::<Vec<_>>()
        );
    }

    #[test]
    fn controls_differ_from_the_base_only_where_they_say() {
        let s = spec(3, 3, 4, 8);
        let samples = build(&s);
        let base = gridfile::to_bytes(&base_state(&s));
        let find = |name: &str, variant: &str| {
            samples
                .iter()
                .find(|x| x.class.name() == name && x.variant == variant)
                .map(|x| x.bytes.clone())
        };
        assert_eq!(find("valid-mid-game", "base"), Some(base.clone()));
        assert_eq!(
            find("valid-no-final-newline", "base"),
            Some(base[..base.len() - 1].to_vec())
        );
        let lz = find("valid-leading-zeros", "next-player").expect("present");
        assert_eq!(&lz[1..], &base[..]);
        assert_eq!(lz[0], b'0');
        let top = find("valid-highest-player", "next-player").expect("present");
        assert!(top.starts_with(b"4\n"));
    }

    #[test]
    fn samples_are_deterministic_and_seed_dependent() {
        assert_eq!(build(&spec(4, 3, 7, 5)), build(&spec(4, 3, 7, 5)));
        assert_ne!(build(&spec(4, 3, 7, 5)), build(&spec(4, 3, 7, 6)));
    }
}
