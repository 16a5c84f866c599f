//! Every subcommand, one file each, as cargo keeps its own: the file holds
//! the subcommand's arguments (clap's type, whose doc comment is its line
//! in `--help`), the checks that span several of them, and its run, through
//! [`Subcommand`]. The list below makes the [`Command`] clap reads and the
//! two matches that hand it on; adding a subcommand is a file here, its
//! `mod` and one line of the list. The groups of arguments, parsers and
//! checks that several share are in the modules above.

mod analyse;
mod annotate;
mod bench;
mod book;
mod bot;
mod check;
mod format;
mod interactive;
mod one_move;
mod perft;
mod play_match;
mod replay;
mod report;
mod results;
mod serve;
mod solve;
mod tournament;

use std::io;
use std::process::ExitCode;

/// Where the program writes what it was asked for.
pub(crate) type Out = anstream::AutoStream<io::Stdout>;

/// What each subcommand does once clap has read its arguments.
pub(crate) trait Subcommand {
    /// Checks what depends on more than one argument, or on the machine
    /// (a table's size against the memory at hand), as clap checks each
    /// one, so that every argument error is a usage error (exit 2) before
    /// anything runs; settles what the checks find (one-move's DEPTH, a
    /// table's size shrunk to fit).
    fn check(&mut self) -> Result<(), clap::Error> {
        Ok(())
    }

    /// Runs the checked subcommand: its arguments made into the options its
    /// mode takes and handed to the library. What comes back is the exit
    /// code; an error is printed by `main`.
    fn run(self, out: &mut Out) -> anyhow::Result<ExitCode>;
}

/// `Command`, one variant per subcommand in `--help`'s order, and its two
/// matches, from one list of `Variant(Arguments)`, each with clap's
/// attributes for the variant if it needs any.
macro_rules! subcommands {
    ($($(#[$attribute:meta])* $variant:ident($arguments:ty),)*) => {
        // No doc comment here: clap would take it for the program's about.
        #[derive(clap::Subcommand)]
        pub(crate) enum Command {
            $($(#[$attribute])* $variant($arguments),)*
        }

        impl Subcommand for Command {
            fn check(&mut self) -> Result<(), clap::Error> {
                match self {
                    $(Command::$variant(arguments) => arguments.check(),)*
                }
            }

            fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
                match self {
                    $(Command::$variant(arguments) => arguments.run(out),)*
                }
            }
        }
    };
}

subcommands! {
    OneMove(one_move::OneMoveArgs),
    Interactive(interactive::InteractiveArgs),
    Perft(perft::PerftArgs),
    Solve(solve::SolveArgs),
    Analyse(analyse::AnalyseArgs),
    Book(book::BookArgs),
    Bench(bench::BenchArgs),
    Report(report::ReportArgs),
    Match(play_match::MatchArgs),
    Replay(replay::ReplayArgs),
    Annotate(annotate::AnnotateArgs),
    Tournament(tournament::TournamentArgs),
    Results(results::ResultsArgs),
    Check(check::CheckArgs),
    Format(format::FormatArgs),
    Serve(serve::ServeArgs),
    #[command(subcommand)]
    Bot(bot::BotCommand),
}

/// What Ctrl-C ends with, once every player's processes are gone.
fn say_players_killed() {
    eprintln!("\ninterrupted: the players' processes were killed");
}
