//! `perft`: the move sequences of a length counted, to check move
//! generation.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use maxconnect4::modes::{self, Source};

use super::{Out, Subcommand};
use crate::cli::{check_moves, parse_perft_depth, RulesOption};

/// Count the move sequences of length DEPTH (checks move generation).
#[derive(Args)]
pub(crate) struct PerftArgs {
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
}

impl Subcommand for PerftArgs {
    fn check(&mut self) -> Result<(), clap::Error> {
        check_moves("perft", "--moves", self.moves.as_deref(), self.rules.rules)
    }

    fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let source = self.moves.map(Source::Moves).or(self.file.map(Source::File));
        modes::perft(self.rules.rules, self.depth, source.as_ref(), out)?;
        Ok(ExitCode::SUCCESS)
    }
}
