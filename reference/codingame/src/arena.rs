//! A local arena: a round robin between named bots, seats swapped in pairs
//! (MATCH-1), sizes spread over a range, matches run by a pool of workers
//! (each match contained as in [`crate::referee`]), a progress bar on a
//! terminal, then a win-rate table in the manner of cg-brutaltester,
//! forfeits by reason and Weng-Lin ratings (`skillratings`). Every record is
//! kept in a folder so that `cg-referee replay` can re-judge it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use skillratings::Outcomes;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin};

use crate::board::{MAX_SIZE, MIN_SIZE, Seat};
use crate::cli::Exit;
use crate::clock::Limits;
use crate::judge::Reason;
use crate::record::Record;
use crate::referee::run_match;

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

/// A named bot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entrant {
    /// The bot's name.
    pub name: String,
    /// Its command.
    pub cmd: String,
}

/// One scheduled match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Fixture {
    /// Its number, from 1.
    pub index: usize,
    /// Entrant index in seat A.
    pub a: usize,
    /// Entrant index in seat B.
    pub b: usize,
    /// Board size.
    pub size: u8,
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

/// One finished match.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// What was played.
    #[serde(flatten)]
    pub fixture: Fixture,
    /// Seat A's name.
    pub a_name: String,
    /// Seat B's name.
    pub b_name: String,
    /// The record file, relative to where the arena ran.
    pub record_file: PathBuf,
    /// The record.
    pub record: Record,
}

/// A bot's line of the results.
#[derive(Debug, Clone, Serialize)]
pub struct Standing {
    /// The bot's name.
    pub name: String,
    /// Matches played.
    pub played: u32,
    /// Matches won.
    pub wins: u32,
    /// Matches drawn.
    pub draws: u32,
    /// Matches lost.
    pub losses: u32,
    /// Wins over matches played.
    pub win_rate: f64,
    /// Win rate against each other bot, by name.
    pub against: BTreeMap<String, f64>,
    /// The bot's forfeits by reason code.
    pub forfeits: BTreeMap<Reason, u32>,
    /// Weng-Lin rating (mu).
    pub rating: f64,
    /// Weng-Lin uncertainty (sigma).
    pub uncertainty: f64,
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
}

/// Plays every fixture with `jobs` workers; `progress` sees each finished
/// match. Records are written into `records`.
pub fn play_all(
    entrants: &[Entrant],
    fixtures: &[Fixture],
    jobs: usize,
    limits: Limits,
    records: &Path,
    progress: &ProgressBar,
) -> std::io::Result<Vec<Outcome>> {
    std::fs::create_dir_all(records)?;
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let mut outcomes = Vec::with_capacity(fixtures.len());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                while let Some(f) = fixtures.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let (Some(a), Some(b)) = (entrants.get(f.a), entrants.get(f.b)) else {
                        continue;
                    };
                    if let Ok(played) = run_match(&a.cmd, &b.cmd, f.size, limits)
                        && tx.send((*f, played.record)).is_err()
                    {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for (f, record) in rx {
            progress.inc(1);
            outcomes.push((f, record));
        }
    });
    outcomes.sort_by_key(|(f, _)| f.index);
    let mut out = Vec::with_capacity(outcomes.len());
    for (f, record) in outcomes {
        let a_name = entrants
            .get(f.a)
            .map(|e| e.name.clone())
            .unwrap_or_default();
        let b_name = entrants
            .get(f.b)
            .map(|e| e.name.clone())
            .unwrap_or_default();
        let record_file = records.join(format!(
            "{:05}-{a_name}-vs-{b_name}-{}x{}.json",
            f.index, f.size, f.size
        ));
        std::fs::write(&record_file, format!("{}\n", record.to_json()))?;
        out.push(Outcome {
            fixture: f,
            a_name,
            b_name,
            record_file,
            record,
        });
    }
    Ok(out)
}

