//! The `maxconnect4` command: parses arguments and dispatches to a mode.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

use maxconnect4::modes::{self, FirstMove};
use maxconnect4::report;

/// Plays Max-Connect4: Connect-4 played until the board is full, scored by
/// the number of four-in-a-rows of each colour.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read a board file, make one move, write the new board to OUTPUT.
    OneMove {
        /// The board file to move from.
        input: PathBuf,
        /// Where to write the board after the move (left untouched if the game is over).
        output: PathBuf,
        /// Plies to search, the program's own move counting as the first.
        #[arg(value_parser = parse_depth)]
        depth: u32,
    },
    /// Play against the computer at the terminal.
    Interactive {
        /// The board file to start from; an empty board if it does not exist.
        input: PathBuf,
        /// Who moves first.
        next: Next,
        /// Plies to search, the program's own move counting as the first.
        #[arg(value_parser = parse_depth)]
        depth: u32,
    },
    /// Time every search algorithm at every depth and write timing.csv, charts and REPORT.md.
    Report {
        /// Board files to search from [default: every file in input_files/].
        #[arg(long, value_name = "FILE", num_args = 1..)]
        positions: Vec<PathBuf>,
        /// Search depths 1 to N.
        #[arg(long, value_name = "N", default_value_t = report::DEFAULT_MAX_DEPTH, value_parser = parse_depth)]
        max_depth: u32,
        /// The directory to write the report to (created if need be).
        #[arg(long, value_name = "DIR", default_value = report::DEFAULT_OUT)]
        out: PathBuf,
        /// Skip a search predicted to take more CPU seconds than this.
        #[arg(long, value_name = "SECONDS", default_value_t = report::DEFAULT_BUDGET, value_parser = parse_budget)]
        budget: f64,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Next {
    ComputerNext,
    HumanNext,
}

/// DEPTH: a whole number of plies, at least 1.
fn parse_depth(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(depth) if depth >= 1 => Ok(depth),
        _ => Err("DEPTH must be a whole number of plies, 1 or more".to_owned()),
    }
}

/// SECONDS: a positive number of seconds.
fn parse_budget(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds < 1e9 => Ok(seconds),
        _ => Err("SECONDS must be a positive number of seconds, such as 2 or 0.5".to_owned()),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Prints a command-line error with the usage of the subcommand it concerns
/// (clap leaves the usage out of some errors), or prints help or the version.
fn usage_error(error: &clap::Error) -> ExitCode {
    let _ = error.print();
    let rendered = error.render().to_string();
    if error.use_stderr() && !rendered.contains("Usage:") {
        let mut command = Cli::command();
        command.build();
        let subcommand = std::env::args().nth(1).unwrap_or_default();
        let usage = match command.find_subcommand_mut(&subcommand) {
            Some(subcommand) => subcommand.render_usage(),
            None => command.render_usage(),
        };
        eprintln!("\n{usage}");
    }
    ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let mut out = anstream::stdout();
    match cli.command {
        Command::OneMove { input, output, depth } => modes::one_move(&input, &output, depth, &mut out),
        Command::Interactive { input, next, depth } => {
            let first = match next {
                Next::ComputerNext => FirstMove::Computer,
                Next::HumanNext => FirstMove::Human,
            };
            modes::interactive(&input, first, depth, &mut io::stdin().lock(), &mut out)
        }
        Command::Report { positions, max_depth, out: dir, budget } => {
            let command = report::command_line(std::env::args().skip(1));
            let budget = Duration::from_secs_f64(budget);
            report::run(&report::Options { positions, max_depth, out: dir, budget, command }, &mut out)
        }
    }
}
