//! Stdin lines for sessions: valid moves in random order, near misses,
//! out-of-range and closed edges, saves to good and bad paths, long lines
//! (past 30 bytes, and at the 70, 256 and 4,096-byte buffer edges), bytes
//! at or above 0x80, junk and (when allowed) lines resting on an ambiguous
//! ruling, a NUL inside a line among them (TURN-2).

use boxes_reference::{Edge, State};
use conformance_engine::hard_lines;

use super::Session;
use super::generator::Generator;

/// Good relative save paths (SAVE-1, SAVE-2).
const GOOD_SAVES: [&str; 6] = [
    "save.txt",
    "s",
    "game.save",
    "my save.txt",
    "out.grid",
    "saved-game-1",
];

/// Relative save paths that cannot be opened for writing (SAVE-3).
const BAD_SAVES: [&str; 5] = [".", "..", "nodir/save.txt", "no/such/dir/s", "nodir/"];

/// Numbers far outside any grid (TURN-3): a C `int` wraps several of them.
const HUGE_NUMBERS: [&str; 7] = [
    "1000",
    "2147483648",
    "4294967296",
    "4294967297",
    "18446744073709551616",
    "18446744073709551617",
    "99999999999999999999999999",
];

impl Generator {
    /// Appends stdin lines that play `state` on: valid moves in random
    /// order, invalid lines of every kind and saves, either to the end of
    /// the game or until a random point. At most `max_moves` valid moves.
    pub(super) fn play_lines(
        &mut self,
        state: &mut State,
        session: &mut Session,
        max_moves: usize,
    ) {
        let open = state.grid.open_edges();
        let to_end = open <= 60 && max_moves >= open && self.rng.percent(35);
        let budget = if to_end {
            open
        } else {
            self.rng.below(open.min(20).min(max_moves) + 1)
        };
        let mut moves = 0;
        while session.lines.len() < 300 {
            if state.grid.open_edges() == 0 {
                // The program stops reading here: later lines change nothing.
                if self.rng.percent(20) {
                    session.lines.push(b"0 0 h".to_vec());
                }
                break;
            }
            if moves >= budget {
                break;
            }
            if self.rng.percent(62) {
                if let Some(edge) = self.choose_move(&state.grid) {
                    let _ = state.apply(edge);
                    session.lines.push(edge.to_string().into_bytes());
                    moves += 1;
                }
            } else {
                let line = self.line_for(state, &mut session.save_paths);
                session.lines.push(line);
            }
        }
    }

