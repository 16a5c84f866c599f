//! Who plays a side, behind one interface: a player is seated with the
//! game's settings (its rules among them), then [`Competitor::play`] is
//! given the position (and, when known, the moves from the empty board) and
//! the turn's time, and returns a column or a forfeit, whatever the player
//! is: our own engine (`self`), a person at the terminal (`human`), a
//! one-move program run from a command template ([`program`]), a Connect 4
//! Moderator bot ([`moderator`]), a coordinator engine ([`coordinator`]) or
//! a web arena bot ([`http`]). The game never asks which kind it has.
//!
//! A template is split into words the way a shell would, but no shell ever
//! runs it: the placeholders are replaced inside the words, so a path with
//! spaces stays one argument and nothing in a board path is interpreted.
//! The bots that talk on their standard input and output are started once
//! per game, contained like one-move programs, and spoken to through
//! [`pipe`], which reads their output bounded and against the turn's
//! deadline.

pub mod coordinator;
pub mod http;
pub mod human;
pub mod moderator;
pub mod pipe;
pub mod program;

use std::ffi::OsString;
use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::game::{Console, Game};
use super::log::Colour;
use super::verdict::Forfeit;
use super::Error;
use crate::board::{Board, Column};
use crate::rules::{Outcome, Rules};

/// What a command template may not be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    #[error("the command template '{template}' cannot be split into words: {reason}")]
    Split { template: String, reason: String },
    #[error("the command template is empty")]
    Empty,
    #[error(
        "the command template '{template}' has no {placeholder}, so the program could not know where to {purpose}"
    )]
    Missing { template: String, placeholder: &'static str, purpose: &'static str },
    #[error(
        "the command '{command}' of a {kind} bot has {placeholder}: such a bot is told the game on its standard input"
    )]
    Placeholder { command: String, kind: &'static str, placeholder: &'static str },
    #[error("'{0}' is not an http:// URL with a host (https is not supported: the referee speaks plain HTTP)")]
    Url(String),
}

/// A side of the board as the user named it on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// This program's one-move mode, refereed like any other program.
    Engine,
    /// A person answering at the terminal.
    Human,
    /// Another program's one-move mode.
    Command(Template),
    /// `moderator:COMMAND`: a bot of the Connect 4 Moderator (seed 000).
    Moderator(Template),
    /// `coordinator:COMMAND`: an engine of the coordinator (seed 001).
    Coordinator(Template),
    /// `http:URL`: a web arena bot (seed 004), its URL starting `http://`.
    Http(String),
}

impl PlayerSpec {
    /// Reads `self`, `human`, `moderator:COMMAND`, `coordinator:COMMAND`,
    /// `http:URL` (or a bare `http://` URL), or a command template.
    ///
    /// # Errors
    /// When a template cannot be split into words or lacks `{in}` or `{out}`,
    /// a bot's command names `{in}` or `{out}`, or a URL is not `http://`.
    pub fn parse(text: &str) -> Result<PlayerSpec, TemplateError> {
        let trimmed = text.trim();
        if let Some(command) = trimmed.strip_prefix("moderator:") {
            return Template::bot(command, "moderator").map(PlayerSpec::Moderator);
        }
        if let Some(command) = trimmed.strip_prefix("coordinator:") {
            return Template::bot(command, "coordinator").map(PlayerSpec::Coordinator);
        }
        if trimmed.starts_with("http:") || trimmed.starts_with("https:") {
            return url(trimmed).map(PlayerSpec::Http);
        }
        match trimmed {
            "self" => Ok(PlayerSpec::Engine),
            "human" => Ok(PlayerSpec::Human),
            _ => Template::parse(text).map(PlayerSpec::Command),
        }
    }

