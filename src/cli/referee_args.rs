//! The referee's arguments: a game's settings, the sandbox's, a match, a
//! logged game, a replay or annotation, a check, a tournament, results, and
//! the players as given.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;

use maxconnect4::contain::limits::Allowance;
use maxconnect4::contain::sandbox::Isolation;
use maxconnect4::contain::template::{OwnPlay, TemplateError};
use maxconnect4::moves::Moves;
use maxconnect4::referee::error::TournamentError;
use maxconnect4::referee::fixtures;
use maxconnect4::referee::{
    self, adjudication,
    player::{PlayerKind, PlayerSpec, SpecError},
    settings::Settings,
    tournament,
};
use maxconnect4::report;
use maxconnect4::report::program::{NodesPattern, Player, Timed};
use maxconnect4::rules::Rules;
use maxconnect4::search::Engine;
use maxconnect4::shard::{Shard, ShardError};

use super::engine_args::*;
use super::values::*;
use super::Cli;
use clap::CommandFactory as _;

/// The rules and limits every program in a game plays under.
#[derive(clap::Args)]
pub(crate) struct SettingsArgs {
    #[command(flatten)]
    pub(crate) rules: RulesOption,
    /// Plies for `self` to search; substituted for {depth} in commands.
    #[arg(long, default_value_t = 5, value_parser = parse_depth)]
    pub(crate) depth: u32,
    /// Seconds a program has for each move (a person has no limit).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
    pub(crate) timeout: Duration,
    /// Seconds each program has for the whole game, beside --timeout per move; running out forfeits.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) clock: Option<Duration>,
}

impl SettingsArgs {
    pub(crate) fn settings(&self) -> Settings {
        Settings {
            rules: self.rules.rules,
            depth: self.depth,
            timeout: self.timeout,
            clock: self.clock,
            adjudicate: None,
        }
    }
}

/// How players' programs are run.
#[derive(clap::Args)]
pub(crate) struct IsolationArgs {
    /// Run players without a sandbox (bubblewrap): they can then read and
    /// write whatever you can.
    #[arg(long)]
    pub(crate) no_sandbox: bool,
    /// Let sandboxed players use the network.
    #[arg(long)]
    pub(crate) network: bool,
    /// Megabytes of memory each player may use, all its processes and its /tmp together.
    #[arg(long, value_name = "MB", default_value_t = Allowance::DEFAULT.memory >> 20, value_parser = parse_limit_mb)]
    pub(crate) memory: u64,
    /// Processes and threads each player may run at once.
    #[arg(long, value_name = "N", default_value_t = Allowance::DEFAULT.processes, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub(crate) processes: u32,
    /// Megabytes each player's sandbox /tmp, and its /dev/shm, may each hold.
    #[arg(long, value_name = "MB", default_value_t = Allowance::DEFAULT.tmp >> 20, value_parser = parse_limit_mb)]
    pub(crate) tmp_size: u64,
    /// Seconds of CPU time a player's processes may use on one move [default: the move's time].
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) cpu: Option<Duration>,
    /// Megabytes each player's folder may hold (kept across turns); also the largest file it may write.
    #[arg(long, value_name = "MB", default_value_t = Allowance::DEFAULT.disk >> 20, value_parser = parse_limit_mb)]
    pub(crate) disk: u64,
    /// A variable of your environment that players get too (they get only PATH, the locale,
    /// HOME, their folder, and TMPDIR otherwise); repeat for more.
    #[arg(long = "env", value_name = "NAME", value_parser = parse_variable_name)]
    pub(crate) env: Vec<String>,
}

impl IsolationArgs {
    pub(crate) fn isolation(&self) -> Isolation {
        let limits = Allowance {
            memory: self.memory << 20,
            processes: self.processes,
            tmp: self.tmp_size << 20,
            disk: self.disk << 20,
            cpu: self.cpu,
        };
        Isolation {
            sandbox: !self.no_sandbox,
            network: self.network,
            limits,
            env: self.env.clone(),
            hidden: Vec::new(),
        }
    }
}

/// The name of an environment variable: letters, digits and `_`, not
/// starting with a digit.
fn parse_variable_name(text: &str) -> Result<String, String> {
    let mut characters = text.chars();
    let first = characters.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if first && characters.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        Ok(text.to_owned())
    } else {
        Err(format!("'{text}' is not the name of an environment variable (letters, digits and _)"))
    }
}

/// A player's limit in megabytes: 1 to 1,048,576 (a terabyte).
pub(crate) fn parse_limit_mb(text: &str) -> Result<u64, String> {
    whole(text, 1, 1 << 20, "megabytes").map_err(|error| error.to_string())
}

