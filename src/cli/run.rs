//! Each subcommand run: its arguments, checked by [`Cli::validate`], turned
//! into the options its mode takes and handed to the library. What comes
//! back is the exit code; an error is printed by `main`.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;

use maxconnect4::contain;
use maxconnect4::modes::{
    self, bot, AnalyseOptions, BookBuild, BookChoice, EngineSettings, FirstMove, SolveOptions, Source,
};
use maxconnect4::referee::player::PlayerSpec;
use maxconnect4::referee::{self, merge, replay, tournament};
use maxconnect4::report;
use maxconnect4::search::book::BookSpec;
use maxconnect4::search::Strength;
use maxconnect4::serve;

use super::*;

/// The server's time per move when neither `--depth` nor `--time-limit` is given.
const SERVE_TIME_LIMIT: Duration = Duration::from_secs(1);

/// Where the program writes what it was asked for.
type Out = anstream::AutoStream<io::Stdout>;

impl OneMoveArgs {
    pub(crate) fn run(mut self, out: &mut Out) -> anyhow::Result<ExitCode> {
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

impl InteractiveArgs {
    pub(crate) fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let first = match self.next {
            Next::ComputerNext => FirstMove::Computer,
            Next::HumanNext => FirstMove::Human,
        };
        let limits = self.play.engine.limits(self.depth);
        let (settings, rules) = (self.play.settings(), self.play.rules.rules);
        modes::interactive(&self.input, first, rules, &limits, &settings, &mut io::stdin().lock(), out)?;
        Ok(ExitCode::SUCCESS)
    }
}

impl PerftArgs {
    pub(crate) fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let source = self.moves.map(Source::Moves).or(self.file.map(Source::File));
        modes::perft(self.rules.rules, self.depth, source.as_ref(), out)?;
        Ok(ExitCode::SUCCESS)
    }
}

impl SolveArgs {
    fn options(&self) -> SolveOptions {
        SolveOptions {
            rules: self.rules.rules,
            engine: self.table.with_book(&self.book),
            time_limit: self.time_limit,
            strength: if self.weak { Strength::Weak } else { Strength::Strong },
            bound: self.bound,
        }
    }

    pub(crate) fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let options = self.options();
        let mut err = anstream::stderr();
        let Some(batch) = self.batch else {
            let source = match self.moves {
                Some(moves) => Source::Moves(moves),
                None => Source::File(self.file.expect("clap requires FILE without --moves or --batch")),
            };
            modes::solve(&source, &options, out, &mut err)?;
            return Ok(ExitCode::SUCCESS);
        };
        let bad = if batch.as_os_str() == "-" {
            modes::solve_batch("standard input", &mut io::stdin().lock(), &options, out, &mut err)?
        } else {
            // Bounded: a named pipe or a device is refused, not waited on.
            let file =
                maxconnect4::bounded::open(&batch).with_context(|| format!("cannot read {}", batch.display()))?;
            let name = batch.display().to_string();
            modes::solve_batch(&name, &mut io::BufReader::new(file), &options, out, &mut err)?
        };
        if bad > 0 {
            eprintln!("error: {bad} bad lines in the batch");
            return Ok(ExitCode::FAILURE);
        }
        Ok(ExitCode::SUCCESS)
    }
}

impl AnalyseArgs {
    pub(crate) fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let source = match self.moves {
            Some(moves) => Source::Moves(moves),
            None => Source::File(self.file.expect("clap requires FILE without --moves")),
        };
        let engine = self.table.with_book(&self.book);
        let options = AnalyseOptions { rules: self.rules.rules, engine, budget: self.budget.budget(), json: self.json };
        modes::analyse(&source, &options, out, &mut anstream::stderr())?;
        Ok(ExitCode::SUCCESS)
    }
}

impl BookArgs {
    pub(crate) fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let Some(depth) = self.depth else {
            modes::merge_books(&self.merge, &self.out.expect("validate requires --out with --merge"), out)?;
            return Ok(ExitCode::SUCCESS);
        };
        let spec = BookSpec { rules: self.rules, root: self.moves, depth };
        if self.list {
            modes::list_book(&spec, out)?;
            return Ok(ExitCode::SUCCESS);
        }
        let threads = self.threads.map_or_else(modes::default_threads, usize::from);
        let out_file = self.out.unwrap_or_else(|| PathBuf::from(format!("{}.book", self.rules.name())));
        let build = BookBuild { spec, threads, hash_bytes: megabytes(self.hash), out: out_file, shard: self.shard };
        modes::build_book(&build, out, &mut anstream::stderr())?;
        Ok(ExitCode::SUCCESS)
    }
}

