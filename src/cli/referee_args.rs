//! The referee's arguments that several subcommands share: a game's
//! settings, the sandbox's, a logged game and the search that annotates
//! it, the players as given, and the hint for a player's command given
//! unquoted.

use std::path::PathBuf;
use std::time::Duration;

use clap::CommandFactory as _;

use maxconnect4::contain::limits::Allowance;
use maxconnect4::contain::sandbox::Isolation;
use maxconnect4::contain::template::TemplateError;
use maxconnect4::referee::{
    self,
    player::{PlayerSpec, SpecError},
    settings::Settings,
};
use maxconnect4::rules::Rules;
use maxconnect4::search::Engine;
use maxconnect4::shard::{Shard, ShardError};

use super::engine_args::*;
use super::values::*;
use super::Cli;

/// The rules and limits every program in a game plays under.
#[derive(clap::Args)]
pub(crate) struct SettingsArgs {
    #[command(flatten)]
    pub(crate) rules: RulesOption,
    /// Plies for `self` to search; substituted for {depth} in commands.
    #[arg(long, default_value_t = 5, value_parser = parse_depth)]
    pub(crate) depth: u32,
    /// Seconds a program has for each move (a person has no limit).
    // `--time-limit` too, the engine's name for the time a move may take,
    // hidden so that the help keeps one name.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds, alias = "time-limit")]
    pub(crate) timeout: Duration,
    /// Seconds each program has for the whole game, beside --timeout per move; running out forfeits.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) clock: Option<Duration>,
}

impl SettingsArgs {
    pub(crate) fn settings(&self) -> Settings {
        Settings {
            rules: self.rules.rules,
            depth: self.depth,
            timeout: self.timeout,
            clock: self.clock,
            adjudication: None,
        }
    }
}

/// How players' programs are run.
#[derive(clap::Args)]
pub(crate) struct IsolationArgs {
    /// Run players without a sandbox (bubblewrap): they can then read and
    /// write whatever you can.
    #[arg(long)]
    pub(crate) no_sandbox: bool,
    /// Let sandboxed players use the network.
    #[arg(long)]
    pub(crate) network: bool,
    /// Megabytes of memory each player may use, all its processes and its /tmp together.
    #[arg(long, value_name = "MB", default_value_t = Allowance::DEFAULT.memory >> 20, value_parser = parse_limit_mb)]
    pub(crate) memory: u64,
    /// Processes and threads each player may run at once.
    #[arg(long, value_name = "N", default_value_t = Allowance::DEFAULT.processes, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub(crate) processes: u32,
    /// Megabytes each player's sandbox /tmp, and its /dev/shm, may each hold.
    #[arg(long, value_name = "MB", default_value_t = Allowance::DEFAULT.tmp >> 20, value_parser = parse_limit_mb)]
    pub(crate) tmp_size: u64,
    /// Seconds of CPU time a player's processes may use on one move [default: the move's time].
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) cpu: Option<Duration>,
    /// Megabytes each player's folder may hold (kept across turns); also the largest file it may write.
    #[arg(long, value_name = "MB", default_value_t = Allowance::DEFAULT.disk >> 20, value_parser = parse_limit_mb)]
    pub(crate) disk: u64,
    /// A variable of your environment that players get too (they get only PATH, the locale,
    /// HOME, their folder, and TMPDIR otherwise); repeat for more.
    #[arg(long = "env", value_name = "NAME", value_parser = parse_variable_name)]
    pub(crate) env: Vec<String>,
}

impl IsolationArgs {
    pub(crate) fn isolation(&self) -> Isolation {
        let limits = Allowance {
            memory: self.memory << 20,
            processes: self.processes,
            tmp: self.tmp_size << 20,
            disk: self.disk << 20,
            cpu: self.cpu,
        };
        Isolation {
            sandbox: !self.no_sandbox,
            network: self.network,
            limits,
            env: self.env.clone(),
            hidden: Vec::new(),
        }
    }
}

