//! The `maxconnect4` command: the command line is read and checked by
//! [`cli`], which runs each subcommand; this prints what went wrong.

mod cli;

use std::io;
use std::process::ExitCode;

use clap::Parser;

use cli::{usage_error, Cli, Command};

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

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let out = &mut anstream::stdout();
    match cli.command {
        Command::OneMove(args) => args.run(out),
        Command::Interactive(args) => args.run(out),
        Command::Perft(args) => args.run(out),
        Command::Solve(args) => args.run(out),
        Command::Analyse(args) => args.run(out),
        Command::Book(args) => args.run(out),
        Command::Bench(args) => args.run(out),
        Command::Report(args) => args.run(out),
        Command::Match(args) => args.run(out),
        Command::Replay(args) => args.run(out),
        Command::Annotate(args) => args.run(out),
        Command::Check(args) => args.run(out),
        Command::Tournament(args) => args.run(out),
        Command::Results(args) => args.run(out),
        Command::Format => cli::run::format(out),
        Command::Serve(args) => args.run(out),
        Command::Bot(bot) => bot.run(),
    }
}
