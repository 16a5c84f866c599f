//! How a player is named on the command line: `self`, `human`, a command
//! template ([`Template`], in `contain`), or an arena's bot, parsed once
//! into a [`PlayerSpec`] that keeps the words given.

use std::path::PathBuf;

use maxconnect4_contain::template::{OwnPlay, Template, TemplateError};
use maxconnect4_game::board::{Board, Column};

/// What a player's name may not be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The command is not a valid command template.
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// An `http:` player's address, held here, is not a usable URL.
    #[error("'{0}' is not an http:// URL with a host (https is not supported: the referee speaks plain HTTP)")]
    Url(String),
    /// A `connectx:` player's file, held here, is not one Python file.
    #[error("'{0}' is not the path of one Python file (connectx:agent.py, or connectx:cd DIR && agent.py)")]
    Agent(String),
}

/// A side of the board as the user named it on the command line, parsed
/// once (it is clap's value): what plays it, and the words that said so,
/// which a match shows as the player's name and the log keeps as its
/// command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    kind: PlayerKind,
    /// The text as given.
    given: String,
}

/// What plays a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// This program's one-move mode (`self`, or `perfect`), refereed like
    /// any other program.
    Engine(OwnPlay),
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
    /// `connectx:PATH.py`: a Kaggle ConnectX agent, its file run as
    /// `python3 PATH.py` words (the harness is slipped in when it starts).
    ConnectX(Template),
}

impl PlayerSpec {
    /// Reads `self`, `perfect`, `human`, `moderator:COMMAND`, `coordinator:COMMAND`,
    /// `http:URL` (or a bare `http://` URL), `connectx:PATH.py`, or a command template.
    ///
    /// # Errors
    /// When a template cannot be split into words or lacks `{in}` or `{out}`,
    /// a bot's command names `{in}` or `{out}`, a URL is not `http://`, or
    /// an agent is not one `.py` file.
    pub fn parse(text: &str) -> Result<PlayerSpec, SpecError> {
        let trimmed = text.trim();
        let kind = if let Some(command) = trimmed.strip_prefix("moderator:") {
            PlayerKind::Moderator(Template::bot(command, "moderator")?)
        } else if let Some(command) = trimmed.strip_prefix("coordinator:") {
            PlayerKind::Coordinator(Template::bot(command, "coordinator")?)
        } else if let Some(path) = trimmed.strip_prefix("connectx:") {
            PlayerKind::ConnectX(agent(path)?)
        } else if trimmed.starts_with("http:") || trimmed.starts_with("https:") {
            PlayerKind::Http(url(trimmed)?)
        } else {
            match trimmed {
                "self" => PlayerKind::Engine(OwnPlay::BookMoves),
                "perfect" => PlayerKind::Engine(OwnPlay::Perfect),
                "human" => PlayerKind::Human,
                _ => PlayerKind::Command(Template::parse(text)?),
            }
        };
        Ok(PlayerSpec { kind, given: text.to_owned() })
    }

    /// The same player, its program's folder being `built`, a copy of the
    /// folder its command names in which the referee built it (or why it
    /// could not); shown and logged as given.
    #[must_use]
    pub fn built_in(self, built: PathBuf) -> PlayerSpec {
        let kind = match self.kind {
            PlayerKind::Command(template) => PlayerKind::Command(template.built_in(built)),
            PlayerKind::Moderator(template) => PlayerKind::Moderator(template.built_in(built)),
            PlayerKind::Coordinator(template) => PlayerKind::Coordinator(template.built_in(built)),
            PlayerKind::ConnectX(template) => PlayerKind::ConnectX(template.built_in(built)),
            other => other,
        };
        PlayerSpec { kind, given: self.given }
    }

    /// A program the referee could not find or build: shown and logged as
    /// `given`, its first turn fails to start, saying `why`.
    #[must_use]
    pub fn unbuilt(given: String, why: String) -> PlayerSpec {
        PlayerSpec { kind: PlayerKind::Command(Template::missing(given.clone(), why)), given }
    }

    /// What plays the side.
    #[must_use]
    pub const fn kind(&self) -> &PlayerKind {
        &self.kind
    }

    /// The text as given.
    #[must_use]
    pub fn given(&self) -> &str {
        &self.given
    }

    /// The command as logged: the text given, without the blanks around it.
    #[must_use]
    pub fn command(&self) -> &str {
        self.given.trim()
    }

    /// Whether a person plays the side.
    #[must_use]
    pub const fn is_human(&self) -> bool {
        matches!(self.kind, PlayerKind::Human)
    }

