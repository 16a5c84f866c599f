//! `replay`: a logged game shown move by move, annotated if asked.

use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use maxconnect4::referee::replay;

use super::{Out, Subcommand};
use crate::cli::{parse_delay, parse_game, AnnotationArgs, Cli, LoggedGame};

/// Show a logged game move by move.
#[derive(Args)]
pub(crate) struct ReplayArgs {
    #[command(flatten)]
    log: LoggedGame,
    #[command(flatten)]
    analysis: AnnotationArgs,
    /// Which game, counting from 1 [default: the last].
    #[arg(long, value_name = "N", value_parser = parse_game)]
    game: Option<u32>,
    /// Seconds to pause before each move.
    #[arg(long, value_name = "SECONDS", default_value = "0.5", value_parser = parse_delay)]
    delay: Duration,
    /// Show each move's value against the best column's, as `annotate` does.
    #[arg(long)]
    annotate: bool,
}

impl Subcommand for ReplayArgs {
    /// An annotation's budget without the annotation is a mistake.
    fn check(&mut self) -> Result<(), clap::Error> {
        if !self.annotate && self.analysis.budget.given() {
            let message = "--depth and --time-limit set the annotation's budget: give --annotate".to_owned();
            return Err(Cli::usage_error("replay", clap::error::ErrorKind::MissingRequiredArgument, message));
        }
        Ok(())
    }

    fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let game = self.log.load(self.game)?;
        let mut engine = if self.annotate { Some(self.analysis.engine(game.record.settings.rules)?) } else { None };
        let budget = self.analysis.budget.budget();
        replay::replay(&game, self.delay, engine.as_mut().map(|engine| (engine, &budget)), out)?;
        Ok(ExitCode::SUCCESS)
    }
}