#[derive(clap::Args)]
pub(crate) struct MatchArgs {
    /// Player 1: `self`, `perfect` (`self` playing perfectly where its time allows, and saying
    /// when it cannot), `human`, a command with {in}, {out} and optionally {depth}, or an arena's
    /// bot: `moderator:COMMAND`, `coordinator:COMMAND` or `http:URL`.
    #[arg(value_parser = parse_player)]
    pub(crate) red: PlayerSpec,
    /// Player 2, given the same way.
    #[arg(value_parser = parse_player)]
    pub(crate) green: PlayerSpec,
    /// A board file to start from instead of the empty board.
    #[arg(long, value_name = "FILE", conflicts_with = "start_moves")]
    pub(crate) start: Option<PathBuf>,
    /// Start from the position after these moves (columns 1-7 from the empty board).
    #[arg(long, value_name = "MOVES")]
    pub(crate) start_moves: Option<String>,
    #[command(flatten)]
    pub(crate) settings: SettingsArgs,
    #[command(flatten)]
    pub(crate) isolation: IsolationArgs,
    /// The log to append the game to; the programs' output goes in LOG's name with .output.
    #[arg(long, value_name = "FILE", default_value = "games.jsonl")]
    pub(crate) log: PathBuf,
    /// Print only the result, not the board after every move.
    #[arg(long)]
    pub(crate) quiet: bool,
}

impl MatchArgs {
    pub(crate) fn options(self) -> anyhow::Result<referee::MatchOptions> {
        let settings = self.settings.settings();
        let start = match (self.start, self.start_moves) {
            (Some(path), _) => referee::Start::File(path),
            (None, Some(text)) => {
                let bad = || format!("bad move string '{}'", text.escape_debug());
                let moves: Moves = text.parse().with_context(bad)?;
                moves.play(settings.rules).with_context(bad)?;
                referee::Start::Moves(moves)
            }
            (None, None) => referee::Start::Moves(Moves::new()),
        };
        Ok(referee::MatchOptions {
            red: self.red,
            green: self.green,
            settings,
            start,
            log: self.log,
            quiet: self.quiet,
            isolation: self.isolation.isolation(),
        })
    }
}

/// A game of a log, as `replay` and `annotate` name it.
#[derive(clap::Args)]
pub(crate) struct LoggedGame {
    /// A game log written by `match` or `tournament`.
    pub(crate) log: PathBuf,
    /// The rules of the game [default: the rules the log records; max for logs without them].
    #[arg(long, value_name = "RULES", value_parser = parse_rules)]
    pub(crate) rules: Option<Rules>,
}

impl LoggedGame {
    /// Game `number` (from 1; the last if none), read and played again; the
    /// log's lines that are not records are said on stderr.
    pub(crate) fn load(&self, number: Option<u32>) -> Result<referee::replay::Loaded, referee::Error> {
        referee::replay::load(&self.log, number.map(|n| n as usize), self.rules, &mut std::io::stderr())
    }
}

/// The search that annotates each move of a logged game.
#[derive(clap::Args)]
pub(crate) struct AnnotationArgs {
    #[command(flatten)]
    pub(crate) budget: BudgetArgs,
    #[command(flatten)]
    pub(crate) table: TableOptions,
    #[command(flatten)]
    pub(crate) book: BookOptions,
}

impl AnnotationArgs {
    /// An engine for games under `rules`.
    pub(crate) fn engine(&self, rules: Rules) -> anyhow::Result<Engine> {
        Ok(self.table.with_book(&self.book).engine(rules)?)
    }
}

#[derive(clap::Args)]
pub(crate) struct ReplayArgs {
    #[command(flatten)]
    pub(crate) log: LoggedGame,
    #[command(flatten)]
    pub(crate) analysis: AnnotationArgs,
    /// Which game, counting from 1 [default: the last].
    #[arg(long, value_name = "N", value_parser = parse_game)]
    pub(crate) game: Option<u32>,
    /// Seconds to pause before each move.
    #[arg(long, value_name = "SECONDS", default_value = "0.5", value_parser = parse_delay)]
    pub(crate) delay: Duration,
    /// Show each move's value against the best column's, as `annotate` does.
    #[arg(long)]
    pub(crate) annotate: bool,
}

