//! The conversation driver: the harness plays the referee for one case.
//! It starts the bot, asks it exactly as the rules say (the bot's seat from
//! the script, the other seat played by the harness: the script's opening,
//! then its forcing search or cg-bot's strategy), and checks each answer:
//! the grammar of ANSWER-3 (one CR before the LF accepted, ANSWER-2), the
//! length of ANSWER-5, the box on the board and the side free by either of
//! its names (MOVE-1), the answer on time (TIME-1, TIME-2, scaled by the time
//! factor) and the output still open (END-3). The first answer that breaks
//! a rule ends the conversation (as a forfeit ends a match) and is reported
//! with the request sent, the answer received and the rule.
//!
//! One piece: the conversation driver is one loop over the exchange
//! with the bot: the rule each answer may break, the opponent playing
//! the other seat and the reproduce line are read at every turn of it.

use std::fmt::Write as _;

use codingame_reference::board::{Board, Edge, Seat};
use codingame_reference::bot::{BotProcess, Player, Reply};
use codingame_reference::clock::Limits;
use codingame_reference::contain::Running;
use codingame_reference::greedy::name_of;
use codingame_reference::judge::{Judge, Reason};
use codingame_reference::{client, strategy};
use conformance_engine::driver::{CaseDriver, Conversation, DriveSettings, Exchange};
use conformance_engine::interrupt::{Interrupted, Killer, Ticket};
use conformance_engine::run::Target;
use conformance_engine::{quote, visible};

use crate::force::{self, Forcer, Scenario};
use crate::script::{self, Script};

/// The codingame conversation driver.
#[derive(Debug, Clone, Copy, Default)]
pub struct Driver;

/// The rule an END-3 reason breaks, and what it means for the answer.
pub fn rule_of(reason: Reason) -> (&'static str, &'static str) {
    match reason {
        Reason::Syntax => (
            "ANSWER-3",
            "not an answer line `^[A-Z][0-9] [LTRB]( MSG( .*)?)?$` (END-3: syntax)",
        ),
        Reason::TooLong => ("ANSWER-5", "longer than 10,240 bytes (END-3: too-long)"),
        Reason::NoSuchBox => (
            "MOVE-1",
            "names a box not on this board (END-3: no-such-box)",
        ),
        Reason::SideTaken => (
            "MOVE-1",
            "names a side already drawn, by one of its two names (END-3: side-taken)",
        ),
        Reason::Timeout => (
            "TIME-2",
            "no complete answer line within the limit (END-3: timeout)",
        ),
        Reason::Eof => (
            "END-3",
            "the output ended before the answer line was complete (END-3: eof)",
        ),
    }
}

/// Lines of a bot's stderr a failure quotes when its output ended.
const STDERR_LINES: usize = 3;

/// The report of an answer that broke a rule.
fn exchange(
    reason: Reason,
    request: &codingame_reference::judge::Request,
    limit: std::time::Duration,
    received: Vec<u8>,
    asked: u32,
    why_ended: Option<String>,
) -> Exchange {
    let (rule, meaning) = rule_of(reason);
    let mut message = meaning.to_owned();
    if reason == Reason::Timeout {
        let _ = write!(
            message,
            "; the limit of this request was {} ms ({})",
            limit.as_millis(),
            if request.first {
                "the bot's first request"
            } else {
                "a later request"
            }
        );
    }
    if reason == Reason::Syntax && received.ends_with(b"\r\r\n") {
        message.push_str("; only one CR before the LF is removed (ANSWER-2)");
    }
    if let Some(note) = why_ended {
        let _ = write!(message, "; {note}");
    }
    Exchange {
        rule: rule.to_owned(),
        message,
        number: asked,
        request: request.bytes.clone(),
        answer: received,
    }
}

/// The program's command words and the variables it needs.
fn command(program: &Target) -> (Vec<String>, Vec<(String, String)>) {
    let mut words = vec![program.path().to_string_lossy().into_owned()];
    words.extend(
        program
            .words()
            .iter()
            .map(|w| w.to_string_lossy().into_owned()),
    );
    let env = program
        .reference_env()
        .map(|(k, v)| vec![(k.to_owned(), v.to_owned())])
        .unwrap_or_default();
    (words, env)
}

/// `printf '<requests>' | CMD`: the requests fed at once replay the
/// conversation (ANSWER-1: a bot reads them one at a time).
fn reproduce(program: &Target, sent: &[u8]) -> String {
    let (mut words, env) = command(program);
    // The command runs the bot by a path a shell can run: the built-in
    // reference's own (`/proc/self/exe` would name the shell).
    if let Some(first) = words.first_mut() {
        *first = program.shown_path().to_string_lossy().into_owned();
    }
    let mut cmd = format!("printf {} |", quote::printf_format(sent));
    for (k, v) in env {
        let _ = write!(cmd, " {k}={}", quote::shell_quote(&v));
    }
    for w in words {
        let _ = write!(cmd, " {}", quote::shell_quote(&w));
    }
    cmd
}

