//! Tournaments: every pair of players meets from each of a fixed set of
//! openings, once with each colour (or in a gauntlet, every player meets
//! each reference player; see [`fixtures`](crate::referee::fixtures)), and the
//! results make a standings table. A tournament can be split into shards,
//! each played on its own machine into its own log.
//!
//! Each finished game is appended to `DIR/games.jsonl` at once, and a
//! tournament started again in the same directory plays only the games that
//! are not there yet, so an interrupted tournament loses at most the games
//! that were in progress and plays none twice. To keep that fair, it refuses
//! to resume with a player whose command, or with a depth or time limit,
//! differs from what the logged games were played with (or played with
//! adjudication when this run has none, or the other way). The log is locked
//! while the tournament runs, so a second tournament in the same directory
//! refuses to start instead of playing every game again.
//!
//! A game is named `OPENING+RED+GREEN`: `+` is not allowed in a player's
//! name, so no two games share a name (or a folder of captured output,
//! named so with each long name cut: [`file_name`]).
//! The name is the schedule: a logged game is known by it, and a record
//! whose players, colours or opening are not its name's (red and green
//! swapped, to give the loser the win) is refused before resuming
//! ([`audit`](crate::referee::audit)).
//! With no openings (`--openings 0`) every game starts from the empty
//! board, which moderator bots need: their protocol has no start position.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};

use crate::referee::Error;
use crate::referee::error::{NameError, TournamentError};
use crate::referee::fixtures::{Fixture, check_gauntlet, game_id, game_list, in_shard};
use crate::referee::game::Game;
use crate::referee::gradebook::{Check, Entry};
use crate::referee::log::{self, GameRecord, Log, Side};
use crate::referee::manifest::{MANIFEST_FILE, Manifest};
use crate::referee::player::PlayerSpec;
use crate::referee::reporter::{Reporter, counted};
use crate::referee::results::Results;
use crate::referee::seat::Seat;
use crate::referee::settings::Settings;
use crate::referee::standings::Standing;
use maxconnect4_contain::Containment;
use maxconnect4_contain::sandbox::Isolation;
use maxconnect4_game::board::Board;
use maxconnect4_game::moves::Moves;
use maxconnect4_game::player::Player;
use maxconnect4_game::printable::file_name;
use maxconnect4_game::rules::Rules;
use maxconnect4_game::shard::Shard;

/// At most this many games at once (each needs a slot for its process group).
pub const MAX_JOBS: usize = 64;

/// The 49 two-ply openings: red's first column and green's reply, as two
/// digits. They are ordered by how far the two pieces are from the centre
/// column (in columns, summed), then by red's column, then green's, so
/// that the first few are the central ones: `44`, `34`, `43`, `45`, `54`, ...
#[must_use]
pub fn openings() -> Vec<String> {
    let mut pairs: Vec<(usize, usize)> = (1..=7).flat_map(|red| (1..=7).map(move |green| (red, green))).collect();
    pairs.sort_by_key(|&(red, green)| (red.abs_diff(4) + green.abs_diff(4), red, green));
    pairs.into_iter().map(|(red, green)| format!("{red}{green}")).collect()
}

/// The moves of `opening` (none for the empty board).
fn opening_moves(opening: &str) -> Moves {
    opening.parse().expect("openings name columns 1-7")
}

/// The position after `opening`'s moves from the empty board.
fn opening_board(opening: &str) -> Board {
    opening_moves(opening).columns().iter().fold(Board::empty(), |board, &column| board.after(column))
}

/// The openings a tournament plays: the first `count` of [`openings`], or
/// with none, the empty board alone (for bots that cannot start elsewhere).
#[must_use]
pub fn chosen_openings(count: usize) -> Vec<String> {
    if count == 0 {
        return vec![String::new()];
    }
    openings().into_iter().take(count).collect()
}

