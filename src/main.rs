//! The `maxconnect4` command: parses arguments and dispatches to a mode.

use std::io::{self, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use maxconnect4::board::{Board, Column};

use maxconnect4::modes::{self, bot, BookBuild, BookChoice, EngineSettings, FirstMove, SolveOptions, Source};
use maxconnect4::protocol::coordinator;
use maxconnect4::referee::limits::Limits as PlayerLimits;
use maxconnect4::referee::{self, game::Settings, player::PlayerSpec, process, replay, sandbox::Isolation, tournament};
use maxconnect4::rules::Rules;
use maxconnect4::search::{Engine, Limits, Strength};
use maxconnect4::serve;
use maxconnect4::{format, memory, report};

/// The server's time per move when neither `--depth` nor `--time-limit` is given.
const SERVE_TIME_LIMIT: Duration = Duration::from_secs(1);

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
        #[command(flatten)]
        book: BookOptions,
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
        #[command(flatten)]
        book: BookOptions,
    },
    /// Count the move sequences of length DEPTH (checks move generation).
    Perft {
        /// Length of the move sequences.
        #[arg(value_parser = parse_perft_depth)]
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
        #[command(flatten)]
        rules: RulesOption,
        /// Classic rules: only win, draw or loss (1, 0, -1), much faster.
        #[arg(long)]
        weak: bool,
        /// Give up after this many seconds.
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        time_limit: Option<Duration>,
        #[command(flatten)]
        table: TableOptions,
        #[command(flatten)]
        book: BookOptions,
    },
    /// Build a classic opening book: the exact value of every position up to DEPTH moves from a root.
    Book {
        /// Moves from the root to the deepest positions of the book.
        #[arg(long, value_parser = parse_book_depth)]
        depth: u32,
        /// The root: the position after these moves [default: the empty board].
        #[arg(long, value_name = "MOVES", default_value = "")]
        moves: String,
        /// Threads solving positions [default: the cores available].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
        /// Each thread's transposition table in MB [default: 64].
        #[arg(long, value_name = "MB", value_parser = parse_hash)]
        hash: Option<usize>,
        /// The book file to write (the progress of the build is kept in FILE.progress until it is done).
        #[arg(long, value_name = "FILE", default_value = "classic.book")]
        out: PathBuf,
    },
    /// Search a fixed set of positions and report the speed in nodes per second.
    Bench {
        #[command(flatten)]
        rules: RulesOption,
        /// Run the deep workload instead: one-move to depth 18 and solves from 28 empty cells, seconds each.
        #[arg(long)]
        deep: bool,
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
        /// Skip a search predicted to take more CPU seconds than this.
        #[arg(long, value_name = "SECONDS", default_value = report::DEFAULT_BUDGET, value_parser = parse_seconds)]
        budget: Duration,
        /// The directory to write the report to (created if need be).
        #[arg(long, value_name = "DIR", default_value = report::DEFAULT_OUT)]
        out: PathBuf,
    },
    /// Referee one game between two players: `self`, `human`, a command or an arena's bot.
    Match(MatchArgs),
    /// Show a logged game move by move.
    Replay(ReplayArgs),
    /// Play every pair of players from each opening, with both colours.
    Tournament(TournamentArgs),
    /// Check that players can play: each asked for one move on the empty board, as in a game.
    Check(CheckArgs),
    /// Describe the board file (also `maxconnect4 help format`).
    #[command(long_about = format::DESCRIPTION)]
    Format,
    /// Serve the web arena's bot (POST /) and a page to play in the browser (GET /).
    Serve {
        /// The address and port to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        #[command(flatten)]
        search: SearchOptions,
        /// Searches running at once, whoever asks [default: the number of cores].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
        searches: Option<u16>,
        /// Requests waiting for a search at once; beyond, 503 Service Unavailable.
        #[arg(long, value_name = "N", default_value_t = 16, value_parser = clap::value_parser!(u16).range(0..=4096))]
        queue: u16,
        /// The deepest search one request may ask for (its "depth").
        #[arg(long, value_name = "PLIES", default_value_t = 42, value_parser = clap::value_parser!(u32).range(1..=42))]
        max_depth: u32,
        /// The longest search one request may ask for (its "time-limit"), in seconds.
        #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
        max_time: Duration,
        /// Connections served at once; more clients wait until one closes.
        #[arg(long, value_name = "N", default_value_t = serve::MAX_CONNECTIONS as u32, value_parser = clap::value_parser!(u32).range(1..=65536))]
        max_connections: u32,
        /// Seconds a client has to send a request's headers before its connection is closed.
        #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
        header_timeout: Duration,
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
    /// Transposition table size in MB (0 for none) [default: 64].
    #[arg(long, value_name = "MB", value_parser = parse_hash)]
    hash: Option<usize>,
    /// Threads searching together (classic rules use one) [default: one per core].
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    threads: Option<u16>,
}