    /// Why this player cannot play a game that starts at `start`, if it
    /// cannot: the moderator's protocol has no start position (its bots play
    /// from the empty board), and the coordinator's gives the moves from the
    /// empty board, unknown when the game starts from a board file.
    #[must_use]
    pub fn cannot_start(&self, start: &Board, history: Option<&[Column]>) -> Option<&'static str> {
        match self {
            PlayerSpec::Moderator(_) if start.pieces_played() > 0 => Some(
                "a moderator bot plays from the empty board only (its protocol has no start position): \
                 drop --start and --start-moves, or give a tournament --openings 0",
            ),
            PlayerSpec::Coordinator(_) if history.is_none() => Some(
                "a coordinator engine is told the moves from the empty board: \
                 start from --start-moves, not from a board file",
            ),
            _ => None,
        }
    }
}

/// The URL of `http:URL` or of a bare `http://...`: plain HTTP with a host.
fn url(text: &str) -> Result<String, TemplateError> {
    let url = match text.strip_prefix("http:") {
        Some(rest) if !rest.starts_with("//") => rest.trim(),
        _ => text,
    };
    let host = url.strip_prefix("http://").map(|rest| rest.split(['/', '?', '#']).next().unwrap_or_default());
    match host {
        Some(host) if !host.is_empty() && !host.contains(char::is_whitespace) => Ok(url.to_owned()),
        _ => Err(TemplateError::Url(url.to_owned())),
    }
}

/// A command with `{in}`, `{out}` and `{depth}` placeholders, such as
/// `java -cp bots/x maxconnect4 one-move {in} {out} {depth}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    words: Vec<String>,
}

/// The values the placeholders of a template stand for on one turn (a bot
/// that talks on its standard input has no files).
pub struct Substitution<'a> {
    pub input: Option<&'a Path>,
    pub output: Option<&'a Path>,
    pub depth: u32,
}

impl Template {
    /// Splits `text` into words as a POSIX shell would (quotes and
    /// backslashes, no expansions).
    ///
    /// # Errors
    /// When quotes are unbalanced, there are no words, or `{in}` or `{out}`
    /// appears nowhere.
    pub fn parse(text: &str) -> Result<Template, TemplateError> {
        let words = shell_words::split(text)
            .map_err(|error| TemplateError::Split { template: text.to_owned(), reason: error.to_string() })?;
        if words.is_empty() {
            return Err(TemplateError::Empty);
        }
        for (placeholder, purpose) in [("{in}", "read the board"), ("{out}", "write its move")] {
            if !words.iter().any(|word| word.contains(placeholder)) {
                return Err(TemplateError::Missing { template: text.to_owned(), placeholder, purpose });
            }
        }
        Ok(Template { words })
    }

    /// Splits the command of a `kind` bot (`moderator` or `coordinator`),
    /// which may name `{depth}` but no files.
    ///
    /// # Errors
    /// When it cannot be split into words, is empty, or names `{in}` or `{out}`.
    pub fn bot(text: &str, kind: &'static str) -> Result<Template, TemplateError> {
        let words = shell_words::split(text)
            .map_err(|error| TemplateError::Split { template: text.to_owned(), reason: error.to_string() })?;
        if words.is_empty() {
            return Err(TemplateError::Empty);
        }
        for placeholder in ["{in}", "{out}"] {
            if words.iter().any(|word| word.contains(placeholder)) {
                return Err(TemplateError::Placeholder { command: text.trim().to_owned(), kind, placeholder });
            }
        }
        Ok(Template { words })
    }

    /// This program's own one-move mode under `rules`, told to stop
    /// searching after `time_limit` even if it has not reached the depth.
    #[must_use]
    pub fn engine(executable: &Path, rules: Rules, time_limit: Duration) -> Template {
        let mut words = vec![executable.to_string_lossy().into_owned()];
        // One thread: the CPU time of a move counts against it as its wall
        // time does, and at a fixed depth the move is the same on any number.
        words.extend(
            ["one-move", "{in}", "{out}", "{depth}", "--rules", rules.name(), "--threads", "1", "--time-limit"]
                .map(str::to_owned),
        );
        words.push(time_limit.as_secs_f64().to_string());
        Template { words }
    }