/// A tournament as the `tournament` command plays it.
pub struct TournamentOptions {
    /// Each player's name and what plays it (never a person).
    pub players: Vec<(String, PlayerSpec)>,
    /// How many of [`openings`] to play, from the first; 0 for the empty
    /// board alone.
    pub openings: usize,
    /// Games played at the same time.
    pub jobs: usize,
    /// Holds `games.jsonl`, `games.output/` and the standings.
    pub directory: PathBuf,
    /// The rules and the limits every game is played under.
    pub settings: Settings,
    /// How the programs are run: sandbox, limits, environment.
    pub isolation: Isolation,
    /// What the pre-flight check does with an entrant that fails it.
    pub preflight: Preflight,
    /// The player rated 0; the first player when none is named or when
    /// the pre-flight check left this one out. (The command line names the
    /// first reference of a gauntlet when `--anchor` does not.)
    pub anchor: Option<String>,
    /// The reference players of a gauntlet (`--gauntlet`), whom every other
    /// player meets, and only them; empty for a round robin.
    pub gauntlet: Vec<String>,
    /// The part of the games to play (`--shard I/N`); none for all of them.
    pub shard: Option<Shard>,
    /// What was found and how it was built, by entrant, for a class's
    /// students (the gradebook's `program`).
    pub programs: Vec<(String, String)>,
}

/// The pre-flight check of a tournament's entrants ([`check`](crate::referee::check)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preflight {
    /// An entrant that fails it stops the tournament before the first game.
    Refuse,
    /// An entrant that fails it is left out; the others play.
    Drop,
    /// No check: every entrant plays, and forfeits what it cannot play.
    Skip,
}

/// The log's name in a tournament's directory.
pub const LOG_FILE: &str = "games.jsonl";

/// The folder in a tournament's directory where the pre-flight check keeps
/// what each entrant printed.
pub const PREFLIGHT_OUTPUT: &str = "preflight.output";

impl TournamentOptions {
    /// The log of the games.
    #[must_use]
    pub fn log(&self) -> PathBuf {
        self.directory.join(LOG_FILE)
    }

    /// Every game of the tournament, or of its shard, between the players
    /// given (whether or not the pre-flight check will let them play, so
    /// that every machine's shards are the same), in the order of
    /// [`game_list`].
    #[must_use]
    pub fn games(&self) -> Vec<Fixture> {
        let (names, openings) = (self.names(), chosen_openings(self.openings));
        in_shard(game_list(&names, &openings, &self.gauntlet), self.shard).collect()
    }

    /// How many games the tournament has, all shards together.
    fn game_count(&self) -> usize {
        let (names, openings) = (self.names(), chosen_openings(self.openings));
        game_list(&names, &openings, &self.gauntlet).count()
    }

    /// The players' names, in the order given.
    fn names(&self) -> Vec<String> {
        self.players.iter().map(|(name, _)| name.clone()).collect()
    }

    /// Refuses what the players alone cannot tell: a gauntlet that names
    /// someone else or everyone, adjudication under other rules than
    /// classic.
    fn check(&self) -> Result<(), Error> {
        check_gauntlet(&self.names(), &self.gauntlet).map_err(TournamentError::from)?;
        if self.settings.adjudication.is_some() && self.settings.rules != Rules::Classic {
            return Err(TournamentError::AdjudicateClassicOnly.into());
        }
        Ok(())
    }
}

/// Prints the id of every game of the tournament, or of its shard, one a
/// line, in the order they would be played; plays nothing and writes no
/// file. A reader that stops reading (`| head`) ends it quietly.
///
/// # Errors
/// When a player or the gauntlet is invalid, or `out` cannot be written.
pub fn list_games(options: &TournamentOptions, out: &mut dyn Write) -> Result<(), Error> {
    seats(&options.players)?;
    options.check()?;
    let (names, openings) = (options.names(), chosen_openings(options.openings));
    for game in in_shard(game_list(&names, &openings, &options.gauntlet), options.shard) {
        match writeln!(out, "{}", game.id()) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
            Err(error) => return Err(Error::terminal(error)),
        }
    }
    Ok(())
}

