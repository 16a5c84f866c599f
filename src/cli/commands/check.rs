//! `check`: players asked for one move each on the empty board, as in a
//! game, alone or a class's folder of them.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use maxconnect4::contain;
use maxconnect4::referee::{self, player::PlayerSpec};

use super::{say_players_killed, Out, Subcommand};
use crate::cli::{parse_player, IsolationArgs, SettingsArgs};

/// Check that players can play: each asked for one move on the empty board, as in a game.
#[derive(Args)]
pub(crate) struct CheckArgs {
    /// Players given as to `match`: `self`, a command with {in}, {out} and optionally
    /// {depth}, or an arena's bot: `moderator:COMMAND`, `coordinator:COMMAND` or `http:URL`.
    #[arg(required_unless_present = "class", value_parser = parse_player)]
    players: Vec<PlayerSpec>,
    /// A class's folder, one subfolder per student: each student's program found, built
    /// in a copy and checked, one line each.
    #[arg(long, value_name = "DIR")]
    class: Option<PathBuf>,
    /// With --class: a CSV file to write, one row per student (what was found and how it
    /// was built, passed or failed and why), to import into a grade sheet.
    #[arg(long, value_name = "FILE", requires = "class")]
    gradebook: Option<PathBuf>,
    #[command(flatten)]
    settings: SettingsArgs,
    #[command(flatten)]
    isolation: IsolationArgs,
}

impl Subcommand for CheckArgs {
    fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        contain::stop_players_on_interrupt(say_players_killed);
        let settings = self.settings.settings();
        let isolation = self.isolation.isolation();
        let (failed, total) = match &self.class {
            Some(class) => {
                let gradebook = self.gradebook.as_deref();
                referee::check::check_class(
                    class,
                    &self.players,
                    settings,
                    isolation,
                    gradebook,
                    out,
                    &mut io::stderr(),
                )?
            }
            None => (
                referee::check_players(&self.players, settings, isolation, out, &mut io::stderr())?,
                self.players.len(),
            ),
        };
        if failed > 0 {
            anyhow::bail!("{failed} of {total} players failed the check");
        }
        Ok(ExitCode::SUCCESS)
    }
}
