//! The command line: clap's types for every subcommand, the parsers of
//! their values, and the checks that span several arguments, so that every
//! argument error is a usage error (exit 2) before anything runs.

mod engine_args;
mod referee_args;
mod values;

pub(crate) use engine_args::*;
pub(crate) use referee_args::*;
pub(crate) use values::*;

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{CommandFactory, Parser, Subcommand};

use maxconnect4::moves::Moves;
use maxconnect4::protocol::coordinator;
use maxconnect4::report::program::NodesPattern;
use maxconnect4::rules::Rules;
use maxconnect4::serve;
use maxconnect4::shard::Shard;
use maxconnect4::{format, report};

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
        player: Option<report::program::Player>,
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

impl Cli {
    /// Checks what depends on more than one argument, as clap checks each
    /// one, so that every argument error is a usage error: each
    /// subcommand's arguments check themselves, then the sizes of the
    /// tables and the move strings, which several subcommands take.
    pub(crate) fn validate(mut self) -> Result<Cli, clap::Error> {
        match &self.command {
            Command::OneMove { args, moves, play } => {
                check_one_move_args(args, moves.is_some())?;
                check_play("one-move", play)?;
            }
            Command::Interactive { play, .. } => check_play("interactive", play)?,
            Command::Bench { deep: true, rules, .. } if rules.rules != Rules::Max => {
                let kind = clap::error::ErrorKind::ArgumentConflict;
                return Err(Cli::usage_error("bench", kind, "--deep needs --rules max".to_owned()));
            }
            Command::Book { merge, out, moves, depth, rules, .. } => {
                check_book(merge, out.as_deref(), moves, *depth, *rules)?;
            }
            Command::Tournament(args) => args.check()?,
            Command::Replay(args) => args.check()?,
            Command::Results(args) => args.check()?,
            _ => {}
        }
        self.size_tables()?;
        self.check_move_strings()?;
        Ok(self)
    }

    /// Each table's size, checked against the memory at hand.
    fn size_tables(&mut self) -> Result<(), clap::Error> {
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
        Ok(())
    }

    /// A move string is an argument like any other: a bad one is a usage error.
    fn check_move_strings(&self) -> Result<(), clap::Error> {
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
        Ok(())
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

/// One-move's positional arguments, which depend on `--moves`.
fn check_one_move_args(args: &[PathBuf], with_moves: bool) -> Result<(), clap::Error> {
    use clap::error::ErrorKind::{ValueValidation, WrongNumberOfValues};
    let wanted = if with_moves { 2 } else { 3 };
    if args.len() != wanted {
        let message = if with_moves {
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
    Ok(())
}

/// A playing mode's book options: Max-Connect4's depth-limited search
/// reads no book, so only `--perfect` and `--book-moves` play from one.
fn check_play(subcommand: &str, play: &PlayOptions) -> Result<(), clap::Error> {
    if play.rules.rules != Rules::Max || play.perfect || play.book_moves {
        return Ok(());
    }
    let option = match (&play.book.book, play.book.no_book) {
        (Some(_), _) => "--book",
        (None, true) => "--no-book",
        (None, false) => return Ok(()),
    };
    let message = format!(
        "{option} needs --perfect or --book-moves under --rules max: the depth-limited search plays from no book"
    );
    Err(Cli::usage_error(subcommand, clap::error::ErrorKind::ArgumentConflict, message))
}

/// `book`'s arguments: a merge writes a book, and a root must leave
/// `--depth` moves to play.
fn check_book(
    merge: &[PathBuf],
    out: Option<&Path>,
    moves: &str,
    depth: Option<u32>,
    rules: Rules,
) -> Result<(), clap::Error> {
    if !merge.is_empty() && out.is_none() {
        let message = "--merge needs --out FILE, the book to write".to_owned();
        return Err(Cli::usage_error("book", clap::error::ErrorKind::MissingRequiredArgument, message));
    }
    // A move string that cannot be played is reported with the others.
    let (Some(depth), Ok(root)) = (depth, Moves::board(rules, moves)) else { return Ok(()) };
    if rules.is_over(&root) {
        let message = format!("invalid value '{moves}' for '--moves <MOVES>': the game is over there");
        return Err(Cli::argument_error("book", message));
    }
    if depth > root.empty_cells() {
        let message = format!(
            "invalid value '{depth}' for '--depth <DEPTH>': the board is full after {} more moves",
            root.empty_cells()
        );
        return Err(Cli::argument_error("book", message));
    }
    Ok(())
}
