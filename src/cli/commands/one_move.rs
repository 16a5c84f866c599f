//! `one-move`: read a board file or a move string, make one move and write
//! the board after it.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use maxconnect4::modes::{self, Source};

use super::{Out, Subcommand};
use crate::cli::{check_moves, parse_depth, sized_table, Cli, PlayOptions};

/// Read a board file (or a move string), make one move, write the new board to OUTPUT.
#[derive(Args)]
#[command(
    override_usage = "maxconnect4 one-move [OPTIONS] INPUT OUTPUT DEPTH\n       maxconnect4 one-move [OPTIONS] --moves MOVES OUTPUT DEPTH"
)]
pub(crate) struct OneMoveArgs {
    /// INPUT OUTPUT DEPTH: the board file to move from, where to write the
    /// board after the move (left untouched if the game is over), and the
    /// plies to search (the program's own move first). With --moves,
    /// only OUTPUT DEPTH.
    #[arg(value_name = "ARGS", num_args = 2..=3, required = true)]
    args: Vec<PathBuf>,
    /// Start from the position after these moves (columns 1-7 from the empty board) instead of INPUT.
    #[arg(long, value_name = "MOVES")]
    moves: Option<String>,
    #[command(flatten)]
    play: PlayOptions,
    /// DEPTH, taken from `args` by [`Cli::validate`], which leaves only
    /// the paths there.
    #[arg(skip)]
    depth: u32,
}

impl Subcommand for OneMoveArgs {
    fn check(&mut self) -> Result<(), clap::Error> {
        self.depth = check_one_move_args(&mut self.args, self.moves.is_some())?;
        self.play.check("one-move")?;
        self.play.engine.table.hash = sized_table(self.play.engine.table.hash, "one-move")?;
        check_moves("one-move", "--moves", self.moves.as_deref(), self.play.rules.rules)
    }

    fn run(mut self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let output = self.args.pop().expect("validate left OUTPUT");
        let input = match self.moves {
            Some(moves) => Source::Moves(moves),
            None => Source::File(self.args.pop().expect("validate left INPUT")),
        };
        let limits = self.play.engine.limits(self.depth);
        modes::one_move(&input, &output, self.play.rules.rules, &limits, &self.play.settings(), out)?;
        Ok(ExitCode::SUCCESS)
    }
}

/// One-move's positional arguments, which depend on `--moves`: the depth,
/// taken from them, so that the paths are left.
fn check_one_move_args(args: &mut Vec<PathBuf>, with_moves: bool) -> Result<u32, clap::Error> {
    use clap::error::ErrorKind::{ValueValidation, WrongNumberOfValues};
    let wanted = if with_moves { 2 } else { 3 };
    if args.len() != wanted {
        let message = if with_moves {
            "with --moves, give only OUTPUT and DEPTH"
        } else {
            "expected INPUT OUTPUT DEPTH (or --moves MOVES OUTPUT DEPTH)"
        };
        return Err(Cli::usage_error("one-move", WrongNumberOfValues, message.to_owned()));
    }
    let depth = args.pop().expect("counted");
    parse_depth(&depth.to_string_lossy()).map_err(|message| {
        let message = format!("invalid value '{}' for '<DEPTH>': {message}", depth.to_string_lossy());
        Cli::usage_error("one-move", ValueValidation, message)
    })
}
