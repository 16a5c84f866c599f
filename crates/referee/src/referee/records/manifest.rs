//! A tournament's manifest: `tournament.json` beside its log, the contest
//! the command line defined (the players who play, by name and command, in
//! its order, the openings, the rules and limits, and the anchor of the
//! ratings).
//!
//! The game records alone say who played whom under which settings, but not
//! who was meant to play, nor who comes first: a shard's log holds a part of
//! the games, finished in any order. The manifest is what lets `results`
//! merge the logs of a tournament's shards into the standings one machine
//! would have printed (the same players, the same anchor, the games still
//! missing counted), and refuse logs of different tournaments. A tournament
//! writes it, whole, before its first game; a resumed one writes it again.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::referee::Error;
use crate::referee::fixtures::{Fixture, game_list, meets};
use crate::referee::gradebook::{Check, Entry};
use crate::referee::log::{GameRecord, Side};
use crate::referee::settings::Settings;

/// The manifest's file name, in the tournament's directory.
pub const MANIFEST_FILE: &str = "tournament.json";

/// The most a manifest may hold: a few hundred bytes per player.
const MANIFEST_LIMIT: u64 = 1 << 24;

/// What a tournament was asked to play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The players who play (the pre-flight check's survivors), in the
    /// command line's order.
    pub players: Vec<Side>,
    /// The openings' moves, as two digits each; one empty opening for the
    /// empty board.
    pub openings: Vec<String>,
    /// The rules and limits every game is played under, as fields of the
    /// manifest where they stand.
    #[serde(flatten)]
    pub settings: Settings,
    /// The reference players of a gauntlet; empty for a round robin.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gauntlet: Vec<String>,
    /// The player rated 0.
    pub anchor: String,
    /// What the games do not say of each entrant, the dropped ones too:
    /// what was found and built, and how the pre-flight check went.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<Entry>,
}

impl Manifest {
    /// The manifest of a tournament of `players` under `settings`.
    #[must_use]
    pub fn new(
        players: Vec<Side>,
        openings: Vec<String>,
        settings: Settings,
        gauntlet: Vec<String>,
        anchor: String,
    ) -> Manifest {
        Manifest { players, openings, settings, gauntlet, anchor, entries: Vec::new() }
    }

    /// Where the manifest of the tournament whose log is `log` lives.
    #[must_use]
    pub fn beside(log: &Path) -> PathBuf {
        log.parent().unwrap_or(Path::new(".")).join(MANIFEST_FILE)
    }

