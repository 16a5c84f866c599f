//! The `maxconnect4` command: parses arguments and dispatches to a mode.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

use maxconnect4::modes::{self, FirstMove};
use maxconnect4::referee::{self, game::Rules, process, replay, tournament};

/// Plays Max-Connect4: Connect-4 played until the board is full, scored by
/// the number of four-in-a-rows of each colour.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read a board file, make one move, write the new board to OUTPUT.
    OneMove {
        /// The board file to move from.
        input: PathBuf,
        /// Where to write the board after the move (left untouched if the game is over).
        output: PathBuf,
        /// Plies to search, the program's own move counting as the first.
        #[arg(value_parser = parse_depth)]
        depth: u32,
    },
    /// Play against the computer at the terminal.
    Interactive {
        /// The board file to start from; an empty board if it does not exist.
        input: PathBuf,
        /// Who moves first.
        next: Next,
        /// Plies to search, the program's own move counting as the first.
        #[arg(value_parser = parse_depth)]
        depth: u32,
    },
    /// Referee one game between two players: `self`, `human` or a command.
    Match(MatchArgs),
    /// Show a logged game move by move.
    Replay(ReplayArgs),
    /// Play every pair of players from each opening, with both colours.
    Tournament(TournamentArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum Next {
    ComputerNext,
    HumanNext,
}

/// DEPTH: a whole number of plies, at least 1.
fn parse_depth(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(depth) if depth >= 1 => Ok(depth),
        _ => Err("DEPTH must be a whole number of plies, 1 or more".to_owned()),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Prints a command-line error with the usage of the subcommand it concerns
/// (clap leaves the usage out of some errors), or prints help or the version.
fn usage_error(error: &clap::Error) -> ExitCode {
    let _ = error.print();
    let rendered = error.render().to_string();
    if error.use_stderr() && !rendered.contains("Usage:") {
        let mut command = Cli::command();
        command.build();
        let subcommand = std::env::args().nth(1).unwrap_or_default();
        let usage = match command.find_subcommand_mut(&subcommand) {
            Some(subcommand) => subcommand.render_usage(),
            None => command.render_usage(),
        };
        eprintln!("\n{usage}");
    }
    ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let mut out = anstream::stdout();
    match cli.command {
        Command::OneMove { input, output, depth } => modes::one_move(&input, &output, depth, &mut out),
        Command::Interactive { input, next, depth } => {
            let first = match next {
                Next::ComputerNext => FirstMove::Computer,
                Next::HumanNext => FirstMove::Human,
            };
            modes::interactive(&input, first, depth, &mut io::stdin().lock(), &mut out)
        }
        Command::Match(args) => {
            process::stop_players_on_interrupt();
            referee::play_match(&args.options(), &mut io::stdin().lock(), &mut out).map(drop).map_err(Into::into)
        }
        Command::Replay(args) => Ok(replay::replay(&args.log, args.game.map(|n| n as usize), args.delay, &mut out)?),
        Command::Tournament(args) => {
            process::stop_players_on_interrupt();
            tournament::run(&args.options(), &mut out).map(drop).map_err(Into::into)
        }
    }
}

/// Limits every program in a game plays under.
#[derive(clap::Args)]
struct RulesArgs {
    /// Plies for `self` to search; substituted for {depth} in commands.
    #[arg(long, default_value_t = 5, value_parser = parse_depth)]
    depth: u32,
    /// Seconds a program has for each move (a person has no limit).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
    timeout: Duration,
}

impl RulesArgs {
    fn rules(&self) -> Rules {
        Rules { depth: self.depth, timeout: self.timeout }
    }
}

#[derive(clap::Args)]
struct MatchArgs {
    /// Player 1: `self`, `human`, or a command with {in}, {out} and optionally {depth}.
    red: String,
    /// Player 2, given the same way.
    green: String,
    #[command(flatten)]
    rules: RulesArgs,
    /// A board file to start from instead of the empty board.
    #[arg(long, value_name = "FILE")]
    start: Option<PathBuf>,
    /// The log to append the game to; the programs' output goes in LOG's name with .output.
    #[arg(long, value_name = "FILE", default_value = "games.jsonl")]
    log: PathBuf,
    /// Print only the result, not the board after every move.
    #[arg(long)]
    quiet: bool,
}

impl MatchArgs {
    fn options(self) -> referee::MatchOptions {
        let rules = self.rules.rules();
        referee::MatchOptions {
            red: self.red,
            green: self.green,
            rules,
            start: self.start,
            log: self.log,
            quiet: self.quiet,
        }
    }
}

#[derive(clap::Args)]
struct ReplayArgs {
    /// A game log written by `match` or `tournament`.
    log: PathBuf,
    /// Which game, counting from 1 [default: the last].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    game: Option<u32>,
    /// Seconds to pause before each move.
    #[arg(long, value_name = "SECONDS", default_value = "0.5", value_parser = parse_pause)]
    delay: Duration,
}

#[derive(clap::Args)]
struct TournamentArgs {
    /// A player as NAME=COMMAND, COMMAND being `self` or a command template; two or more.
    #[arg(long = "player", value_name = "NAME=TEMPLATE", required = true, value_parser = parse_entrant)]
    players: Vec<(String, String)>,
    /// How many of the 49 two-ply openings to play, central ones first.
    #[arg(long, value_name = "N", default_value_t = 49, value_parser = clap::value_parser!(u16).range(1..=49))]
    openings: u16,
    /// Games to play at the same time.
    #[arg(long, value_name = "J", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: u16,
    /// The directory for the games' log, their output and the standings.
    #[arg(long, value_name = "DIR", default_value = "tournament")]
    out: PathBuf,
    #[command(flatten)]
    rules: RulesArgs,
}

impl TournamentArgs {
    fn options(self) -> tournament::TournamentOptions {
        tournament::TournamentOptions {
            players: self.players,
            openings: self.openings.into(),
            jobs: self.jobs.into(),
            directory: self.out,
            rules: self.rules.rules(),
        }
    }
}

/// SECONDS: a positive number of seconds, such as 0.5.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    match parse_pause(text)? {
        seconds if seconds.is_zero() => Err("SECONDS must be more than 0".to_owned()),
        seconds => Ok(seconds),
    }
}

/// SECONDS: a number of seconds, 0 or more.
fn parse_pause(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .and_then(|seconds| Duration::try_from_secs_f64(seconds).ok())
        .ok_or_else(|| format!("'{text}' is not a number of seconds"))
}

/// NAME=TEMPLATE.
fn parse_entrant(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(name, template)| (name.trim().to_owned(), template.to_owned()))
        .ok_or_else(|| "expected NAME=TEMPLATE, such as me=self".to_owned())
}