impl ReplayArgs {
    /// An annotation's budget without the annotation is a mistake.
    pub(crate) fn check(&self) -> Result<(), clap::Error> {
        if !self.annotate && self.analysis.budget.given() {
            let message = "--depth and --time-limit set the annotation's budget: give --annotate".to_owned();
            return Err(Cli::usage_error("replay", clap::error::ErrorKind::MissingRequiredArgument, message));
        }
        Ok(())
    }
}

#[derive(clap::Args)]
pub(crate) struct AnnotateArgs {
    #[command(flatten)]
    pub(crate) log: LoggedGame,
    #[command(flatten)]
    pub(crate) analysis: AnnotationArgs,
    /// Which game, counting from 1 [default: the last].
    #[arg(long, value_name = "N", value_parser = parse_game)]
    pub(crate) game: Option<u32>,
    /// Print one JSON object for programs.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(clap::Args)]
pub(crate) struct CheckArgs {
    /// Players given as to `match`: `self`, a command with {in}, {out} and optionally
    /// {depth}, or an arena's bot: `moderator:COMMAND`, `coordinator:COMMAND` or `http:URL`.
    #[arg(required_unless_present = "class", value_parser = parse_player)]
    pub(crate) players: Vec<PlayerSpec>,
    /// A class's folder, one subfolder per student: each student's program found, built
    /// in a copy and checked, one line each.
    #[arg(long, value_name = "DIR")]
    pub(crate) class: Option<PathBuf>,
    /// With --class: a CSV file to write, one row per student (what was found and how it
    /// was built, passed or failed and why), to import into a grade sheet.
    #[arg(long, value_name = "FILE", requires = "class")]
    pub(crate) gradebook: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) settings: SettingsArgs,
    #[command(flatten)]
    pub(crate) isolation: IsolationArgs,
}

#[derive(clap::Args)]
pub(crate) struct TournamentArgs {
    /// A player as NAME=COMMAND, COMMAND being `self`, `perfect`, a command template or an
    /// arena's bot (`moderator:COMMAND`, `coordinator:COMMAND`, `http:URL`); two or more.
    #[arg(long = "player", value_name = "NAME=TEMPLATE", required_unless_present = "class", value_parser = parse_entrant)]
    pub(crate) players: Vec<(String, PlayerSpec)>,
    /// A class's folder, one subfolder per student: each student's program found and built
    /// in a copy, and entered under the subfolder's name, beside any --player.
    #[arg(long, value_name = "DIR")]
    pub(crate) class: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) settings: SettingsArgs,
    #[command(flatten)]
    pub(crate) isolation: IsolationArgs,
    /// How many of the 49 two-ply openings to play, central ones first (0: the empty board only).
    #[arg(long, value_name = "N", default_value_t = 49, value_parser = parse_openings)]
    pub(crate) openings: u16,
    /// Games to play at the same time.
    #[arg(long, value_name = "J", default_value_t = 1, value_parser = parse_jobs)]
    pub(crate) jobs: u16,
    /// The directory for the games' log, their output and the standings.
    #[arg(long, value_name = "DIR", default_value = "tournament")]
    pub(crate) out: PathBuf,
    /// Leave out the players that fail the pre-flight check (one move on the
    /// empty board) instead of refusing to start.
    #[arg(long, conflicts_with = "no_check")]
    pub(crate) drop_failing: bool,
    /// Play without the pre-flight check: a player that cannot play forfeits its games.
    #[arg(long)]
    pub(crate) no_check: bool,
    /// The player rated 0, whom the others' ratings are measured from [default: the first
    /// reference of a gauntlet, else the first player].
    #[arg(long, value_name = "NAME")]
    pub(crate) anchor: Option<String>,
    /// Reference players (given with --player too): every other player meets each of them,
    /// and neither they nor the others meet among themselves.
    #[arg(long, value_name = "NAME[,NAME...]", value_delimiter = ',')]
    pub(crate) gauntlet: Vec<String>,
    /// Classic rules: end a game once the solver proves its result, searching at most
    /// POSITIONS positions after each move [default: 10000], and log that it did.
    #[arg(long, value_name = "POSITIONS", num_args = 0..=1, require_equals = true,
          default_missing_value = DEFAULT_ADJUDICATION, value_parser = parse_adjudication)]
    pub(crate) adjudicate: Option<u64>,
    /// Print the id of every game, one a line, in order, and play nothing.
    #[arg(long)]
    pub(crate) list_games: bool,
    /// Play only part I of N (I from 0 to N-1): the games whose place in --list-games,
    /// counted from 0, is I modulo N.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub(crate) shard: Option<Shard>,
}

