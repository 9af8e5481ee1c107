//! A local arena: a round robin between named bots, seats swapped in pairs
//! (MATCH-1), sizes spread over a range, matches run by a pool of workers
//! (each match contained as in [`crate::referee`]), a progress bar on a
//! terminal or a line per finished match elsewhere, then a win-rate table
//! in the manner of cg-brutaltester with Wilson intervals, breakdowns per
//! board size and per seat, answer times, forfeits by reason and ratings
//! fitted on all results at once ([`crate::ratings`]: the same results in
//! any order give the same table). Every record, and each bot's stderr, is
//! kept in a folder so that `cg-referee replay` can re-judge it; a match
//! that could not be played is listed with why.
//!
//! The standings and the table are tallied and written in `standings`,
//! from the matches as `outcome` states them.
//!
//! One piece: the arena's run (arguments, schedule, the worker pool,
//! progress, records) is one command; its standings are `standings`,
//! and about 125 lines are tests.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::board::{MAX_SIZE, MIN_SIZE, Seat};
use crate::clock::Limits;
use crate::exit::Exit;
use crate::referee::run_match;

mod outcome;
mod standings;

pub use outcome::{Entrant, Fixture, Outcome};

pub use standings::{Standing, Times, Wdl, standings, table};

/// `cg-referee arena` options.
#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// A bot as NAME=CMD (CMD one shell-quoted string); two or more.
    #[arg(long = "bot", value_name = "NAME=CMD", required = true)]
    bots: Vec<String>,
    /// Matches per pair of bots (rounded up to an even number: seats swap).
    #[arg(long, default_value_t = 10)]
    matches: u32,
    /// Board sizes, as `N` or `LO-HI` within 2-9.
    #[arg(long, default_value = "2-9")]
    sizes: String,
    /// Matches run at once (0: one per core).
    #[arg(long, short = 'j', visible_alias = "test-threads", default_value_t = 2)]
    jobs: usize,
    /// Seed that spreads the sizes.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Writes the results (JSON) to this file.
    #[arg(long)]
    results: Option<PathBuf>,
    /// Folder for the match records (default `cg-arena-records`).
    #[arg(long, value_name = "DIR", default_value = "cg-arena-records")]
    records: PathBuf,
    /// Scales every time limit (TIME-5).
    #[arg(long, default_value_t = 1.0)]
    time_factor: f64,
}

/// A bad arena argument.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArenaError {
    /// A `--bot` without `NAME=`.
    #[error("--bot takes NAME=CMD, not `{0}`")]
    Bot(String),
    /// Fewer than two bots, or a name used twice.
    #[error("an arena needs two or more bots with distinct names")]
    Bots,
    /// A size range that is not within 2-9.
    #[error("--sizes takes N or LO-HI within 2-9, not `{0}`")]
    Sizes(String),
}

/// Parses `NAME=CMD`.
pub fn parse_bot(spec: &str) -> Result<Entrant, ArenaError> {
    match spec.split_once('=') {
        Some((name, cmd)) if !name.is_empty() && !cmd.trim().is_empty() => Ok(Entrant {
            name: name.to_owned(),
            cmd: cmd.to_owned(),
        }),
        _ => Err(ArenaError::Bot(spec.to_owned())),
    }
}

/// Parses `N` or `LO-HI`.
pub fn parse_sizes(text: &str) -> Result<(u8, u8), ArenaError> {
    let bad = || ArenaError::Sizes(text.to_owned());
    let (lo, hi) = text.split_once('-').unwrap_or((text, text));
    let lo: u8 = lo.trim().parse().map_err(|_| bad())?;
    let hi: u8 = hi.trim().parse().map_err(|_| bad())?;
    if MIN_SIZE <= lo && lo <= hi && hi <= MAX_SIZE {
        Ok((lo, hi))
    } else {
        Err(bad())
    }
}

