//! The command line: clap's types for the program, every subcommand in a
//! file of its own under [`commands`], the argument groups and parsers
//! that several share, and the checks that span several arguments, so that
//! every argument error is a usage error (exit 2) before anything runs.

pub(crate) mod commands;
mod engine_args;
mod referee_args;
mod values;

pub(crate) use engine_args::*;
pub(crate) use referee_args::*;
pub(crate) use values::*;

use clap::{CommandFactory, Parser};

use commands::{Command, Subcommand as _};

/// Plays Max-Connect4: Connect-4 played until the board is full, scored by
/// the number of four-in-a-rows of each colour.
#[derive(Parser)]
#[command(version, about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

impl Cli {
    /// Checks what depends on more than one argument, as clap checks each
    /// one, so that every argument error is a usage error: each
    /// subcommand's arguments check themselves, then the sizes of their
    /// tables and their move strings.
    pub(crate) fn validate(mut self) -> Result<Cli, clap::Error> {
        self.command.check()?;
        Ok(self)
    }

    /// An invalid value given to `subcommand`, as clap reports its own.
    pub(crate) fn argument_error(subcommand: &str, message: String) -> clap::Error {
        Cli::usage_error(subcommand, clap::error::ErrorKind::ValueValidation, message)
    }

    /// A usage error of `subcommand` of `kind`, rendered as clap renders its own.
    pub(crate) fn usage_error(subcommand: &str, kind: clap::error::ErrorKind, message: String) -> clap::Error {
        let mut command = Cli::command();
        command.build();
        let subcommand = command.find_subcommand_mut(subcommand).expect("the subcommand exists");
        subcommand.error(kind, message)
    }
}