/// A game still to play, its players as places in the seats.
struct Pairing {
    red: usize,
    green: usize,
    opening: String,
}

/// Plays every game of the tournament not yet in its log, then writes the
/// standings (`standings.csv`) and returns them, best first. Warnings and
/// progress go to `reporter`; the rest to `out`.
///
/// # Errors
/// When a player is invalid, the log holds games played under other
/// settings, or the referee cannot read or write its files.
pub fn run(options: &TournamentOptions, out: &mut dyn Write, reporter: &mut Reporter) -> Result<Vec<Standing>, Error> {
    let seats = seats(&options.players)?;
    options.check()?;
    let openings = chosen_openings(options.openings);
    check_openings(&seats, &openings)?;
    let (mut log, mut records) = open_log(options, reporter)?;
    check_settings(&records, &seats, options.settings)?;
    let (containment, warning) =
        Containment::start(options.isolation.clone(), true, &[&options.directory, &options.log()])?;
    if let Some(warning) = warning {
        reporter.warning(&warning);
    }
    let (seats, entries) = preflight(seats, options, &containment, out)?;
    check_gauntlet_left(&seats, &options.gauntlet)?;
    let mut manifest = manifest(&seats, &openings, options);
    manifest.entries = entries;
    manifest.write(&options.directory.join(MANIFEST_FILE))?;

    let schedule = Schedule::new(options, &seats, &records);
    schedule.announce(options, &seats, openings.len(), out)?;
    reporter.start(schedule.games.len(), schedule.games.len() - schedule.to_play.len());
    let new = play_all(options, &seats, schedule.to_play, &containment, &mut log, reporter)?;
    reporter.finish();
    records.extend(new);

    let of_this = of_this_tournament(records, &schedule.games);
    let results = Results::new(manifest.entrants(), &manifest.anchor, of_this).with_entries(manifest.entries.clone());
    results.write(&options.directory)?;
    results.report(out, &options.directory)?;
    Ok(results.standings().to_vec())
}

/// Refuses a player that cannot start from one of the openings.
fn check_openings(seats: &[Seat], openings: &[String]) -> Result<(), Error> {
    for seat in seats {
        for opening in openings {
            seat.check_start(&opening_board(opening), Some(opening_moves(opening).columns()))?;
        }
    }
    Ok(())
}

/// The tournament's log, opened in its directory (made if need be), and
/// the games it holds, checked; what was wrong with its lines is reported.
fn open_log(options: &TournamentOptions, reporter: &mut Reporter) -> Result<(Log, Vec<GameRecord>), Error> {
    let log_path = options.log();
    maxconnect4_io::whole::make_folder(&options.directory)?;
    // The programs' output goes beside the log: a link there is refused too.
    maxconnect4_io::whole::check_folder(&log::output_directory(&log_path))?;
    let mut log = Log::open(&log_path)?;
    let logged = log.read()?;
    crate::referee::audit::records(&logged, &log_path)?;
    log.reconcile_moves(&logged.games)?;
    for warning in logged.warnings(&log_path) {
        reporter.warning(&warning);
    }
    Ok((log, logged.games))
}

/// The games of the tournament, or of its shard, between the players who
/// play, and those of them not in the log yet.
struct Schedule {
    games: Vec<Fixture>,
    to_play: Vec<Pairing>,
}

impl Schedule {
    fn new(options: &TournamentOptions, seats: &[Seat], records: &[GameRecord]) -> Schedule {
        let places: HashMap<&str, usize> =
            seats.iter().enumerate().map(|(place, seat)| (seat.name.as_str(), place)).collect();
        let place = |name: &str| places.get(name).copied();
        let games: Vec<Fixture> = options
            .games()
            .into_iter()
            .filter(|game| place(&game.red).is_some() && place(&game.green).is_some())
            .collect();
        let played: HashSet<Fixture> = records.iter().filter_map(|record| Fixture::named(&record.id)).collect();
        let to_play = games
            .iter()
            .filter(|game| !played.contains(game))
            .filter_map(|game| {
                Some(Pairing { red: place(&game.red)?, green: place(&game.green)?, opening: game.opening.clone() })
            })
            .collect();
        Schedule { games, to_play }
    }

