//! `solve`: the exact value of a position, or of each of a batch of move
//! strings, with perfect play.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;

use maxconnect4::modes::{self, SolveOptions, Source};
use maxconnect4::search::Strength;

use super::{Out, Subcommand};
use crate::cli::{check_moves, parse_seconds, sized_table, BookOptions, RulesOption, TableOptions};

/// Compute the exact result of a position with perfect play.
#[derive(Args)]
pub(crate) struct SolveArgs {
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
}

impl SolveArgs {
    fn options(&self) -> SolveOptions {
        SolveOptions {
            rules: self.rules.rules,
            engine: self.table.with_book(&self.book),
            time_limit: self.time_limit,
            strength: if self.weak { Strength::Weak } else { Strength::Strong },
            bound: self.bound,
        }
    }
}

impl Subcommand for SolveArgs {
    fn check(&mut self) -> Result<(), clap::Error> {
        self.table.hash = sized_table(self.table.hash, "solve")?;
        check_moves("solve", "--moves", self.moves.as_deref(), self.rules.rules)
    }

    fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let options = self.options();
        let mut err = anstream::stderr();
        let Some(batch) = self.batch else {
            let source = match self.moves {
                Some(moves) => Source::Moves(moves),
                None => Source::File(self.file.expect("clap requires FILE without --moves or --batch")),
            };
            modes::solve(&source, &options, out, &mut err)?;
            return Ok(ExitCode::SUCCESS);
        };
        let bad = if batch.as_os_str() == "-" {
            modes::solve_batch("standard input", &mut io::stdin().lock(), &options, out, &mut err)?
        } else {
            // Bounded: a named pipe or a device is refused, not waited on.
            let file =
                maxconnect4::bounded::open(&batch).with_context(|| format!("cannot read {}", batch.display()))?;
            let name = batch.display().to_string();
            modes::solve_batch(&name, &mut io::BufReader::new(file), &options, out, &mut err)?
        };
        if bad > 0 {
            eprintln!("error: {bad} bad lines in the batch");
            return Ok(ExitCode::FAILURE);
        }
        Ok(ExitCode::SUCCESS)
    }
}
