//! Merging logs: the games of a tournament played in shards, on one machine
//! or many, read back as one tournament.
//!
//! Each shard keeps its own log (and manifest), so shards never write to one
//! file; merging reads them all and refuses what would make the standings
//! wrong: logs of different tournaments (their manifests differ), games
//! played under other rules or limits, a player with two commands, and a
//! game id in two logs with different games (shards that overlapped). The
//! same game twice, as when a log is given twice, counts once.
//!
//! [`results`] is the `results` command: the merged games' standings,
//! crosstable, ratings and page, as the tournament itself writes them. It
//! takes a tournament's folder for its log, and a folder of its shards'
//! folders for theirs ([`logs`]), as `tournament --out` left them.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::referee::Error;
use crate::referee::error::MergeError;
use crate::referee::log::{self, GameRecord};
use crate::referee::manifest::Manifest;
use crate::referee::results::Results;
use crate::referee::settings::Settings;
use crate::referee::tournament::LOG_FILE;
use maxconnect4_game::player::Player;

/// The games of a set of logs, as one tournament.
#[derive(Debug)]
pub struct Merged {
    /// The players: the manifest's, or where the logs have none, everyone
    /// who played, in the order of their first game.
    pub names: Vec<String>,
    /// The player rated 0: the manifest's, or the first player.
    pub anchor: String,
    /// Each game once.
    pub games: Vec<GameRecord>,
    /// What the logs' manifests say was to be played, if they have one.
    pub manifest: Option<Manifest>,
    /// One line per log line that was not a game record.
    pub warnings: Vec<String>,
}

/// Where a game was read: its log, for messages.
struct Source<'a> {
    log: &'a Path,
    record: GameRecord,
}

/// The games of `logs`, checked to be one tournament's.
///
/// # Errors
/// When a log or manifest cannot be read, the logs are of different
/// tournaments or settings, a game id stands for two different games, or
/// the logs hold no game and name no players.
pub fn merge(logs: &[PathBuf]) -> Result<Merged, Error> {
    let mut manifest: Option<(Manifest, PathBuf)> = None;
    let mut warnings = Vec::new();
    let mut games: Vec<Source> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for path in logs {
        if !path.is_file() {
            return Err(MergeError::NoSuchLog(path.clone()).into());
        }
        let beside = Manifest::beside(path);
        if let Some(theirs) = Manifest::read(&beside)? {
            match &manifest {
                Some((mine, first)) => {
                    if let Some(difference) = mine.difference(&theirs) {
                        return Err(MergeError::Tournaments { first: first.clone(), beside, difference }.into());
                    }
                }
                None => manifest = Some((theirs, beside)),
            }
        }
        let records = log::read(path)?;
        crate::referee::audit::records(&records, path)?;
        warnings.extend(records.warnings(path));
        // Within one log the first record of a game counts, as when the
        // tournament resumed; across logs a game must be the same game.
        let mut seen_here = std::collections::HashSet::new();
        for record in records.games {
            if !seen_here.insert(record.id.clone()) {
                continue;
            }
            match index.get(&record.id) {
                Some(&at) if games[at].record == record => {}
                Some(&at) => {
                    let (id, first) = (record.id, games[at].log.to_owned());
                    return Err(MergeError::Overlap { id, first, second: path.clone() }.into());
                }
                None => {
                    index.insert(record.id.clone(), games.len());
                    games.push(Source { log: path, record });
                }
            }
        }
    }
    check_settings(&games, manifest.as_ref().map(|(manifest, path)| (manifest, path.as_path())))?;
    let manifest = manifest.map(|(manifest, _)| manifest);
    let mut games: Vec<GameRecord> = games.into_iter().map(|source| source.record).collect();
    let names = match &manifest {
        Some(manifest) => {
            games.retain(|record| manifest.includes(record));
            // The dropped entrants too: nobody vanishes from the results.
            manifest.entrants()
        }
        None => first_appearance(&games),
    };
    let anchor = match &manifest {
        Some(manifest) => manifest.anchor.clone(),
        None => names.first().cloned().ok_or_else(|| MergeError::NoPlayers(logs.to_vec()))?,
    };
    Ok(Merged { names, anchor, games, manifest, warnings })
}

