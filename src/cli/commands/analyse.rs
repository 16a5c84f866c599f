//! `analyse` (or `analyze`): the value of every column of a position.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use maxconnect4::modes::{self, AnalyseOptions, Source};

use super::{Out, Subcommand};
use crate::cli::{check_moves, sized_table, BookOptions, BudgetArgs, RulesOption, TableOptions};

/// The value of every column of a position: exact where the budget allows, else at a depth.
#[derive(Args)]
#[command(visible_alias = "analyze")]
pub(crate) struct AnalyseArgs {
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
}

impl Subcommand for AnalyseArgs {
    fn check(&mut self) -> Result<(), clap::Error> {
        self.table.hash = sized_table(self.table.hash, "analyse")?;
        check_moves("analyse", "--moves", self.moves.as_deref(), self.rules.rules)
    }

    fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let source = match self.moves {
            Some(moves) => Source::Moves(moves),
            None => Source::File(self.file.expect("clap requires FILE without --moves")),
        };
        let engine = self.table.with_book(&self.book);
        let options = AnalyseOptions { rules: self.rules.rules, engine, budget: self.budget.budget(), json: self.json };
        modes::analyse(&source, &options, out, &mut anstream::stderr())?;
        Ok(ExitCode::SUCCESS)
    }
}