#[derive(clap::Args)]
pub(crate) struct ResultsArgs {
    /// Logs of one tournament (`DIR/games.jsonl`, or `DIR` for its log), such as its shards' logs, or
    /// a folder of its shards' folders; each game counts once.
    #[arg(required = true, value_name = "LOG")]
    pub(crate) logs: Vec<PathBuf>,
    /// The directory for the standings, crosstable, ratings and results.html
    /// [default: the folder given, or the log's directory, when one is given].
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// The player rated 0 [default: the tournament's anchor, or its first player].
    #[arg(long, value_name = "NAME")]
    pub(crate) anchor: Option<String>,
}

impl ResultsArgs {
    /// Several logs need a folder for their results.
    pub(crate) fn check(&self) -> Result<(), clap::Error> {
        if self.out.is_none() && self.logs.len() > 1 {
            let message = "give --out DIR for the results of more than one log".to_owned();
            return Err(Cli::usage_error("results", clap::error::ErrorKind::MissingRequiredArgument, message));
        }
        Ok(())
    }

    /// Where the results go: `--out`, or the one folder given (a
    /// tournament's, or its shards' parent), or the one log's directory.
    pub(crate) fn directory(&self) -> PathBuf {
        let given = &self.logs[0];
        let beside =
            || if given.is_dir() { given.clone() } else { given.parent().map(Path::to_path_buf).unwrap_or_default() };
        self.out.clone().unwrap_or_else(beside)
    }
}