    /// The program and its arguments for one turn. The program runs in a
    /// directory of its own, so an argument that names a file or directory
    /// in `base`, the referee's working directory (`.`, `bots/x`,
    /// `maxconnect4.py`), is made absolute; so is the program itself when it
    /// has a directory part (`./rival`), while a bare program name is looked
    /// up on the PATH. Other words are left as they are.
    #[must_use]
    pub fn command_line(&self, values: &Substitution<'_>, base: &Path) -> (PathBuf, Vec<OsString>) {
        let substitute = |word: &str| -> OsString {
            let mut result = OsString::new();
            let mut rest = word;
            while let Some(start) = rest.find('{') {
                result.push(&rest[..start]);
                rest = &rest[start..];
                let (value, length): (OsString, usize) =
                    if let (true, Some(input)) = (rest.starts_with("{in}"), values.input) {
                        (input.into(), 4)
                    } else if let (true, Some(output)) = (rest.starts_with("{out}"), values.output) {
                        (output.into(), 5)
                    } else if rest.starts_with("{depth}") {
                        (values.depth.to_string().into(), 7)
                    } else {
                        ("{".into(), 1)
                    };
                result.push(value);
                rest = &rest[length..];
            }
            result.push(rest);
            result
        };
        let resolve = |word: &String| -> OsString {
            let path = Path::new(word);
            if !word.contains('{') && path.is_relative() && !word.is_empty() && base.join(path).exists() {
                base.join(path).into_os_string()
            } else {
                substitute(word)
            }
        };
        // A program name without a directory part is looked up on the PATH,
        // as a shell would.
        let program = &self.words[0];
        let program = if program.contains('/') { resolve(program) } else { substitute(program) };
        (PathBuf::from(program), self.words[1..].iter().map(resolve).collect())
    }
}

/// How long a bot has to get ready when the game starts (a moderator bot's
/// `p`, a coordinator engine's `name` and `readyok`, a web bot's answer to
/// `init`), when the timeout per move is shorter: a Java bot in the sandbox
/// on a loaded machine takes seconds to start. Not counted on its clock.
pub const STARTUP: Duration = Duration::from_secs(30);

/// What a player is asked on its turn.
pub struct Ask<'a> {
    pub board: &'a Board,
    /// The moves from the empty board to `board`, when the game started
    /// from moves (the empty board, a move string or an opening).
    pub history: Option<&'a [Column]>,
    /// The turn's number in the game, from 1.
    pub ply: usize,
    /// How long the move may take: the per-move timeout, or what is left
    /// on the mover's clock if that is less.
    pub time: Duration,
    /// The game clock, when it (not the timeout) sets `time`.
    pub clock: Option<Duration>,
    /// What each side (red, green) has left: its clock, or the per-move
    /// timeout when the game has no clock.
    pub left: [Duration; 2],
}

impl Ask<'_> {
    /// The forfeit of a player that did not answer in time.
    #[must_use]
    pub const fn out_of_time(&self) -> Forfeit {
        match self.clock {
            Some(clock) => Forfeit::OutOfTime(clock),
            None => Forfeit::Timeout(self.time),
        }
    }
}

/// How a turn went: a column, or a forfeit, and how long it took.
pub struct Turn {
    pub result: Result<Column, Forfeit>,
    pub wall: Duration,
    /// The CPU time of a program run for this turn alone.
    pub cpu: Option<Duration>,
    /// How a program run for this turn alone ended.
    pub ending: Option<String>,
}

impl Turn {
    /// A turn lost before it started.
    #[must_use]
    pub const fn lost(forfeit: Forfeit) -> Turn {
        Turn { result: Err(forfeit), wall: Duration::ZERO, cpu: None, ending: None }
    }
}

/// How the game ended, as a player is told.
#[derive(Clone, Copy, Debug)]
pub struct End {
    /// The result, none when a player forfeited.
    pub outcome: Option<Outcome>,
    /// Whether this player forfeited: it is stopped at once.
    pub forfeited: bool,
}

/// A side of the board, whatever plays it.
pub trait Competitor {
    /// The column to play on `ask.board` within `ask.time`, or why the player
    /// forfeits. A person is asked on `console`.
    ///
    /// # Errors
    /// Only when the referee cannot do its part (its own files, the
    /// terminal, `self` failing to start); a player's failure is a forfeit.
    fn play(&mut self, ask: &Ask<'_>, console: Option<&mut Console<'_>>) -> Result<Turn, Error>;

