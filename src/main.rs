//! The `maxconnect4` command: parses arguments and dispatches to a mode.

use std::io::{self, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use maxconnect4::modes::{self, FirstMove};
use maxconnect4::referee::{self, game::Rules, player::PlayerSpec, process, replay, tournament};
use maxconnect4::search::{Engine, Limits};
use maxconnect4::{format, memory, report};

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
        #[arg(value_parser = parse_perft_depth)]
        depth: u32,
        /// The board file to start from; the empty board if omitted.
        file: Option<PathBuf>,
    },
    /// Compute the exact result of a position with perfect play.
    Solve {
        /// The board file to solve.
        file: PathBuf,
        /// Give up after this many seconds.
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        time_limit: Option<Duration>,
        /// Transposition table size in MB (0 for none) [default: 64].
        #[arg(long, value_name = "MB", value_parser = parse_hash)]
        hash: Option<usize>,
    },
    /// Search a fixed set of positions and report the speed in nodes per second.
    Bench {
        /// Transposition table size in MB (0 for none) [default: 64].
        #[arg(long, value_name = "MB", value_parser = parse_hash)]
        hash: Option<usize>,
    },
    /// Time every search algorithm at every depth and write timing.csv, charts and REPORT.md.
    Report {
        /// Board files to search from [default: every file in input_files/].
        #[arg(long, value_name = "FILE", num_args = 1..)]
        positions: Vec<PathBuf>,
        /// Search depths 1 to N.
        #[arg(long, value_name = "N", default_value_t = report::DEFAULT_MAX_DEPTH, value_parser = parse_depth)]
        max_depth: u32,
        /// Skip a search predicted to take more CPU seconds than this.
        #[arg(long, value_name = "SECONDS", default_value = report::DEFAULT_BUDGET, value_parser = parse_seconds)]
        budget: Duration,
        /// The directory to write the report to (created if need be).
        #[arg(long, value_name = "DIR", default_value = report::DEFAULT_OUT)]
        out: PathBuf,
    },
    /// Referee one game between two players: `self`, `human` or a command.
    Match(MatchArgs),
    /// Show a logged game move by move.
    Replay(ReplayArgs),
    /// Play every pair of players from each opening, with both colours.
    Tournament(TournamentArgs),
    /// Describe the board file (also `maxconnect4 help format`).
    #[command(long_about = format::DESCRIPTION)]
    Format,
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
    /// Transposition table size in MB (0 for none) [default: 64].
    #[arg(long, value_name = "MB", value_parser = parse_hash)]
    hash: Option<usize>,
}

impl EngineOptions {
    fn limits(&self, depth: u32) -> Limits {
        Limits { depth, time_limit: self.time_limit }
    }
}

/// Bytes in a table of `mb` megabytes, [`DEFAULT_HASH_MB`] if not given
/// (saturating: an absurd size fails to allocate rather than wrapping round
/// to a small one).
fn megabytes(mb: Option<usize>) -> usize {
    mb.unwrap_or(DEFAULT_HASH_MB).saturating_mul(1 << 20)
}

/// The table size in MB for `--hash` as given to `subcommand`, checked
/// against the memory at hand: a size given that does not fit is a usage
/// error; the default shrinks to fit, with a warning.
fn sized_table(given: Option<usize>, subcommand: &str) -> Result<Option<usize>, clap::Error> {
    let available = memory::available();
    let Some(mb) = given else {
        let most = available.map_or(u64::MAX, memory::most_megabytes);
        let mb = usize::try_from(most).map_or(DEFAULT_HASH_MB, |most| most.min(DEFAULT_HASH_MB));
        if mb < DEFAULT_HASH_MB {
            eprintln!("warning: the memory at hand holds a table of {mb} MB, not the default {DEFAULT_HASH_MB} MB");
        }
        return Ok(Some(mb));
    };
    memory::check_table(mb as u64, available)
        .map_err(|error| Cli::argument_error(subcommand, format!("invalid value '{mb}' for '--hash <MB>': {error}")))?;
    Ok(Some(mb))
}

/// The longest time any option takes, in seconds (about 31 years): far
/// beyond any game, and far below what a clock reading plus a duration can
/// hold (about 9.2e18 s), so that no deadline overflows.
const MAX_SECONDS: f64 = 1e9;

/// SECONDS: a positive number, fractions allowed, at most [`MAX_SECONDS`].
fn parse_seconds(text: &str) -> Result<Duration, String> {
    match seconds(text)? {
        seconds if seconds > 0.0 => Ok(Duration::from_secs_f64(seconds)),
        _ => Err("expected a number of seconds greater than 0, such as 2 or 0.5".to_owned()),
    }
}

