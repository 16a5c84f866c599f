//! `report`: every search algorithm, or a one-move program, timed at every
//! depth, and the report written.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use maxconnect4::contain;
use maxconnect4::contain::template::OwnPlay;
use maxconnect4::referee::player::PlayerKind;
use maxconnect4::report;
use maxconnect4::report::program::{NodesPattern, Timed, TimedProgram};

use super::{say_players_killed, Out, Subcommand};
use crate::cli::{parse_depth, parse_player, parse_seconds, IsolationArgs};

/// Time every search algorithm, or your one-move program (--player), at every depth; write timing.csv, charts and REPORT.md.
#[derive(Args)]
pub(crate) struct ReportArgs {
    /// Board files to search from [default: every file in input_files/].
    #[arg(long, value_name = "FILE", num_args = 1..)]
    positions: Vec<PathBuf>,
    /// Time your one-move program instead: a command with {in}, {out} and {depth}, run as the referee runs a player.
    #[arg(long, value_name = "TEMPLATE", value_parser = parse_one_move_player)]
    player: Option<report::program::TimedProgram>,
    /// Where the program prints its node count: a regular expression (case ignored), its first group the count;
    /// the last match on stdout, else on stderr.
    #[arg(long, value_name = "REGEX", default_value = report::program::DEFAULT_NODES_PATTERN,
          value_parser = parse_nodes_pattern, requires = "player")]
    nodes_pattern: NodesPattern,
    /// Run this program's own one-move the same way beside it, for comparison.
    #[arg(long, requires = "player")]
    compare: bool,
    /// Search depths 1 to N.
    #[arg(long, value_name = "N", default_value_t = report::DEFAULT_MAX_DEPTH, value_parser = parse_depth)]
    max_depth: u32,
    /// Seconds each run of the program has; a run that takes longer fails.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds, requires = "player")]
    timeout: Duration,
    /// Skip a search predicted to take more CPU seconds than this.
    #[arg(long, value_name = "SECONDS", default_value = report::DEFAULT_BUDGET, value_parser = parse_seconds)]
    budget: Duration,
    #[command(flatten)]
    isolation: IsolationArgs,
    /// The directory to write the report to (created if need be).
    #[arg(long, value_name = "DIR", default_value = report::DEFAULT_OUT)]
    out: PathBuf,
}

impl Subcommand for ReportArgs {
    fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let command = report::command_line(std::env::args().skip(1));
        let isolation = self.isolation.isolation();
        let (nodes, compare, timeout) = (self.nodes_pattern, self.compare, self.timeout);
        let program =
            self.player.map(|player| report::program::ProgramOptions { player, nodes, compare, timeout, isolation });
        if program.is_some() {
            contain::stop_players_on_interrupt(say_players_killed);
        }
        let options = report::Options {
            positions: self.positions,
            max_depth: self.max_depth,
            out: self.out,
            budget: self.budget,
            command,
            program,
        };
        report::run(&options, out, &mut io::stderr())?;
        Ok(ExitCode::SUCCESS)
    }
}

/// The program a timing report runs: a one-move command template, or `self`.
fn parse_one_move_player(text: &str) -> Result<TimedProgram, String> {
    let spec = parse_player(text)?;
    let program = match spec.kind() {
        PlayerKind::Command(template) => Timed::Command(template.clone()),
        PlayerKind::Engine(OwnPlay::BookMoves) => Timed::Own,
        _ => return Err(report::program::NOT_ONE_MOVE.to_owned()),
    };
    Ok(TimedProgram { command: spec.command().to_owned(), program })
}

/// A node count's pattern: a regular expression with a group.
fn parse_nodes_pattern(text: &str) -> Result<NodesPattern, String> {
    NodesPattern::parse(text).map_err(|error| error.to_string())
}