    /// The players' names, in order.
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        self.players.iter().map(|side| side.name.clone()).collect()
    }

    /// The players who play, then those the pre-flight check dropped: who
    /// the results rank (the dropped last, with no game), so that no
    /// entrant vanishes from them.
    #[must_use]
    pub fn entrants(&self) -> Vec<String> {
        let dropped = self.entries.iter().filter(|entry| entry.check == Check::Dropped);
        self.names().into_iter().chain(dropped.map(|entry| entry.name.clone())).collect()
    }

    /// Writes the manifest at `path`, whole or not at all.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        let mut text = serde_json::to_string_pretty(self).expect("a manifest serializes");
        text.push('\n');
        Ok(maxconnect4_io::whole::write(path, text.as_bytes())?)
    }

    /// The manifest at `path`, or none when there is no such file (a log of
    /// `match`, or of a tournament older than manifests).
    ///
    /// # Errors
    /// When the file exists but cannot be read or is not a manifest.
    pub fn read(path: &Path) -> Result<Option<Manifest>, Error> {
        let text = match maxconnect4_io::bounded::read(path, MANIFEST_LIMIT, "tournament manifest") {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(Error::io("read", path, source)),
        };
        serde_json::from_slice(&text).map(Some).map_err(|source| Error::NotAManifest { path: path.to_owned(), source })
    }

    /// How `other` differs from this manifest, in words, if it does.
    #[must_use]
    pub fn difference(&self, other: &Manifest) -> Option<String> {
        let names = |manifest: &Manifest| manifest.names().join(", ");
        if self.names() != other.names() {
            return Some(format!("players {} against {}", names(self), names(other)));
        }
        if let Some((mine, theirs)) = self.players.iter().zip(&other.players).find(|(mine, theirs)| mine != theirs) {
            return Some(format!("'{}' plays '{}' against '{}'", mine.name, mine.command, theirs.command));
        }
        if self.openings != other.openings {
            return Some(format!("{} openings against {}", self.openings.len(), other.openings.len()));
        }
        if self.gauntlet != other.gauntlet {
            let gauntlet = |manifest: &Manifest| match manifest.gauntlet.as_slice() {
                [] => "a round robin".to_owned(),
                references => format!("a gauntlet of {}", references.join(", ")),
            };
            return Some(format!("{} against {}", gauntlet(self), gauntlet(other)));
        }
        if self.settings != other.settings {
            return Some(format!("{} against {}", self.settings, other.settings));
        }
        (self.anchor != other.anchor).then(|| format!("anchor {} against {}", self.anchor, other.anchor))
    }

    /// How many games the tournament plays, all shards together.
    #[must_use]
    pub fn games(&self) -> usize {
        game_list(&self.names(), &self.openings, &self.gauntlet).count()
    }

    /// Whether `record` is a game of this tournament: named as one of its
    /// games, between two of its players who meet, from one of its
    /// openings. A record so named is that game once
    /// [`audit`](crate::referee::audit) has passed it; one named otherwise (a
    /// match's game in the tournament's log) is none, whoever played it.
    #[must_use]
    pub fn includes(&self, record: &GameRecord) -> bool {
        let plays = |name: &str| self.players.iter().any(|side| side.name == name);
        Fixture::named(&record.id).is_some_and(|game| {
            plays(&game.red)
                && plays(&game.green)
                && meets(&self.gauntlet, &game.red, &game.green)
                && self.openings.contains(&game.opening)
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::referee::log::Scores;
    use maxconnect4_game::player::Player;
    use maxconnect4_game::rules::{Outcome, Rules};

    /// A game between `red` and `green` from `opening`.
    fn game(red: &str, green: &str, opening: &str) -> GameRecord {
        let side = |name: &str| Side { name: name.to_owned(), command: "self".to_owned() };
        GameRecord {
            id: format!("{opening}+{red}+{green}"),
            red: side(red),
            green: side(green),
            settings: manifest().settings,
            start: String::new(),
            opening: Some(opening.to_owned()),
            moves: String::new(),
            score: Scores { red: 0, green: 0 },
            result: Outcome::Win(Player::One),
            forfeit: None,
            adjudicated: None,
            turns: Vec::new(),
        }
    }

    #[test]
    fn a_gauntlet_counts_and_keeps_only_its_own_games() {
        let side = |name: &str| Side { name: name.to_owned(), command: "self".to_owned() };
        let mut manifest = manifest();
        manifest.players = ["ann", "bob", "cy", "ref"].map(side).to_vec();
        assert_eq!(manifest.games(), 12, "a round robin of four from one opening");
        manifest.gauntlet = vec!["ref".to_owned()];
        assert_eq!(manifest.games(), 6, "three entrants against one reference, both colours");
        assert!(manifest.includes(&game("ann", "ref", "44")));
        assert!(manifest.includes(&game("ref", "cy", "44")));
        assert!(!manifest.includes(&game("ann", "bob", "44")), "entrants do not meet");
        assert!(!manifest.includes(&game("ann", "ref", "34")), "not an opening of the tournament");
        assert!(!manifest.includes(&game("ann", "dan", "44")), "not a player");
        let mut numbered = game("ann", "ref", "44");
        numbered.id = "7".to_owned();
        assert!(!manifest.includes(&numbered), "a match's game, between the same players from the same opening");
    }

    fn manifest() -> Manifest {
        let side = |name: &str| Side { name: name.to_owned(), command: "self".to_owned() };
        let settings =
            Settings { rules: Rules::Max, depth: 3, timeout: Duration::from_secs(10), clock: None, adjudication: None };
        Manifest::new(vec![side("a"), side("b")], vec!["44".to_owned()], settings, Vec::new(), "a".to_owned())
    }

    #[test]
    fn a_manifest_that_says_adjudicate_still_reads() {
        // As a tournament wrote it before the key was the game logs' own.
        let written_before = r#"{
  "players": [
    {
      "name": "a",
      "command": "self"
    },
    {
      "name": "b",
      "command": "self"
    }
  ],
  "openings": [
    "44"
  ],
  "rules": "classic",
  "depth": 3,
  "timeout": 1.5,
  "clock": 30.0,
  "adjudicate": 1000,
  "anchor": "a"
}
"#;
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join(MANIFEST_FILE);
        std::fs::write(&path, written_before).unwrap();
        let read = Manifest::read(&path).unwrap().unwrap();
        assert_eq!(read.settings.to_string(), "--rules classic --depth 3 --timeout 1.5 --clock 30 --adjudicate=1000");
        read.write(&path).unwrap();
        let written = std::fs::read_to_string(&path).unwrap();
        assert_eq!(written, written_before.replace(r#""adjudicate""#, r#""adjudication""#));
        assert_eq!(Manifest::read(&path).unwrap(), Some(read));
    }

    #[test]
    fn a_manifest_round_trips_and_names_a_difference() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join(MANIFEST_FILE);
        assert_eq!(Manifest::read(&path).unwrap(), None);
        manifest().write(&path).unwrap();
        assert_eq!(Manifest::read(&path).unwrap(), Some(manifest()));
        let mut deeper = manifest();
        deeper.settings.depth = 5;
        assert_eq!(
            manifest().difference(&deeper).as_deref(),
            Some("--rules max --depth 3 --timeout 10 against --rules max --depth 5 --timeout 10")
        );
        assert_eq!(manifest().difference(&manifest()), None);
        let mut gauntlet = manifest();
        gauntlet.gauntlet = vec!["b".to_owned()];
        assert_eq!(manifest().difference(&gauntlet).as_deref(), Some("a round robin against a gauntlet of b"));
        std::fs::write(&path, "{").unwrap();
        let error = Manifest::read(&path).unwrap_err().to_string();
        assert!(error.contains("is not a tournament manifest"), "{error}");
    }
}
