//! The `maxconnect4` command: the command line is read and checked by
//! [`cli`]; this dispatches each subcommand to the library.

mod cli;

use std::io::{self, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::Parser;

use maxconnect4::contain;
use maxconnect4::modes::{
    self, bot, AnalyseOptions, BookBuild, BookChoice, EngineSettings, FirstMove, SolveOptions, Source,
};
use maxconnect4::referee::player::PlayerSpec;
use maxconnect4::referee::{self, merge, replay, tournament};
use maxconnect4::search::book::BookSpec;
use maxconnect4::search::Strength;
use maxconnect4::serve;
use maxconnect4::{format, report};

use cli::{megabytes, parse_depth, usage_error, BotCommand, Cli, Command, Next};

/// The server's time per move when neither `--depth` nor `--time-limit` is given.
const SERVE_TIME_LIMIT: Duration = Duration::from_secs(1);

fn main() -> ExitCode {
    let cli = match Cli::try_parse().and_then(Cli::validate) {
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
    let mut out = anstream::stdout();
    match cli.command {
        Command::OneMove { mut args, moves, play } => {
            let depth = parse_depth(&args.pop().expect("checked").to_string_lossy()).expect("checked");
            let output = args.pop().expect("checked");
            let input = match moves {
                Some(moves) => Source::Moves(moves),
                None => Source::File(args.pop().expect("checked")),
            };
            let limits = play.engine.limits(depth);
            modes::one_move(&input, &output, play.rules.rules, &limits, &play.settings(), &mut out)?;
        }
        Command::Interactive { input, next, depth, play } => {
            let first = match next {
                Next::ComputerNext => FirstMove::Computer,
                Next::HumanNext => FirstMove::Human,
            };
            let limits = play.engine.limits(depth);
            let (settings, rules) = (play.settings(), play.rules.rules);
            modes::interactive(&input, first, rules, &limits, &settings, &mut io::stdin().lock(), &mut out)?;
        }
        Command::Perft { depth, file, moves, rules } => {
            let source = moves.map(Source::Moves).or(file.map(Source::File));
            modes::perft(rules.rules, depth, source.as_ref(), &mut out)?;
        }
        Command::Solve { file, moves, batch, weak, bound, rules, table, time_limit, book } => {
            let engine = table.with_book(&book);
            let strength = if weak { Strength::Weak } else { Strength::Strong };
            let options = SolveOptions { rules: rules.rules, engine, time_limit, strength, bound };
            let mut err = anstream::stderr();
            if let Some(batch) = batch {
                let bad = if batch.as_os_str() == "-" {
                    modes::solve_batch("standard input", &mut io::stdin().lock(), &options, &mut out, &mut err)?
                } else {
                    // Bounded: a named pipe or a device is refused, not waited on.
                    let file = maxconnect4::bounded::open(&batch)
                        .with_context(|| format!("cannot read {}", batch.display()))?;
                    let name = batch.display().to_string();
                    modes::solve_batch(&name, &mut io::BufReader::new(file), &options, &mut out, &mut err)?
                };
                if bad > 0 {
                    eprintln!("error: {bad} bad lines in the batch");
                    return Ok(ExitCode::FAILURE);
                }
            } else {
                let source = match moves {
                    Some(moves) => Source::Moves(moves),
                    None => Source::File(file.expect("clap requires FILE without --moves or --batch")),
                };
                modes::solve(&source, &options, &mut out, &mut err)?;
            }
        }
        Command::Analyse { file, moves, rules, budget, json, table, book } => {
            let source = match moves {
                Some(moves) => Source::Moves(moves),
                None => Source::File(file.expect("clap requires FILE without --moves")),
            };
            let engine = table.with_book(&book);
            let options = AnalyseOptions { rules: rules.rules, engine, budget: budget.budget(), json };
            modes::analyse(&source, &options, &mut out, &mut anstream::stderr())?;
        }
        Command::Book { depth, moves, rules, threads, hash, out: file, list, shard, merge } => match depth {
            None => modes::merge_books(&merge, &file.expect("cli requires --out with --merge"), &mut out)?,
            Some(depth) => {
                let spec = BookSpec { rules, root: moves, depth };
                if list {
                    modes::list_book(&spec, &mut out)?;
                } else {
                    let threads = threads.map_or_else(modes::default_threads, usize::from);
                    let out_file = file.unwrap_or_else(|| PathBuf::from(format!("{}.book", rules.name())));
                    let build = BookBuild { spec, threads, hash_bytes: megabytes(hash), out: out_file, shard };
                    modes::build_book(&build, &mut out, &mut anstream::stderr())?;
                }
            }
        },
        Command::Bench { rules, deep, table } => {
            // No opening book: the bench measures the search.
            let settings = EngineSettings { book: BookChoice::Off, ..table.settings() };
            modes::bench(rules.rules, deep, &settings, &mut out)?;
        }
        Command::Report {
            positions,
            max_depth,
            out: dir,
            budget,
            player,
            nodes_pattern,
            compare,
            timeout,
            isolation,
        } => {
            let command = report::command_line(std::env::args().skip(1));
            let program = player.map(|player| report::program::ProgramOptions {
                player,
                nodes: nodes_pattern,
                compare,
                timeout,
                isolation: isolation.isolation(),
            });
            if program.is_some() {
                contain::stop_players_on_interrupt();
            }
            let options = report::Options { positions, max_depth, out: dir, budget, command, program };
            report::run(&options, &mut out, &mut io::stderr())?;
        }
        Command::Match(args) => {
            contain::stop_players_on_interrupt();
            let options = args.options()?;
            referee::play_match(&options, &mut io::stdin().lock(), &mut out)?;
        }
        Command::Replay(args) => {
            let game = args.log.load(args.game)?;
            let mut engine = if args.annotate { Some(args.analysis.engine(game.record.rules)?) } else { None };
            let budget = args.analysis.budget.budget();
            replay::replay(&game, args.delay, engine.as_mut().map(|engine| (engine, &budget)), &mut out)?;
        }
        Command::Annotate(args) => {
            let game = args.log.load(args.game)?;
            let mut engine = args.analysis.engine(game.record.rules)?;
            replay::annotated(&game, &mut engine, &args.analysis.budget.budget(), args.json, &mut out)?;
        }
        Command::Check(args) => {
            contain::stop_players_on_interrupt();
            let settings = args.settings.settings();
            let isolation = args.isolation.isolation();
            let (failed, total) = match &args.class {
                Some(class) => referee::check::check_class(class, &args.players, settings, isolation, &mut out)?,
                None => {
                    let failed = referee::check_players(&args.players, settings, isolation, &mut out)?;
                    (failed, args.players.len())
                }
            };
            if failed > 0 {
                anyhow::bail!("{failed} of {total} players failed the check");
            }
        }
        Command::Tournament(args) if args.list_games => {
            let class = args.class.clone();
            let mut options = args.options();
            if let Some(class) = class {
                // Only the names count: nothing is built.
                let unbuilt = |name: String| (name, PlayerSpec::unbuilt(String::new(), String::new()));
                options.players.extend(referee::class::names(&class)?.into_iter().map(unbuilt));
            }
            tournament::list_games(&options, &mut out)?;
        }
        Command::Tournament(args) => {
            contain::stop_players_on_interrupt();
            let class = args.class.clone();
            let mut options = args.options();
            // Kept until the tournament ends: it holds the built programs.
            let prepared = class.map(|class| referee::class::prepare(&class, options.isolation.clone())).transpose()?;
            let entrants = prepared.iter().flat_map(|prepared| &prepared.entrants);
            options.players.extend(entrants.map(|entrant| (entrant.name.clone(), entrant.spec.clone())));
            tournament::run(&options, &mut out)?;
        }
        Command::Results(args) => {
            merge::results(&args.logs, &args.directory(), args.anchor.as_deref(), &mut out)?;
        }
        Command::Format => writeln!(out, "{}", format::DESCRIPTION)?,
        Command::Serve {
            addr,
            search,
            searches,
            queue,
            max_depth,
            max_time,
            max_connections,
            header_timeout,
            name,
        } => {
            let searches = searches.map_or_else(modes::default_threads, usize::from);
            let caps = serve::Caps { depth: max_depth, time: max_time.min(serve::SEARCH_TIME_CAP) };
            let limits = search.limits(SERVE_TIME_LIMIT);
            let options = serve::Options {
                limits,
                searches,
                queue: usize::from(queue),
                caps,
                name,
                body_timeout: header_timeout,
            };
            let connections = serve::Connections { most: max_connections as usize, header_timeout };
            serve::run(addr, options, connections, &mut out)?;
        }
        Command::Bot(BotCommand::Moderator { search, rules }) => {
            let limits = search.limits(bot::MODERATOR_TIME_LIMIT);
            bot::moderator(rules, &limits, &mut io::stdin().lock(), &mut io::stdout().lock())?;
        }
        Command::Bot(BotCommand::Coordinator { name, rules }) => {
            bot::coordinator(rules, name, &mut io::stdin().lock(), &mut io::stdout().lock(), &mut io::stderr())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