/// The round robin: for each pair, `matches` (rounded up to even) matches,
/// seats swapped within each two, the pair's size stepping through the
/// range from an offset set by `seed`.
pub fn schedule(entrants: usize, matches: u32, sizes: (u8, u8), seed: u64) -> Vec<Fixture> {
    let per_pair = matches.div_ceil(2) * 2;
    let span = u64::from(sizes.1 - sizes.0) + 1;
    let mut out = Vec::new();
    for i in 0..entrants {
        for j in i + 1..entrants {
            for k in 0..per_pair {
                let size = sizes.0 + ((seed + u64::from(k / 2)) % span) as u8;
                let (a, b) = if k % 2 == 0 { (i, j) } else { (j, i) };
                out.push(Fixture {
                    index: out.len() + 1,
                    a,
                    b,
                    size,
                });
            }
        }
    }
    out
}

/// A match that could not be played, with why.
#[derive(Debug, Clone, Serialize)]
pub struct Failed {
    /// What was to be played.
    #[serde(flatten)]
    pub fixture: Fixture,
    /// Why it was not.
    pub why: String,
}

/// The results of an arena.
#[derive(Debug, Clone, Serialize)]
pub struct Results {
    /// The bots.
    pub bots: Vec<Entrant>,
    /// One line per bot, best rating first.
    pub standings: Vec<Standing>,
    /// Every match in order.
    pub matches: Vec<Outcome>,
    /// Matches that could not be played.
    pub failed: Vec<Failed>,
    /// The answer time limit of a later request, in milliseconds (TIME-2,
    /// scaled): what the answer times compare with.
    pub limit_ms: f64,
}

/// How a match played by [`play_all`] went.
pub type Played = Result<Outcome, Failed>;

/// Plays every fixture with `jobs` workers; `progress` sees each finished
/// (or failed) match with the count done so far. Records, and each bot's
/// stderr when it wrote any, are written into `records`.
pub fn play_all(
    entrants: &[Entrant],
    fixtures: &[Fixture],
    jobs: usize,
    limits: Limits,
    records: &Path,
    progress: &(dyn Fn(usize, &Played) + Sync),
) -> std::io::Result<(Vec<Outcome>, Vec<Failed>)> {
    std::fs::create_dir_all(records)?;
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let mut played: Vec<Played> = Vec::with_capacity(fixtures.len());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                while let Some(f) = fixtures.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let one = play_one(entrants, *f, limits, records);
                    if tx.send(one).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for one in rx {
            progress(played.len() + 1, &one);
            played.push(one);
        }
    });
    let mut outcomes = Vec::new();
    let mut failed = Vec::new();
    for one in played {
        match one {
            Ok(o) => outcomes.push(o),
            Err(f) => failed.push(f),
        }
    }
    outcomes.sort_by_key(|o| o.fixture.index);
    failed.sort_by_key(|f| f.fixture.index);
    Ok((outcomes, failed))
}

/// One match, its record and the bots' stderr written.
fn play_one(entrants: &[Entrant], f: Fixture, limits: Limits, records: &Path) -> Played {
    let fail = |why: String| Failed { fixture: f, why };
    let (Some(a), Some(b)) = (entrants.get(f.a), entrants.get(f.b)) else {
        return Err(fail("no such bot".to_owned()));
    };
    let played = run_match(&a.cmd, &b.cmd, f.size, limits).map_err(|e| fail(e.to_string()))?;
    let stem = format!(
        "{:05}-{}-vs-{}-{}x{}",
        f.index, a.name, b.name, f.size, f.size
    );
    let record_file = records.join(format!("{stem}.json"));
    std::fs::write(&record_file, format!("{}\n", played.record.to_json()))
        .map_err(|e| fail(format!("cannot write {}: {e}", record_file.display())))?;
    for (seat, t) in Seat::BOTH.iter().zip(&played.transcripts) {
        if !t.stderr.is_empty() {
            let path = records.join(format!("{stem}.{seat}.stderr"));
            std::fs::write(&path, &t.stderr)
                .map_err(|e| fail(format!("cannot write {}: {e}", path.display())))?;
        }
    }
    let start_errors = played
        .start_errors
        .iter()
        .zip(Seat::BOTH)
        .filter_map(|(e, seat)| {
            e.as_ref()
                .map(|e| format!("bot {seat} could not start: {e}"))
        })
        .collect();
    Ok(Outcome {
        fixture: f,
        a_name: a.name.clone(),
        b_name: b.name.clone(),
        record_file,
        record: played.record,
        start_errors,
    })
}