impl TableOptions {
    fn settings(&self) -> EngineSettings {
        EngineSettings {
            hash_bytes: megabytes(self.hash),
            threads: self.threads.map_or_else(modes::default_threads, usize::from),
            book: BookChoice::Shipped,
        }
    }
}

/// The opening book options of the commands that play or solve.
#[derive(Args)]
struct BookOptions {
    /// Classic rules: play and solve from this opening book file instead of the one built into the program.
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    book: Option<PathBuf>,
    /// Classic rules: use no opening book (search every position).
    #[arg(long)]
    no_book: bool,
}

impl BookOptions {
    fn choice(&self) -> BookChoice {
        match (&self.book, self.no_book) {
            (_, true) => BookChoice::Off,
            (Some(path), false) => BookChoice::File(path.clone()),
            (None, false) => BookChoice::Shipped,
        }
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

/// A book's depth: 0 (the root alone) to the 42 moves of a game.
fn parse_book_depth(text: &str) -> Result<u32, String> {
    whole(text, 0, 42, "moves").map_err(|error| error.to_string())
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

/// Threads searching together: 1 to [`MAX_THREADS`].
fn parse_threads(text: &str) -> Result<u16, String> {
    whole(text, 1, MAX_THREADS, "threads").map_err(|error| error.to_string())
}

/// The most threads `--threads` takes: far more cores than any machine
/// this runs on has, and few enough that starting them all is instant.
const MAX_THREADS: u16 = 256;

/// Which game of a log: games count from 1.
fn parse_game(text: &str) -> Result<u32, String> {
    whole(text, 1, u32::MAX, "games").map_err(|error| match error {
        Whole::TooSmall(_) => "games count from 1: the first game of the log is 1".to_owned(),
        other => other.to_string(),
    })
}

/// How many openings a tournament plays: up to the 49 there are; 0 for the
/// empty board alone.
fn parse_openings(text: &str) -> Result<u16, String> {
    whole(text, 0, 49, "openings").map_err(|error| error.to_string())
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
        Ok(code) => code,
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
        use clap::error::ErrorKind::{ArgumentConflict, ValueValidation, WrongNumberOfValues};
        match &self.command {
            // One-move's positional arguments depend on `--moves`.
            Command::OneMove { args, moves, .. } => {
                let wanted = if moves.is_some() { 2 } else { 3 };
                if args.len() != wanted {
                    let message = if moves.is_some() {
                        "with --moves, give only OUTPUT and DEPTH"
                    } else {
                        "expected INPUT OUTPUT DEPTH (or --moves MOVES OUTPUT DEPTH)"
                    };
                    return Err(Cli::usage_error("one-move", WrongNumberOfValues, message.to_owned()));
                }
                let depth = args[wanted - 1].to_string_lossy();
                if let Err(message) = parse_depth(&depth) {
                    let message = format!("invalid value '{depth}' for '<DEPTH>': {message}");
                    return Err(Cli::usage_error("one-move", ValueValidation, message));
                }
            }
            Command::Solve { weak: true, rules, .. } if !Engine::solves_weakly(rules.rules) => {
                return Err(Cli::usage_error("solve", ArgumentConflict, "--weak needs --rules classic".to_owned()));
            }
            Command::Bench { deep: true, rules, .. } if rules.rules != Rules::Max => {
                return Err(Cli::usage_error("bench", ArgumentConflict, "--deep needs --rules max".to_owned()));
            }
            _ => {}
        }
        let book = match &self.command {
            Command::OneMove { book, rules, .. } => Some(("one-move", book, rules.rules)),
            Command::Interactive { book, rules, .. } => Some(("interactive", book, rules.rules)),
            Command::Solve { book, rules, .. } => Some(("solve", book, rules.rules)),
            _ => None,
        };
        if let Some((subcommand, book, _)) = book.filter(|&(_, _, rules)| !Engine::reads_books(rules)) {
            let option = match (&book.book, book.no_book) {
                (Some(_), _) => Some("--book"),
                (None, true) => Some("--no-book"),
                (None, false) => None,
            };
            if let Some(option) = option {
                let message = format!("{option} needs --rules classic: opening books are for classic Connect-4");
                return Err(Cli::usage_error(subcommand, ArgumentConflict, message));
            }
        }
        if let Command::Book { moves, depth, .. } = &self.command {
            // A move string that cannot be played is reported below, as for
            // every other subcommand.
            if let Ok(root) = Board::from_moves(Rules::Classic, moves) {
                if Rules::Classic.is_over(&root) {
                    let message = format!("invalid value '{moves}' for '--moves <MOVES>': the game is over there");
                    return Err(Cli::argument_error("book", message));
                }
                if *depth > root.empty_cells() {
                    let message = format!(
                        "invalid value '{depth}' for '--depth <DEPTH>': the board is full after {} more moves",
                        root.empty_cells()
                    );
                    return Err(Cli::argument_error("book", message));
                }
            }
        }
        match &mut self.command {
            Command::OneMove { engine, .. } => engine.table.hash = sized_table(engine.table.hash, "one-move")?,
            Command::Interactive { engine, .. } => {
                engine.table.hash = sized_table(engine.table.hash, "interactive")?;
            }
            Command::Solve { table, .. } => table.hash = sized_table(table.hash, "solve")?,
            Command::Bench { table, .. } => table.hash = sized_table(table.hash, "bench")?,
            Command::Book { hash, .. } => *hash = sized_table(*hash, "book")?,
            _ => {}
        }
        // A move string is an argument like any other: a bad one is a usage error.
        let moves = match &self.command {
            Command::OneMove { moves: Some(moves), rules, .. } => Some(("one-move", "--moves", moves, rules.rules)),
            Command::Perft { moves: Some(moves), rules, .. } => Some(("perft", "--moves", moves, rules.rules)),
            Command::Solve { moves: Some(moves), rules, .. } => Some(("solve", "--moves", moves, rules.rules)),
            Command::Book { moves, .. } => Some(("book", "--moves", moves, Rules::Classic)),
            Command::Match(args) => {
                args.start_moves.as_ref().map(|moves| ("match", "--start-moves", moves, args.settings.rules.rules))
            }
            _ => None,
        };
        if let Some((subcommand, option, moves, rules)) = moves {
            if let Err(error) = Board::from_moves(rules, moves) {
                let message = format!("invalid value '{}' for '{option} <MOVES>': {error}", moves.escape_debug());
                return Err(Cli::argument_error(subcommand, message));
            }
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

    /// An invalid value given to `subcommand`, as clap reports its own.
    fn argument_error(subcommand: &str, message: String) -> clap::Error {
        Cli::usage_error(subcommand, clap::error::ErrorKind::ValueValidation, message)
    }

    /// A usage error of `subcommand` of `kind`, rendered as clap renders its own.
    fn usage_error(subcommand: &str, kind: clap::error::ErrorKind, message: String) -> clap::Error {
        let mut command = Cli::command();
        command.build();
        let subcommand = command.find_subcommand_mut(subcommand).expect("the subcommand exists");
        subcommand.error(kind, message)
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let mut out = anstream::stdout();
    match cli.command {
        Command::OneMove { mut args, moves, rules, engine, book } => {
            let depth = parse_depth(&args.pop().expect("checked").to_string_lossy()).expect("checked");
            let output = args.pop().expect("checked");
            let input = match moves {
                Some(moves) => Source::Moves(moves),
                None => Source::File(args.pop().expect("checked")),
            };
            let limits = engine.limits(depth);
            let settings = EngineSettings { book: book.choice(), ..engine.table.settings() };
            modes::one_move(&input, &output, rules.rules, &limits, &settings, &mut out)?;
        }
        Command::Interactive { input, next, depth, rules, engine, book } => {
            let first = match next {
                Next::ComputerNext => FirstMove::Computer,
                Next::HumanNext => FirstMove::Human,
            };
            let limits = engine.limits(depth);
            let (settings, rules) = (EngineSettings { book: book.choice(), ..engine.table.settings() }, rules.rules);
            modes::interactive(&input, first, rules, &limits, &settings, &mut io::stdin().lock(), &mut out)?;
        }
        Command::Perft { depth, file, moves, rules } => {
            let source = moves.map(Source::Moves).or(file.map(Source::File));
            modes::perft(rules.rules, depth, source.as_ref(), &mut out)?;
        }
        Command::Solve { file, moves, batch, weak, rules, table, time_limit, book } => {
            let engine = EngineSettings { book: book.choice(), ..table.settings() };
            let strength = if weak { Strength::Weak } else { Strength::Strong };
            let options = SolveOptions { rules: rules.rules, engine, time_limit, strength };
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
        Command::Book { depth, moves, threads, hash, out: file } => {
            let threads = threads.map_or_else(modes::default_threads, usize::from);
            let build = BookBuild { root: moves, depth, threads, hash_bytes: megabytes(hash), out: file };
            modes::build_book(&build, &mut out, &mut anstream::stderr())?;
        }
        Command::Bench { rules, deep, table } => {
            // No opening book: the bench measures the search.
            let settings = EngineSettings { book: BookChoice::Off, ..table.settings() };
            modes::bench(rules.rules, deep, &settings, &mut out)?;
        }
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
        Command::Check(args) => {
            process::stop_players_on_interrupt();
            let settings = args.settings.settings();
            let failed = referee::check_players(&args.players, settings, args.isolation.isolation(), &mut out)?;
            if failed > 0 {
                anyhow::bail!("{failed} of {} players failed the check", args.players.len());
            }
        }
        Command::Tournament(args) => {
            process::stop_players_on_interrupt();
            tournament::run(&args.options(), &mut out)?;
        }
        Command::Format => writeln!(out, "{}", format::DESCRIPTION)?,
        Command::Serve {
            addr,
            search,
            searches,
            queue,
            max_depth,
            max_time,
            max_connections,
            header_timeout,
            name,
        } => {
            let searches = searches.map_or_else(modes::default_threads, usize::from);
            let caps = serve::Caps { depth: max_depth, time: max_time.min(serve::SEARCH_TIME_CAP) };
            let limits = search.limits(SERVE_TIME_LIMIT);
            let options = serve::Options { limits, searches, queue: usize::from(queue), caps, name };
            let connections = serve::Connections { most: max_connections as usize, header_timeout };
            serve::run(addr, options, connections, &mut out)?;
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
    /// Seconds each program has for the whole game, beside --timeout per move; running out forfeits.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    clock: Option<Duration>,
}

impl SettingsArgs {
    fn settings(&self) -> Settings {
        Settings { rules: self.rules.rules, depth: self.depth, timeout: self.timeout, clock: self.clock }
    }
}

/// How players' programs are run.
#[derive(clap::Args)]
struct IsolationArgs {
    /// Run players without a sandbox (bubblewrap): they can then read and
    /// write whatever you can.
    #[arg(long)]
    no_sandbox: bool,
    /// Let sandboxed players use the network.
    #[arg(long)]
    network: bool,
    /// Megabytes of memory each player may use, all its processes and its /tmp together.
    #[arg(long, value_name = "MB", default_value_t = PlayerLimits::DEFAULT.memory >> 20, value_parser = parse_limit_mb)]
    memory: u64,
    /// Processes and threads each player may run at once.
    #[arg(long, value_name = "N", default_value_t = PlayerLimits::DEFAULT.processes, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    processes: u32,
    /// Megabytes each player's sandbox /tmp, and its /dev/shm, may each hold.
    #[arg(long, value_name = "MB", default_value_t = PlayerLimits::DEFAULT.tmp >> 20, value_parser = parse_limit_mb)]
    tmp_size: u64,
    /// Seconds of CPU time a player's processes may use on one move [default: the move's time].
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    cpu: Option<Duration>,
    /// Megabytes each player's folder may hold (kept across turns); also the largest file it may write.
    #[arg(long, value_name = "MB", default_value_t = PlayerLimits::DEFAULT.disk >> 20, value_parser = parse_limit_mb)]
    disk: u64,
}

impl IsolationArgs {
    fn isolation(&self) -> Isolation {
        let limits = PlayerLimits {
            memory: self.memory << 20,
            processes: self.processes,
            tmp: self.tmp_size << 20,
            disk: self.disk << 20,
            cpu: self.cpu,
        };
        Isolation { sandbox: !self.no_sandbox, network: self.network, limits }
    }
}

/// A player's limit in megabytes: 1 to 1,048,576 (a terabyte).
fn parse_limit_mb(text: &str) -> Result<u64, String> {
    whole(text, 1, 1 << 20, "megabytes").map_err(|error| error.to_string())
}

#[derive(clap::Args)]
struct MatchArgs {
    /// Player 1: `self`, `human`, a command with {in}, {out} and optionally {depth},
    /// or an arena's bot: `moderator:COMMAND`, `coordinator:COMMAND` or `http:URL`.
    #[arg(value_parser = parse_match_player)]
    red: String,
    /// Player 2, given the same way.
    #[arg(value_parser = parse_match_player)]
    green: String,
    /// A board file to start from instead of the empty board.
    #[arg(long, value_name = "FILE", conflicts_with = "start_moves")]
    start: Option<PathBuf>,
    /// Start from the position after these moves (columns 1-7 from the empty board).
    #[arg(long, value_name = "MOVES")]
    start_moves: Option<String>,
    #[command(flatten)]
    settings: SettingsArgs,
    #[command(flatten)]
    isolation: IsolationArgs,
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
            (None, Some(moves)) => {
                Board::from_moves(settings.rules, &moves)
                    .with_context(|| format!("bad move string '{}'", moves.escape_debug()))?;
                let columns =
                    moves.bytes().filter_map(|digit| Column::from_number(usize::from(digit.wrapping_sub(b'0'))));
                referee::Start::Moves(columns.collect())
            }
            (None, None) => referee::Start::Moves(Vec::new()),
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

#[derive(clap::Args)]
struct ReplayArgs {
    /// A game log written by `match` or `tournament`.
    log: PathBuf,
    /// The rules to replay under [default: the rules the log records; max for logs without them].
    #[arg(long, value_name = "RULES", value_parser = parse_rules)]
    rules: Option<Rules>,
    /// Which game, counting from 1 [default: the last].
    #[arg(long, value_name = "N", value_parser = parse_game)]
    game: Option<u32>,
    /// Seconds to pause before each move.
    #[arg(long, value_name = "SECONDS", default_value = "0.5", value_parser = parse_delay)]
    delay: Duration,
}

#[derive(clap::Args)]
struct CheckArgs {
    /// Players given as to `match`: `self`, a command with {in}, {out} and optionally
    /// {depth}, or an arena's bot: `moderator:COMMAND`, `coordinator:COMMAND` or `http:URL`.
    #[arg(required = true, value_parser = parse_match_player)]
    players: Vec<String>,
    #[command(flatten)]
    settings: SettingsArgs,
    #[command(flatten)]
    isolation: IsolationArgs,
}

#[derive(clap::Args)]
struct TournamentArgs {
    /// A player as NAME=COMMAND, COMMAND being `self`, a command template or an arena's
    /// bot (`moderator:COMMAND`, `coordinator:COMMAND`, `http:URL`); two or more.
    #[arg(long = "player", value_name = "NAME=TEMPLATE", required = true, value_parser = parse_entrant)]
    players: Vec<(String, String)>,
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
}

impl TournamentArgs {
    fn options(self) -> tournament::TournamentOptions {
        tournament::TournamentOptions {
            players: self.players,
            openings: self.openings.into(),
            jobs: self.jobs.into(),
            directory: self.out,
            settings: self.settings.settings(),
            isolation: self.isolation.isolation(),
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

/// NAME=TEMPLATE: a name usable as a file name (letters, digits, `-`, `_`
/// and `.`, not first) and `self` or a command template, never a person.
fn parse_entrant(text: &str) -> Result<(String, String), String> {
    let (name, template) = text
        .split_once('=')
        .map(|(name, template)| (name.trim(), template))
        .ok_or_else(|| "expected NAME=TEMPLATE, such as me=self".to_owned())?;
    tournament::check_name(name)?;
    if parse_player(template)? == PlayerSpec::Human {
        return Err("a tournament has no human players: give `self`, a command template or a bot".to_owned());
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
