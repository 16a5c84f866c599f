//! The `maxconnect4` command: the command line is read and checked by
//! [`cli`], whose subcommands each run from a file of their own
//! (`cli/commands/`); this prints what went wrong and exits.

mod cli;

use std::io;
use std::process::ExitCode;

use clap::Parser;

use cli::commands::Subcommand as _;
use cli::{usage_error, Cli};

fn main() -> ExitCode {
    let cli = match Cli::try_parse().map_err(cli::unquoted_template).and_then(Cli::validate) {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error),
    };
    match run(cli) {
        Ok(code) => code,
        // Whoever read the output stopped reading (`| head`): there is no
        // one left to tell, and nothing went wrong that they asked about.
        Err(error) if broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {}", message(&error));
            ExitCode::FAILURE
        }
    }
}

/// `error` and its causes on one line, each cause after a colon unless the
/// text so far says it already (a message that quotes its source, as
/// "cannot write FILE: Read-only file system (os error 30)" does).
fn message(error: &anyhow::Error) -> String {
    let mut message = String::new();
    for cause in error.chain() {
        let said = cause.to_string();
        if message.is_empty() {
            message = said;
        } else if !message.contains(&said) {
            message.push_str(": ");
            message.push_str(&said);
        }
    }
    message
}

/// Whether `error` comes from writing to a pipe whose reader has gone.
fn broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .any(|cause| cause.downcast_ref::<io::Error>().is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe))
}

/// The subcommand run, writing to standard output (styled where it is a
/// terminal).
fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    cli.command.run(&mut anstream::stdout())
}