    /// Whether the side is played by a program the referee runs here (not
    /// a person, not a web bot), which needs containment.
    #[must_use]
    pub const fn runs_here(&self) -> bool {
        !matches!(self.kind, PlayerKind::Human | PlayerKind::Http(_))
    }

    /// Why this player cannot play a game that starts at `start`, if it
    /// cannot: the moderator's protocol has no start position (its bots play
    /// from the empty board), and the coordinator's gives the moves from the
    /// empty board, unknown when the game starts from a board file.
    #[must_use]
    pub fn cannot_start(&self, start: &Board, history: Option<&[Column]>) -> Option<&'static str> {
        match self.kind {
            PlayerKind::Moderator(_) if start.pieces_played() > 0 => Some(
                "a moderator bot plays from the empty board only (its protocol has no start position): \
                 drop --start and --start-moves, or give a tournament --openings 0",
            ),
            PlayerKind::Coordinator(_) if history.is_none() => Some(
                "a coordinator engine is told the moves from the empty board: \
                 start from --start-moves, not from a board file",
            ),
            _ => None,
        }
    }
}

impl std::str::FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<PlayerSpec, SpecError> {
        PlayerSpec::parse(text)
    }
}

/// The words that run the agent of `connectx:PATH.py` (or `connectx:cd DIR
/// && FILE.py`): `python3` and its file, from its folder.
fn agent(text: &str) -> Result<Template, SpecError> {
    let refused = || SpecError::Agent(text.trim().to_owned());
    let (folder, file) = match text.split_once("&&") {
        Some((cd, file)) if cd.trim_start().starts_with("cd ") => (format!("{}&& ", cd.trim_start()), file),
        _ => (String::new(), text),
    };
    match shell_words::split(file).map_err(|_| refused())?.as_slice() {
        [file] if file.ends_with(".py") && !file.contains('{') => {
            let command = format!("{folder}python3 {}", shell_words::quote(file));
            Template::bot(&command, "ConnectX agent").map_err(|_| refused())
        }
        _ => Err(refused()),
    }
}

/// The URL of `http:URL` or of a bare `http://...`: plain HTTP with a host.
fn url(text: &str) -> Result<String, SpecError> {
    let url = match text.strip_prefix("http:") {
        Some(rest) if !rest.starts_with("//") => rest.trim(),
        _ => text,
    };
    let host = url.strip_prefix("http://").map(|rest| rest.split(['/', '?', '#']).next().unwrap_or_default());
    match host {
        Some(host) if !host.is_empty() && !host.contains(char::is_whitespace) => Ok(url.to_owned()),
        _ => Err(SpecError::Url(url.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_and_urls() {
        let spec = |text: &str| PlayerSpec::parse(text).map(|spec| spec.kind).map_err(|error| error.to_string());
        // The template of exactly these words, naming no folder.
        let words = |text: &str, kind| Template::bot(text, kind).unwrap();
        assert_eq!(
            spec("moderator:python3 'my bot.py'"),
            Ok(PlayerKind::Moderator(words("python3 'my bot.py'", "moderator")))
        );
        assert_eq!(
            spec(" coordinator:./engine --depth {depth}"),
            Ok(PlayerKind::Coordinator(words("./engine --depth {depth}", "coordinator")))
        );
        assert_eq!(spec("http://127.0.0.1:8080/"), Ok(PlayerKind::Http("http://127.0.0.1:8080/".into())));
        assert_eq!(spec("http:http://localhost:1/bot"), Ok(PlayerKind::Http("http://localhost:1/bot".into())));
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
        assert_eq!(spec("connectx:'my agent.py'"), Ok(PlayerKind::ConnectX(words("python3 'my agent.py'", "x"))));
        assert_eq!(
            spec("connectx:cd kaggle/eve && main.py"),
            Ok(PlayerKind::ConnectX(words("cd kaggle/eve && python3 main.py", "x")))
        );
        for wrong in ["connectx:", "connectx:agent", "connectx:python3 agent.py", "connectx:a.py b.py"] {
            let text = wrong.strip_prefix("connectx:").unwrap();
            assert_eq!(
                spec(wrong),
                Err(format!(
                    "'{text}' is not the path of one Python file (connectx:agent.py, or connectx:cd DIR && agent.py)"
                )),
            );
        }
    }

    #[test]
    fn names_and_bad_templates() {
        assert_eq!(PlayerSpec::parse("self").map(|spec| spec.kind), Ok(PlayerKind::Engine(OwnPlay::BookMoves)));
        assert_eq!(PlayerSpec::parse(" perfect ").map(|spec| spec.kind), Ok(PlayerKind::Engine(OwnPlay::Perfect)));
        assert_eq!(PlayerSpec::parse("human").map(|spec| spec.kind), Ok(PlayerKind::Human));
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
