//! The parsers of single values (depths, seconds, sizes, counts), each
//! naming the range it expects, the checks of a table's size and of a move
//! string, and the usage error's exit.

use std::io::Write as _;
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, ValueEnum};

use maxconnect4::memory;
use maxconnect4::moves::Moves;
use maxconnect4::rules::Rules;
use maxconnect4::search::Engine;

use super::Cli;

/// Transposition table size when `--hash` is not given.
pub(crate) const DEFAULT_HASH_MB: usize = Engine::DEFAULT_HASH_BYTES >> 20;

/// Bytes in a table of `mb` megabytes, [`DEFAULT_HASH_MB`] if not given
/// (saturating: an absurd size fails to allocate rather than wrapping round
/// to a small one).
pub(crate) fn megabytes(mb: Option<usize>) -> usize {
    mb.unwrap_or(DEFAULT_HASH_MB).saturating_mul(1 << 20)
}

/// The table size in MB for `--hash` as given to `subcommand`, checked
/// against the memory at hand: a size given that does not fit is a usage
/// error; the default shrinks to fit, with a warning.
pub(crate) fn sized_table(given: Option<usize>, subcommand: &str) -> Result<Option<usize>, clap::Error> {
    let available = memory::available();
    let Some(mb) = given else {
        let most = available.map_or(u64::MAX, memory::most_megabytes);
        let mb = usize::try_from(most).map_or(DEFAULT_HASH_MB, |most| most.min(DEFAULT_HASH_MB));
        if mb < DEFAULT_HASH_MB {
            eprintln!("warning: the memory at hand holds a table of {mb} MB, not the default {DEFAULT_HASH_MB} MB");
        }
        return Ok(Some(mb));
    };
    memory::check_table(mb as u64, available)
        .map_err(|error| Cli::argument_error(subcommand, format!("invalid value '{mb}' for '--hash <MB>': {error}")))?;
    Ok(Some(mb))
}

/// A move string given to `subcommand` as `option`, if one was, checked
/// as an argument like any other: one that cannot be played under `rules`
/// is a usage error.
pub(crate) fn check_moves(
    subcommand: &str,
    option: &str,
    moves: Option<&str>,
    rules: Rules,
) -> Result<(), clap::Error> {
    let Some(moves) = moves else { return Ok(()) };
    if let Err(error) = Moves::board(rules, moves) {
        let message = format!("invalid value '{}' for '{option} <MOVES>': {error}", moves.escape_debug());
        return Err(Cli::argument_error(subcommand, message));
    }
    Ok(())
}

/// The longest time any option takes, in seconds: the search's longest
/// time limit (about 31 years), which no deadline overflows.
pub(crate) const MAX_SECONDS: f64 = maxconnect4::search::Limits::LONGEST_SECONDS;

/// SECONDS: a positive number, fractions allowed, at most [`MAX_SECONDS`].
pub(crate) fn parse_seconds(text: &str) -> Result<Duration, String> {
    match seconds(text)? {
        seconds if seconds > 0.0 => Ok(Duration::from_secs_f64(seconds)),
        _ => Err("expected a number of seconds greater than 0, such as 2 or 0.5".to_owned()),
    }
}

/// SECONDS: a number of seconds, 0 or more, at most [`MAX_SECONDS`].
pub(crate) fn parse_delay(text: &str) -> Result<Duration, String> {
    match seconds(text)? {
        seconds if seconds >= 0.0 => Ok(Duration::from_secs_f64(seconds)),
        _ => Err("expected a number of seconds, 0 or more, such as 0.5".to_owned()),
    }
}

/// A number of seconds no greater than [`MAX_SECONDS`] (possibly negative).
pub(crate) fn seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds.is_nan() => Err("expected a number of seconds, such as 2 or 0.5".to_owned()),
        Ok(seconds) if seconds > MAX_SECONDS => Err(format!("too large: at most {MAX_SECONDS} seconds")),
        Ok(seconds) => Ok(seconds),
        Err(_) => Err("expected a number of seconds, such as 2 or 0.5".to_owned()),
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Next {
    ComputerNext,
    HumanNext,
}

/// A depth to search: a whole number of plies, at least 1 (any depth beyond
/// the board's empty cells searches to the end).
pub(crate) fn parse_depth(text: &str) -> Result<u32, String> {
    whole(text, 1, u32::MAX, "plies").map_err(|error| match error {
        Whole::TooLarge(_) => {
            format!("too large: at most {} (any depth above 42 searches to the end of the game)", u32::MAX)
        }
        other => other.to_string(),
    })
}