    /// Tells the player the game is over and stops whatever runs for it.
    ///
    /// # Errors
    /// When what it printed cannot be kept.
    fn finish(&mut self, end: End) -> Result<(), Error>;

    /// Whether its moves are timed (a person's are not).
    fn is_timed(&self) -> bool {
        true
    }
}

/// The player of `colour` in `game`, ready for its first turn (a bot that
/// talks on its standard input is started now).
///
/// # Errors
/// When the game's start does not suit the player, or the referee cannot
/// run it (no containment, no copy of itself for `self`, no folder).
pub fn seat<'a>(game: &'a Game<'a>, colour: Colour, base: &Path) -> Result<Box<dyn Competitor + 'a>, Error> {
    let spec = &game.seats[colour.index()].spec;
    if let Some(reason) = spec.cannot_start(&game.start, game.history.as_deref()) {
        return Err(Error::Clash(format!("{}: {reason}", game.seats[colour.index()].side.name)));
    }
    let captures = Captures::new(game.output_directory.join(format!("{}.txt", colour.name())));
    let contained = || -> Result<(&'a super::process::Containment, super::scratch::ScratchDir), Error> {
        let containment = game.containment.ok_or(super::process::ContainError::Unsupported)?;
        let directory = containment
            .player_dir(&format!("{}-", colour.name()))
            .map_err(|source| Error::io("create a player's folder in", &std::env::temp_dir(), source))?;
        Ok((containment, directory))
    };
    Ok(match spec {
        PlayerSpec::Human => Box::new(human::Human),
        PlayerSpec::Engine => {
            let (containment, directory) = contained()?;
            Box::new(program::Program::engine(containment, directory, game.settings, captures)?)
        }
        PlayerSpec::Command(template) => {
            let (containment, directory) = contained()?;
            Box::new(program::Program::new(containment, directory, template.clone(), game.settings, captures))
        }
        PlayerSpec::Moderator(template) => {
            let (containment, directory) = contained()?;
            let conversation = pipe::Conversation::start(containment, template, game.settings.depth, directory, base);
            let protocol = moderator::Moderator(colour);
            Box::new(pipe::Bot::new(protocol, conversation, STARTUP.max(game.settings.timeout), captures))
        }
        PlayerSpec::Coordinator(template) => {
            let (containment, directory) = contained()?;
            let conversation = pipe::Conversation::start(containment, template, game.settings.depth, directory, base);
            let protocol = coordinator::Coordinator(if colour == Colour::Red { 0 } else { 1 });
            Box::new(pipe::Bot::new(protocol, conversation, STARTUP.max(game.settings.timeout), captures))
        }
        PlayerSpec::Http(url) => Box::new(http::Http::new(url, &game.id, colour, game.settings, captures)),
    })
}

/// The file in a game's output directory that keeps what one side's
/// program printed, made when there is something to keep.
pub struct Captures {
    path: PathBuf,
    file: Option<File>,
}

impl Captures {
    #[must_use]
    pub const fn new(path: PathBuf) -> Captures {
        Captures { path, file: None }
    }

    /// Appends `text`, making the file (and its directory) first if need be.
    ///
    /// # Errors
    /// When it cannot be made or written.
    pub fn append(&mut self, text: &[u8]) -> Result<(), Error> {
        let error = |source| Error::io("write", &self.path, source);
        if self.file.is_none() {
            if let Some(directory) = self.path.parent() {
                std::fs::create_dir_all(directory).map_err(error)?;
            }
            self.file = Some(File::create(&self.path).map_err(error)?);
        }
        self.file.as_mut().expect("made above").write_all(text).map_err(error)
    }

    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_in(template: &str, base: &Path) -> Vec<String> {
        let values = Substitution {
            input: Some(Path::new("/tmp/my dir/in-01.txt")),
            output: Some(Path::new("/o.txt")),
            depth: 7,
        };
        let (program, args) = Template::parse(template).unwrap().command_line(&values, base);
        std::iter::once(program.into_os_string()).chain(args).map(|word| word.into_string().unwrap()).collect()
    }