    /// One line that is not a valid move in `state`: a near miss, an
    /// out-of-range or closed edge, a save, a long line or junk.
    #[expect(
        clippy::many_single_char_names,
        reason = "h, w, r, c and d are the rulings' own names for a move's parts"
    )]
    pub(super) fn line_for(&mut self, state: &mut State, saves: &mut Vec<String>) -> Vec<u8> {
        let grid = &state.grid;
        let (h, w) = (grid.height(), grid.width());
        let closed: Vec<Edge> = grid.edges().filter(|&e| grid.is_closed(e)).collect();
        let any: Vec<Edge> = grid.edges().collect();
        let edge = self.rng.pick(&any).unwrap_or(Edge::h(0, 0));
        let (r, c, d) = (edge.row, edge.col, char::from(edge.dir.letter()));
        match self.rng.below(if self.ambiguous { 100 } else { 90 }) {
            0..=29 => self.near_miss(r, c, d),
            30..=44 => {
                let huge = self.rng.pick(&HUGE_NUMBERS).unwrap_or("1000");
                let line = match self.rng.below(6) {
                    0 => format!("{} {c} h", h + 1 + self.rng.below(3)),
                    1 => format!("{h} {} v", self.rng.below(w + 1)),
                    2 => format!("{} {w} h", self.rng.below(h + 1)),
                    3 => format!("{} {} v", self.rng.below(h), w + 1 + self.rng.below(3)),
                    4 => format!("{huge} {c} {d}"),
                    _ => format!("{r} {huge} {d}"),
                };
                line.into_bytes()
            }
            45..=54 => match self.rng.pick(&closed) {
                Some(e) => e.to_string().into_bytes(),
                None => self.near_miss(r, c, d),
            },
            55..=64 => {
                let path = match &self.grid_path {
                    // Saving over the file being played is allowed (SAVE-2).
                    Some(grid) if self.rng.percent(20) => grid.clone(),
                    _ => self.rng.choice(&GOOD_SAVES),
                };
                saves.push(path.clone());
                format!("w {path}").into_bytes()
            }
            65..=71 => {
                let path = self.rng.pick(&BAD_SAVES).unwrap_or(".");
                format!("w {path}").into_bytes()
            }
            72..=75 => self.long_line(r, c, d),
            76..=79 => self.hard_line(r, c, d),
            80..=89 => {
                let junk: [&[u8]; 14] = [
                    b"",
                    b" ",
                    b"w",
                    b"wsave.txt",
                    b" w save.txt",
                    b"W save.txt",
                    b"w\tsave.txt",
                    b"q",
                    b"h",
                    b"\t",
                    b"\r",
                    b"\xff\xfe",
                    b"hello world",
                    b"-",
                ];
                self.rng.pick(&junk).unwrap_or(b"").to_vec()
            }
            _ => self.ambiguous_line(r, c, d, saves),
        }
    }

    /// A line one slip away from the valid move `r c d`.
    fn near_miss(&mut self, r: usize, c: usize, d: char) -> Vec<u8> {
        let upper = d.to_ascii_uppercase();
        let other = if d == 'h' { 'v' } else { 'h' };
        let line = match self.rng.below(18) {
            0 => format!("{r} {c} {d} "),
            1 => format!(" {r} {c} {d}"),
            2 => format!("{r}  {c} {d}"),
            3 => format!("{r} {c}  {d}"),
            4 => format!("{r} {c} {upper}"),
            5 => format!("{r} {c}"),
            6 => format!("{r} {c} {d}\r"),
            7 => format!("{r}\t{c} {d}"),
            8 => format!("-{r} {c} {d}"),
            9 => format!("+{r} {c} {d}"),
            10 => format!("{r} {c} {d}{d}"),
            11 => format!("{r} {c} {other}x"),
            12 => format!("{r}.0 {c} {d}"),
            13 => format!("{r} {c} {d} {d}"),
            14 => format!("{r},{c},{d}"),
            15 => format!("{d} {r} {c}"),
            16 => format!("{r} -{c} {d}"),
            _ => format!("{r} {c} {d} 0"),
        };
        line.into_bytes()
    }

    /// An invalid line past the assignment's 30 bytes (TURN-4), never a save.
    fn long_line(&mut self, r: usize, c: usize, d: char) -> Vec<u8> {
        let length = if self.rng.percent(85) {
            self.rng.range(31, 200)
        } else {
            self.rng.range(1000, 20_000)
        };
        let mut line = match self.rng.below(4) {
            0 => format!("{r} {c} {d}").into_bytes(),
            1 => b"1".to_vec(),
            2 => b"x".to_vec(),
            _ => Vec::new(),
        };
        let kind = self.rng.below(3);
        while line.len() < length {
            let byte = match kind {
                0 => b' ',
                1 => b'1',
                _ => b'!' + (self.rng.below(94) as u8),
            };
            line.push(byte);
        }
        if line.first() == Some(&b'1') && kind == 1 {
            line.extend_from_slice(format!(" {c} {d}").as_bytes());
        }
        line
    }

    /// An invalid line a careless reader gets wrong (TURN-2, TURN-4): a
    /// line at a common buffer's edge holding one odd byte, a few bytes at
    /// or above 0x80, or the move `r c d` with a high byte inside it (0xFF
    /// half the time, which a `char` holding `getc`'s result reads as end
    /// of input). A NUL, whose rejection TURN-2 marks ambiguous, only when
    /// ambiguity is allowed.
    fn hard_line(&mut self, r: usize, c: usize, d: char) -> Vec<u8> {
        let rng = self.rng.stream();
        let nul: &[u8] = if self.ambiguous { &[0] } else { &[] };
        match rng.below(3) {
            0 => {
                let odd = [&[hard_lines::EOF_BYTE, b'7'], nul].concat();
                hard_lines::long_line(rng, &odd)
            }
            1 => hard_lines::high_bytes(rng),
            _ => {
                let high = hard_lines::high_byte(rng);
                let odd = [&[high], nul].concat();
                hard_lines::with_odd_byte(rng, format!("{r} {c} {d}").as_bytes(), &odd)
            }
        }
    }

    /// A line whose outcome rests on an ambiguous ruling.
    fn ambiguous_line(&mut self, r: usize, c: usize, d: char, saves: &mut Vec<String>) -> Vec<u8> {
        match self.rng.below(7) {
            0 => format!("0{r} {c} {d}").into_bytes(),
            1 => format!("{r} 0{c} {d}").into_bytes(),
            2 => {
                let mut line = format!("{r} {c} {d}").into_bytes();
                line.push(0);
                line
            }
            3 => {
                saves.push("save.txt".to_owned());
                b"w save.txt\0junk".to_vec()
            }
            4 => {
                let path = "a-rather-long-save-file-name-for-a-game.txt";
                saves.push(path.to_owned());
                format!("w {path}").into_bytes()
            }
            5 => b"w ".to_vec(),
            _ => b"w /dev/full".to_vec(),
        }
    }
}
