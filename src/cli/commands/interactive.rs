//! `interactive`: a game against the computer at the terminal.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use maxconnect4::modes::{self, FirstMove};

use super::{Out, Subcommand};
use crate::cli::{parse_depth, sized_table, Next, PlayOptions};

/// Play against the computer at the terminal.
#[derive(Args)]
pub(crate) struct InteractiveArgs {
    /// The board file to start from; an empty board if it does not exist.
    input: PathBuf,
    /// Who moves first.
    next: Next,
    /// Plies to search, the program's own move counting as the first.
    #[arg(value_parser = parse_depth)]
    depth: u32,
    #[command(flatten)]
    play: PlayOptions,
}

impl Subcommand for InteractiveArgs {
    fn check(&mut self) -> Result<(), clap::Error> {
        self.play.check("interactive")?;
        self.play.engine.table.hash = sized_table(self.play.engine.table.hash, "interactive")?;
        Ok(())
    }

    fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let first = match self.next {
            Next::ComputerNext => FirstMove::Computer,
            Next::HumanNext => FirstMove::Human,
        };
        let limits = self.play.engine.limits(self.depth);
        let (settings, rules) = (self.play.settings(), self.play.rules.rules);
        modes::interactive(&self.input, first, rules, &limits, &settings, &mut io::stdin().lock(), out)?;
        Ok(ExitCode::SUCCESS)
    }
}