    fn line(template: &str) -> Vec<String> {
        line_in(template, Path::new("/nowhere"))
    }

    #[test]
    fn placeholders_become_whole_arguments() {
        assert_eq!(
            line("java -cp 'bots/my x' maxconnect4 one-move {in} {out} {depth}"),
            ["java", "-cp", "bots/my x", "maxconnect4", "one-move", "/tmp/my dir/in-01.txt", "/o.txt", "7"]
        );
        assert_eq!(
            line("bot --in={in} -o{out} {x} '$HOME' \"a;b\""),
            ["bot", "--in=/tmp/my dir/in-01.txt", "-o/o.txt", "{x}", "$HOME", "a;b"]
        );
    }

    #[test]
    fn relative_paths_are_found_from_the_referee_directory() {
        let base = tempfile::tempdir().unwrap();
        std::fs::create_dir(base.path().join("bots")).unwrap();
        std::fs::write(base.path().join("bots").join("bot.py"), "").unwrap();
        std::fs::write(base.path().join("python3"), "").unwrap();
        let at = |path: &str| base.path().join(path).display().to_string();
        assert_eq!(line_in("./bots/bot.py {in} {out}", base.path())[0], at("./bots/bot.py"));
        assert_eq!(
            line_in("python3 bots/bot.py one-move {in} {out}", base.path())[..3],
            ["python3".to_owned(), at("bots/bot.py"), "one-move".to_owned()]
        );
        assert_eq!(
            line_in("java -cp . Main {in} {out}", base.path())[..4],
            ["java".to_owned(), "-cp".to_owned(), at("."), "Main".to_owned()]
        );
        assert_eq!(line_in("run bots/missing {in} {out}", base.path())[..2], ["run", "bots/missing"]);
        assert_eq!(line_in("./missing {in} {out}", base.path())[0], "./missing");
    }

    #[test]
    fn bots_and_urls() {
        let spec = |text: &str| PlayerSpec::parse(text).map_err(|error| error.to_string());
        let words = |text: &str| Template { words: shell_words::split(text).unwrap() };
        assert_eq!(spec("moderator:python3 'my bot.py'"), Ok(PlayerSpec::Moderator(words("python3 'my bot.py'"))));
        assert_eq!(
            spec(" coordinator:./engine --depth {depth}"),
            Ok(PlayerSpec::Coordinator(words("./engine --depth {depth}")))
        );
        assert_eq!(spec("http://127.0.0.1:8080/"), Ok(PlayerSpec::Http("http://127.0.0.1:8080/".into())));
        assert_eq!(spec("http:http://localhost:1/bot"), Ok(PlayerSpec::Http("http://localhost:1/bot".into())));
        assert_eq!(spec("moderator:"), Err("the command template is empty".into()));
        assert_eq!(
            spec("moderator:bot {in}"),
            Err(
                "the command 'bot {in}' of a moderator bot has {in}: such a bot is told the game on its standard input"
                    .into()
            )
        );
        assert_eq!(
            spec("https://example.org/"),
            Err("'https://example.org/' is not an http:// URL with a host (https is not supported: the referee speaks plain HTTP)".into())
        );
        assert!(spec("http:").is_err() && spec("http:///x").is_err() && spec("http:ftp://x").is_err());
    }

    #[test]
    fn names_and_bad_templates() {
        assert_eq!(PlayerSpec::parse("self"), Ok(PlayerSpec::Engine));
        assert_eq!(PlayerSpec::parse("human"), Ok(PlayerSpec::Human));
        assert_eq!(
            PlayerSpec::parse("bot 'in {in} {out}").unwrap_err().to_string(),
            "the command template 'bot 'in {in} {out}' cannot be split into words: missing closing quote"
        );
        assert_eq!(Template::parse("  ").unwrap_err(), TemplateError::Empty);
        assert_eq!(
            Template::parse("bot {in}").unwrap_err().to_string(),
            "the command template 'bot {in}' has no {out}, so the program could not know where to write its move"
        );
    }
}
