//! The options that choose how this program's engine plays, solves and
//! analyses, which several subcommands share: rules, depth, time, table,
//! threads, book, an analysis' budget.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use maxconnect4::modes::{self, bot, BookChoice, EngineSettings, Play};
use maxconnect4::rules::Rules;
use maxconnect4::search::Limits;

use super::values::*;
use super::Cli;

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
    /// else a best move solved within nine tenths of --time-limit (if given), else the depth-limited
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

    /// The book options given to `subcommand`: Max-Connect4's
    /// depth-limited search reads no book, so only `--perfect` and
    /// `--book-moves` play from one.
    pub(crate) fn check(&self, subcommand: &str) -> Result<(), clap::Error> {
        if self.rules.rules != Rules::Max || self.perfect || self.book_moves {
            return Ok(());
        }
        let option = match (&self.book.book, self.book.no_book) {
            (Some(_), _) => "--book",
            (None, true) => "--no-book",
            (None, false) => return Ok(()),
        };
        let message = format!(
            "{option} needs --perfect or --book-moves under --rules max: the depth-limited search plays from no book"
        );
        Err(Cli::usage_error(subcommand, clap::error::ErrorKind::ArgumentConflict, message))
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
    pub(crate) fn budget(&self) -> Limits {
        Limits::analysis(self.depth, self.time_limit)
    }

    /// Whether either option was given.
    pub(crate) fn given(&self) -> bool {
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
