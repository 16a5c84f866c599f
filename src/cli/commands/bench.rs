//! `bench`: the speed of the search on a fixed set of positions.

use std::process::ExitCode;

use clap::Args;

use maxconnect4::modes::{self, BookChoice, EngineSettings};
use maxconnect4::rules::Rules;

use super::{Out, Subcommand};
use crate::cli::{sized_table, Cli, RulesOption, TableOptions};

/// Search a fixed set of positions and report the speed in nodes per second.
#[derive(Args)]
pub(crate) struct BenchArgs {
    #[command(flatten)]
    rules: RulesOption,
    /// Run the deep workload instead: one-move to depth 18 and solves from 28 empty cells, seconds each.
    #[arg(long)]
    deep: bool,
    #[command(flatten)]
    table: TableOptions,
}

impl Subcommand for BenchArgs {
    fn check(&mut self) -> Result<(), clap::Error> {
        if self.deep && self.rules.rules != Rules::Max {
            let kind = clap::error::ErrorKind::ArgumentConflict;
            return Err(Cli::usage_error("bench", kind, "--deep needs --rules max".to_owned()));
        }
        self.table.hash = sized_table(self.table.hash, "bench")?;
        Ok(())
    }

    fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        // No opening book: the bench measures the search.
        let settings = EngineSettings { book: BookChoice::Off, ..self.table.settings() };
        modes::bench(self.rules.rules, self.deep, &settings, out)?;
        Ok(ExitCode::SUCCESS)
    }
}