/// The logs `given` names: each a log, or a folder, which means the log in
/// it (a tournament's `--out`) or, when it holds none, the logs of the
/// folders in it that hold one (a tournament's shards, each played into a
/// folder of its own), in the order of their names, as a shell's `*`
/// lists them.
///
/// # Errors
/// When a folder cannot be read, or holds no log and no folder holding one.
pub fn logs(given: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut logs = Vec::new();
    for path in given {
        if !path.is_dir() {
            logs.push(path.clone());
        } else if path.join(LOG_FILE).is_file() {
            logs.push(path.join(LOG_FILE));
        } else {
            let entries = std::fs::read_dir(path).map_err(|source| Error::io("read", path, source))?;
            let mut shards = Vec::new();
            for entry in entries {
                let log = entry.map_err(|source| Error::io("read", path, source))?.path().join(LOG_FILE);
                if log.is_file() {
                    shards.push(log);
                }
            }
            if shards.is_empty() {
                return Err(MergeError::NoLogIn(path.clone()).into());
            }
            shards.sort();
            logs.extend(shards);
        }
    }
    Ok(logs)
}

/// Merges the logs `given` names ([`logs`]) and writes their results to
/// `directory`, rated from `anchor` or the tournament's anchor; prints them
/// to `out`.
///
/// # Errors
/// As [`logs`] and [`merge`], and when `anchor` is no player of these logs
/// or a file cannot be written.
pub fn results(
    given: &[PathBuf],
    directory: &Path,
    anchor: Option<&str>,
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> Result<(), Error> {
    let logs = logs(given)?;
    let logs = logs.as_slice();
    let merged = merge(logs)?;
    for warning in &merged.warnings {
        crate::referee::error::warn(warnings, &warning);
    }
    if let Some(anchor) = anchor.filter(|anchor| !merged.names.iter().any(|name| name == anchor)) {
        return Err(MergeError::NoAnchor(anchor.to_owned()).into());
    }
    let anchor = anchor.unwrap_or(&merged.anchor);
    let logs = match logs {
        [log] => log.display().to_string(),
        logs => format!("{} logs", logs.len()),
    };
    let games = merged.games.len();
    let expected = merged.manifest.as_ref().map(Manifest::games);
    let of = match expected {
        Some(expected) if expected != games => format!(" of the tournament's {expected}; the rest are in no log given"),
        _ => String::new(),
    };
    let players = merged.names.len();
    let entries = merged.manifest.map(|manifest| manifest.entries).unwrap_or_default();
    let results = Results::new(merged.names, anchor, merged.games).with_entries(entries);
    // The files first: a reader of the report that stops early (`| head`)
    // must not cost them.
    results.write(directory)?;
    writeln!(out, "Results of {logs}: {players} players, {games} games{of}.").map_err(Error::terminal)?;
    results.report(out, directory)
}

/// Refuses games under different rules or limits, and a player logged
/// with two commands (or with another than the manifest's).
fn check_settings(games: &[Source], manifest: Option<(&Manifest, &Path)>) -> Result<(), Error> {
    // What every game must agree with, and the file that first said it.
    let mut expected: Option<(Settings, &Path)> = manifest.map(|(manifest, path)| (manifest.settings, path));
    let mut commands: HashMap<&str, (&str, &Path)> = manifest
        .map(|(manifest, path)| {
            manifest.players.iter().map(|side| (side.name.as_str(), (side.command.as_str(), path))).collect()
        })
        .unwrap_or_default();
    for source in games {
        let record = &source.record;
        let settings = record.settings;
        match &expected {
            Some((want, from)) if *want != settings => {
                let (log, id, said) = (source.log.to_path_buf(), record.id.clone(), from.to_path_buf());
                let (settings, want) = (settings.to_string(), want.to_string());
                return Err(MergeError::Settings { log, id, settings, said, want }.into());
            }
            Some(_) => {}
            None => expected = Some((settings, source.log)),
        }
        for colour in Player::BOTH {
            let side = record.side(colour);
            match commands.get(side.name.as_str()) {
                Some(&(command, from)) if command != side.command => {
                    return Err(MergeError::Command {
                        log: source.log.to_path_buf(),
                        name: side.name.clone(),
                        id: record.id.clone(),
                        played: side.command.clone(),
                        command: command.to_owned(),
                        said: from.to_path_buf(),
                    }
                    .into());
                }
                Some(_) => {}
                None => {
                    commands.insert(&side.name, (&side.command, source.log));
                }
            }
        }
    }
    Ok(())
}

/// Everyone who played in `games`, in the order of their first game.
fn first_appearance(games: &[GameRecord]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for record in games {
        for colour in Player::BOTH {
            let name = &record.side(colour).name;
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
    }
    names
}