/// The name of an environment variable: letters, digits and `_`, not
/// starting with a digit.
fn parse_variable_name(text: &str) -> Result<String, String> {
    let mut characters = text.chars();
    let first = characters.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if first && characters.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        Ok(text.to_owned())
    } else {
        Err(format!("'{text}' is not the name of an environment variable (letters, digits and _)"))
    }
}

/// A player's limit in megabytes: 1 to 1,048,576 (a terabyte).
pub(crate) fn parse_limit_mb(text: &str) -> Result<u64, String> {
    whole(text, 1, 1 << 20, "megabytes").map_err(|error| error.to_string())
}

/// A game of a log, as `replay` and `annotate` name it.
#[derive(clap::Args)]
pub(crate) struct LoggedGame {
    /// A game log written by `match` or `tournament`.
    pub(crate) log: PathBuf,
    /// The rules of the game [default: the rules the log records; max for logs without them].
    #[arg(long, value_name = "RULES", value_parser = parse_rules)]
    pub(crate) rules: Option<Rules>,
}

impl LoggedGame {
    /// Game `number` (from 1; the last if none), read and played again; the
    /// log's lines that are not records are said on stderr.
    pub(crate) fn load(&self, number: Option<u32>) -> Result<referee::replay::Loaded, referee::Error> {
        referee::replay::load(&self.log, number.map(|n| n as usize), self.rules, &mut std::io::stderr())
    }
}

/// The search that annotates each move of a logged game.
#[derive(clap::Args)]
pub(crate) struct AnnotationArgs {
    #[command(flatten)]
    pub(crate) budget: BudgetArgs,
    #[command(flatten)]
    pub(crate) table: TableOptions,
    #[command(flatten)]
    pub(crate) book: BookOptions,
}

impl AnnotationArgs {
    /// An engine for games under `rules`.
    pub(crate) fn engine(&self, rules: Rules) -> anyhow::Result<Engine> {
        Ok(self.table.with_book(&self.book).engine(rules)?)
    }
}

/// `I/N`: part I of N of a tournament or a book's build, counting from 0.
pub(crate) fn parse_shard(text: &str) -> Result<Shard, ShardError> {
    text.parse()
}

/// A player: `self`, `human`, a command template or an arena's bot.
pub(crate) fn parse_player(text: &str) -> Result<PlayerSpec, String> {
    PlayerSpec::parse(text).map_err(|error| error.to_string())
}

/// A command template typed without quotes (`check python3 prog.py one-move
/// {in} {out} {depth}`) reaches the parser as one argument per word, the
/// first without `{in}`: when the arguments after such a word hold
/// placeholders, the error says to quote the whole command, and shows the
/// command line quoted so. Any other error is returned as it is.
pub(crate) fn unquoted_template(error: clap::Error) -> clap::Error {
    use clap::error::ErrorKind::{UnknownArgument, ValueValidation};
    if !matches!(error.kind(), ValueValidation | UnknownArgument) {
        return error;
    }
    let args: Vec<String> = std::env::args_os().skip(1).map(|arg| arg.to_string_lossy().into_owned()).collect();
    match quoting_hint(&args) {
        Some(message) => Cli::argument_error(&args[0], message),
        None => error,
    }
}

