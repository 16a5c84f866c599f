//! The `maxconnect4` command: parses arguments and dispatches to a mode.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use maxconnect4::board::Board;

use maxconnect4::modes::{self, bot, FirstMove, SolveOptions, Source};
use maxconnect4::protocol::coordinator;
use maxconnect4::referee::{self, game::Settings, process, replay, tournament};
use maxconnect4::serve;

/// The server's time per move when neither `--depth` nor `--time-limit` is given.
const SERVE_TIME_LIMIT: Duration = Duration::from_secs(1);
use maxconnect4::report;
use maxconnect4::rules::Rules;
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
    /// Read a board file (or a move string), make one move, write the new board to OUTPUT.
    #[command(
        override_usage = "maxconnect4 one-move [OPTIONS] INPUT OUTPUT DEPTH\n       maxconnect4 one-move [OPTIONS] --moves MOVES OUTPUT DEPTH"
    )]
    OneMove {
        /// INPUT OUTPUT DEPTH: the board file to move from, where to write the
        /// board after the move (left untouched if the game is over), and the
        /// plies to search (the program's own move first). With --moves,
        /// only OUTPUT DEPTH.
        #[arg(value_name = "ARGS", num_args = 2..=3, required = true)]
        args: Vec<PathBuf>,
        /// Start from the position after these moves (columns 1-7 from the empty board) instead of INPUT.
        #[arg(long, value_name = "MOVES")]
        moves: Option<String>,
        #[command(flatten)]
        rules: RulesOption,
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
        rules: RulesOption,
        #[command(flatten)]
        engine: EngineOptions,
    },
    /// Count the move sequences of length DEPTH (checks move generation).
    Perft {
        /// Length of the move sequences.
        depth: u32,
        /// The board file to start from; the empty board if omitted.
        #[arg(conflicts_with = "moves")]
        file: Option<PathBuf>,
        /// Start from the position after these moves instead.
        #[arg(long, value_name = "MOVES")]
        moves: Option<String>,
        #[command(flatten)]
        rules: RulesOption,
    },
    /// Compute the exact result of a position with perfect play.
    Solve {
        /// The board file to solve.
        #[arg(required_unless_present_any = ["moves", "batch"], conflicts_with_all = ["moves", "batch"])]
        file: Option<PathBuf>,
        /// Solve the position after these moves (columns 1-7 from the empty board).
        #[arg(long, value_name = "MOVES", conflicts_with = "batch")]
        moves: Option<String>,
        /// Solve every move string in FILE (`-` for standard input), one per line; print `MOVES VALUE`.
        #[arg(long, value_name = "FILE")]
        batch: Option<PathBuf>,
        /// Classic rules: only win, draw or loss (1, 0, -1), much faster.
        #[arg(long)]
        weak: bool,
        #[command(flatten)]
        rules: RulesOption,
        /// Transposition table size in MB.
        #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB)]
        hash: usize,
        /// Give up after this many seconds.
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        time_limit: Option<Duration>,
    },
    /// Search a fixed set of positions and report the speed in nodes per second.
    Bench {
        #[command(flatten)]
        rules: RulesOption,
        /// Transposition table size in MB.
        #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB)]
        hash: usize,
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
    /// Serve the web arena's bot (POST /) and a page to play in the browser (GET /).
    Serve {
        /// The address and port to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        #[command(flatten)]
        search: SearchOptions,
        /// Searches running at once [default: the number of cores].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
        searches: Option<u16>,
        /// The name answered to the arena's init.
        #[arg(long, default_value = "maxconnect4")]
        name: String,
    },
    /// Play as a bot in an arena that talks over standard input and output.
    #[command(subcommand)]
    Bot(BotCommand),
}

#[derive(Subcommand)]
enum BotCommand {
    /// The Connect 4 Moderator's bot: prints `p`, then one column 1-7 per move.
    Moderator {
        #[command(flatten)]
        search: SearchOptions,
        /// The game the moderator runs: classic or max.
        #[arg(long, value_name = "RULES", default_value = "classic", value_parser = parse_rules)]
        rules: Rules,
    },
    /// The coordinator's engine: name, isready, position, go, perft, quit.
    Coordinator {
        /// The name to answer `name` with.
        #[arg(long, default_value = coordinator::DEFAULT_NAME)]
        name: String,
        /// The game the coordinator runs: classic or max.
        #[arg(long, value_name = "RULES", default_value = "classic", value_parser = parse_rules)]
        rules: Rules,
    },
}

