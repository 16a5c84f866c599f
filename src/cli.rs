//! The command line: clap's types for every subcommand, the parsers of
//! their values, and the checks that span several arguments, so that every
//! argument error is a usage error (exit 2) before anything runs.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use maxconnect4::contain::limits::Limits as PlayerLimits;
use maxconnect4::contain::sandbox::Isolation;
use maxconnect4::modes::{self, bot, BookChoice, EngineSettings, Play};
use maxconnect4::moves::Moves;
use maxconnect4::protocol::coordinator;
use maxconnect4::referee::fixtures;
use maxconnect4::referee::{
    self, adjudication,
    player::{PlayerKind, PlayerSpec},
    settings::Settings,
    tournament,
};
use maxconnect4::report::program::NodesPattern;
use maxconnect4::rules::Rules;
use maxconnect4::search::{Budget, Engine, Limits};
use maxconnect4::serve;
use maxconnect4::shard::Shard;
use maxconnect4::{format, memory, report};

/// Plays Max-Connect4: Connect-4 played until the board is full, scored by
/// the number of four-in-a-rows of each colour.
#[derive(Parser)]
#[command(version, about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
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
        play: PlayOptions,
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
        play: PlayOptions,
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
        /// Only win, draw or loss (1, 0, -1) and the columns that keep it; the value alone (--batch) much faster.
        #[arg(long)]
        weak: bool,
        /// Only whether the value is at least V: one search, which prints `value >= B` (B at least V) or `value <= B` (B below V), the tightest bound it proved.
        #[arg(long, value_name = "V", allow_negative_numbers = true, conflicts_with_all = ["weak", "batch"])]
        bound: Option<i32>,
        /// Give up after this many seconds.
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        time_limit: Option<Duration>,
        #[command(flatten)]
        table: TableOptions,
        #[command(flatten)]
        book: BookOptions,
    },
    /// The value of every column of a position: exact where the budget allows, else at a depth.
    #[command(visible_alias = "analyze")]
    Analyse {
        /// The board file to analyse.
        #[arg(required_unless_present = "moves", conflicts_with = "moves")]
        file: Option<PathBuf>,
        /// Analyse the position after these moves (columns 1-7 from the empty board).
        #[arg(long, value_name = "MOVES")]
        moves: Option<String>,
        #[command(flatten)]
        rules: RulesOption,
        #[command(flatten)]
        budget: BudgetArgs,
        #[command(flatten)]
        table: TableOptions,
        #[command(flatten)]
        book: BookOptions,
        /// Print one JSON object for programs.
        #[arg(long)]
        json: bool,
    },
    /// Build an opening book: the exact value of every position up to DEPTH moves from a root, on one machine or, in shards, on many.
    Book {
        /// Moves from the root to the deepest positions of the book.
        #[arg(long, value_parser = parse_book_depth, required_unless_present = "merge")]
        depth: Option<u32>,
        /// The root: the position after these moves [default: the empty board].
        #[arg(long, value_name = "MOVES", default_value = "", hide_default_value = true)]
        moves: String,
        /// The game: classic (the first four wins; values are the field's scores) or max (Max-Connect4; values are final score differences).
        #[arg(long, value_name = "RULES", default_value = "classic", value_parser = parse_rules)]
        rules: Rules,
        /// Threads solving positions [default: the cores available].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
        /// Each thread's transposition table in MB [default: 64].
        #[arg(long, value_name = "MB", value_parser = parse_hash)]
        hash: Option<usize>,
        /// The book file to write [default: RULES.book]; a build keeps its progress in FILE.progress until it is done, a shard in FILE.shard-I-of-N.progress.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Print the positions DEPTH moves deep, in the order a build solves them (KEY MOVES, one a line), and solve nothing.
        #[arg(long, conflicts_with_all = ["shard", "merge", "out", "threads", "hash"])]
        list: bool,
        /// Solve only part I of N (I from 0 to N-1): the families of siblings (neighbours in --list whose MOVES differ in the last move alone) whose place among them, counted from 0, is I modulo N, into FILE.shard-I-of-N.progress; no book is written.
        #[arg(long, value_name = "I/N", value_parser = parse_shard)]
        shard: Option<Shard>,
        /// Write the book --out FILE from these progress files (the shards' of one build, which name its rules, root and depth).
        #[arg(long, value_name = "PROGRESS", num_args = 1.., conflicts_with_all = ["depth", "moves", "rules", "threads", "hash", "shard"])]
        merge: Vec<PathBuf>,
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
    /// Time every search algorithm, or your one-move program (--player), at every depth; write timing.csv, charts and REPORT.md.
    Report {
        /// Board files to search from [default: every file in input_files/].
        #[arg(long, value_name = "FILE", num_args = 1..)]
        positions: Vec<PathBuf>,
        /// Time your one-move program instead: a command with {in}, {out} and {depth}, run as the referee runs a player.
        #[arg(long, value_name = "TEMPLATE", value_parser = parse_one_move_player)]
        player: Option<PlayerSpec>,
        /// Where the program prints its node count: a regular expression (case ignored), its first group the count;
        /// the last match on stdout, else on stderr.
        #[arg(long, value_name = "REGEX", default_value = report::program::DEFAULT_NODES_PATTERN,
              value_parser = parse_nodes_pattern, requires = "player")]
        nodes_pattern: NodesPattern,
        /// Run this program's own one-move the same way beside it, for comparison.
        #[arg(long, requires = "player")]
        compare: bool,
        /// Search depths 1 to N.
        #[arg(long, value_name = "N", default_value_t = report::DEFAULT_MAX_DEPTH, value_parser = parse_depth)]
        max_depth: u32,
        /// Seconds each run of the program has; a run that takes longer fails.
        #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds, requires = "player")]
        timeout: Duration,
        /// Skip a search predicted to take more CPU seconds than this.
        #[arg(long, value_name = "SECONDS", default_value = report::DEFAULT_BUDGET, value_parser = parse_seconds)]
        budget: Duration,
        #[command(flatten)]
        isolation: IsolationArgs,
        /// The directory to write the report to (created if need be).
        #[arg(long, value_name = "DIR", default_value = report::DEFAULT_OUT)]
        out: PathBuf,
    },
    /// Referee one game between two players: `self`, `human`, a command or an arena's bot.
    Match(MatchArgs),
    /// Show a logged game move by move.
    Replay(ReplayArgs),
    /// Each move of a logged game against the best column: blunders, inaccuracies, points lost.
    Annotate(AnnotateArgs),
    /// Play every pair of players from each opening, with both colours.
    Tournament(TournamentArgs),
    /// Standings, crosstable, ratings and results page from tournament logs (shards' logs merged).
    Results(ResultsArgs),
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
        /// Connections served at once; at the cap, the oldest one still waiting for a request's
        /// headers is closed to make room for a new client.
        #[arg(long, value_name = "N", default_value_t = serve::MAX_CONNECTIONS as u32, value_parser = clap::value_parser!(u32).range(1..=65536))]
        max_connections: u32,
        /// Seconds a client has to send a request's headers before its connection is closed, and then its body before it is answered 408.
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
pub(crate) enum BotCommand {
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
pub(crate) struct SearchOptions {
    /// Search this many plies, however long it takes.
    #[arg(long, value_parser = parse_depth, conflicts_with = "time_limit")]
    pub(crate) depth: Option<u32>,
    /// Search this many seconds per move (to the end of the game at most).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) time_limit: Option<Duration>,
}

impl SearchOptions {
    /// The limits chosen, or a full-depth search for `default_time`.
    pub(crate) fn limits(&self, default_time: Duration) -> Limits {
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
pub(crate) struct RulesOption {
    /// The game: max (Max-Connect4, played to a full board) or classic (the first four wins).
    #[arg(long, value_name = "RULES", default_value = "max", value_parser = parse_rules)]
    pub(crate) rules: Rules,
}

pub(crate) fn parse_rules(text: &str) -> Result<Rules, String> {
    text.parse::<Rules>().map_err(|error| error.to_string())
}

/// Transposition table size when `--hash` is not given.
pub(crate) const DEFAULT_HASH_MB: usize = Engine::DEFAULT_HASH_BYTES >> 20;

/// Options of the modes where the computer plays a game: the rules, the
/// engine and the book.
#[derive(Args)]
pub(crate) struct PlayOptions {
    #[command(flatten)]
    pub(crate) rules: RulesOption,
    #[command(flatten)]
    pub(crate) engine: EngineOptions,
    #[command(flatten)]
    pub(crate) book: BookOptions,
    /// Play perfectly where it can: the opening book's best move where the book holds the position,
    /// else a best move of a solve within half of --time-limit (if given), else the depth-limited
    /// search to DEPTH; says which. It reads the book built into the program for the rules, or
    /// --book FILE; with --no-book it solves without one. Without --perfect, max rules play the
    /// depth-limited search alone (no book).
    #[arg(long)]
    pub(crate) perfect: bool,
    /// Play the opening book's best move where the book holds the position, else the
    /// depth-limited search to DEPTH (what classic rules always do; the referee's `self` player
    /// asks for it).
    #[arg(long, conflicts_with = "perfect")]
    pub(crate) book_moves: bool,
}

impl PlayOptions {
    /// The engine's settings: the table, the threads, the book and whether to play perfectly.
    pub(crate) fn settings(&self) -> EngineSettings {
        let play = match (self.perfect, self.book_moves) {
            (true, _) => Play::Perfect,
            (false, true) => Play::BookThenSearch,
            (false, false) => Play::Search,
        };
        EngineSettings { play, ..self.engine.table.with_book(&self.book) }
    }
}

/// Options of the modes where the computer moves.
#[derive(Args)]
pub(crate) struct EngineOptions {
    /// Stop searching after this many seconds and play the best move of the
    /// deepest search finished (DEPTH still caps the depth).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) time_limit: Option<Duration>,
    #[command(flatten)]
    pub(crate) table: TableOptions,
}

impl EngineOptions {
    pub(crate) fn limits(&self, depth: u32) -> Limits {
        Limits { depth, time_limit: self.time_limit }
    }
}

/// The table and the threads sharing it: `--hash` and `--threads`.
#[derive(Args)]
pub(crate) struct TableOptions {
    /// Transposition table size in MB (0 for none) [default: 64].
    #[arg(long, value_name = "MB", value_parser = parse_hash)]
    pub(crate) hash: Option<usize>,
    /// Threads searching together (classic rules: the solver's; its depth-limited player uses one) [default: one per core].
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub(crate) threads: Option<u16>,
}

impl TableOptions {
    pub(crate) fn settings(&self) -> EngineSettings {
        EngineSettings {
            hash_bytes: megabytes(self.hash),
            threads: self.threads.map_or_else(modes::default_threads, usize::from),
            book: BookChoice::Shipped,
            play: Play::Search,
        }
    }

    /// The engine's settings: this table and threads, and `book`'s choice.
    pub(crate) fn with_book(&self, book: &BookOptions) -> EngineSettings {
        EngineSettings { book: book.choice(), ..self.settings() }
    }
}

/// `analyse`'s and `annotate`'s depth when neither `--depth` nor
/// `--time-limit` is given: under a second of one core from the empty board
/// (0.4 s), the same values on any machine.
pub(crate) const ANALYSIS_DEPTH: u32 = 16;

/// How much an analysis searches each position.
#[derive(Args)]
pub(crate) struct BudgetArgs {
    /// Plies to search from each column, its move counting as the first; values are exact when this
    /// reaches the end of the game [default: 16, or the end of the game with --time-limit].
    #[arg(long, value_parser = parse_depth)]
    pub(crate) depth: Option<u32>,
    /// Search as deep as this many seconds allow (up to --depth if given), solving exactly what it can.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) time_limit: Option<Duration>,
}

impl BudgetArgs {
    pub(crate) fn budget(&self) -> Budget {
        match self.time_limit {
            Some(time_limit) => {
                Budget { depth: self.depth.unwrap_or(Budget::TO_THE_END), time_limit: Some(time_limit) }
            }
            None => Budget::depth(self.depth.unwrap_or(ANALYSIS_DEPTH)),
        }
    }

    /// Whether either option was given.
    fn given(&self) -> bool {
        self.depth.is_some() || self.time_limit.is_some()
    }
}

/// The opening book options of the commands that play or solve.
#[derive(Args)]
pub(crate) struct BookOptions {
    /// Solve from this opening book file instead of the one built into the program for the rules (and play from it: classic rules, or max rules with --perfect or --book-moves).
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    pub(crate) book: Option<PathBuf>,
    /// Use no opening book (search every position).
    #[arg(long)]
    pub(crate) no_book: bool,
}

impl BookOptions {
    pub(crate) fn choice(&self) -> BookChoice {
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
pub(crate) fn megabytes(mb: Option<usize>) -> usize {
    mb.unwrap_or(DEFAULT_HASH_MB).saturating_mul(1 << 20)
}

/// The table size in MB for `--hash` as given to `subcommand`, checked
/// against the memory at hand: a size given that does not fit is a usage
/// error; the default shrinks to fit, with a warning.
pub(crate) fn sized_table(given: Option<usize>, subcommand: &str) -> Result<Option<usize>, clap::Error> {
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
pub(crate) const MAX_SECONDS: f64 = 1e9;

/// SECONDS: a positive number, fractions allowed, at most [`MAX_SECONDS`].
pub(crate) fn parse_seconds(text: &str) -> Result<Duration, String> {
    match seconds(text)? {
        seconds if seconds > 0.0 => Ok(Duration::from_secs_f64(seconds)),
        _ => Err("expected a number of seconds greater than 0, such as 2 or 0.5".to_owned()),
    }
}

/// SECONDS: a number of seconds, 0 or more, at most [`MAX_SECONDS`].
pub(crate) fn parse_delay(text: &str) -> Result<Duration, String> {
    match seconds(text)? {
        seconds if seconds >= 0.0 => Ok(Duration::from_secs_f64(seconds)),
        _ => Err("expected a number of seconds, 0 or more, such as 0.5".to_owned()),
    }
}

/// A number of seconds no greater than [`MAX_SECONDS`] (possibly negative).
pub(crate) fn seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds.is_nan() => Err("expected a number of seconds, such as 2 or 0.5".to_owned()),
        Ok(seconds) if seconds > MAX_SECONDS => Err(format!("too large: at most {MAX_SECONDS} seconds")),
        Ok(seconds) => Ok(seconds),
        Err(_) => Err("expected a number of seconds, such as 2 or 0.5".to_owned()),
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Next {
    ComputerNext,
    HumanNext,
}

/// A depth to search: a whole number of plies, at least 1 (any depth beyond
/// the board's empty cells searches to the end).
pub(crate) fn parse_depth(text: &str) -> Result<u32, String> {
    whole(text, 1, u32::MAX, "plies").map_err(|error| match error {
        Whole::TooLarge(_) => {
            format!("too large: at most {} (any depth above 42 searches to the end of the game)", u32::MAX)
        }
        other => other.to_string(),
    })
}

/// A book's depth: 0 (the root alone) to the 42 moves of a game.
pub(crate) fn parse_book_depth(text: &str) -> Result<u32, String> {
    whole(text, 0, 42, "moves").map_err(|error| error.to_string())
}

/// The length of the move sequences perft counts: 0 or more.
pub(crate) fn parse_perft_depth(text: &str) -> Result<u32, String> {
    whole(text, 0, u32::MAX, "plies").map_err(|error| error.to_string())
}

/// A transposition table size in MB: 0 or more, and no more than the
/// bytes an address can count.
pub(crate) fn parse_hash(text: &str) -> Result<usize, String> {
    let most = u64::try_from(usize::MAX >> 20).unwrap_or(u64::MAX);
    let mb = whole(text, 0, most, "megabytes").map_err(|error| error.to_string())?;
    Ok(usize::try_from(mb).expect("at most usize::MAX >> 20"))
}

/// Threads searching together: 1 to [`MAX_THREADS`].
pub(crate) fn parse_threads(text: &str) -> Result<u16, String> {
    whole(text, 1, MAX_THREADS, "threads").map_err(|error| error.to_string())
}

/// The most threads `--threads` takes: far more cores than any machine
/// this runs on has, and few enough that starting them all is instant.
pub(crate) const MAX_THREADS: u16 = 256;

/// Which game of a log: games count from 1.
pub(crate) fn parse_game(text: &str) -> Result<u32, String> {
    whole(text, 1, u32::MAX, "games").map_err(|error| match error {
        Whole::TooSmall(_) => "games count from 1: the first game of the log is 1".to_owned(),
        other => other.to_string(),
    })
}

/// How many openings a tournament plays: up to the 49 there are; 0 for the
/// empty board alone.
pub(crate) fn parse_openings(text: &str) -> Result<u16, String> {
    whole(text, 0, 49, "openings").map_err(|error| error.to_string())
}

/// How many games a tournament plays at once.
pub(crate) fn parse_jobs(text: &str) -> Result<u16, String> {
    whole(text, 1, 64, "games").map_err(|error| error.to_string())
}

/// Why a text is not a whole number in a range.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Whole {
    #[error("expected a whole number of {0}, such as 3")]
    NotANumber(&'static str),
    #[error("too small: at least {0}")]
    TooSmall(u64),
    #[error("too large: at most {0}")]
    TooLarge(u64),
}

/// A whole number from `least` to `most`; `unit` names what it counts.
pub(crate) fn whole<T: Copy + Into<u64> + TryFrom<u64>>(
    text: &str,
    least: T,
    most: T,
    unit: &'static str,
) -> Result<T, Whole> {
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

/// Prints a command-line error with the usage of the subcommand it concerns
/// where clap puts it, before the pointer to `--help` (clap leaves the usage
/// out of value errors), or prints help or the version.
pub(crate) fn usage_error(error: &clap::Error) -> ExitCode {
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
    pub(crate) fn validate(mut self) -> Result<Cli, clap::Error> {
        use clap::error::ErrorKind::{ArgumentConflict, MissingRequiredArgument, ValueValidation, WrongNumberOfValues};
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
            Command::Bench { deep: true, rules, .. } if rules.rules != Rules::Max => {
                return Err(Cli::usage_error("bench", ArgumentConflict, "--deep needs --rules max".to_owned()));
            }
            _ => {}
        }
        let play = match &self.command {
            Command::OneMove { play, .. } => Some(("one-move", play)),
            Command::Interactive { play, .. } => Some(("interactive", play)),
            _ => None,
        };
        // Max-Connect4's depth-limited search reads no book: only --perfect
        // and --book-moves play from one.
        let searches_alone = |play: &PlayOptions| play.rules.rules == Rules::Max && !play.perfect && !play.book_moves;
        if let Some((subcommand, play)) = play.filter(|(_, play)| searches_alone(play)) {
            let option = match (&play.book.book, play.book.no_book) {
                (Some(_), _) => Some("--book"),
                (None, true) => Some("--no-book"),
                (None, false) => None,
            };
            if let Some(option) = option {
                let message = format!(
                    "{option} needs --perfect or --book-moves under --rules max: the depth-limited search plays from no book"
                );
                return Err(Cli::usage_error(subcommand, ArgumentConflict, message));
            }
        }
        if let Command::Book { merge, out: None, .. } = &self.command {
            if !merge.is_empty() {
                let message = "--merge needs --out FILE, the book to write".to_owned();
                return Err(Cli::usage_error("book", MissingRequiredArgument, message));
            }
        }
        if let Command::Book { moves, depth: Some(depth), rules, .. } = &self.command {
            // A move string that cannot be played is reported below, as for
            // every other subcommand.
            if let Ok(root) = Moves::board(*rules, moves) {
                if rules.is_over(&root) {
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
            Command::OneMove { play, .. } => play.engine.table.hash = sized_table(play.engine.table.hash, "one-move")?,
            Command::Interactive { play, .. } => {
                play.engine.table.hash = sized_table(play.engine.table.hash, "interactive")?;
            }
            Command::Solve { table, .. } => table.hash = sized_table(table.hash, "solve")?,
            Command::Analyse { table, .. } => table.hash = sized_table(table.hash, "analyse")?,
            Command::Bench { table, .. } => table.hash = sized_table(table.hash, "bench")?,
            Command::Book { hash, list: false, merge, .. } if merge.is_empty() => *hash = sized_table(*hash, "book")?,
            _ => {}
        }
        // A move string is an argument like any other: a bad one is a usage error.
        let moves = match &self.command {
            Command::OneMove { moves: Some(moves), play, .. } => Some(("one-move", "--moves", moves, play.rules.rules)),
            Command::Perft { moves: Some(moves), rules, .. } => Some(("perft", "--moves", moves, rules.rules)),
            Command::Solve { moves: Some(moves), rules, .. } => Some(("solve", "--moves", moves, rules.rules)),
            Command::Analyse { moves: Some(moves), rules, .. } => Some(("analyse", "--moves", moves, rules.rules)),
            Command::Book { moves, rules, .. } => Some(("book", "--moves", moves, *rules)),
            Command::Match(args) => {
                args.start_moves.as_ref().map(|moves| ("match", "--start-moves", moves, args.settings.rules.rules))
            }
            _ => None,
        };
        if let Some((subcommand, option, moves, rules)) = moves {
            if let Err(error) = Moves::board(rules, moves) {
                let message = format!("invalid value '{}' for '{option} <MOVES>': {error}", moves.escape_debug());
                return Err(Cli::argument_error(subcommand, message));
            }
        }
        if let Command::Tournament(args) = &self.command {
            let mut names = std::collections::HashSet::new();
            if let Some((name, _)) = args.players.iter().find(|(name, _)| !names.insert(name)) {
                return Err(Cli::argument_error("tournament", format!("two players are named '{name}'")));
            }
            if args.players.len() < 2 && args.class.is_none() {
                return Err(Cli::argument_error(
                    "tournament",
                    "a tournament needs at least two players: give --player NAME=TEMPLATE twice or more".to_owned(),
                ));
            }
            // A class's players are known once its folder is read.
            let known = |name: &String| names.contains(name) || args.class.is_some();
            if let Some(anchor) = args.anchor.as_ref().filter(|anchor| !known(anchor)) {
                let message = format!("invalid value '{anchor}' for '--anchor <NAME>': no player is named so");
                return Err(Cli::argument_error("tournament", message));
            }
            let players: Vec<String> = args.players.iter().map(|(name, _)| name.clone()).collect();
            let gauntlet =
                if args.class.is_some() { Ok(()) } else { fixtures::check_gauntlet(&players, &args.gauntlet) };
            if let Err(error) = gauntlet {
                let message =
                    format!("invalid value '{}' for '--gauntlet <NAME[,NAME...]>': {error}", args.gauntlet.join(","));
                return Err(Cli::argument_error("tournament", message));
            }
            if args.adjudicate.is_some() && args.settings.rules.rules != Rules::Classic {
                let kind = clap::error::ErrorKind::ArgumentConflict;
                return Err(Cli::usage_error("tournament", kind, tournament::ADJUDICATE_CLASSIC_ONLY.to_owned()));
            }
        }
        if let Command::Replay(args) = &self.command {
            if !args.annotate && args.analysis.budget.given() {
                let message = "--depth and --time-limit set the annotation's budget: give --annotate".to_owned();
                return Err(Cli::usage_error("replay", clap::error::ErrorKind::MissingRequiredArgument, message));
            }
        }
        if let Command::Results(args) = &self.command {
            if args.out.is_none() && args.logs.len() > 1 {
                let message = "give --out DIR for the results of more than one log".to_owned();
                return Err(Cli::usage_error("results", clap::error::ErrorKind::MissingRequiredArgument, message));
            }
        }
        Ok(self)
    }

    /// An invalid value given to `subcommand`, as clap reports its own.
    pub(crate) fn argument_error(subcommand: &str, message: String) -> clap::Error {
        Cli::usage_error(subcommand, clap::error::ErrorKind::ValueValidation, message)
    }

    /// A usage error of `subcommand` of `kind`, rendered as clap renders its own.
    pub(crate) fn usage_error(subcommand: &str, kind: clap::error::ErrorKind, message: String) -> clap::Error {
        let mut command = Cli::command();
        command.build();
        let subcommand = command.find_subcommand_mut(subcommand).expect("the subcommand exists");
        subcommand.error(kind, message)
    }
}

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
    #[arg(long, value_name = "MB", default_value_t = PlayerLimits::DEFAULT.memory >> 20, value_parser = parse_limit_mb)]
    pub(crate) memory: u64,
    /// Processes and threads each player may run at once.
    #[arg(long, value_name = "N", default_value_t = PlayerLimits::DEFAULT.processes, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub(crate) processes: u32,
    /// Megabytes each player's sandbox /tmp, and its /dev/shm, may each hold.
    #[arg(long, value_name = "MB", default_value_t = PlayerLimits::DEFAULT.tmp >> 20, value_parser = parse_limit_mb)]
    pub(crate) tmp_size: u64,
    /// Seconds of CPU time a player's processes may use on one move [default: the move's time].
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) cpu: Option<Duration>,
    /// Megabytes each player's folder may hold (kept across turns); also the largest file it may write.
    #[arg(long, value_name = "MB", default_value_t = PlayerLimits::DEFAULT.disk >> 20, value_parser = parse_limit_mb)]
    pub(crate) disk: u64,
    /// A variable of your environment that players get too (they get only PATH, the locale,
    /// HOME, their folder, and TMPDIR otherwise); repeat for more.
    #[arg(long = "env", value_name = "NAME", value_parser = parse_variable_name)]
    pub(crate) env: Vec<String>,
}

impl IsolationArgs {
    pub(crate) fn isolation(&self) -> Isolation {
        let limits = PlayerLimits {
            memory: self.memory << 20,
            processes: self.processes,
            tmp: self.tmp_size << 20,
            disk: self.disk << 20,
            cpu: self.cpu,
        };
        Isolation { sandbox: !self.no_sandbox, network: self.network, limits, env: self.env.clone() }
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
    /// Player 1: `self`, `human`, a command with {in}, {out} and optionally {depth},
    /// or an arena's bot: `moderator:COMMAND`, `coordinator:COMMAND` or `http:URL`.
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
    /// Game `number` (from 1; the last if none), read and played again.
    pub(crate) fn load(&self, number: Option<u32>) -> Result<referee::replay::Loaded, referee::Error> {
        referee::replay::load(&self.log, number.map(|n| n as usize), self.rules)
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
        self.table.with_book(&self.book).engine(rules)
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
    #[command(flatten)]
    pub(crate) settings: SettingsArgs,
    #[command(flatten)]
    pub(crate) isolation: IsolationArgs,
}

#[derive(clap::Args)]
pub(crate) struct TournamentArgs {
    /// A player as NAME=COMMAND, COMMAND being `self`, a command template or an arena's
    /// bot (`moderator:COMMAND`, `coordinator:COMMAND`, `http:URL`); two or more.
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
    /// Logs of one tournament (`DIR/games.jsonl`), such as its shards' logs; each game counts once.
    #[arg(required = true, value_name = "LOG")]
    pub(crate) logs: Vec<PathBuf>,
    /// The directory for the standings, crosstable, ratings and results.html
    /// [default: the log's directory, when there is one log].
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// The player rated 0 [default: the tournament's anchor, or its first player].
    #[arg(long, value_name = "NAME")]
    pub(crate) anchor: Option<String>,
}

impl ResultsArgs {
    /// Where the results go: `--out`, or the one log's directory.
    pub(crate) fn directory(&self) -> PathBuf {
        self.out.clone().unwrap_or_else(|| self.logs[0].parent().map(Path::to_path_buf).unwrap_or_default())
    }
}

impl TournamentArgs {
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
pub(crate) fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse()
}

/// NAME=TEMPLATE: a name usable as a file name (letters, digits, `-`, `_`
/// and `.`, not first) and `self` or a command template, never a person.
pub(crate) fn parse_entrant(text: &str) -> Result<(String, PlayerSpec), String> {
    let (name, template) = text
        .split_once('=')
        .map(|(name, template)| (name.trim(), template))
        .ok_or_else(|| "expected NAME=TEMPLATE, such as me=self".to_owned())?;
    tournament::check_name(name)?;
    let spec = parse_player(template)?;
    if spec.is_human() {
        return Err("a tournament has no human players: give `self`, a command template or a bot".to_owned());
    }
    Ok((name.to_owned(), spec))
}

/// The program a timing report runs: a one-move command template, or `self`.
pub(crate) fn parse_one_move_player(text: &str) -> Result<PlayerSpec, String> {
    let spec = parse_player(text)?;
    match spec.kind() {
        PlayerKind::Command(_) | PlayerKind::Engine => Ok(spec),
        _ => Err(report::program::NOT_ONE_MOVE.to_owned()),
    }
}

/// A node count's pattern: a regular expression with a group.
pub(crate) fn parse_nodes_pattern(text: &str) -> Result<NodesPattern, String> {
    NodesPattern::parse(text)
}

/// A player: `self`, `human`, a command template or an arena's bot.
pub(crate) fn parse_player(text: &str) -> Result<PlayerSpec, String> {
    PlayerSpec::parse(text).map_err(|error| error.to_string())
}