/// SECONDS: a number of seconds, 0 or more, at most [`MAX_SECONDS`].
fn parse_delay(text: &str) -> Result<Duration, String> {
    match seconds(text)? {
        seconds if seconds >= 0.0 => Ok(Duration::from_secs_f64(seconds)),
        _ => Err("expected a number of seconds, 0 or more, such as 0.5".to_owned()),
    }
}

/// A number of seconds no greater than [`MAX_SECONDS`] (possibly negative).
fn seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds.is_nan() => Err("expected a number of seconds, such as 2 or 0.5".to_owned()),
        Ok(seconds) if seconds > MAX_SECONDS => Err(format!("too large: at most {MAX_SECONDS} seconds")),
        Ok(seconds) => Ok(seconds),
        Err(_) => Err("expected a number of seconds, such as 2 or 0.5".to_owned()),
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Next {
    ComputerNext,
    HumanNext,
}

/// A depth to search: a whole number of plies, at least 1 (any depth beyond
/// the board's empty cells searches to the end).
fn parse_depth(text: &str) -> Result<u32, String> {
    whole(text, 1, u32::MAX, "plies").map_err(|error| match error {
        Whole::TooLarge(_) => {
            format!("too large: at most {} (any depth above 42 searches to the end of the game)", u32::MAX)
        }
        other => other.to_string(),
    })
}

/// The length of the move sequences perft counts: 0 or more.
fn parse_perft_depth(text: &str) -> Result<u32, String> {
    whole(text, 0, u32::MAX, "plies").map_err(|error| error.to_string())
}

/// A transposition table size in MB: 0 or more, and no more than the
/// bytes an address can count.
fn parse_hash(text: &str) -> Result<usize, String> {
    let most = u64::try_from(usize::MAX >> 20).unwrap_or(u64::MAX);
    let mb = whole(text, 0, most, "megabytes").map_err(|error| error.to_string())?;
    Ok(usize::try_from(mb).expect("at most usize::MAX >> 20"))
}

/// Which game of a log: games count from 1.
fn parse_game(text: &str) -> Result<u32, String> {
    whole(text, 1, u32::MAX, "games").map_err(|error| match error {
        Whole::TooSmall(_) => "games count from 1: the first game of the log is 1".to_owned(),
        other => other.to_string(),
    })
}

/// How many openings a tournament plays: 1 to the 49 there are.
fn parse_openings(text: &str) -> Result<u16, String> {
    whole(text, 1, 49, "openings").map_err(|error| error.to_string())
}

/// How many games a tournament plays at once.
fn parse_jobs(text: &str) -> Result<u16, String> {
    whole(text, 1, 64, "games").map_err(|error| error.to_string())
}