/// What to say of `args` (the subcommand first) when a player's command
/// template in them was split into several arguments, if one was.
fn quoting_hint(args: &[String]) -> Option<String> {
    let (subcommand, rest) = args.split_first()?;
    // Where the players are: the values of `--player` (`NAME=TEMPLATE` in a
    // tournament), or the positional arguments.
    let (by_option, named) = match subcommand.as_str() {
        "tournament" => (true, true),
        "report" => (true, false),
        "match" | "check" => (false, false),
        _ => return None,
    };
    let command = Cli::command();
    let arguments = command.find_subcommand(subcommand)?.get_arguments();
    // The subcommand's options, and whether each takes the next argument as its value.
    let options: Vec<(String, bool)> = arguments
        .filter_map(|arg| {
            let takes_next = arg.get_action().takes_values() && !arg.is_require_equals_set();
            Some((format!("--{}", arg.get_long()?), takes_next))
        })
        .collect();
    let option = |word: &str| {
        options.iter().find(|(long, _)| {
            word.strip_prefix(long.as_str()).is_some_and(|rest| rest.is_empty() || rest.starts_with('='))
        })
    };
    let mut shown = vec!["maxconnect4".to_owned(), subcommand.clone()];
    // The first template split so: its first word, the placeholder it lacks,
    // and what would still be wrong with the whole command.
    let mut split: Option<(String, &str, String)> = None;
    let mut index = 0;
    while index < rest.len() {
        let word = &rest[index];
        index += 1;
        let after_option = index >= 2 && option(&rest[index - 2]).is_some_and(|(_, takes_next)| *takes_next);
        let (prefix, value) = match word.strip_prefix("--player=") {
            Some(value) if by_option => ("--player=", value),
            _ if by_option && index >= 2 && rest[index - 2] == "--player" => ("", word.as_str()),
            _ if !by_option && !word.starts_with('-') && !after_option => ("", word.as_str()),
            _ => {
                shown.push(shell_word(word));
                continue;
            }
        };
        let template = |value: &str| {
            if named {
                value.split_once('=').map_or(value, |(_, t)| t).to_owned()
            } else {
                value.to_owned()
            }
        };
        let Err(SpecError::Template(TemplateError::Missing { template: first, placeholder, .. })) =
            PlayerSpec::parse(&template(value))
        else {
            shown.push(shell_word(word));
            continue;
        };
        // The words that seem to be the rest of the template: up to the next
        // of the subcommand's options (unless a placeholder is its value,
        // as in `--depth {depth}`), or, among positional players, up to a
        // word that starts another command once this one has its files.
        let mut words = vec![value.to_owned()];
        for (at, next) in rest.iter().enumerate().skip(index) {
            let placeholder_next = rest.get(at + 1).is_some_and(|after| after.contains('{'));
            let complete = ["{in}", "{out}"].iter().all(|needed| words.iter().any(|word| word.contains(needed)));
            if (option(next).is_some() && !placeholder_next)
                || (!by_option && complete && !next.starts_with('-') && !next.contains('{'))
            {
                break;
            }
            words.push(next.clone());
        }
        if !words[1..].iter().any(|word| word.contains('{') && word.contains('}')) {
            shown.push(shell_word(word));
            continue;
        }
        index += words.len() - 1;
        let joined = words.iter().map(|word| inner_word(word)).collect::<Vec<_>>().join(" ");
        shown.push(format!("{prefix}{}", shell_word(&joined)));
        split.get_or_insert_with(|| {
            let still = PlayerSpec::parse(&template(&joined))
                .err()
                .map_or(String::new(), |error| format!("; quoted, it is still refused: {error}"));
            (first, placeholder, still)
        });
    }
    let (first, placeholder, still) = split?;
    Some(format!(
        "the command template '{first}' has no {placeholder}, and the arguments after it look like the rest of the \
         command: quote the whole command as one argument, as in: {}{still}",
        shown.join(" ")
    ))
}

/// `word` as a shell reads it back: as it is when it holds nothing a shell
/// would interpret (a placeholder's braces included), else quoted.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:,+@%={}^".contains(c));
    if plain {
        word.to_owned()
    } else {
        shell_words::quote(word).into_owned()
    }
}

/// A word of a template shown in single quotes: in double quotes where it
/// needs quoting and they can hold it, so that the whole command's quotes
/// stay plain.
fn inner_word(word: &str) -> String {
    let plain = shell_word(word);
    if plain == word || word.contains(['"', '$', '`', '\\', '!', '\'']) {
        plain
    } else {
        format!("\"{word}\"")
    }
}
