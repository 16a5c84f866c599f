//! `book`: an opening book built, listed, built in shards or merged from
//! them.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use maxconnect4::modes::{self, BookBuild};
use maxconnect4::moves::Moves;
use maxconnect4::rules::Rules;
use maxconnect4::search::book::BookSpec;
use maxconnect4::shard::Shard;

use super::{Out, Subcommand};
use crate::cli::{check_moves, megabytes, parse_book_depth, parse_hash, parse_rules, parse_shard, sized_table, Cli};

/// Build an opening book: the exact value of every position up to DEPTH moves from a root, on one machine or, in shards, on many.
#[derive(Args)]
pub(crate) struct BookArgs {
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
}

impl Subcommand for BookArgs {
    fn check(&mut self) -> Result<(), clap::Error> {
        check_book(&self.merge, self.out.as_deref(), &self.moves, self.depth, self.rules)?;
        // A list or a merge solves nothing: it has no table.
        if !self.list && self.merge.is_empty() {
            self.hash = sized_table(self.hash, "book")?;
        }
        check_moves("book", "--moves", Some(&self.moves), self.rules)
    }

    fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let Some(depth) = self.depth else {
            modes::merge_books(&self.merge, &self.out.expect("validate requires --out with --merge"), out)?;
            return Ok(ExitCode::SUCCESS);
        };
        let spec = BookSpec { rules: self.rules, root: self.moves, depth };
        if self.list {
            modes::list_book(&spec, out)?;
            return Ok(ExitCode::SUCCESS);
        }
        let threads = self.threads.map_or_else(modes::default_threads, usize::from);
        let out_file = self.out.unwrap_or_else(|| PathBuf::from(format!("{}.book", self.rules.name())));
        let build = BookBuild { spec, threads, hash_bytes: megabytes(self.hash), out: out_file, shard: self.shard };
        modes::build_book(&build, out, &mut anstream::stderr())?;
        Ok(ExitCode::SUCCESS)
    }
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
