//! Shared helpers of the integration tests: the `boxes` binary, a seeded
//! move shuffler, and a small model of the game, written apart from the
//! library, that predicts every byte a whole game prints.

use std::fmt::Write as _;

/// The built `boxes` binary.
pub fn boxes() -> assert_cmd::Command {
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_boxes"))
}

/// SplitMix64: a tiny deterministic generator, enough to shuffle moves.
pub struct Prng(u64);

impl Prng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// A move as the tests name it: row, column, `b'h'` or `b'v'`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mv(pub usize, pub usize, pub u8);

impl Mv {
    pub fn line(self) -> String {
        format!("{} {} {}\n", self.0, self.1, char::from(self.2))
    }
}

/// Every edge of an H×W grid.
pub fn all_moves(h: usize, w: usize) -> Vec<Mv> {
    let mut moves = Vec::new();
    for r in 0..=h {
        for c in 0..w {
            moves.push(Mv(r, c, b'h'));
        }
    }
    for r in 0..h {
        for c in 0..=w {
            moves.push(Mv(r, c, b'v'));
        }
    }
    moves
}

/// Every edge of an H×W grid in an order shuffled by `seed`.
pub fn shuffled_moves(h: usize, w: usize, seed: u64) -> Vec<Mv> {
    let mut moves = all_moves(h, w);
    Prng::new(seed).shuffle(&mut moves);
    moves
}

/// The move lines of `moves`.
pub fn input_of(moves: &[Mv]) -> Vec<u8> {
    moves
        .iter()
        .fold(String::new(), |mut s, m| {
            let _ = write!(s, "{}", m.line());
            s
        })
        .into_bytes()
}

/// The game as the rulings describe it, in the plainest terms.
#[derive(Clone)]
pub struct Model {
    pub h: usize,
    pub w: usize,
    pub p: usize,
    hor: Vec<bool>,
    ver: Vec<bool>,
    pub owner: Vec<usize>,
    /// 1-based player to move.
    pub next: usize,
}

impl Model {
    pub fn new(h: usize, w: usize, p: usize) -> Self {
        Self {
            h,
            w,
            p,
            hor: vec![false; (h + 1) * w],
            ver: vec![false; h * (w + 1)],
            owner: vec![0; h * w],
            next: 1,
        }
    }

    fn closed(&self, m: Mv) -> bool {
        match m.2 {
            b'h' => self.hor[m.0 * self.w + m.1],
            _ => self.ver[m.0 * (self.w + 1) + m.1],
        }
    }

    fn boxed(&self, r: usize, c: usize) -> bool {
        self.closed(Mv(r, c, b'h'))
            && self.closed(Mv(r + 1, c, b'h'))
            && self.closed(Mv(r, c, b'v'))
            && self.closed(Mv(r, c + 1, b'v'))
    }

    pub fn open_edges(&self) -> usize {
        self.hor.iter().chain(&self.ver).filter(|c| !**c).count()
    }

    /// Plays a valid move: returns how many cells it completed.
    pub fn play(&mut self, m: Mv) -> usize {
        let exists = match m.2 {
            b'h' => m.0 <= self.h && m.1 < self.w,
            _ => m.0 < self.h && m.1 <= self.w,
        };
        assert!(exists && !self.closed(m), "model given an invalid move");
        match m.2 {
            b'h' => self.hor[m.0 * self.w + m.1] = true,
            _ => self.ver[m.0 * (self.w + 1) + m.1] = true,
        }
        let mut done = 0;
        let cells = match m.2 {
            b'h' => [
                m.0.checked_sub(1).map(|r| (r, m.1)),
                (m.0 < self.h).then_some((m.0, m.1)),
            ],
            _ => [
                m.1.checked_sub(1).map(|c| (m.0, c)),
                (m.1 < self.w).then_some((m.0, m.1)),
            ],
        };
        for (r, c) in cells.into_iter().flatten() {
            if self.boxed(r, c) {
                self.owner[r * self.w + c] = self.next;
                done += 1;
            }
        }
        if done == 0 {
            self.next = self.next % self.p + 1;
        }
        done
    }

    pub fn symbol(player: usize) -> u8 {
        64 + player as u8
    }

    pub fn prompt(&self) -> [u8; 3] {
        [Self::symbol(self.next), b'>', b' ']
    }

    pub fn render(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for r in 0..=self.h {
            out.push(b'+');
            for c in 0..self.w {
                out.push(if self.closed(Mv(r, c, b'h')) {
                    b'-'
                } else {
                    b' '
                });
                out.push(b'+');
            }
            out.push(b'\n');
            if r == self.h {
                break;
            }
            for c in 0..=self.w {
                out.push(if self.closed(Mv(r, c, b'v')) {
                    b'|'
                } else {
                    b' '
                });
                if c < self.w {
                    let o = self.owner[r * self.w + c];
                    out.push(if o == 0 { b' ' } else { Self::symbol(o) });
                }
            }
            out.push(b'\n');
        }
        out
    }

    pub fn winners_line(&self) -> Vec<u8> {
        let mut scores = vec![0usize; self.p + 1];
        for &o in &self.owner {
            scores[o] += 1;
        }
        let best = scores[1..].iter().copied().max().unwrap_or(0);
        let mut line = b"Winner(s): ".to_vec();
        let winners: Vec<u8> = (1..=self.p)
            .filter(|&i| scores[i] == best)
            .map(Self::symbol)
            .collect();
        for (i, s) in winners.iter().enumerate() {
            if i > 0 {
                line.extend_from_slice(b", ");
            }
            line.push(*s);
        }
        line.push(b'\n');
        line
    }

    /// The save-file bytes of this state (FILE-1, SAVE-2).
    pub fn file(&self) -> Vec<u8> {
        let mut out = format!("{}\n", self.next).into_bytes();
        for r in 0..=self.h {
            for c in 0..self.w {
                out.push(if self.closed(Mv(r, c, b'h')) {
                    b'1'
                } else {
                    b'0'
                });
            }
            out.push(b'\n');
            if r < self.h {
                for c in 0..=self.w {
                    out.push(if self.closed(Mv(r, c, b'v')) {
                        b'1'
                    } else {
                        b'0'
                    });
                }
                out.push(b'\n');
            }
        }
        for r in 0..self.h {
            let row: Vec<String> = (0..self.w)
                .map(|c| self.owner[r * self.w + c].to_string())
                .collect();
            out.extend_from_slice(row.join(",").as_bytes());
            out.push(b'\n');
        }
        out
    }
}

/// Everything a game prints on stdout when `moves` (all valid) are played
/// from `start`: grid, then prompt and grid per move, then either the
/// winners line (the last edge closed) or the prompt left waiting.
pub fn expected_stdout(start: &Model, moves: &[Mv]) -> (Vec<u8>, Model) {
    let mut m = start.clone();
    let mut out = m.render();
    if m.open_edges() == 0 {
        out.extend(m.winners_line());
        return (out, m);
    }
    for &mv in moves {
        out.extend_from_slice(&m.prompt());
        m.play(mv);
        out.extend(m.render());
        if m.open_edges() == 0 {
            out.extend(m.winners_line());
            return (out, m);
        }
    }
    out.extend_from_slice(&m.prompt());
    (out, m)
}