/// A book's depth: 0 (the root alone) to the 42 moves of a game.
pub(crate) fn parse_book_depth(text: &str) -> Result<u32, String> {
    whole(text, 0, 42, "moves").map_err(|error| error.to_string())
}

/// The length of the move sequences perft counts: 0 or more.
pub(crate) fn parse_perft_depth(text: &str) -> Result<u32, String> {
    whole(text, 0, u32::MAX, "plies").map_err(|error| error.to_string())
}

/// A transposition table size in MB: 0 or more, and no more than the
/// bytes an address can count.
pub(crate) fn parse_hash(text: &str) -> Result<usize, String> {
    let most = u64::try_from(usize::MAX >> 20).unwrap_or(u64::MAX);
    let mb = whole(text, 0, most, "megabytes").map_err(|error| error.to_string())?;
    Ok(usize::try_from(mb).expect("at most usize::MAX >> 20"))
}

/// Threads searching together: 1 to [`MAX_THREADS`].
pub(crate) fn parse_threads(text: &str) -> Result<u16, String> {
    whole(text, 1, MAX_THREADS, "threads").map_err(|error| error.to_string())
}

/// The most threads `--threads` takes: far more cores than any machine
/// this runs on has, and few enough that starting them all is instant.
pub(crate) const MAX_THREADS: u16 = 256;

/// Which game of a log: games count from 1.
pub(crate) fn parse_game(text: &str) -> Result<u32, String> {
    whole(text, 1, u32::MAX, "games").map_err(|error| match error {
        Whole::TooSmall(_) => "games count from 1: the first game of the log is 1".to_owned(),
        other => other.to_string(),
    })
}

/// How many openings a tournament plays: up to the 49 there are; 0 for the
/// empty board alone.
pub(crate) fn parse_openings(text: &str) -> Result<u16, String> {
    whole(text, 0, 49, "openings").map_err(|error| error.to_string())
}

/// How many games a tournament plays at once.
pub(crate) fn parse_jobs(text: &str) -> Result<u16, String> {
    whole(text, 1, 64, "games").map_err(|error| error.to_string())
}

/// Why a text is not a whole number in a range.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Whole {
    #[error("expected a whole number of {0}, such as 3")]
    NotANumber(&'static str),
    #[error("too small: at least {0}")]
    TooSmall(u64),
    #[error("too large: at most {0}")]
    TooLarge(u64),
}

/// A whole number from `least` to `most`; `unit` names what it counts.
pub(crate) fn whole<T: Copy + Into<u64> + TryFrom<u64>>(
    text: &str,
    least: T,
    most: T,
    unit: &'static str,
) -> Result<T, Whole> {
    let (least, most) = (least.into(), most.into());
    let digits = text.trim().strip_prefix('+').unwrap_or(text.trim());
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        let negative = digits.strip_prefix('-').is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
        return Err(if negative { Whole::TooSmall(least) } else { Whole::NotANumber(unit) });
    }
    match digits.parse::<u64>() {
        Ok(n) if n < least => Err(Whole::TooSmall(least)),
        Ok(n) if n <= most => T::try_from(n).map_err(|_| Whole::TooLarge(most)),
        _ => Err(Whole::TooLarge(most)),
    }
}

/// Prints a command-line error with the usage of the subcommand it concerns
/// where clap puts it, before the pointer to `--help` (clap leaves the usage
/// out of value errors), or prints help or the version.
pub(crate) fn usage_error(error: &clap::Error) -> ExitCode {
    if !error.use_stderr() {
        let _ = error.print();
        return ExitCode::SUCCESS;
    }
    let rendered = error.render().ansi().to_string();
    let message = if rendered.contains("Usage:") {
        rendered
    } else {
        let mut command = Cli::command();
        command.build();
        let subcommand = std::env::args().nth(1).unwrap_or_default();
        let usage = match command.find_subcommand_mut(&subcommand) {
            Some(subcommand) => subcommand.render_usage(),
            None => command.render_usage(),
        };
        let pointer = rendered.find("\nFor more information").unwrap_or(rendered.len());
        let (error, rest) = rendered.split_at(pointer);
        format!("{}\n\n{}\n{rest}", error.trim_end(), usage.ansi())
    };
    let mut stderr = anstream::stderr();
    let _ = write!(stderr, "{}", message.trim_end());
    let _ = writeln!(stderr);
    ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
}
