//! The 3×3 opening book: perfect play from the first move on the board
//! where the whole game can be solved offline but not within a turn.
//!
//! The empty 3×3 board is worth −3 to the player who opens it (the second
//! seat wins by 3 with perfect play). Solving it takes seconds, the first
//! turn allows one, so the answers of the player to move at every position
//! it can meet with more than [`crate::strategy::EXACT_UNLESS_LOST`] free
//! sides while it follows the book, in either seat (the other playing
//! anything, captures and extra turns included), are solved here offline,
//! reduced by the square's 8 symmetries, and checked in as `book3x3.txt`. A test solves
//! the board again and requires the file to be exactly what it derives;
//! from 17 free sides the bot's own search takes over.

use std::sync::OnceLock;

/// Boxes per side of the board the book covers.
pub const SIZE: u8 = 3;
/// Sides of that board.
const EDGES: usize = 24;
/// Positions with more free sides than this are answered by the book.
pub const FROM_FREE: usize = crate::strategy::exact::EXACT_UNLESS_LOST;

/// The checked-in book: one line per position, `MASK MOVE VALUE` with the
/// drawn sides' mask (hex, canonical under the symmetries), the side to
/// draw (an edge index in that orientation) and the position's exact
/// value for the player to move (net boxes from here to the end).
const BOOK: &str = include_str!("book3x3.txt");

/// One book entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Drawn sides, canonical.
    pub mask: u32,
    /// The side to draw, in the canonical orientation.
    pub edge: u8,
    /// Net boxes for the player to move under perfect play.
    pub value: i8,
}

/// The two dots (x, y) an edge of the 3×3 board joins, in the layout of
/// [`crate::board::Board`]: horizontal sides first, line by line.
fn dots(e: usize) -> ((usize, usize), (usize, usize)) {
    let n = usize::from(SIZE);
    if e < n * (n + 1) {
        let (line, col) = (e / n, e % n);
        ((col, line), (col + 1, line))
    } else {
        let k = e - n * (n + 1);
        let (row, line) = (k / (n + 1), k % (n + 1));
        ((line, row), (line, row + 1))
    }
}

/// The edge joining two neighbouring dots.
fn edge_of(a: (usize, usize), b: (usize, usize)) -> Option<usize> {
    let n = usize::from(SIZE);
    let ((x0, y0), (x1, y1)) = (a.min(b), a.max(b));
    if y0 == y1 && x1 == x0 + 1 && x0 < n && y0 <= n {
        Some(y0 * n + x0)
    } else if x0 == x1 && y1 == y0 + 1 && y0 < n && x0 <= n {
        Some(n * (n + 1) + y0 * (n + 1) + x0)
    } else {
        None
    }
}

/// The 8 symmetries of the square as permutations of the edges:
/// `perm[t][e]` is where transform `t` sends edge `e`.
fn symmetries() -> &'static [[u8; EDGES]; 8] {
    static PERMS: OnceLock<[[u8; EDGES]; 8]> = OnceLock::new();
    PERMS.get_or_init(|| {
        let n = usize::from(SIZE);
        let mut perms = [[0u8; EDGES]; 8];
        for (t, perm) in perms.iter_mut().enumerate() {
            let map = |(x, y): (usize, usize)| {
                let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
                let x = if t & 1 != 0 { n - x } else { x };
                if t & 2 != 0 { (x, n - y) } else { (x, y) }
            };
            for (e, slot) in perm.iter_mut().enumerate() {
                let (a, b) = dots(e);
                *slot = edge_of(map(a), map(b)).map_or(0, |i| i as u8);
            }
        }
        perms
    })
}

fn permute(mask: u32, perm: &[u8; EDGES]) -> u32 {
    (0..EDGES)
        .filter(|&e| mask & (1 << e) != 0)
        .fold(0, |m, e| m | 1 << perm.get(e).copied().unwrap_or(0))
}

/// The canonical form of `mask` (the least of its 8 images) and the first
/// transform that gives it.
pub fn canonical(mask: u32) -> (u32, usize) {
    symmetries()
        .iter()
        .enumerate()
        .map(|(t, p)| (permute(mask, p), t))
        .min()
        .unwrap_or((mask, 0))
}

/// Sends a canonical edge back through transform `t`.
fn unmap(edge: u8, t: usize) -> Option<u8> {
    let perm = symmetries().get(t)?;
    perm.iter().position(|&p| p == edge).map(|e| e as u8)
}

fn parse(book: &str) -> Vec<Entry> {
    let mut entries: Vec<Entry> = book
        .lines()
        .filter_map(|line| {
            let mut f = line.split_whitespace();
            Some(Entry {
                mask: u32::from_str_radix(f.next()?, 16).ok()?,
                edge: f.next()?.parse().ok()?,
                value: f.next()?.parse().ok()?,
            })
        })
        .collect();
    entries.sort_by_key(|e| e.mask);
    entries
}

fn entries() -> &'static [Entry] {
    static ENTRIES: OnceLock<Vec<Entry>> = OnceLock::new();
    ENTRIES.get_or_init(|| parse(BOOK))
}