fn entrants_of(args: &ArenaArgs) -> Result<Vec<Entrant>, ArenaError> {
    let entrants = args
        .bots
        .iter()
        .map(|b| parse_bot(b))
        .collect::<Result<Vec<_>, _>>()?;
    let mut names: Vec<&str> = entrants.iter().map(|e| e.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    if entrants.len() < 2 || names.len() != entrants.len() {
        return Err(ArenaError::Bots);
    }
    Ok(entrants)
}

/// Runs `cg-referee arena`.
pub fn run(args: &ArenaArgs) -> Exit {
    let setup = entrants_of(args).and_then(|e| Ok((e, parse_sizes(&args.sizes)?)));
    let (entrants, sizes) = match setup {
        Ok(s) => s,
        Err(e) => {
            eprintln!("cg-referee arena: {e}");
            return Exit::Usage;
        }
    };
    for e in &entrants {
        if let Err(err) = crate::bot::split_command(&e.cmd) {
            eprintln!("cg-referee arena: {}: {err}", e.name);
            return Exit::Usage;
        }
    }
    let Ok(limits) = Limits::scaled(args.time_factor) else {
        eprintln!("cg-referee arena: the time factor must be a positive number");
        return Exit::Usage;
    };
    let fixtures = schedule(entrants.len(), args.matches, sizes, args.seed);
    let total = fixtures.len();
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(total as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} matches {per_sec} eta {eta}")
        {
            bar.set_style(style);
        }
        bar
    });
    // Without a terminal (a log, CI) a line per finished match, as nextest
    // and cg-brutaltester print them.
    let progress = |done: usize, one: &Played| match &bar {
        Some(bar) => bar.inc(1),
        None => eprintln!("{}", progress_line(done, total, &entrants, one)),
    };
    let played = play_all(
        &entrants,
        &fixtures,
        match args.jobs {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        },
        limits,
        &args.records,
        &progress,
    );
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let (outcomes, failed) = match played {
        Ok(o) => o,
        Err(e) => {
            eprintln!(
                "cg-referee arena: cannot write records in {}: {e}",
                args.records.display()
            );
            return Exit::Usage;
        }
    };
    let standings = standings(&entrants, &outcomes);
    print!("{}", table(&standings));
    for f in &failed {
        println!(
            "match {} ({} vs {}, {}x{}) not played: {}",
            f.fixture.index,
            entrants.get(f.fixture.a).map_or("?", |e| e.name.as_str()),
            entrants.get(f.fixture.b).map_or("?", |e| e.name.as_str()),
            f.fixture.size,
            f.fixture.size,
            f.why
        );
    }
    println!("\nrecords in {}", args.records.display());
    if let Some(path) = &args.results {
        let results = Results {
            bots: entrants,
            standings,
            matches: outcomes,
            failed,
            limit_ms: limits.of(false).as_secs_f64() * 1000.0,
        };
        let json = serde_json::to_string_pretty(&results).unwrap_or_default();
        if let Err(e) = std::fs::write(path, json + "\n") {
            eprintln!("cg-referee arena: cannot write {}: {e}", path.display());
            return Exit::Usage;
        }
    }
    Exit::Done
}

