//! Driving one match: both bots started before the first request (MATCH-3),
//! each request sent to the seat the rules ask, each reply judged, a forfeit
//! ending the match at once (END-3), and every process ended afterwards
//! (END-5). Also the seat-size choice of MATCH-2.

use std::path::Path;

use crate::board::{Seat, SizeError};
use crate::bot::{Absent, BotProcess, Player, Reply, Transcript};
use crate::clock::Limits;
use crate::judge::Judge;
use crate::reason::Reason;
use crate::record::Record;

/// MATCH-2's size for seed `seed`: 2 + (seed mod 8).
pub fn size_from_seed(seed: u64) -> u8 {
    2 + (seed % 8) as u8
}

/// Plays a whole match between `a` and `b` and returns its record. The
/// players are finished before this returns.
pub fn play(mut judge: Judge, a: &mut dyn Player, b: &mut dyn Player, limits: Limits) -> Record {
    // Per request: the answer time, and whether nothing at all came.
    let mut asked: Vec<(u64, bool)> = Vec::new();
    while let Some(req) = judge.next_request() {
        let player: &mut dyn Player = match req.seat {
            Seat::A => a,
            Seat::B => b,
        };
        let started = std::time::Instant::now();
        let reply = player.ask(&req.bytes, limits.of(req.first));
        let us = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        match reply {
            Reply::Line(line) => {
                asked.push((us, false));
                // A rejected line ends the match inside the judge.
                let _ = judge.answer(&line);
            }
            Reply::Timeout(partial) => {
                asked.push((us, partial.is_empty()));
                judge.forfeit(Reason::Timeout, &partial);
            }
            Reply::Eof(partial) => {
                asked.push((us, partial.is_empty()));
                judge.forfeit(Reason::Eof, &partial);
            }
        }
    }
    a.finish();
    b.finish();
    let mut record = judge.record();
    for (m, (us, nothing)) in record.moves.iter_mut().zip(asked) {
        m.us = Some(us);
        m.nothing = nothing;
    }
    record
}

/// One seat's bot as started: a process, or nothing when it could not start.
pub enum Contender {
    /// A running bot.
    Running(BotProcess),
    /// A bot that could not be started (judged `eof`, END-3), with why.
    Absent(String),
}

impl Contender {
    /// Starts a shell-quoted command; a failure is kept as [`Contender::Absent`].
    pub fn start(cmd: &str) -> Contender {
        BotProcess::spawn_command(cmd)
            .map_or_else(|e| Contender::Absent(e.to_string()), Contender::Running)
    }

    /// What the bot exchanged (empty for an absent bot).
    pub fn transcript(&self) -> Transcript {
        match self {
            Contender::Running(p) => p.transcript(),
            Contender::Absent(_) => Transcript::default(),
        }
    }

    /// Why the bot could not be started, if it could not (known for a
    /// contained bot once its first request was sent).
    pub fn start_error(&self) -> Option<String> {
        match self {
            Contender::Running(p) => p.start_error().map(str::to_owned),
            Contender::Absent(why) => Some(why.clone()),
        }
    }
}

/// The outcome of [`run_match`].
pub struct Played {
    /// The record.
    pub record: Record,
    /// What each seat exchanged, A then B.
    pub transcripts: [Transcript; 2],
    /// Why each seat's bot could not be started, A then B (`None`: it
    /// started).
    pub start_errors: [Option<String>; 2],
}

/// Starts both commands, plays a match of `size` and ends the processes.
pub fn run_match(p1: &str, p2: &str, size: u8, limits: Limits) -> Result<Played, SizeError> {
    let judge = Judge::new(u64::from(size))?;
    let mut a = Contender::start(p1);
    let mut b = Contender::start(p2);
    let mut absent_a = Absent;
    let mut absent_b = Absent;
    let record = {
        let pa: &mut dyn Player = match &mut a {
            Contender::Running(p) => p,
            Contender::Absent(_) => &mut absent_a,
        };
        let pb: &mut dyn Player = match &mut b {
            Contender::Running(p) => p,
            Contender::Absent(_) => &mut absent_b,
        };
        play(judge, pa, pb, limits)
    };
    Ok(Played {
        record,
        transcripts: [a.transcript(), b.transcript()],
        start_errors: [a.start_error(), b.start_error()],
    })
}

/// Writes each seat's transcript into `dir`: `A.sent`, `A.received`,
/// `A.stderr`, and the same for B.
pub fn write_transcripts(dir: &Path, transcripts: &[Transcript; 2]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (seat, t) in Seat::BOTH.iter().zip(transcripts) {
        std::fs::write(dir.join(format!("{seat}.sent")), &t.sent)?;
        std::fs::write(dir.join(format!("{seat}.received")), &t.received)?;
        std::fs::write(dir.join(format!("{seat}.stderr")), &t.stderr)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A scripted player: answers from a list, then `Eof`.
    struct Script(Vec<Reply>, usize);

    impl Player for Script {
        fn ask(&mut self, _request: &[u8], _limit: Duration) -> Reply {
            self.1 += 1;
            self.0
                .get(self.1 - 1)
                .cloned()
                .unwrap_or(Reply::Eof(Vec::new()))
        }
        fn finish(&mut self) {}
    }

    #[test]
    fn match_2_size_from_seed() {
        assert_eq!(size_from_seed(0), 2);
        assert_eq!(size_from_seed(7), 9);
        assert_eq!(size_from_seed(8), 2);
    }

    #[test]
    fn end_4_judged_only_on_own_requests() {
        // B never answers, but A's forfeit comes first.
        let mut a = Script(vec![Reply::Line(b"A1 R".to_vec())], 0);
        let mut b = Script(vec![Reply::Line(b"A1 L".to_vec())], 0);
        let rec = play(Judge::new(2).unwrap(), &mut a, &mut b, Limits::default());
        let f = rec.forfeit.unwrap();
        assert_eq!((f.seat, f.reason, f.request), (Seat::A, Reason::Eof, 3));
        assert_eq!(rec.winner, Some(Seat::B));
    }

    #[test]
    fn timeout_recorded_with_request_number() {
        let mut a = Script(vec![Reply::Timeout(Vec::new())], 0);
        let mut b = Script(vec![], 0);
        let rec = play(Judge::new(3).unwrap(), &mut a, &mut b, Limits::default());
        let f = rec.forfeit.unwrap();
        assert_eq!((f.seat, f.reason, f.request), (Seat::A, Reason::Timeout, 1));
        assert_eq!(rec.moves.len(), 1);
    }
}