/// The book's answer at the position whose drawn sides are `mask`: the
/// side to draw (in the board's own orientation) and the position's value
/// for the player to move; `None` off the book.
pub fn lookup(mask: u32) -> Option<(u8, i8)> {
    let (c, t) = canonical(mask);
    let all = entries();
    let i = all.binary_search_by_key(&c, |e| e.mask).ok()?;
    let entry = all.get(i)?;
    Some((unmap(entry.edge, t)?, entry.value))
}

/// The exact value of every position of the 3×3 board, for the player to
/// move: a dense table indexed by the drawn sides' mask, solved from the
/// full board down (a side added never makes the mask smaller).
pub fn solve_all() -> Vec<i8> {
    let boxes = box_masks();
    // The one or two boxes beside each side, looked up rather than all
    // nine scanned: 2^24 positions times 24 sides is what the book's tests
    // spend (9.5 s at the test profile, 4.5 s now).
    let beside: Vec<Vec<u32>> = (0..EDGES)
        .map(|e| {
            boxes
                .iter()
                .copied()
                .filter(|b| b & (1 << e) != 0)
                .collect()
        })
        .collect();
    let full: u32 = (1 << EDGES) - 1;
    let mut value = vec![0i8; 1 << EDGES];
    for mask in (0..full).rev() {
        let best = beside
            .iter()
            .enumerate()
            .filter(|&(e, _)| mask & (1 << e) == 0)
            .map(|(e, beside_e)| {
                let next = mask | 1 << e;
                let rest = value.get(next as usize).copied().unwrap_or(0);
                match beside_e.iter().filter(|&&b| next & b == b).count() as i8 {
                    0 => -rest,
                    c => c + rest,
                }
            })
            .max()
            .unwrap_or(0);
        if let Some(v) = value.get_mut(mask as usize) {
            *v = best;
        }
    }
    value
}

/// The four sides of each box, as masks.
fn box_masks() -> Vec<u32> {
    let n = usize::from(SIZE);
    let mut boxes = Vec::with_capacity(n * n);
    for row in 0..n {
        for col in 0..n {
            let sides = [
                edge_of((col, row), (col + 1, row)),
                edge_of((col, row + 1), (col + 1, row + 1)),
                edge_of((col, row), (col, row + 1)),
                edge_of((col + 1, row), (col + 1, row + 1)),
            ];
            boxes.push(sides.iter().flatten().fold(0, |m, &e| m | 1 << e));
        }
    }
    boxes
}

/// Boxes that drawing `e` on `mask` completes.
fn completed(boxes: &[u32], mask: u32, e: usize) -> i8 {
    let next = mask | 1 << e;
    boxes
        .iter()
        .filter(|&&b| b & (1 << e) != 0 && next & b == b)
        .count() as i8
}

/// [`solve_all`] once for the tests that read the whole table.
#[cfg(test)]
pub(crate) fn solved() -> &'static [i8] {
    static SOLVED: OnceLock<Vec<i8>> = OnceLock::new();
    SOLVED.get_or_init(solve_all)
}

/// The value for the mover of drawing `e` on `mask`, given the table.
#[cfg(test)]
pub(crate) fn value_after(value: &[i8], mask: u32, e: usize) -> i8 {
    after(value, &box_masks(), mask, e)
}

fn after(value: &[i8], boxes: &[u32], mask: u32, e: usize) -> i8 {
    let rest = value.get((mask | 1 << e) as usize).copied().unwrap_or(0);
    match completed(boxes, mask, e) {
        0 => -rest,
        c => c + rest,
    }
}

/// The book derived from the solved table: every position the player to
/// move can meet with more than [`FROM_FREE`] free sides while it follows
/// the book (its opponent playing anything), in the file's format.
pub fn derive(value: &[i8]) -> String {
    let boxes = box_masks();
    let mut book = std::collections::BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    // (mask, whether the book's player is to move), from either seat.
    let mut stack = vec![(0u32, false), (0u32, true)];
    while let Some((mask, ours)) = stack.pop() {
        let free = EDGES - mask.count_ones() as usize;
        if free <= FROM_FREE || !seen.insert((mask, ours)) {
            continue;
        }
        let next = |e: usize| {
            let again = completed(&boxes, mask, e) > 0;
            (mask | 1 << e, if again { ours } else { !ours })
        };
        if ours {
            let (c, t) = canonical(mask);
            let entry = *book
                .entry(c)
                .or_insert_with(|| best_entry(value, &boxes, c));
            if let Some(e) = unmap(entry.edge, t) {
                stack.push(next(usize::from(e)));
            }
        } else {
            stack.extend((0..EDGES).filter(|&e| mask & (1 << e) == 0).map(next));
        }
    }
    book.values().fold(String::new(), |mut out, e: &Entry| {
        use std::fmt::Write as _;
        let _ = writeln!(out, "{:06x} {} {}", e.mask, e.edge, e.value);
        out
    })
}

/// The first side of the best value at canonical position `mask`.
fn best_entry(value: &[i8], boxes: &[u32], mask: u32) -> Entry {
    let best = (0..EDGES)
        .filter(|&e| mask & (1 << e) == 0)
        .map(|e| (after(value, boxes, mask, e), std::cmp::Reverse(e)))
        .max();
    let (v, std::cmp::Reverse(e)) = best.unwrap_or((0, std::cmp::Reverse(0)));
    Entry {
        mask,
        edge: e as u8,
        value: v,
    }
}

#[cfg(test)]
#[path = "book_tests.rs"]
mod tests;