    /// Says what the tournament plays, on a line of `out`.
    fn announce(
        &self,
        options: &TournamentOptions,
        seats: &[Seat],
        openings: usize,
        out: &mut dyn Write,
    ) -> Result<(), Error> {
        let total = self.games.len();
        let references = seats.iter().filter(|seat| options.gauntlet.contains(&seat.name)).count();
        let references =
            if options.gauntlet.is_empty() { String::new() } else { format!(" ({references} of them references)") };
        let shard = options
            .shard
            .map_or(String::new(), |shard| format!("shard {shard} of {}: ", counted(options.game_count(), "game")));
        writeln!(
            out,
            "Tournament in {}: {} players{references}, {}, {shard}{}, {} already played.",
            options.directory.display(),
            seats.len(),
            counted(openings, "opening"),
            counted(total, "game"),
            total - self.to_play.len()
        )
        .map_err(Error::terminal)
    }
}

/// What this tournament plays, for `results` to merge its shards' logs by.
fn manifest(seats: &[Seat], openings: &[String], options: &TournamentOptions) -> Manifest {
    let players: Vec<Side> =
        seats.iter().map(|seat| Side { name: seat.name.clone(), command: seat.spec.command().to_owned() }).collect();
    // The anchor asked for, else the first reference left, else the first
    // player: the pre-flight check may have dropped any of them.
    let plays = |name: &&String| players.iter().any(|side| &side.name == *name);
    let anchor = options.anchor.iter().chain(&options.gauntlet).find(plays).unwrap_or(&players[0].name).clone();
    Manifest::new(players, openings.to_vec(), options.settings, options.gauntlet.clone(), anchor)
}