/// How the harness plays the other seat.
struct Opponent {
    opening: std::vec::IntoIter<String>,
    forcer: Option<Forcer>,
    offer_double: bool,
    rng: fastrand::Rng,
}

impl Opponent {
    fn new(script: &Script, board: &Board) -> Opponent {
        let forcer = script
            .force
            .filter(|s| *s != Scenario::DoubleClose)
            .and_then(|s| Forcer::new(board, s));
        Opponent {
            opening: script.opening.clone().into_iter(),
            forcer,
            offer_double: script.force == Some(Scenario::DoubleClose),
            rng: fastrand::Rng::with_seed(script.seed),
        }
    }

    fn line(&mut self, judge: &Judge, bot: Seat, achieved: bool) -> Result<Vec<u8>, String> {
        if let Some(line) = self.opening.next() {
            return Ok(line.into_bytes());
        }
        let board = judge.board();
        let mine = board.score(bot.other());
        let theirs = board.score(bot);
        let forced = match (&mut self.forcer, achieved) {
            (Some(f), false) => Some(f.forcing_move(board, bot).ok_or_else(|| {
                "the harness's seat cannot force the script's scenario from here \
                 (a fault of the suite)"
                    .to_owned()
            })?),
            _ => None,
        };
        let offered = if self.offer_double && !achieved {
            force::offers_double(board)
        } else {
            None
        };
        let lead = i64::from(mine) - i64::from(theirs);
        let edge = forced
            .or(offered)
            .or_else(|| strategy::choose(board, lead as i32, &mut self.rng))
            .ok_or("no free side for the harness's seat")?;
        name_line(board, edge)
    }
}

fn name_line(board: &Board, edge: Edge) -> Result<Vec<u8>, String> {
    name_of(board, edge)
        .map(|(b, s)| client::answer_line(b, s))
        .ok_or_else(|| "a side without a box".to_owned())
}

/// Whether a scenario shows in the request about to go to the bot.
fn shows(
    script: &Script,
    forcer: Option<&Forcer>,
    board: &Board,
    bot: Seat,
    closed: Option<u8>,
) -> bool {
    match script.force {
        None => true,
        Some(Scenario::DoubleClose) => closed == Some(2),
        Some(_) => forcer.is_some_and(|f| f.shows(board, bot, closed)),
    }
}

impl CaseDriver for Driver {
    fn check(&self, script: &serde_json::Value) -> Result<(), String> {
        script::parse(script).map(|_| ())
    }

    /// Seat A's first request of a 2x2 match: a bot whose output ends
    /// before it answers (it crashed, or exits at once) would fail every
    /// case the same way.
    fn preflight(&self, program: &Target, settings: DriveSettings) -> Result<(), String> {
        let limits = Limits::scaled(settings.time_factor).map_err(|e| e.to_string())?;
        let judge = Judge::new(2).map_err(|e| e.to_string())?;
        let request = judge
            .next_request()
            .ok_or("a 2x2 match has no first request: a fault of the harness")?;
        let (words, env) = command(program);
        let (_ticket, _folder, process) = start_registered(&words, &env)?;
        let mut process = process.map_err(|e| format!("the bot could not be started: {e}"))?;
        let reply = process.ask(&request.bytes, limits.of(true));
        let verdict = match reply {
            Reply::Eof(_) => Err(format!(
                "the bot's output ended before it answered its first request (seat A of a 2x2 \
                 match: {}){}; no case was run",
                visible::escape(&request.bytes),
                process
                    .start_error()
                    .map(|e| format!("; it could not be started: {e}"))
                    .or_else(|| process.ending_note(STDERR_LINES).map(|n| format!("; {n}")))
                    .unwrap_or_default()
            )),
            Reply::Line(_) | Reply::Timeout(_) => Ok(()),
        };
        process.finish();
        verdict
    }

