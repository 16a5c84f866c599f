//! The command line: clap's types for every subcommand, the parsers of
//! their values, and the checks that span several arguments, so that every
//! argument error is a usage error (exit 2) before anything runs.

mod engine_args;
mod mode_args;
mod referee_args;
pub(crate) mod run;
mod values;

pub(crate) use engine_args::*;
pub(crate) use mode_args::*;
pub(crate) use referee_args::*;
pub(crate) use values::*;

use std::path::{Path, PathBuf};

use clap::{CommandFactory, Parser, Subcommand};

use maxconnect4::format;
use maxconnect4::moves::Moves;
use maxconnect4::protocol::coordinator;
use maxconnect4::rules::Rules;

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
    OneMove(OneMoveArgs),
    /// Play against the computer at the terminal.
    Interactive(InteractiveArgs),
    /// Count the move sequences of length DEPTH (checks move generation).
    Perft(PerftArgs),
    /// Compute the exact result of a position with perfect play.
    Solve(SolveArgs),
    /// The value of every column of a position: exact where the budget allows, else at a depth.
    #[command(visible_alias = "analyze")]
    Analyse(AnalyseArgs),
    /// Build an opening book: the exact value of every position up to DEPTH moves from a root, on one machine or, in shards, on many.
    Book(BookArgs),
    /// Search a fixed set of positions and report the speed in nodes per second.
    Bench(BenchArgs),
    /// Time every search algorithm, or your one-move program (--player), at every depth; write timing.csv, charts and REPORT.md.
    Report(ReportArgs),
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
    Serve(ServeArgs),
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
        /// Play perfectly where the time allows: the opening book's best move where it holds the
        /// position, else a best move solved within nine tenths of --time-limit, else the
        /// search's move, said on standard error.
        #[arg(long, conflicts_with = "depth")]
        perfect: bool,
        /// Threads searching together for each move (one by default: a tournament runs several
        /// bots at once; under classic rules the solver's, its depth-limited player uses one).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_threads)]
        threads: u16,
    },
    /// The coordinator's engine: name, isready, position, go, perft, quit.
    Coordinator {
        /// The name to answer `name` with.
        #[arg(long, default_value = coordinator::DEFAULT_NAME)]
        name: String,
        /// The game the coordinator runs: classic or max.
        #[arg(long, value_name = "RULES", default_value = "classic", value_parser = parse_rules)]
        rules: Rules,
        /// Play perfectly where the time allows: the opening book's best move where it holds the
        /// position, else a best move solved within nine tenths of the time `go` gives, else the
        /// search's move, said on standard error.
        #[arg(long)]
        perfect: bool,
        /// Threads searching together for each move (one by default: a tournament runs several
        /// bots at once; under classic rules the solver's, its depth-limited player uses one).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_threads)]
        threads: u16,
    },
}

impl Cli {
    /// Checks what depends on more than one argument, as clap checks each
    /// one, so that every argument error is a usage error: each
    /// subcommand's arguments check themselves, then the sizes of the
    /// tables and the move strings, which several subcommands take.
    pub(crate) fn validate(mut self) -> Result<Cli, clap::Error> {
        match &mut self.command {
            Command::OneMove(one_move) => {
                one_move.depth = check_one_move_args(&mut one_move.args, one_move.moves.is_some())?;
                check_play("one-move", &one_move.play)?;
            }
            Command::Interactive(InteractiveArgs { play, .. }) => check_play("interactive", play)?,
            Command::Bench(BenchArgs { deep: true, rules, .. }) if rules.rules != Rules::Max => {
                let kind = clap::error::ErrorKind::ArgumentConflict;
                return Err(Cli::usage_error("bench", kind, "--deep needs --rules max".to_owned()));
            }
            Command::Book(BookArgs { merge, out, moves, depth, rules, .. }) => {
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
            Command::OneMove(OneMoveArgs { play, .. }) => {
                play.engine.table.hash = sized_table(play.engine.table.hash, "one-move")?
            }
            Command::Interactive(InteractiveArgs { play, .. }) => {
                play.engine.table.hash = sized_table(play.engine.table.hash, "interactive")?;
            }
            Command::Solve(SolveArgs { table, .. }) => table.hash = sized_table(table.hash, "solve")?,
            Command::Analyse(AnalyseArgs { table, .. }) => table.hash = sized_table(table.hash, "analyse")?,
            Command::Bench(BenchArgs { table, .. }) => table.hash = sized_table(table.hash, "bench")?,
            Command::Book(BookArgs { hash, list: false, merge, .. }) if merge.is_empty() => {
                *hash = sized_table(*hash, "book")?
            }
            _ => {}
        }
        Ok(())
    }

    /// A move string is an argument like any other: a bad one is a usage error.
    fn check_move_strings(&self) -> Result<(), clap::Error> {
        let moves = match &self.command {
            Command::OneMove(OneMoveArgs { moves: Some(moves), play, .. }) => {
                Some(("one-move", "--moves", moves, play.rules.rules))
            }
            Command::Perft(PerftArgs { moves: Some(moves), rules, .. }) => {
                Some(("perft", "--moves", moves, rules.rules))
            }
            Command::Solve(SolveArgs { moves: Some(moves), rules, .. }) => {
                Some(("solve", "--moves", moves, rules.rules))
            }
            Command::Analyse(AnalyseArgs { moves: Some(moves), rules, .. }) => {
                Some(("analyse", "--moves", moves, rules.rules))
            }
            Command::Book(BookArgs { moves, rules, .. }) => Some(("book", "--moves", moves, *rules)),
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

/// One-move's positional arguments, which depend on `--moves`: the depth,
/// taken from them, so that the paths are left.
fn check_one_move_args(args: &mut Vec<PathBuf>, with_moves: bool) -> Result<u32, clap::Error> {
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
    let depth = args.pop().expect("counted");
    parse_depth(&depth.to_string_lossy()).map_err(|message| {
        let message = format!("invalid value '{}' for '<DEPTH>': {message}", depth.to_string_lossy());
        Cli::usage_error("one-move", ValueValidation, message)
    })
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
