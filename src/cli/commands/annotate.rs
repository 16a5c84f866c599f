//! `annotate`: each move of a logged game against the best column.

use std::process::ExitCode;

use clap::Args;

use maxconnect4::referee::replay;

use super::{Out, Subcommand};
use crate::cli::{parse_game, AnnotationArgs, LoggedGame};

/// Each move of a logged game against the best column: blunders, inaccuracies, points lost.
#[derive(Args)]
pub(crate) struct AnnotateArgs {
    #[command(flatten)]
    log: LoggedGame,
    #[command(flatten)]
    analysis: AnnotationArgs,
    /// Which game, counting from 1 [default: the last].
    #[arg(long, value_name = "N", value_parser = parse_game)]
    game: Option<u32>,
    /// Print one JSON object for programs.
    #[arg(long)]
    json: bool,
}

impl Subcommand for AnnotateArgs {
    fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let game = self.log.load(self.game)?;
        let mut engine = self.analysis.engine(game.record.settings.rules)?;
        replay::annotated(&game, &mut engine, &self.analysis.budget.budget(), self.json, out)?;
        Ok(ExitCode::SUCCESS)
    }
}
