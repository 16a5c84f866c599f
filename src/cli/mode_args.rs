//! The arguments of the modes that play, study and measure positions, and
//! of `serve`: each subcommand's own struct, which `run` turns into the
//! options its mode takes.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use maxconnect4::report;
use maxconnect4::report::program::NodesPattern;
use maxconnect4::rules::Rules;
use maxconnect4::serve;
use maxconnect4::shard::Shard;

use super::*;

#[derive(Args)]
pub(crate) struct OneMoveArgs {
    /// INPUT OUTPUT DEPTH: the board file to move from, where to write the
    /// board after the move (left untouched if the game is over), and the
    /// plies to search (the program's own move first). With --moves,
    /// only OUTPUT DEPTH.
    #[arg(value_name = "ARGS", num_args = 2..=3, required = true)]
    pub(crate) args: Vec<PathBuf>,
    /// Start from the position after these moves (columns 1-7 from the empty board) instead of INPUT.
    #[arg(long, value_name = "MOVES")]
    pub(crate) moves: Option<String>,
    #[command(flatten)]
    pub(crate) play: PlayOptions,
    /// DEPTH, taken from `args` by [`Cli::validate`], which leaves only
    /// the paths there.
    #[arg(skip)]
    pub(crate) depth: u32,
}

#[derive(Args)]
pub(crate) struct InteractiveArgs {
    /// The board file to start from; an empty board if it does not exist.
    pub(crate) input: PathBuf,
    /// Who moves first.
    pub(crate) next: Next,
    /// Plies to search, the program's own move counting as the first.
    #[arg(value_parser = parse_depth)]
    pub(crate) depth: u32,
    #[command(flatten)]
    pub(crate) play: PlayOptions,
}

#[derive(Args)]
pub(crate) struct PerftArgs {
    /// Length of the move sequences.
    #[arg(value_parser = parse_perft_depth)]
    pub(crate) depth: u32,
    /// The board file to start from; the empty board if omitted.
    #[arg(conflicts_with = "moves")]
    pub(crate) file: Option<PathBuf>,
    /// Start from the position after these moves instead.
    #[arg(long, value_name = "MOVES")]
    pub(crate) moves: Option<String>,
    #[command(flatten)]
    pub(crate) rules: RulesOption,
}

#[derive(Args)]
pub(crate) struct SolveArgs {
    /// The board file to solve.
    #[arg(required_unless_present_any = ["moves", "batch"], conflicts_with_all = ["moves", "batch"])]
    pub(crate) file: Option<PathBuf>,
    /// Solve the position after these moves (columns 1-7 from the empty board).
    #[arg(long, value_name = "MOVES", conflicts_with = "batch")]
    pub(crate) moves: Option<String>,
    /// Solve every move string in FILE (`-` for standard input), one per line; print `MOVES VALUE`.
    #[arg(long, value_name = "FILE")]
    pub(crate) batch: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) rules: RulesOption,
    /// Only win, draw or loss (1, 0, -1) and the columns that keep it; the value alone (--batch) much faster.
    #[arg(long)]
    pub(crate) weak: bool,
    /// Only whether the value is at least V: one search, which prints `value >= B` (B at least V) or `value <= B` (B below V), the tightest bound it proved.
    #[arg(long, value_name = "V", allow_negative_numbers = true, conflicts_with_all = ["weak", "batch"])]
    pub(crate) bound: Option<i32>,
    /// Give up after this many seconds.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) time_limit: Option<Duration>,
    #[command(flatten)]
    pub(crate) table: TableOptions,
    #[command(flatten)]
    pub(crate) book: BookOptions,
}