    fn drive(
        &self,
        value: &serde_json::Value,
        program: &Target,
        settings: DriveSettings,
    ) -> Result<Conversation, String> {
        let script = script::parse(value)?;
        let limits = Limits::scaled(settings.time_factor).map_err(|e| e.to_string())?;
        let bot = Seat::from(script.seat);
        let mut judge = Judge::new(u64::from(script.size)).map_err(|e| e.to_string())?;
        let mut opponent = Opponent::new(&script, judge.board());
        let (words, env) = command(program);
        let mut exchanges = Vec::new();
        let mut sent = Vec::new();
        let mut asked = 0u32;
        let mut achieved = script.force.is_none();
        // What the bot's last move closed, while the bot keeps the move.
        let mut bot_closed: Option<u8> = None;
        let (_ticket, _folder, mut process) = start_registered(&words, &env)?;
        let ending = loop {
            let Some(request) = judge.next_request() else {
                break format!("the match ended after {asked} requests to the bot");
            };
            if request.seat != bot {
                bot_closed = None;
                let line = opponent.line(&judge, bot, achieved)?;
                judge.answer(&line).map_err(|r| {
                    format!(
                        "the harness's line `{}` is not legal ({}): a fault of the suite",
                        String::from_utf8_lossy(&line),
                        r.code()
                    )
                })?;
                continue;
            }
            if !achieved {
                achieved = shows(
                    &script,
                    opponent.forcer.as_ref(),
                    judge.board(),
                    bot,
                    bot_closed,
                );
            }
            asked += 1;
            sent.extend_from_slice(&request.bytes);
            let limit = limits.of(request.first);
            let reply = match &mut process {
                Ok(p) => p.ask(&request.bytes, limit),
                Err(_) => Reply::Eof(Vec::new()),
            };
            let before = judge.board().score(bot);
            let (verdict, received) = match reply {
                Reply::Line(line) => {
                    let verdict = judge.answer(&line).err();
                    let mut shown = line;
                    shown.push(b'\n');
                    (verdict, shown)
                }
                Reply::Timeout(partial) => (Some(Reason::Timeout), partial),
                Reply::Eof(partial) => (Some(Reason::Eof), partial),
            };
            if let Some(reason) = verdict {
                exchanges.push(exchange(
                    reason,
                    &request,
                    limit,
                    received,
                    asked,
                    // A bot that could not start, or whose output ended:
                    // why, and how it ended, so a crash names itself.
                    match &process {
                        Ok(p) => p
                            .start_error()
                            .map(|e| format!("the bot could not be started: {e}"))
                            .or_else(|| {
                                (reason == Reason::Eof)
                                    .then(|| p.ending_note(STDERR_LINES))
                                    .flatten()
                            }),
                        Err(e) => Some(format!("the bot could not be started: {e}")),
                    },
                ));
                break format!("stopped at request {asked} to the bot");
            }
            let after = judge.board().score(bot);
            bot_closed = Some((after - before) as u8);
            if script.requests.is_some_and(|n| asked >= n) {
                break format!("stopped after {asked} requests to the bot, as the script says");
            }
        };
        if let Ok(p) = &mut process {
            p.finish();
        }
        if exchanges.is_empty() && !achieved && script.force != Some(Scenario::DoubleClose) {
            return Err(format!(
                "the script's scenario `{:?}` never showed ({ending}): a fault of the suite",
                script.force
            ));
        }
        Ok(Conversation {
            exchanges,
            reproduce: reproduce(program, &sent),
            ending,
            no_start: None,
            score: None,
        })
    }
}

/// Starts the bot with its folder inside one registered with the engine's
/// interrupt registry, so that a Ctrl-C kills the bot and removes its
/// folder. The ticket and the folder live as long as the conversation.
fn start_registered(
    words: &[String],
    env: &[(String, String)],
) -> Result<(Ticket, tempfile::TempDir, std::io::Result<BotProcess>), String> {
    let (ticket, folder) = match Ticket::register(|| {
        let folder = tempfile::Builder::new()
            .prefix("conformance-bot-")
            .tempdir()?;
        let path = folder.path().to_owned();
        Ok((folder, path))
    }) {
        Err(Interrupted) => return Err("interrupted".to_owned()),
        Ok(Err(e)) => return Err(format!("cannot make the bot's folder: {e}")),
        Ok(Ok(made)) => made,
    };
    let process = BotProcess::spawn_in(words, env, Some(folder.path()));
    if let Some(running) = process.as_ref().ok().and_then(BotProcess::running) {
        let killer = match running {
            Running::Group(pid) => Killer::Group(pid),
            Running::Keeper(pid) => Killer::Keeper(pid),
        };
        if ticket.started(killer).is_err() {
            return Err("interrupted".to_owned());
        }
    }
    Ok((ticket, folder, process))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_names_its_rule_and_code() {
        for reason in Reason::ALL {
            let (rule, meaning) = rule_of(reason);
            assert!(rule.contains('-'), "{rule}");
            assert!(meaning.contains(reason.code()), "{meaning}");
        }
    }

    #[test]
    fn a_timeout_says_which_limit() {
        let judge = Judge::new(2).unwrap();
        let request = judge.next_request().unwrap();
        let x = exchange(
            Reason::Timeout,
            &request,
            std::time::Duration::from_secs(1),
            Vec::new(),
            1,
            None,
        );
        assert_eq!(x.rule, "TIME-2");
        assert!(
            x.message.contains("1000 ms (the bot's first request)"),
            "{}",
            x.message
        );
        let x = exchange(
            Reason::Syntax,
            &request,
            std::time::Duration::ZERO,
            b"A1 T\r\r\n".to_vec(),
            1,
            None,
        );
        assert!(x.message.contains("ANSWER-2"), "{}", x.message);
    }

    #[test]
    fn the_replay_command_feeds_every_request() {
        let t = Target::command("sh -c 'cat'").unwrap();
        let cmd = reproduce(&t, b"2\nA\n");
        assert!(cmd.starts_with("printf '2\\nA\\n' | "), "{cmd}");
        assert!(cmd.ends_with(" -c cat"), "{cmd}");
    }
}
