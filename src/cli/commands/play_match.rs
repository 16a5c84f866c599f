//! `match`: one game refereed between two players (`match` is a keyword,
//! hence the file's name).

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;

use maxconnect4::contain;
use maxconnect4::moves::Moves;
use maxconnect4::referee::{self, player::PlayerSpec};

use super::{say_players_killed, Out, Subcommand};
use crate::cli::{check_moves, parse_player, IsolationArgs, SettingsArgs};

/// Referee one game between two players: `self`, `human`, a command or an arena's bot.
#[derive(Args)]
pub(crate) struct MatchArgs {
    /// Player 1: `self`, `perfect` (`self` playing perfectly where its time allows, and saying
    /// when it cannot), `human`, a command with {in}, {out} and optionally {depth}, or an arena's
    /// bot: `moderator:COMMAND`, `coordinator:COMMAND` or `http:URL`.
    #[arg(value_parser = parse_player)]
    red: PlayerSpec,
    /// Player 2, given the same way.
    #[arg(value_parser = parse_player)]
    green: PlayerSpec,
    /// A board file to start from instead of the empty board.
    #[arg(long, value_name = "FILE", conflicts_with = "start_moves")]
    start: Option<PathBuf>,
    /// Start from the position after these moves (columns 1-7 from the empty board).
    #[arg(long, value_name = "MOVES")]
    start_moves: Option<String>,
    #[command(flatten)]
    settings: SettingsArgs,
    #[command(flatten)]
    isolation: IsolationArgs,
    /// The log to append the game to; the programs' output goes in LOG's name with .output.
    #[arg(long, value_name = "FILE", default_value = "games.jsonl")]
    log: PathBuf,
    /// Print only the result, not the board after every move.
    #[arg(long)]
    quiet: bool,
}

impl MatchArgs {
    fn options(self) -> anyhow::Result<referee::MatchOptions> {
        let settings = self.settings.settings();
        let start = match (self.start, self.start_moves) {
            (Some(path), _) => referee::Start::File(path),
            (None, Some(text)) => {
                let bad = || format!("bad move string '{}'", text.escape_debug());
                let moves: Moves = text.parse().with_context(bad)?;
                moves.play(settings.rules).with_context(bad)?;
                referee::Start::Moves(moves)
            }
            (None, None) => referee::Start::Moves(Moves::new()),
        };
        Ok(referee::MatchOptions {
            red: self.red,
            green: self.green,
            settings,
            start,
            log: self.log,
            quiet: self.quiet,
            isolation: self.isolation.isolation(),
        })
    }
}

impl Subcommand for MatchArgs {
    fn check(&mut self) -> Result<(), clap::Error> {
        check_moves("match", "--start-moves", self.start_moves.as_deref(), self.settings.rules.rules)
    }

    fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        contain::stop_players_on_interrupt(say_players_killed);
        let options = self.options()?;
        referee::play_match(&options, &mut io::stdin().lock(), out, &mut io::stderr())?;
        Ok(ExitCode::SUCCESS)
    }
}