/// How long a bot searches: to a depth, or for a time.
#[derive(Args)]
struct SearchOptions {
    /// Search this many plies, however long it takes.
    #[arg(long, value_parser = parse_depth, conflicts_with = "time_limit")]
    depth: Option<u32>,
    /// Search this many seconds per move (to the end of the game at most).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
}

impl SearchOptions {
    /// The limits chosen, or a full-depth search for `default_time`.
    fn limits(&self, default_time: Duration) -> Limits {
        match (self.depth, self.time_limit) {
            (Some(depth), _) => Limits { depth, time_limit: None },
            (None, time_limit) => {
                Limits { depth: bot::FULL_DEPTH, time_limit: Some(time_limit.unwrap_or(default_time)) }
            }
        }
    }
}

/// The `--rules` option.
#[derive(Args)]
struct RulesOption {
    /// The game: max (Max-Connect4, played to a full board) or classic (the first four wins).
    #[arg(long, value_name = "RULES", default_value = "max", value_parser = parse_rules)]
    rules: Rules,
}

fn parse_rules(text: &str) -> Result<Rules, String> {
    text.parse::<Rules>().map_err(|error| error.to_string())
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
    /// Transposition table size in MB (0 for none).
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB)]
    hash: usize,
}

impl EngineOptions {
    fn limits(&self, depth: u32) -> Limits {
        Limits { depth, time_limit: self.time_limit }
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
    let cli = match Cli::try_parse().and_then(check_usage) {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error),
    };
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// The checks clap cannot make: one-move's positional arguments, which
/// depend on `--moves`, and `--weak`, which only classic rules have.
fn check_usage(cli: Cli) -> Result<Cli, clap::Error> {
    let error = |kind, message: &str| Err(Cli::command().error(kind, message));
    match &cli.command {
        Command::OneMove { args, moves, .. } => {
            let wanted = if moves.is_some() { 2 } else { 3 };
            if args.len() != wanted {
                let message = if moves.is_some() {
                    "with --moves, give only OUTPUT and DEPTH"
                } else {
                    "expected INPUT OUTPUT DEPTH (or --moves MOVES OUTPUT DEPTH)"
                };
                return error(clap::error::ErrorKind::WrongNumberOfValues, message);
            }
            let depth = args[wanted - 1].to_string_lossy();
            if let Err(message) = parse_depth(&depth) {
                return error(
                    clap::error::ErrorKind::ValueValidation,
                    &format!("invalid value '{depth}' for DEPTH: {message}"),
                );
            }
        }
        Command::Solve { weak: true, rules, .. } if rules.rules != Rules::Classic => {
            return error(clap::error::ErrorKind::ArgumentConflict, "--weak needs --rules classic");
        }
        _ => {}
    }
    Ok(cli)
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

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let mut out = anstream::stdout();
    match cli.command {
        Command::OneMove { mut args, moves, rules, engine } => {
            let depth = parse_depth(&args.pop().expect("checked").to_string_lossy()).expect("checked");
            let output = args.pop().expect("checked");
            let input = match moves {
                Some(moves) => Source::Moves(moves),
                None => Source::File(args.pop().expect("checked")),
            };
            let limits = engine.limits(depth);
            modes::one_move(&input, &output, rules.rules, &limits, megabytes(engine.hash), &mut out)?;
        }
        Command::Interactive { input, next, depth, rules, engine } => {
            let first = match next {
                Next::ComputerNext => FirstMove::Computer,
                Next::HumanNext => FirstMove::Human,
            };
            let limits = engine.limits(depth);
            let (hash, rules) = (megabytes(engine.hash), rules.rules);
            modes::interactive(&input, first, rules, &limits, hash, &mut io::stdin().lock(), &mut out)?;
        }
        Command::Perft { depth, file, moves, rules } => {
            let source = moves.map(Source::Moves).or(file.map(Source::File));
            modes::perft(rules.rules, depth, source.as_ref(), &mut out)?;
        }
        Command::Solve { file, moves, batch, weak, rules, hash, time_limit } => {
            let options = SolveOptions { rules: rules.rules, hash_bytes: megabytes(hash), time_limit, weak };
            let mut err = anstream::stderr();
            if let Some(batch) = batch {
                let bad = if batch.as_os_str() == "-" {
                    modes::solve_batch("standard input", &mut io::stdin().lock(), &options, &mut out, &mut err)?
                } else {
                    let file =
                        std::fs::File::open(&batch).with_context(|| format!("cannot read {}", batch.display()))?;
                    let name = batch.display().to_string();
                    modes::solve_batch(&name, &mut io::BufReader::new(file), &options, &mut out, &mut err)?
                };
                if bad > 0 {
                    eprintln!("error: {bad} bad lines in the batch");
                    return Ok(ExitCode::FAILURE);
                }
            } else {
                let source = match moves {
                    Some(moves) => Source::Moves(moves),
                    None => Source::File(file.expect("clap requires FILE without --moves or --batch")),
                };
                modes::solve(&source, &options, &mut out, &mut err)?;
            }
        }
        Command::Bench { rules, hash } => modes::bench(rules.rules, megabytes(hash), &mut out)?,
        Command::Report { positions, max_depth, out: dir, budget } => {
            let command = report::command_line(std::env::args().skip(1));
            report::run(&report::Options { positions, max_depth, out: dir, budget, command }, &mut out)?;
        }
        Command::Match(args) => {
            process::stop_players_on_interrupt();
            let options = args.options()?;
            referee::play_match(&options, &mut io::stdin().lock(), &mut out)?;
        }
        Command::Replay(args) => {
            let game = args.game.map(|n| n as usize);
            replay::replay(&args.log, game, args.rules, args.delay, &mut out)?;
        }
        Command::Tournament(args) => {
            process::stop_players_on_interrupt();
            tournament::run(&args.options(), &mut out)?;
        }
        Command::Serve { addr, search, searches, name } => {
            let searches =
                searches.map_or_else(|| std::thread::available_parallelism().map_or(1, usize::from), usize::from);
            let options = serve::Options { limits: search.limits(SERVE_TIME_LIMIT), searches, name };
            serve::run(addr, options, &mut out)?;
        }
        Command::Bot(BotCommand::Moderator { search, rules }) => {
            let limits = search.limits(bot::MODERATOR_TIME_LIMIT);
            bot::moderator(rules, &limits, &mut io::stdin().lock(), &mut io::stdout().lock())?;
        }
        Command::Bot(BotCommand::Coordinator { name, rules }) => {
            bot::coordinator(rules, name, &mut io::stdin().lock(), &mut io::stdout().lock(), &mut io::stderr())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The rules and limits every program in a game plays under.
#[derive(clap::Args)]
struct SettingsArgs {
    #[command(flatten)]
    rules: RulesOption,
    /// Plies for `self` to search; substituted for {depth} in commands.
    #[arg(long, default_value_t = 5, value_parser = parse_depth)]
    depth: u32,
    /// Seconds a program has for each move (a person has no limit).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
    timeout: Duration,
}

impl SettingsArgs {
    fn settings(&self) -> Settings {
        Settings { rules: self.rules.rules, depth: self.depth, timeout: self.timeout }
    }
}

#[derive(clap::Args)]
struct MatchArgs {
    /// Player 1: `self`, `human`, or a command with {in}, {out} and optionally {depth}.
    red: String,
    /// Player 2, given the same way.
    green: String,
    #[command(flatten)]
    settings: SettingsArgs,
    /// A board file to start from instead of the empty board.
    #[arg(long, value_name = "FILE", conflicts_with = "start_moves")]
    start: Option<PathBuf>,
    /// Start from the position after these moves (columns 1-7 from the empty board).
    #[arg(long, value_name = "MOVES")]
    start_moves: Option<String>,
    /// The log to append the game to; the programs' output goes in LOG's name with .output.
    #[arg(long, value_name = "FILE", default_value = "games.jsonl")]
    log: PathBuf,
    /// Print only the result, not the board after every move.
    #[arg(long)]
    quiet: bool,
}

impl MatchArgs {
    fn options(self) -> anyhow::Result<referee::MatchOptions> {
        let settings = self.settings.settings();
        let start = match (self.start, self.start_moves) {
            (Some(path), _) => referee::Start::File(path),
            (None, Some(moves)) => referee::Start::Board(
                Board::from_moves(settings.rules, &moves).with_context(|| format!("bad move string '{moves}'"))?,
            ),
            (None, None) => referee::Start::Board(Board::empty()),
        };
        Ok(referee::MatchOptions {
            red: self.red,
            green: self.green,
            settings,
            start,
            log: self.log,
            quiet: self.quiet,
        })
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
    /// The rules to replay under [default: the rules the log records; max for logs without them].
    #[arg(long, value_name = "RULES", value_parser = parse_rules)]
    rules: Option<Rules>,
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
    settings: SettingsArgs,
}

impl TournamentArgs {
    fn options(self) -> tournament::TournamentOptions {
        tournament::TournamentOptions {
            players: self.players,
            openings: self.openings.into(),
            jobs: self.jobs.into(),
            directory: self.out,
            settings: self.settings.settings(),
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