#[derive(Args)]
pub(crate) struct AnalyseArgs {
    /// The board file to analyse.
    #[arg(required_unless_present = "moves", conflicts_with = "moves")]
    pub(crate) file: Option<PathBuf>,
    /// Analyse the position after these moves (columns 1-7 from the empty board).
    #[arg(long, value_name = "MOVES")]
    pub(crate) moves: Option<String>,
    #[command(flatten)]
    pub(crate) rules: RulesOption,
    #[command(flatten)]
    pub(crate) budget: BudgetArgs,
    #[command(flatten)]
    pub(crate) table: TableOptions,
    #[command(flatten)]
    pub(crate) book: BookOptions,
    /// Print one JSON object for programs.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Args)]
pub(crate) struct BookArgs {
    /// Moves from the root to the deepest positions of the book.
    #[arg(long, value_parser = parse_book_depth, required_unless_present = "merge")]
    pub(crate) depth: Option<u32>,
    /// The root: the position after these moves [default: the empty board].
    #[arg(long, value_name = "MOVES", default_value = "", hide_default_value = true)]
    pub(crate) moves: String,
    /// The game: classic (the first four wins; values are the field's scores) or max (Max-Connect4; values are final score differences).
    #[arg(long, value_name = "RULES", default_value = "classic", value_parser = parse_rules)]
    pub(crate) rules: Rules,
    /// Threads solving positions [default: the cores available].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub(crate) threads: Option<u16>,
    /// Each thread's transposition table in MB [default: 64].
    #[arg(long, value_name = "MB", value_parser = parse_hash)]
    pub(crate) hash: Option<usize>,
    /// The book file to write [default: RULES.book]; a build keeps its progress in FILE.progress until it is done, a shard in FILE.shard-I-of-N.progress.
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
    /// Print the positions DEPTH moves deep, in the order a build solves them (KEY MOVES, one a line), and solve nothing.
    #[arg(long, conflicts_with_all = ["shard", "merge", "out", "threads", "hash"])]
    pub(crate) list: bool,
    /// Solve only part I of N (I from 0 to N-1): the families of siblings (neighbours in --list whose MOVES differ in the last move alone) whose place among them, counted from 0, is I modulo N, into FILE.shard-I-of-N.progress; no book is written.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub(crate) shard: Option<Shard>,
    /// Write the book --out FILE from these progress files (the shards' of one build, which name its rules, root and depth).
    #[arg(long, value_name = "PROGRESS", num_args = 1.., conflicts_with_all = ["depth", "moves", "rules", "threads", "hash", "shard"])]
    pub(crate) merge: Vec<PathBuf>,
}

#[derive(Args)]
pub(crate) struct BenchArgs {
    #[command(flatten)]
    pub(crate) rules: RulesOption,
    /// Run the deep workload instead: one-move to depth 18 and solves from 28 empty cells, seconds each.
    #[arg(long)]
    pub(crate) deep: bool,
    #[command(flatten)]
    pub(crate) table: TableOptions,
}

#[derive(Args)]
pub(crate) struct ReportArgs {
    /// Board files to search from [default: every file in input_files/].
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub(crate) positions: Vec<PathBuf>,
    /// Time your one-move program instead: a command with {in}, {out} and {depth}, run as the referee runs a player.
    #[arg(long, value_name = "TEMPLATE", value_parser = parse_one_move_player)]
    pub(crate) player: Option<report::program::Player>,
    /// Where the program prints its node count: a regular expression (case ignored), its first group the count;
    /// the last match on stdout, else on stderr.
    #[arg(long, value_name = "REGEX", default_value = report::program::DEFAULT_NODES_PATTERN,
          value_parser = parse_nodes_pattern, requires = "player")]
    pub(crate) nodes_pattern: NodesPattern,
    /// Run this program's own one-move the same way beside it, for comparison.
    #[arg(long, requires = "player")]
    pub(crate) compare: bool,
    /// Search depths 1 to N.
    #[arg(long, value_name = "N", default_value_t = report::DEFAULT_MAX_DEPTH, value_parser = parse_depth)]
    pub(crate) max_depth: u32,
    /// Seconds each run of the program has; a run that takes longer fails.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds, requires = "player")]
    pub(crate) timeout: Duration,
    /// Skip a search predicted to take more CPU seconds than this.
    #[arg(long, value_name = "SECONDS", default_value = report::DEFAULT_BUDGET, value_parser = parse_seconds)]
    pub(crate) budget: Duration,
    #[command(flatten)]
    pub(crate) isolation: IsolationArgs,
    /// The directory to write the report to (created if need be).
    #[arg(long, value_name = "DIR", default_value = report::DEFAULT_OUT)]
    pub(crate) out: PathBuf,
}

#[derive(Args)]
pub(crate) struct ServeArgs {
    /// The address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub(crate) addr: std::net::SocketAddr,
    #[command(flatten)]
    pub(crate) search: SearchOptions,
    /// Searches running at once, whoever asks [default: the number of cores]; each searches with
    /// as many threads as the cores divided among them (one by default, all with --searches 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub(crate) searches: Option<u16>,
    /// Requests waiting for a search at once; beyond, 503 Service Unavailable.
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = clap::value_parser!(u16).range(0..=4096))]
    pub(crate) queue: u16,
    /// The deepest search one request may ask for (its "depth").
    #[arg(long, value_name = "PLIES", default_value_t = 42, value_parser = clap::value_parser!(u32).range(1..=42))]
    pub(crate) max_depth: u32,
    /// The longest search one request may ask for (its "time-limit"), in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
    pub(crate) max_time: Duration,
    /// Connections served at once; at the cap, the oldest one still waiting for a request's
    /// headers is closed to make room for a new client.
    #[arg(long, value_name = "N", default_value_t = serve::MAX_CONNECTIONS as u32, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub(crate) max_connections: u32,
    /// Seconds a client has to send a request's headers before its connection is closed, and then its body before it is answered 408.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
    pub(crate) header_timeout: Duration,
    /// The name answered to the arena's init.
    #[arg(long, default_value = "maxconnect4")]
    pub(crate) name: String,
    /// Use no opening book: every position is searched, as by solve --no-book.
    #[arg(long)]
    pub(crate) no_book: bool,
}
