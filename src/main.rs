//! The `maxconnect4` command: parses arguments and dispatches to a mode.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use maxconnect4::modes::{self, EngineSettings, FirstMove};
use maxconnect4::referee::{self, game::Rules, process, replay, tournament};
use maxconnect4::report;
use maxconnect4::search::{Engine, Limits};

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
        #[command(flatten)]
        engine: EngineOptions,
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
        #[command(flatten)]
        engine: EngineOptions,
    },
    /// Count the move sequences of length DEPTH (checks move generation).
    Perft {
        /// Length of the move sequences.
        depth: u32,
        /// The board file to start from; the empty board if omitted.
        file: Option<PathBuf>,
    },
    /// Compute the exact result of a position with perfect play.
    Solve {
        /// The board file to solve.
        file: PathBuf,
        #[command(flatten)]
        table: TableOptions,
        /// Give up after this many seconds.
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        time_limit: Option<Duration>,
    },
    /// Search a fixed set of positions and report the speed in nodes per second.
    Bench {
        #[command(flatten)]
        table: TableOptions,
    },
    /// Time every search algorithm at every depth and write timing.csv, charts and REPORT.md.
    Report {
        /// Board files to search from [default: every file in input_files/].
        #[arg(long, value_name = "FILE", num_args = 1..)]
        positions: Vec<PathBuf>,
        /// Search depths 1 to N.
        #[arg(long, value_name = "N", default_value_t = report::DEFAULT_MAX_DEPTH, value_parser = parse_depth)]
        max_depth: u32,
        /// The directory to write the report to (created if need be).
        #[arg(long, value_name = "DIR", default_value = report::DEFAULT_OUT)]
        out: PathBuf,
        /// Skip a search predicted to take more CPU seconds than this.
        #[arg(long, value_name = "SECONDS", default_value = report::DEFAULT_BUDGET, value_parser = parse_seconds)]
        budget: Duration,
    },
    /// Referee one game between two players: `self`, `human` or a command.
    Match(MatchArgs),
    /// Show a logged game move by move.
    Replay(ReplayArgs),
    /// Play every pair of players from each opening, with both colours.
    Tournament(TournamentArgs),
}

/// Transposition table size when `--hash` is not given.
const DEFAULT_HASH_MB: usize = Engine::DEFAULT_HASH_BYTES >> 20;

/// Options of the modes where the computer moves.
#[derive(Args)]
struct EngineOptions {
    /// Stop searching after this many seconds and play the best move of the
    /// deepest search finished (DEPTH still caps the depth).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
    #[command(flatten)]
    table: TableOptions,
}

impl EngineOptions {
    fn limits(&self, depth: u32) -> Limits {
        Limits { depth, time_limit: self.time_limit }
    }
}

/// The table and the threads sharing it: `--hash` and `--threads`.
#[derive(Args)]
struct TableOptions {
    /// Transposition table size in MB (0 for none).
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB)]
    hash: usize,
    /// Threads searching together [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
}

impl TableOptions {
    fn settings(&self) -> EngineSettings {
        EngineSettings {
            hash_bytes: megabytes(self.hash),
            threads: self.threads.map_or_else(modes::default_threads, usize::from),
        }
    }
}

/// Bytes in `mb` megabytes (saturating: an absurd size fails to allocate
/// rather than wrapping round to a small one).
fn megabytes(mb: usize) -> usize {
    mb.saturating_mul(1 << 20)
}

/// SECONDS: a positive number, fractions allowed.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds = text.parse::<f64>().ok().filter(|&seconds| seconds > 0.0);
    seconds
        .and_then(|seconds| Duration::try_from_secs_f64(seconds).ok())
        .ok_or_else(|| "expected a number of seconds greater than 0, such as 2 or 0.5".to_owned())
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
        Command::OneMove { input, output, depth, engine } => {
            modes::one_move(&input, &output, &engine.limits(depth), &engine.table.settings(), &mut out)
        }
        Command::Interactive { input, next, depth, engine } => {
            let first = match next {
                Next::ComputerNext => FirstMove::Computer,
                Next::HumanNext => FirstMove::Human,
            };
            let limits = engine.limits(depth);
            let settings = engine.table.settings();
            modes::interactive(&input, first, &limits, &settings, &mut io::stdin().lock(), &mut out)
        }
        Command::Perft { depth, file } => modes::perft(depth, file.as_deref(), &mut out),
        Command::Solve { file, table, time_limit } => {
            modes::solve(&file, &table.settings(), time_limit, &mut out, &mut anstream::stderr())
        }
        Command::Bench { table } => modes::bench(&table.settings(), &mut out),
        Command::Report { positions, max_depth, out: dir, budget } => {
            let command = report::command_line(std::env::args().skip(1));
            report::run(&report::Options { positions, max_depth, out: dir, budget, command }, &mut out)
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
    #[arg(long, value_name = "SECONDS", default_value = "0.5", value_parser = parse_delay)]
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

/// SECONDS: a number of seconds, 0 or more.
fn parse_delay(text: &str) -> Result<Duration, String> {
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
