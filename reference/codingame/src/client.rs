//! The bot's side of the protocol: reading requests (INIT-1, TURN-1) into a
//! board rebuilt from the free sides listed, and writing an answer line.
//! Every bot of this crate reads through here.

use std::io::{self, BufRead, Write};

use crate::board::{Board, BoxId, Seat, Side};

/// One request as a bot sees it.
#[derive(Debug, Clone)]
pub struct View {
    /// The bot's own seat.
    pub seat: Seat,
    /// The board: sides listed free are free, every other side drawn.
    pub board: Board,
    /// Boxes the bot owns.
    pub own: u32,
    /// Boxes its opponent owns.
    pub opponent: u32,
    /// Whether this was the bot's first request.
    pub first: bool,
}

/// A request that does not follow TURN-1.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// Reading failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The bytes do not form a request.
    #[error("malformed request: {0}")]
    Malformed(&'static str),
}

/// Reads requests from a bot's standard input.
pub struct Client<R> {
    input: R,
    init: Option<(u64, Seat)>,
    line: String,
}

impl<R: BufRead> Client<R> {
    /// A client over `input`.
    pub fn new(input: R) -> Client<R> {
        Client {
            input,
            init: None,
            line: String::new(),
        }
    }

    fn read_line(&mut self) -> Result<Option<&str>, ClientError> {
        self.line.clear();
        if self.input.read_line(&mut self.line)? == 0 {
            return Ok(None);
        }
        Ok(Some(self.line.trim_end_matches(['\n', '\r'])))
    }

    fn expect_line(&mut self, what: &'static str) -> Result<String, ClientError> {
        self.read_line()?
            .map(str::to_owned)
            .ok_or(ClientError::Malformed(what))
    }

    /// The next request, or `None` when the input ends first.
    pub fn next_view(&mut self) -> Result<Option<View>, ClientError> {
        let first = self.init.is_none();
        if first {
            let Some(size) = self.read_line()?.map(str::to_owned) else {
                return Ok(None);
            };
            let size: u64 = size.parse().map_err(|_| ClientError::Malformed("size"))?;
            let seat = match self.expect_line("seat")?.as_str() {
                "A" => Seat::A,
                "B" => Seat::B,
                _ => return Err(ClientError::Malformed("seat")),
            };
            self.init = Some((size, seat));
        }
        let Some((size, seat)) = self.init else {
            return Err(ClientError::Malformed("init"));
        };
        let scores = if first {
            self.expect_line("scores")?
        } else {
            match self.read_line()? {
                Some(l) => l.to_owned(),
                None => return Ok(None),
            }
        };
        let (own, opponent) = scores
            .split_once(' ')
            .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
            .ok_or(ClientError::Malformed("scores"))?;
        let count: usize = self
            .expect_line("count")?
            .parse()
            .map_err(|_| ClientError::Malformed("count"))?;
        let mut board = Board::new(size).map_err(|_| ClientError::Malformed("size"))?;
        for e in board.edges() {
            board.set_drawn(e, true);
        }
        for _ in 0..count {
            let l = self.expect_line("box")?;
            let (name, sides) = l.split_once(' ').ok_or(ClientError::Malformed("box"))?;
            let &[c, r] = name.as_bytes() else {
                return Err(ClientError::Malformed("box name"));
            };
            let b = board
                .box_at(c.wrapping_sub(b'A'), r.wrapping_sub(b'1'))
                .ok_or(ClientError::Malformed("box name"))?;
            for s in sides.bytes() {
                let free = Side::from_letter(s).ok_or(ClientError::Malformed("side"))?;
                board.set_drawn(board.edge(b, free), false);
            }
        }
        Ok(Some(View {
            seat,
            board,
            own,
            opponent,
            first,
        }))
    }
}

/// The answer line for `side` of `b`, without its `\n`.
pub fn answer_line(b: BoxId, side: Side) -> Vec<u8> {
    let mut line = b.name().to_vec();
    line.extend([b' ', side.letter()]);
    line
}

/// Writes `line` and a `\n`, flushed.
pub fn send(out: &mut impl Write, line: &[u8]) -> io::Result<()> {
    out.write_all(line)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// Runs a bot loop: each request's board goes to `choose`, its answer is sent.
pub fn serve(mut choose: impl FnMut(&View) -> Vec<u8>) -> Result<(), ClientError> {
    let stdin = io::stdin();
    let mut client = Client::new(stdin.lock());
    let mut out = io::stdout().lock();
    while let Some(view) = client.next_view()? {
        send(&mut out, &choose(&view))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_turn_4_requests() {
        let input =
            b"2\nB\n0 0\n4\nA1 LTB\nB1 TRB\nA2 LTRB\nB2 LTRB\n1 0\n3\nB1 TRB\nA2 LTR\nB2 LTRB\n";
        let mut c = Client::new(&input[..]);
        let v = c.next_view().unwrap().unwrap();
        assert!(v.first && v.seat == Seat::B);
        assert_eq!(v.board.free_edges().count(), 11);
        let v = c.next_view().unwrap().unwrap();
        assert_eq!((v.own, v.opponent, v.first), (1, 0, false));
        let a1 = BoxId { col: 0, row: 0 };
        assert_eq!(v.board.drawn_count(a1), 4);
        assert!(c.next_view().unwrap().is_none());
    }
}