/// Tallies the outcomes into standings, best rating first.
pub fn standings(entrants: &[Entrant], outcomes: &[Outcome]) -> Vec<Standing> {
    let n = entrants.len();
    let mut wins = vec![vec![0u32; n]; n];
    let mut games = vec![vec![0u32; n]; n];
    let mut draws = vec![0u32; n];
    let mut forfeits = vec![BTreeMap::new(); n];
    let config = WengLinConfig::new();
    let mut ratings = vec![WengLinRating::new(); n];
    for o in outcomes {
        let (a, b) = (o.fixture.a, o.fixture.b);
        if a >= n || b >= n {
            continue;
        }
        games[a][b] += 1;
        games[b][a] += 1;
        let result = match o.record.winner {
            Some(Seat::A) => {
                wins[a][b] += 1;
                Outcomes::WIN
            }
            Some(Seat::B) => {
                wins[b][a] += 1;
                Outcomes::LOSS
            }
            None => {
                draws[a] += 1;
                draws[b] += 1;
                Outcomes::DRAW
            }
        };
        if let Some(f) = o.record.forfeit {
            let who = if f.seat == Seat::A { a } else { b };
            *forfeits[who].entry(f.reason).or_insert(0) += 1;
        }
        let (ra, rb) = weng_lin(&ratings[a], &ratings[b], &result, &config);
        ratings[a] = ra;
        ratings[b] = rb;
    }
    let rate = |w: u32, g: u32| {
        if g == 0 {
            0.0
        } else {
            f64::from(w) / f64::from(g)
        }
    };
    let mut out: Vec<Standing> = (0..n)
        .map(|i| {
            let played: u32 = games[i].iter().sum();
            let won: u32 = wins[i].iter().sum();
            Standing {
                name: entrants[i].name.clone(),
                played,
                wins: won,
                draws: draws[i],
                losses: played - won - draws[i],
                win_rate: rate(won, played),
                against: (0..n)
                    .filter(|&j| j != i)
                    .map(|j| (entrants[j].name.clone(), rate(wins[i][j], games[i][j])))
                    .collect(),
                forfeits: forfeits[i].clone(),
                rating: ratings[i].rating,
                uncertainty: ratings[i].uncertainty,
            }
        })
        .collect();
    out.sort_by(|x, y| y.rating.total_cmp(&x.rating));
    out
}

/// The win-rate table (rows: a bot's win rate against each column's bot),
/// then forfeits and ratings.
pub fn table(standings: &[Standing]) -> String {
    let width = standings
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(0)
        .max(8);
    let mut t = String::new();
    let _ = write!(t, "{:width$}", "");
    for s in standings {
        let _ = write!(t, " | {:>width$}", s.name);
    }
    let _ = writeln!(t, " | {:>width$}", "all");
    for s in standings {
        let _ = write!(t, "{:width$}", s.name);
        for o in standings {
            match s.against.get(&o.name) {
                Some(r) => {
                    let _ = write!(t, " | {:>width$}", format!("{:.2}%", r * 100.0));
                }
                None => {
                    let _ = write!(t, " | {:>width$}", "-");
                }
            }
        }
        let _ = writeln!(t, " | {:>width$}", format!("{:.2}%", s.win_rate * 100.0));
    }
    let _ = writeln!(t, "\nforfeits");
    for s in standings {
        let list: Vec<String> = s
            .forfeits
            .iter()
            .map(|(r, n)| format!("{} {n}", r.code()))
            .collect();
        let shown = if list.is_empty() {
            "none".to_owned()
        } else {
            list.join(", ")
        };
        let _ = writeln!(t, "{:width$}   {shown}", s.name);
    }
    let _ = writeln!(t, "\nrating (Weng-Lin)   W-D-L");
    for s in standings {
        let _ = writeln!(
            t,
            "{:width$}   {:6.2} ± {:5.2}   {}-{}-{}",
            s.name, s.rating, s.uncertainty, s.wins, s.draws, s.losses
        );
    }
    t
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
    let progress = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(fixtures.len() as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} matches {per_sec} eta {eta}")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let outcomes = match play_all(
        &entrants,
        &fixtures,
        match args.jobs {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        },
        limits,
        &args.records,
        &progress,
    ) {
        Ok(o) => o,
        Err(e) => {
            eprintln!(
                "cg-referee arena: cannot write records in {}: {e}",
                args.records.display()
            );
            return Exit::Usage;
        }
    };
    progress.finish_and_clear();
    let standings = standings(&entrants, &outcomes);
    print!("{}", table(&standings));
    println!("\nrecords in {}", args.records.display());
    if let Some(path) = &args.results {
        let results = Results {
            bots: entrants,
            standings,
            matches: outcomes,
        };
        let json = serde_json::to_string_pretty(&results).unwrap_or_default();
        if let Err(e) = std::fs::write(path, json + "\n") {
            eprintln!("cg-referee arena: cannot write {}: {e}", path.display());
            return Exit::Usage;
        }
    }
    Exit::Done
}

#[cfg(test)]
mod tests {
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
}
