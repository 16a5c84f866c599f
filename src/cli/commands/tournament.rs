//! `tournament`: every pair of players from each opening, with both
//! colours; its games listed, played whole or in shards.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use maxconnect4::contain;
use maxconnect4::referee::error::TournamentError;
use maxconnect4::referee::{self, adjudication, fixtures, player::PlayerSpec, settings::Settings, tournament};
use maxconnect4::rules::Rules;
use maxconnect4::shard::Shard;

use super::{say_players_killed, Out, Subcommand};
use crate::cli::{parse_jobs, parse_openings, parse_player, parse_shard, whole, Cli, IsolationArgs, SettingsArgs};

/// Play every pair of players from each opening, with both colours.
#[derive(Args)]
pub(crate) struct TournamentArgs {
    /// A player as NAME=COMMAND, COMMAND being `self`, `perfect`, a command template or an
    /// arena's bot (`moderator:COMMAND`, `coordinator:COMMAND`, `http:URL`); two or more.
    #[arg(long = "player", value_name = "NAME=TEMPLATE", required_unless_present = "class", value_parser = parse_entrant)]
    players: Vec<(String, PlayerSpec)>,
    /// A class's folder, one subfolder per student: each student's program found and built
    /// in a copy, and entered under the subfolder's name, beside any --player.
    #[arg(long, value_name = "DIR")]
    class: Option<PathBuf>,
    #[command(flatten)]
    settings: SettingsArgs,
    #[command(flatten)]
    isolation: IsolationArgs,
    /// How many of the 49 two-ply openings to play, central ones first (0: the empty board only).
    #[arg(long, value_name = "N", default_value_t = 49, value_parser = parse_openings)]
    openings: u16,
    /// Games to play at the same time.
    #[arg(long, value_name = "J", default_value_t = 1, value_parser = parse_jobs)]
    jobs: u16,
    /// The directory for the games' log, their output and the standings.
    #[arg(long, value_name = "DIR", default_value = "tournament")]
    out: PathBuf,
    /// Leave out the players that fail the pre-flight check (one move on the
    /// empty board) instead of refusing to start.
    #[arg(long, conflicts_with = "no_check")]
    drop_failing: bool,
    /// Play without the pre-flight check: a player that cannot play forfeits its games.
    #[arg(long)]
    no_check: bool,
    /// The player rated 0, whom the others' ratings are measured from [default: the first
    /// reference of a gauntlet, else the first player].
    #[arg(long, value_name = "NAME")]
    anchor: Option<String>,
    /// Reference players (given with --player too): every other player meets each of them,
    /// and neither they nor the others meet among themselves.
    #[arg(long, value_name = "NAME[,NAME...]", value_delimiter = ',')]
    gauntlet: Vec<String>,
    /// Classic rules: end a game once the solver proves its result, searching at most
    /// POSITIONS positions after each move [default: 10000], and log that it did.
    #[arg(long, value_name = "POSITIONS", num_args = 0..=1, require_equals = true,
          default_missing_value = DEFAULT_ADJUDICATION, value_parser = parse_adjudication)]
    adjudicate: Option<u64>,
    /// Print the id of every game, one a line, in order, and play nothing.
    #[arg(long)]
    list_games: bool,
    /// Play only part I of N (I from 0 to N-1): the games whose place in --list-games,
    /// counted from 0, is I modulo N.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    shard: Option<Shard>,
}

impl TournamentArgs {
    fn options(self) -> tournament::TournamentOptions {
        let settings = Settings { adjudication: self.adjudicate, ..self.settings.settings() };
        tournament::TournamentOptions {
            players: self.players,
            openings: self.openings.into(),
            jobs: self.jobs.into(),
            directory: self.out,
            settings,
            isolation: self.isolation.isolation(),
            // A gauntlet's ratings are measured from its first reference,
            // the same player year after year.
            anchor: self.anchor.or_else(|| self.gauntlet.first().cloned()),
            gauntlet: self.gauntlet,
            shard: self.shard,
            programs: Vec::new(),
            preflight: if self.no_check {
                tournament::Preflight::Skip
            } else if self.drop_failing {
                tournament::Preflight::Drop
            } else {
                tournament::Preflight::Refuse
            },
        }
    }
}

