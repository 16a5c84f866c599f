//! `bot moderator` and `bot coordinator`: this program as a bot in an
//! arena that talks over standard input and output.

use std::io;
use std::process::ExitCode;

use maxconnect4::modes::{bot, Play};
use maxconnect4::protocol::coordinator;
use maxconnect4::rules::Rules;

use super::{Out, Subcommand};
use crate::cli::{parse_rules, parse_threads, SearchOptions};

/// Play as a bot in an arena that talks over standard input and output.
#[derive(clap::Subcommand)]
pub(crate) enum BotCommand {
    /// The Connect 4 Moderator's bot: prints `p`, then one column 1-7 per move.
    Moderator {
        #[command(flatten)]
        search: SearchOptions,
        /// The game the moderator runs: classic or max.
        #[arg(long, value_name = "RULES", default_value = "classic", value_parser = parse_rules)]
        rules: Rules,
        /// Play perfectly where the time allows: the opening book's best move where it holds the
        /// position, else a best move solved within nine tenths of --time-limit, else the
        /// search's move, said on standard error.
        #[arg(long, conflicts_with = "depth")]
        perfect: bool,
        /// Threads searching together for each move (one by default: a tournament runs several
        /// bots at once; under classic rules the solver's, its depth-limited player uses one).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_threads)]
        threads: u16,
    },
    /// The coordinator's engine: name, isready, position, go, perft, quit.
    Coordinator {
        /// The name to answer `name` with.
        #[arg(long, default_value = coordinator::DEFAULT_NAME)]
        name: String,
        /// The game the coordinator runs: classic or max.
        #[arg(long, value_name = "RULES", default_value = "classic", value_parser = parse_rules)]
        rules: Rules,
        /// Play perfectly where the time allows: the opening book's best move where it holds the
        /// position, else a best move solved within nine tenths of the time `go` gives, else the
        /// search's move, said on standard error.
        #[arg(long)]
        perfect: bool,
        /// Threads searching together for each move (one by default: a tournament runs several
        /// bots at once; under classic rules the solver's, its depth-limited player uses one).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_threads)]
        threads: u16,
    },
}

impl Subcommand for BotCommand {
    /// Speaks the arena's protocol on standard input and output, locked
    /// for the game: a bot writes nothing to `out`.
    fn run(self, _out: &mut Out) -> anyhow::Result<ExitCode> {
        match self {
            BotCommand::Moderator { search, rules, perfect, threads } => {
                let limits = search.limits(bot::MODERATOR_TIME_LIMIT);
                let (input, output) = (&mut io::stdin().lock(), &mut io::stdout().lock());
                let (play, threads) = (bot_play(perfect), usize::from(threads));
                bot::moderator(rules, &limits, play, threads, input, output, &mut io::stderr())?;
            }
            BotCommand::Coordinator { name, rules, perfect, threads } => {
                let (input, output) = (&mut io::stdin().lock(), &mut io::stdout().lock());
                let (play, threads) = (bot_play(perfect), usize::from(threads));
                bot::coordinator(rules, name, play, threads, input, output, &mut io::stderr())?;
            }
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// How a bot plays, `--perfect` or not.
const fn bot_play(perfect: bool) -> Play {
    if perfect {
        Play::Perfect
    } else {
        Play::BookThenSearch
    }
}