/// Whether `name` can name a tournament player: letters, digits, `-`, `_`
/// and `.`, not starting with `-` or `.`, so that it is a safe file name and
/// never holds the `+` that joins names in a game's id.
///
/// # Errors
/// [`NameError::Unusable`] when it cannot.
pub fn check_name(name: &str) -> Result<(), NameError> {
    let usable = name.chars().next().is_some_and(|first| first.is_ascii_alphanumeric() || first == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if usable { Ok(()) } else { Err(NameError::Unusable(name.to_owned())) }
}

/// The seats for `players`, whose names must be distinct and usable as
/// file names, and which must not be people.
fn seats(players: &[(String, PlayerSpec)]) -> Result<Vec<Seat>, Error> {
    if players.len() < 2 {
        return Err(TournamentError::TooFew.into());
    }
    let mut names = HashSet::new();
    let mut seats = Vec::new();
    for (name, spec) in players {
        check_name(name).map_err(TournamentError::from)?;
        if !names.insert(name.clone()) {
            return Err(TournamentError::from(NameError::Twice(name.clone())).into());
        }
        if spec.is_human() {
            return Err(Error::NoTerminal);
        }
        seats.push(Seat::new(name, spec.clone()));
    }
    Ok(seats)
}

/// Refuses logged games of a current player with another command, rules,
/// depth or time limit: resuming would mix results of different contests.
fn check_settings(records: &[GameRecord], seats: &[Seat], settings: Settings) -> Result<(), Error> {
    for record in records {
        let logged = &record.settings;
        for colour in Player::BOTH {
            let side = record.side(colour);
            let Some(seat) = seats.iter().find(|seat| seat.name == side.name) else { continue };
            let differs = if seat.spec.command() != side.command {
                Some(format!("'{}' was played with the command '{}'", side.name, side.command))
            } else if logged.rules != settings.rules {
                Some(format!("games were played with --rules {}", logged.rules))
            } else if logged.depth != settings.depth {
                Some(format!("games were played with --depth {}", logged.depth))
            } else if logged.timeout != settings.timeout {
                Some(format!("games were played with --timeout {}", logged.timeout.as_secs_f64()))
            } else if logged.clock != settings.clock {
                Some(logged.clock.map_or("games were played without --clock".to_owned(), |clock| {
                    format!("games were played with --clock {}", clock.as_secs_f64())
                }))
            } else if logged.adjudication != settings.adjudication {
                Some(match (logged.adjudication, settings.adjudication) {
                    (None, _) => "games were played without --adjudicate".to_owned(),
                    (Some(_), None) => "games were played with --adjudicate".to_owned(),
                    (Some(budget), Some(_)) => format!("games were adjudicated with a budget of {budget} positions"),
                })
            } else {
                None
            };
            if let Some(differs) = differs {
                return Err(TournamentError::Resumed(differs).into());
            }
        }
    }
    Ok(())
}

/// Refuses a gauntlet that the pre-flight check left without a reference,
/// or without anyone else: it would have no games.
fn check_gauntlet_left(seats: &[Seat], gauntlet: &[String]) -> Result<(), Error> {
    if gauntlet.is_empty() {
        return Ok(());
    }
    let references = seats.iter().filter(|seat| gauntlet.contains(&seat.name)).count();
    if references == 0 {
        return Err(TournamentError::NoReferenceLeft.into());
    }
    if references == seats.len() {
        return Err(TournamentError::NoOpponentLeft.into());
    }
    Ok(())
}

/// Plays `fixtures` on up to `options.jobs` threads, appending each game
/// to the log as it ends. Stops starting games after the first error.
fn play_all(
    options: &TournamentOptions,
    seats: &[Seat],
    fixtures: Vec<Pairing>,
    containment: &Containment,
    log: &mut Log,
    reporter: &mut Reporter,
) -> Result<Vec<GameRecord>, Error> {
    let output = log::output_directory(log.path());
    let queue = Mutex::new(fixtures.into_iter());
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel();
    let mut records = Vec::new();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.clamp(1, MAX_JOBS) {
            let sender = sender.clone();
            let (queue, stop, output) = (&queue, &stop, &output);
            scope.spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let Some(fixture) = queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner).next() else {
                        break;
                    };
                    let pair = [seats[fixture.red].clone(), seats[fixture.green].clone()];
                    let id = game_id(&fixture.opening, &pair[0].name, &pair[1].name);
                    // The id with each long name cut: any name can be given.
                    let folder = game_id(&fixture.opening, &file_name(&pair[0].name), &file_name(&pair[1].name));
                    let game = Game {
                        output_directory: output.join(folder),
                        id,
                        seats: &pair,
                        start: opening_board(&fixture.opening),
                        history: Some(opening_moves(&fixture.opening)),
                        opening: Some(opening_moves(&fixture.opening)),
                        settings: options.settings,
                        containment: Some(containment),
                    };
                    if sender.send(game.play(None).map(|played| played.record())).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for played in receiver {
            match played.and_then(|record| log.append(&record).map(|()| record).map_err(Error::from)) {
                Ok(record) => {
                    reporter.played(&record);
                    records.push(record);
                }
                Err(error) => {
                    stop.store(true, Ordering::SeqCst);
                    failure.get_or_insert(error);
                }
            }
        }
    });
    failure.map_or(Ok(records), Err)
}

/// The logged games that are `games`, each counted once: a log may hold
/// other games between the players (a gauntlet's, another shard's, an
/// opening no longer played, a match's), and a game logged twice counts the
/// first time. A game is known by its id, which the audit has checked
/// against its players and opening.
fn of_this_tournament(records: Vec<GameRecord>, games: &[Fixture]) -> Vec<GameRecord> {
    let mut planned: HashSet<&Fixture> = games.iter().collect();
    records.into_iter().filter(|record| Fixture::named(&record.id).is_some_and(|game| planned.remove(&game))).collect()
}