impl Subcommand for TournamentArgs {
    /// What spans several of its arguments: unique names, two players at
    /// least, an anchor and a gauntlet among them, adjudication under
    /// classic rules only.
    fn check(&mut self) -> Result<(), clap::Error> {
        let mut names = std::collections::HashSet::new();
        if let Some((name, _)) = self.players.iter().find(|(name, _)| !names.insert(name)) {
            return Err(Cli::argument_error("tournament", format!("two players are named '{name}'")));
        }
        if self.players.len() < 2 && self.class.is_none() {
            return Err(Cli::argument_error(
                "tournament",
                "a tournament needs at least two players: give --player NAME=TEMPLATE twice or more".to_owned(),
            ));
        }
        // A class's players are known once its folder is read.
        let known = |name: &String| names.contains(name) || self.class.is_some();
        if let Some(anchor) = self.anchor.as_ref().filter(|anchor| !known(anchor)) {
            let message = format!("invalid value '{anchor}' for '--anchor <NAME>': no player is named so");
            return Err(Cli::argument_error("tournament", message));
        }
        let players: Vec<String> = self.players.iter().map(|(name, _)| name.clone()).collect();
        let gauntlet = if self.class.is_some() { Ok(()) } else { fixtures::check_gauntlet(&players, &self.gauntlet) };
        if let Err(error) = gauntlet {
            let message =
                format!("invalid value '{}' for '--gauntlet <NAME[,NAME...]>': {error}", self.gauntlet.join(","));
            return Err(Cli::argument_error("tournament", message));
        }
        if self.adjudicate.is_some() && self.settings.rules.rules != Rules::Classic {
            let kind = clap::error::ErrorKind::ArgumentConflict;
            return Err(Cli::usage_error("tournament", kind, TournamentError::AdjudicateClassicOnly.to_string()));
        }
        Ok(())
    }

    fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let (class, list_games) = (self.class.clone(), self.list_games);
        let mut options = self.options();
        if list_games {
            if let Some(class) = class {
                // Only the names count: nothing is built.
                let unbuilt = |name: String| (name, PlayerSpec::unbuilt(String::new(), String::new()));
                options.players.extend(referee::class::names(&class)?.into_iter().map(unbuilt));
            }
            tournament::list_games(&options, out)?;
            return Ok(ExitCode::SUCCESS);
        }
        contain::stop_players_on_interrupt(say_players_killed);
        if let Some(class) = &class {
            // No player sees the class's folder: each has its own
            // submission's copy.
            options.isolation = options.isolation.clone().hiding(class);
        }
        // Kept until the tournament ends: it holds the built programs.
        let mut errors = io::stderr();
        let isolation = options.isolation.clone();
        let prepared = class.map(|class| referee::class::prepare(&class, isolation, &mut errors)).transpose()?;
        let entrants = prepared.iter().flat_map(|prepared| &prepared.entrants);
        for entrant in entrants {
            options.players.push((entrant.name.clone(), entrant.spec.clone()));
            options.programs.push((entrant.name.clone(), entrant.found.clone()));
        }
        let terminal = io::IsTerminal::is_terminal(&errors);
        tournament::run(&options, out, &mut referee::reporter::Reporter::new(&mut errors, terminal))?;
        Ok(ExitCode::SUCCESS)
    }
}

/// `--adjudicate`'s budget when none is given: [`adjudication::DEFAULT_BUDGET`].
const DEFAULT_ADJUDICATION: &str = "10000";

/// The positions the solver may search to adjudicate a position: 1 to
/// [`adjudication::MAX_BUDGET`].
fn parse_adjudication(text: &str) -> Result<u64, String> {
    whole(text, 1, adjudication::MAX_BUDGET, "positions").map_err(|error| error.to_string())
}

/// NAME=TEMPLATE: a name usable as a file name (letters, digits, `-`, `_`
/// and `.`, not first) and `self` or a command template, never a person.
fn parse_entrant(text: &str) -> Result<(String, PlayerSpec), String> {
    let (name, template) = text
        .split_once('=')
        .map(|(name, template)| (name.trim(), template))
        .ok_or_else(|| "expected NAME=TEMPLATE, such as me=self".to_owned())?;
    tournament::check_name(name).map_err(|error| error.to_string())?;
    let spec = parse_player(template)?;
    if spec.is_human() {
        return Err("a tournament has no human players: give `self`, a command template or a bot".to_owned());
    }
    Ok((name.to_owned(), spec))
}