impl TournamentArgs {
    /// What spans several of its arguments: unique names, two players at
    /// least, an anchor and a gauntlet among them, adjudication under
    /// classic rules only.
    pub(crate) fn check(&self) -> Result<(), clap::Error> {
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

    pub(crate) fn options(self) -> tournament::TournamentOptions {
        let settings = Settings { adjudicate: self.adjudicate, ..self.settings.settings() };
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

/// `--adjudicate`'s budget when none is given: [`adjudication::DEFAULT_BUDGET`].
const DEFAULT_ADJUDICATION: &str = "10000";

/// The positions the solver may search to adjudicate a position: 1 to
/// [`adjudication::MAX_BUDGET`].
pub(crate) fn parse_adjudication(text: &str) -> Result<u64, String> {
    whole(text, 1, adjudication::MAX_BUDGET, "positions").map_err(|error| error.to_string())
}

/// `I/N`: part I of N of a tournament or a book's build, counting from 0.
pub(crate) fn parse_shard(text: &str) -> Result<Shard, ShardError> {
    text.parse()
}

/// NAME=TEMPLATE: a name usable as a file name (letters, digits, `-`, `_`
/// and `.`, not first) and `self` or a command template, never a person.
pub(crate) fn parse_entrant(text: &str) -> Result<(String, PlayerSpec), String> {
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

/// The program a timing report runs: a one-move command template, or `self`.
pub(crate) fn parse_one_move_player(text: &str) -> Result<Player, String> {
    let spec = parse_player(text)?;
    let program = match spec.kind() {
        PlayerKind::Command(template) => Timed::Command(template.clone()),
        PlayerKind::Engine(OwnPlay::BookMoves) => Timed::Own,
        _ => return Err(report::program::NOT_ONE_MOVE.to_owned()),
    };
    Ok(Player { command: spec.command().to_owned(), program })
}

/// A node count's pattern: a regular expression with a group.
pub(crate) fn parse_nodes_pattern(text: &str) -> Result<NodesPattern, String> {
    NodesPattern::parse(text).map_err(|error| error.to_string())
}

/// A player: `self`, `human`, a command template or an arena's bot.
pub(crate) fn parse_player(text: &str) -> Result<PlayerSpec, String> {
    PlayerSpec::parse(text).map_err(|error| error.to_string())
}

/// A command template typed without quotes (`check python3 prog.py one-move
/// {in} {out} {depth}`) reaches the parser as one argument per word, the
/// first without `{in}`: when the arguments after such a word hold
/// placeholders, the error says to quote the whole command, and shows the
/// command line quoted so. Any other error is returned as it is.
pub(crate) fn unquoted_template(error: clap::Error) -> clap::Error {
    use clap::error::ErrorKind::{UnknownArgument, ValueValidation};
    if !matches!(error.kind(), ValueValidation | UnknownArgument) {
        return error;
    }
    let args: Vec<String> = std::env::args_os().skip(1).map(|arg| arg.to_string_lossy().into_owned()).collect();
    match quoting_hint(&args) {
        Some(message) => Cli::argument_error(&args[0], message),
        None => error,
    }
}

/// What to say of `args` (the subcommand first) when a player's command
/// template in them was split into several arguments, if one was.
fn quoting_hint(args: &[String]) -> Option<String> {
    let (subcommand, rest) = args.split_first()?;
    // Where the players are: the values of `--player` (`NAME=TEMPLATE` in a
    // tournament), or the positional arguments.
    let (by_option, named) = match subcommand.as_str() {
        "tournament" => (true, true),
        "report" => (true, false),
        "match" | "check" => (false, false),
        _ => return None,
    };
    let command = Cli::command();
    let arguments = command.find_subcommand(subcommand)?.get_arguments();
    // The subcommand's options, and whether each takes the next argument as its value.
    let options: Vec<(String, bool)> = arguments
        .filter_map(|arg| {
            let takes_next = arg.get_action().takes_values() && !arg.is_require_equals_set();
            Some((format!("--{}", arg.get_long()?), takes_next))
        })
        .collect();
    let option = |word: &str| {
        options.iter().find(|(long, _)| {
            word.strip_prefix(long.as_str()).is_some_and(|rest| rest.is_empty() || rest.starts_with('='))
        })
    };
    let mut shown = vec!["maxconnect4".to_owned(), subcommand.clone()];
    // The first template split so: its first word, the placeholder it lacks,
    // and what would still be wrong with the whole command.
    let mut split: Option<(String, &str, String)> = None;
    let mut index = 0;
    while index < rest.len() {
        let word = &rest[index];
        index += 1;
        let after_option = index >= 2 && option(&rest[index - 2]).is_some_and(|(_, takes_next)| *takes_next);
        let (prefix, value) = match word.strip_prefix("--player=") {
            Some(value) if by_option => ("--player=", value),
            _ if by_option && index >= 2 && rest[index - 2] == "--player" => ("", word.as_str()),
            _ if !by_option && !word.starts_with('-') && !after_option => ("", word.as_str()),
            _ => {
                shown.push(shell_word(word));
                continue;
            }
        };
        let template = |value: &str| {
            if named {
                value.split_once('=').map_or(value, |(_, t)| t).to_owned()
            } else {
                value.to_owned()
            }
        };
        let Err(SpecError::Template(TemplateError::Missing { template: first, placeholder, .. })) =
            PlayerSpec::parse(&template(value))
        else {
            shown.push(shell_word(word));
            continue;
        };
        // The words that seem to be the rest of the template: up to the next
        // of the subcommand's options (unless a placeholder is its value,
        // as in `--depth {depth}`), or, among positional players, up to a
        // word that starts another command once this one has its files.
        let mut words = vec![value.to_owned()];
        for (at, next) in rest.iter().enumerate().skip(index) {
            let placeholder_next = rest.get(at + 1).is_some_and(|after| after.contains('{'));
            let complete = ["{in}", "{out}"].iter().all(|needed| words.iter().any(|word| word.contains(needed)));
            if (option(next).is_some() && !placeholder_next)
                || (!by_option && complete && !next.starts_with('-') && !next.contains('{'))
            {
                break;
            }
            words.push(next.clone());
        }
        if !words[1..].iter().any(|word| word.contains('{') && word.contains('}')) {
            shown.push(shell_word(word));
            continue;
        }
        index += words.len() - 1;
        let joined = words.iter().map(|word| inner_word(word)).collect::<Vec<_>>().join(" ");
        shown.push(format!("{prefix}{}", shell_word(&joined)));
        split.get_or_insert_with(|| {
            let still = PlayerSpec::parse(&template(&joined))
                .err()
                .map_or(String::new(), |error| format!("; quoted, it is still refused: {error}"));
            (first, placeholder, still)
        });
    }
    let (first, placeholder, still) = split?;
    Some(format!(
        "the command template '{first}' has no {placeholder}, and the arguments after it look like the rest of the \
         command: quote the whole command as one argument, as in: {}{still}",
        shown.join(" ")
    ))
}

/// `word` as a shell reads it back: as it is when it holds nothing a shell
/// would interpret (a placeholder's braces included), else quoted.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:,+@%={}^".contains(c));
    if plain {
        word.to_owned()
    } else {
        shell_words::quote(word).into_owned()
    }
}

/// A word of a template shown in single quotes: in double quotes where it
/// needs quoting and they can hold it, so that the whole command's quotes
/// stay plain.
fn inner_word(word: &str) -> String {
    let plain = shell_word(word);
    if plain == word || word.contains(['"', '$', '`', '\\', '!', '\'']) {
        plain
    } else {
        format!("\"{word}\"")
    }
}
