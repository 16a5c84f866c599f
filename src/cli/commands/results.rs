//! `results`: a tournament's standings, crosstable, ratings and results
//! page from its logs.

use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use maxconnect4::referee::merge;

use super::{Out, Subcommand};
use crate::cli::Cli;

/// Standings, crosstable, ratings and results page from tournament logs (shards' logs merged).
#[derive(Args)]
pub(crate) struct ResultsArgs {
    /// Logs of one tournament (`DIR/games.jsonl`, or `DIR` for its log), such as its shards' logs, or
    /// a folder of its shards' folders; each game counts once.
    #[arg(required = true, value_name = "LOG")]
    logs: Vec<PathBuf>,
    /// The directory for the standings, crosstable, ratings and results.html
    /// [default: the folder given, or the log's directory, when one is given].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The player rated 0 [default: the tournament's anchor, or its first player].
    #[arg(long, value_name = "NAME")]
    anchor: Option<String>,
}

impl ResultsArgs {
    /// Where the results go: `--out`, or the one folder given (a
    /// tournament's, or its shards' parent), or the one log's directory.
    fn directory(&self) -> PathBuf {
        let given = &self.logs[0];
        let beside =
            || if given.is_dir() { given.clone() } else { given.parent().map(Path::to_path_buf).unwrap_or_default() };
        self.out.clone().unwrap_or_else(beside)
    }
}

impl Subcommand for ResultsArgs {
    /// Several logs need a folder for their results.
    fn check(&mut self) -> Result<(), clap::Error> {
        if self.out.is_none() && self.logs.len() > 1 {
            let message = "give --out DIR for the results of more than one log".to_owned();
            return Err(Cli::usage_error("results", clap::error::ErrorKind::MissingRequiredArgument, message));
        }
        Ok(())
    }

    fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        merge::results(&self.logs, &self.directory(), self.anchor.as_deref(), out, &mut io::stderr())?;
        Ok(ExitCode::SUCCESS)
    }
}