/// `k/total #N A vs B 5x5: outcome` for one finished match.
fn progress_line(done: usize, total: usize, entrants: &[Entrant], one: &Played) -> String {
    let name = |i: usize| entrants.get(i).map_or("?", |e| e.name.as_str());
    let (f, what) = match one {
        Ok(o) => (o.fixture, o.record.summary()),
        Err(e) => (e.fixture, format!("not played: {}", e.why)),
    };
    format!(
        "arena: {done}/{total} match {} {} (A) vs {} (B) {}x{}: {what}",
        f.index,
        name(f.a),
        name(f.b),
        f.size,
        f.size
    )
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    #[test]
    fn schedule_swaps_seats_in_pairs_and_spreads_sizes() {
        let s = schedule(3, 3, (2, 9), 0);
        assert_eq!(s.len(), 3 * 4);
        assert_eq!((s[0].a, s[0].b, s[1].a, s[1].b), (0, 1, 1, 0));
        assert_eq!(s[0].size, s[1].size);
        assert_eq!((s[0].size, s[2].size), (2, 3));
        assert_eq!(s.last().unwrap().index, 12);
    }

    #[test]
    fn arguments() {
        assert_eq!(parse_sizes("2-9").unwrap(), (2, 9));
        assert_eq!(parse_sizes("5").unwrap(), (5, 5));
        assert!(parse_sizes("1-9").is_err() && parse_sizes("9-2").is_err());
        assert_eq!(parse_bot("x=./bot --a=1").unwrap().cmd, "./bot --a=1");
        assert!(parse_bot("=x").is_err() && parse_bot("x").is_err());
    }

    fn outcome(index: usize, a: usize, b: usize, names: &[&str], winner: Option<Seat>) -> Outcome {
        let mut record = crate::record::Record {
            size: 2 + (index % 3) as u8,
            winner,
            score: crate::record::Score { a: 1, b: 1 },
            forfeit: None,
            moves: vec![crate::record::MoveRecord::new(Seat::A, b"A1 T")],
            ranking: None,
        };
        record.moves[0].us = Some(100 * index as u64);
        Outcome {
            fixture: Fixture {
                index,
                a,
                b,
                size: record.size,
            },
            a_name: names[a].to_owned(),
            b_name: names[b].to_owned(),
            record_file: PathBuf::new(),
            record,
            start_errors: Vec::new(),
        }
    }

    /// The results of three bots: `strong` beats `mid` 3 of 4 and `weak`
    /// always, `mid` and `weak` draw once and split the rest.
    fn results(order: &[&str]) -> (Vec<Entrant>, Vec<Outcome>) {
        let entrants: Vec<Entrant> = order
            .iter()
            .map(|n| Entrant {
                name: (*n).to_owned(),
                cmd: "x".to_owned(),
            })
            .collect();
        let at = |n: &str| order.iter().position(|x| *x == n).unwrap();
        let games = [
            ("strong", "mid", Some(Seat::A)),
            ("mid", "strong", Some(Seat::B)),
            ("strong", "mid", Some(Seat::A)),
            ("mid", "strong", Some(Seat::A)),
            ("strong", "weak", Some(Seat::A)),
            ("weak", "strong", Some(Seat::B)),
            ("mid", "weak", None),
            ("weak", "mid", Some(Seat::A)),
            ("mid", "weak", Some(Seat::A)),
        ];
        let outcomes = games
            .iter()
            .enumerate()
            .map(|(i, (a, b, w))| outcome(i + 1, at(a), at(b), order, *w))
            .collect();
        (entrants, outcomes)
    }

    fn by_name(standings: &[Standing]) -> BTreeMap<String, (f64, f64, u32)> {
        standings
            .iter()
            .map(|s| (s.name.clone(), (s.rating, s.rating_ci95, s.wins)))
            .collect()
    }

    #[test]
    fn the_same_results_in_any_order_give_the_same_ratings() {
        let (entrants, outcomes) = results(&["strong", "mid", "weak"]);
        let first = standings(&entrants, &outcomes);
        let mut reversed = outcomes.clone();
        reversed.reverse();
        let mut rotated = outcomes.clone();
        rotated.rotate_left(4);
        let (other_entrants, other_outcomes) = results(&["weak", "strong", "mid"]);
        for other in [
            standings(&entrants, &reversed),
            standings(&entrants, &rotated),
            standings(&other_entrants, &other_outcomes),
        ] {
            let (a, b) = (by_name(&first), by_name(&other));
            for (name, x) in &a {
                let y = b[name];
                assert!(
                    (x.0 - y.0).abs() < 1e-6 && (x.1 - y.1).abs() < 1e-6,
                    "{name}: {x:?} {y:?}"
                );
                assert_eq!(x.2, y.2);
            }
            let names = |s: &[Standing]| s.iter().map(|x| x.name.clone()).collect::<Vec<_>>();
            assert_eq!(names(&first), names(&other));
        }
        assert_eq!(first[0].name, "strong");
        assert!(first[0].rating > first[1].rating && first[1].rating > first[2].rating);
        let strong = &first[0];
        assert_eq!(
            strong.by_seat[&Seat::A].wins + strong.by_seat[&Seat::B].wins,
            5
        );
        assert!(
            strong.win_rate_ci95.0 < strong.win_rate && strong.win_rate < strong.win_rate_ci95.1
        );
        assert!(strong.times.answers > 0 && strong.times.max_ms >= strong.times.median_ms);
    }
}
