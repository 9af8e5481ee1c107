//! The stdin lines a session is made of: moves onto empty cells, invalid
//! lines of every kind TURN-2..4 name (out of range, occupied, huge
//! numbers, stray bytes, bytes at or above 0x80, lines past 70, 256 and
//! 4096 bytes, `W`), and save lines to good and bad paths
//! (SAVE-1, SAVE-4). Lines whose reading an ambiguous ruling decides
//! (signs, extra spaces, trailing junk, leading zeros, a path with a space)
//! come only with `--ambiguous`, each labelled with its rule.

use conformance_engine::hard_lines;
use nogo_reference::rules::Rule;

use crate::session::{Ambiguity, Input, Options};
use crate::sim::Sim;
use conformance_engine::rng::SplitMix64;

/// TURN-2's ambiguous part: a lax reader takes these lines as moves.
pub const LAX_MOVE: Ambiguity = Ambiguity::new("lax-move", Rule::Turn2);

/// TURN-2's ambiguous part: leading zeros accepted.
pub const LEADING_ZERO: Ambiguity = Ambiguity::new("leading-zero-move", Rule::Turn2);

/// SAVE-1's ambiguous part: a path holding a space.
pub const SPACED_PATH: Ambiguity = Ambiguity::new("save-path-space", Rule::Save1);

/// A move onto an empty cell of `sim`'s grid (`0 0` when there is none):
/// half the time, when there is one, a suicide beside no opponent stone
/// (CAPTURE-2's own-string check, which a program checking capture only
/// next to an enemy misses).
pub fn valid_move(rng: &mut SplitMix64, sim: &Sim, options: Options) -> Input {
    let lonely = sim.lonely_suicides();
    let cell = if !lonely.is_empty() && rng.below(2) == 0 {
        lonely[rng.below(lonely.len())]
    } else {
        sim.random_empty(rng)
            .unwrap_or(nogo_reference::Cell::new(0, 0))
    };
    if options.ambiguous && rng.below(10) == 0 {
        return Input {
            bytes: format!("0{} {}", cell.row, cell.col).into_bytes(),
            label: Some(LEADING_ZERO),
        };
    }
    Input::plain(format!("{} {}", cell.row, cell.col))
}

/// A line the program must refuse with the prompt alone.
pub fn bad_line(rng: &mut SplitMix64, sim: &Sim, options: Options) -> Input {
    let (h, w) = (sim.state().grid.height(), sim.state().grid.width());
    if options.ambiguous && rng.below(4) == 0 {
        let r = rng.below(h);
        let c = rng.below(w);
        let lax = [
            format!("+{r} {c}"),
            format!("-0 {c}"),
            format!(" {r} {c}"),
            format!("{r}  {c}"),
            format!("{r} {c} "),
            format!("{r} {c}x"),
            format!("{r} {c} {c}"),
            format!("{r} +{c}"),
        ];
        return Input {
            bytes: lax[rng.below(lax.len())].clone().into_bytes(),
            label: Some(LAX_MOVE),
        };
    }
    let (r, c) = (rng.below(h), rng.below(w));
    let line: Vec<u8> = match rng.below(16) {
        0 => format!("{h} {c}").into_bytes(),
        1 => format!("{r} {w}").into_bytes(),
        2 => format!("{} {}", h + rng.below(50), w + rng.below(50)).into_bytes(),
        3 => match sim.random_taken(rng) {
            Some(taken) => format!("{} {}", taken.row, taken.col).into_bytes(),
            None => format!("{h} {w}").into_bytes(),
        },
        4 => format!("99999999999999999999 {c}").into_bytes(),
        5 => format!("{r} 18446744073709551617").into_bytes(),
        6 => format!("4294967296 {c}").into_bytes(),
        7 => Vec::new(),
        8 => format!("{r}").into_bytes(),
        9 => format!("{r},{c}").into_bytes(),
        10 => format!("{r}\t{c}").into_bytes(),
        11 => format!("{r} {c}\r").into_bytes(),
        12 => [format!("{r}").as_bytes(), b"\0 ", format!("{c}").as_bytes()].concat(),
        13 => hard_lines::high_bytes(rng),
        14 => hard_lines::long_line(rng, &[b'\0', hard_lines::EOF_BYTE, b'7']),
        _ => pick_bytes(rng, &[b"Wsave", b"x", b"quit", b"a b", b"save"]),
    };
    Input::plain(line)
}

fn pick_bytes(rng: &mut SplitMix64, items: &[&[u8]]) -> Vec<u8> {
    items[rng.below(items.len())].to_vec()
}

/// A save line: to a file in the sandbox, or to a path no file can be
/// opened at.
pub fn save_line(rng: &mut SplitMix64, options: Options) -> Input {
    if options.ambiguous && rng.below(6) == 0 {
        return Input {
            bytes: b"w saved".to_vec(),
            label: Some(SPACED_PATH),
        };
    }
    Input::plain(if rng.below(3) == 0 {
        pick_bytes(rng, &[b"w", b"wno/such/dir", b"w.", b"wgame/inside"])
    } else {
        pick_bytes(rng, &[b"wsaved", b"wg1", b"wgame", b"wout.txt"])
    })
}

#[cfg(test)]
mod tests {
    use conformance_engine::hard_lines::Reach;

    use crate::session::{Options, Session};

    #[test]
    fn sessions_reach_high_bytes_nuls_and_lines_at_buffer_edges() {
        let sessions: Vec<Session> = (0..1500)
            .map(|i| Session::generate(5, i, Options::default()))
            .collect();
        let lines = sessions
            .iter()
            .flat_map(|s| s.lines.iter().map(|l| l.bytes.as_slice()));
        let missing = Reach::of(lines).missing(true);
        assert!(missing.is_empty(), "not reached: {missing:?}");
    }
}