impl BenchArgs {
    pub(crate) fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        // No opening book: the bench measures the search.
        let settings = EngineSettings { book: BookChoice::Off, ..self.table.settings() };
        modes::bench(self.rules.rules, self.deep, &settings, out)?;
        Ok(ExitCode::SUCCESS)
    }
}

impl ReportArgs {
    pub(crate) fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
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

impl MatchArgs {
    pub(crate) fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        contain::stop_players_on_interrupt(say_players_killed);
        let options = self.options()?;
        referee::play_match(&options, &mut io::stdin().lock(), out, &mut io::stderr())?;
        Ok(ExitCode::SUCCESS)
    }
}

impl ReplayArgs {
    pub(crate) fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let game = self.log.load(self.game)?;
        let mut engine = if self.annotate { Some(self.analysis.engine(game.record.rules)?) } else { None };
        let budget = self.analysis.budget.budget();
        replay::replay(&game, self.delay, engine.as_mut().map(|engine| (engine, &budget)), out)?;
        Ok(ExitCode::SUCCESS)
    }
}

impl AnnotateArgs {
    pub(crate) fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let game = self.log.load(self.game)?;
        let mut engine = self.analysis.engine(game.record.rules)?;
        replay::annotated(&game, &mut engine, &self.analysis.budget.budget(), self.json, out)?;
        Ok(ExitCode::SUCCESS)
    }
}

impl CheckArgs {
    pub(crate) fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
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

impl TournamentArgs {
    pub(crate) fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let (class, list_games) = (self.class.clone(), self.list_games);
        let mut options = self.options();
        if list_games {
            if let Some(class) = class {
                // Only the names count: nothing is built.
                let unbuilt = |name: String| (name, PlayerSpec::unbuilt(String::new(), String::new()));
                options.players.extend(referee::class::names(&class)?.into_iter().map(unbuilt));
            }
            tournament::list_games(&options, out)?;
            return Ok(ExitCode::SUCCESS);
        }
        contain::stop_players_on_interrupt(say_players_killed);
        if let Some(class) = &class {
            // No player sees the class's folder: each has its own
            // submission's copy.
            options.isolation = options.isolation.clone().hiding(class);
        }
        // Kept until the tournament ends: it holds the built programs.
        let mut errors = io::stderr();
        let isolation = options.isolation.clone();
        let prepared = class.map(|class| referee::class::prepare(&class, isolation, &mut errors)).transpose()?;
        let entrants = prepared.iter().flat_map(|prepared| &prepared.entrants);
        for entrant in entrants {
            options.players.push((entrant.name.clone(), entrant.spec.clone()));
            options.programs.push((entrant.name.clone(), entrant.found.clone()));
        }
        let terminal = io::IsTerminal::is_terminal(&errors);
        tournament::run(&options, out, &mut referee::reporter::Reporter::new(&mut errors, terminal))?;
        Ok(ExitCode::SUCCESS)
    }
}

impl ResultsArgs {
    pub(crate) fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        merge::results(&self.logs, &self.directory(), self.anchor.as_deref(), out, &mut io::stderr())?;
        Ok(ExitCode::SUCCESS)
    }
}

impl ServeArgs {
    fn options(&self) -> serve::Options {
        let caps = serve::Caps { depth: self.max_depth, time: self.max_time.min(serve::SEARCH_TIME_CAP) };
        let searches = self.searches.map_or_else(modes::default_threads, usize::from);
        serve::Options {
            limits: self.search.limits(SERVE_TIME_LIMIT),
            searches,
            // The cores shared out among the searches that may run at once.
            threads: (modes::default_threads() / searches).max(1),
            queue: usize::from(self.queue),
            caps,
            name: self.name.clone(),
            body_timeout: self.header_timeout,
            use_book: !self.no_book,
        }
    }

    pub(crate) fn run(self, out: &mut Out) -> anyhow::Result<ExitCode> {
        let connections =
            serve::Connections { most: self.max_connections as usize, header_timeout: self.header_timeout };
        serve::run(self.addr, self.options(), connections, out)?;
        Ok(ExitCode::SUCCESS)
    }
}

impl BotCommand {
    /// Speaks the arena's protocol on standard input and output.
    pub(crate) fn run(self) -> anyhow::Result<ExitCode> {
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
const fn bot_play(perfect: bool) -> bot::Play {
    if perfect {
        bot::Play::Perfect
    } else {
        bot::Play::BookThenSearch
    }
}

/// `format`: the board file described.
pub(crate) fn format(out: &mut Out) -> anyhow::Result<ExitCode> {
    writeln!(out, "{}", maxconnect4::format::DESCRIPTION)?;
    Ok(ExitCode::SUCCESS)
}

/// What Ctrl-C ends with, once every player's processes are gone.
fn say_players_killed() {
    eprintln!("\ninterrupted: the players' processes were killed");
}
