//! `format`: the board file described (also `maxconnect4 help format`).

use std::io::Write as _;
use std::process::ExitCode;

use clap::Args;

use super::{Out, Subcommand};

/// Describe the board file (also `maxconnect4 help format`).
#[derive(Args)]
#[command(long_about = maxconnect4::format::DESCRIPTION)]
pub(crate) struct FormatArgs;

impl Subcommand for FormatArgs {
    fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        writeln!(out, "{}", maxconnect4::format::DESCRIPTION)?;
        Ok(ExitCode::SUCCESS)
    }
}