/// Checks the entrants of `seats` as `options` says, and returns those who
/// play, with what the check said of each entrant, the dropped ones too
/// (for the manifest, and so the gradebook), each with what its program is
/// (`options.programs`).
///
/// # Errors
/// When an entrant fails and the tournament refuses it, or too few are
/// left, or the check cannot be run.
fn preflight(
    seats: Vec<Seat>,
    options: &TournamentOptions,
    containment: &Containment,
    out: &mut dyn Write,
) -> Result<(Vec<Seat>, Vec<Entry>), Error> {
    let program = |name: &str| {
        options
            .programs
            .iter()
            .find(|(entrant, _)| entrant == name)
            .map(|(_, program)| program.clone())
            .unwrap_or_default()
    };
    let entry = |name: &str, check: Check, reason: String| Entry {
        name: name.to_owned(),
        program: program(name),
        check,
        reason,
    };
    if options.preflight == Preflight::Skip {
        let entries = seats.iter().map(|seat| entry(&seat.name, Check::NotChecked, String::new())).collect();
        return Ok((seats, entries));
    }
    let output = options.directory.join(PREFLIGHT_OUTPUT);
    let checked = crate::referee::check::check(&seats, options.settings, Some(containment), &output, true)?;
    let failed: Vec<&crate::referee::check::Checked> =
        checked.iter().filter(|checked| checked.result.is_err()).collect();
    // An entrant that failed is dropped: refused, the tournament stops.
    let entries: Vec<Entry> = checked
        .iter()
        .map(|checked| match &checked.result {
            Ok(_) => entry(&checked.name, Check::Passed, String::new()),
            Err(forfeit) => entry(&checked.name, Check::Dropped, forfeit.to_string()),
        })
        .collect();
    if failed.is_empty() {
        return Ok((seats, entries));
    }
    let io = |source| Error::Io { action: "write to", path: "standard output".into(), source };
    writeln!(out, "Pre-flight check (one move on the empty board, as in a game):").map_err(io)?;
    for line in &checked {
        writeln!(out, "  {}", line.line()).map_err(io)?;
    }
    let names: Vec<&str> = failed.iter().map(|checked| checked.name.as_str()).collect();
    if options.preflight == Preflight::Refuse {
        let names = names.iter().map(|name| (*name).to_owned()).collect();
        return Err(TournamentError::Preflight { names, output: output.to_owned() }.into());
    }
    let kept: Vec<Seat> = seats.into_iter().filter(|seat| !names.contains(&seat.name.as_str())).collect();
    if kept.len() < 2 {
        let names = names.iter().map(|name| (*name).to_owned()).collect();
        return Err(TournamentError::PreflightLeavesTooFew(names).into());
    }
    writeln!(out, "Dropped: {}; they rank last, with why, in the results and the gradebook.", names.join(", "))
        .map_err(io)?;
    Ok((kept, entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_all_pairs_centre_first() {
        let openings = openings();
        assert_eq!(openings.len(), 49);
        assert_eq!(openings.iter().collect::<HashSet<_>>().len(), 49);
        assert_eq!(openings[..5], ["44", "34", "43", "45", "54"]);
        assert_eq!(openings[48], "77");
        assert_eq!(opening_board("34").pieces_played(), 2);
    }

    #[test]
    fn a_name_that_is_no_safe_file_name_or_holds_a_plus_is_refused() {
        for name in ["me", "_x", "Bot-2.1"] {
            assert_eq!(check_name(name), Ok(()));
        }
        for name in ["", "-x", ".x", "a+b", "a/b", "a b"] {
            assert_eq!(check_name(name), Err(NameError::Unusable(name.to_owned())));
        }
        let refused = check_name("a+b").unwrap_err().to_string();
        assert_eq!(
            refused,
            "'a+b' cannot be a player's name: use letters, digits, '-', '_' and '.', not '-' or '.' first"
        );
    }
}