/// Why a text is not a whole number in a range.
#[derive(Debug, thiserror::Error)]
enum Whole {
    #[error("expected a whole number of {0}, such as 3")]
    NotANumber(&'static str),
    #[error("too small: at least {0}")]
    TooSmall(u64),
    #[error("too large: at most {0}")]
    TooLarge(u64),
}

/// A whole number from `least` to `most`; `unit` names what it counts.
fn whole<T: Copy + Into<u64> + TryFrom<u64>>(text: &str, least: T, most: T, unit: &'static str) -> Result<T, Whole> {
    let (least, most) = (least.into(), most.into());
    let digits = text.trim().strip_prefix('+').unwrap_or(text.trim());
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        let negative = digits.strip_prefix('-').is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
        return Err(if negative { Whole::TooSmall(least) } else { Whole::NotANumber(unit) });
    }
    match digits.parse::<u64>() {
        Ok(n) if n < least => Err(Whole::TooSmall(least)),
        Ok(n) if n <= most => T::try_from(n).map_err(|_| Whole::TooLarge(most)),
        _ => Err(Whole::TooLarge(most)),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse().and_then(Cli::validate) {
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
/// where clap puts it, before the pointer to `--help` (clap leaves the usage
/// out of value errors), or prints help or the version.
fn usage_error(error: &clap::Error) -> ExitCode {
    if !error.use_stderr() {
        let _ = error.print();
        return ExitCode::SUCCESS;
    }
    let rendered = error.render().ansi().to_string();
    let message = if rendered.contains("Usage:") {
        rendered
    } else {
        let mut command = Cli::command();
        command.build();
        let subcommand = std::env::args().nth(1).unwrap_or_default();
        let usage = match command.find_subcommand_mut(&subcommand) {
            Some(subcommand) => subcommand.render_usage(),
            None => command.render_usage(),
        };
        let pointer = rendered.find("\nFor more information").unwrap_or(rendered.len());
        let (error, rest) = rendered.split_at(pointer);
        format!("{}\n\n{}\n{rest}", error.trim_end(), usage.ansi())
    };
    let mut stderr = anstream::stderr();
    let _ = write!(stderr, "{}", message.trim_end());
    let _ = writeln!(stderr);
    ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
}

impl Cli {
    /// Checks what depends on more than one argument, as clap checks each
    /// one, so that every argument error is a usage error.
    fn validate(mut self) -> Result<Cli, clap::Error> {
        match &mut self.command {
            Command::OneMove { engine, .. } => engine.hash = sized_table(engine.hash, "one-move")?,
            Command::Interactive { engine, .. } => engine.hash = sized_table(engine.hash, "interactive")?,
            Command::Solve { hash, .. } => *hash = sized_table(*hash, "solve")?,
            Command::Bench { hash } => *hash = sized_table(*hash, "bench")?,
            _ => {}
        }
        if let Command::Tournament(args) = &self.command {
            let mut names = std::collections::HashSet::new();
            if let Some((name, _)) = args.players.iter().find(|(name, _)| !names.insert(name)) {
                return Err(Cli::argument_error("tournament", format!("two players are named '{name}'")));
            }
            if args.players.len() < 2 {
                return Err(Cli::argument_error(
                    "tournament",
                    "a tournament needs at least two players: give --player NAME=TEMPLATE twice or more".to_owned(),
                ));
            }
        }
        Ok(self)
    }

    /// A usage error of `subcommand`, rendered as clap renders its own.
    fn argument_error(subcommand: &str, message: String) -> clap::Error {
        let mut command = Cli::command();
        command.build();
        let subcommand = command.find_subcommand_mut(subcommand).expect("the subcommand exists");
        subcommand.error(clap::error::ErrorKind::ValueValidation, message)
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let mut out = anstream::stdout();
    match cli.command {
        Command::OneMove { input, output, depth, engine } => {
            modes::one_move(&input, &output, &engine.limits(depth), megabytes(engine.hash), &mut out)
        }
        Command::Interactive { input, next, depth, engine } => {
            let first = match next {
                Next::ComputerNext => FirstMove::Computer,
                Next::HumanNext => FirstMove::Human,
            };
            let limits = engine.limits(depth);
            modes::interactive(&input, first, &limits, megabytes(engine.hash), &mut io::stdin().lock(), &mut out)
        }
        Command::Perft { depth, file } => modes::perft(depth, file.as_deref(), &mut out),
        Command::Solve { file, time_limit, hash } => {
            modes::solve(&file, megabytes(hash), time_limit, &mut out, &mut anstream::stderr())
        }
        Command::Bench { hash } => modes::bench(megabytes(hash), &mut out),
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
        Command::Format => Ok(writeln!(out, "{}", format::DESCRIPTION)?),
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
    #[arg(value_parser = parse_match_player)]
    red: String,
    /// Player 2, given the same way.
    #[arg(value_parser = parse_match_player)]
    green: String,
    /// A board file to start from instead of the empty board.
    #[arg(long, value_name = "FILE")]
    start: Option<PathBuf>,
    #[command(flatten)]
    rules: RulesArgs,
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
    #[arg(long, value_name = "N", value_parser = parse_game)]
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
    #[command(flatten)]
    rules: RulesArgs,
    /// How many of the 49 two-ply openings to play, central ones first.
    #[arg(long, value_name = "N", default_value_t = 49, value_parser = parse_openings)]
    openings: u16,
    /// Games to play at the same time.
    #[arg(long, value_name = "J", default_value_t = 1, value_parser = parse_jobs)]
    jobs: u16,
    /// The directory for the games' log, their output and the standings.
    #[arg(long, value_name = "DIR", default_value = "tournament")]
    out: PathBuf,
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

/// NAME=TEMPLATE: a name usable as a file name (letters, digits, `-`, `_`
/// and `.`, not first) and `self` or a command template, never a person.
fn parse_entrant(text: &str) -> Result<(String, String), String> {
    let (name, template) = text
        .split_once('=')
        .map(|(name, template)| (name.trim(), template))
        .ok_or_else(|| "expected NAME=TEMPLATE, such as me=self".to_owned())?;
    let usable = name.chars().next().is_some_and(|first| first.is_ascii_alphanumeric() || first == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if !usable {
        return Err(format!(
            "'{name}' cannot be a player's name: use letters, digits, '-', '_' and '.', not '-' or '.' first"
        ));
    }
    if parse_player(template)? == PlayerSpec::Human {
        return Err("a tournament has no human players: give `self` or a command template".to_owned());
    }
    Ok((name.to_owned(), template.to_owned()))
}

/// A player of a match: `self`, `human` or a command template.
fn parse_player(text: &str) -> Result<PlayerSpec, String> {
    PlayerSpec::parse(text).map_err(|error| error.to_string())
}

/// A player of a match, checked and kept as given.
fn parse_match_player(text: &str) -> Result<String, String> {
    parse_player(text).map(|_| text.to_owned())
}
