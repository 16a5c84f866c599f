//! The referee: plays any one-move programs against each other, safely,
//! through board files, and keeps a log of every game.
//!
//! Programs written by others may hang, crash, print garbage or cheat; the
//! referee survives all of it, gives the game to the other side with a
//! reason, and leaves no process behind. [`game`] plays one game between
//! [`seat`]s, each played by a [`player`] it runs contained ([`maxconnect4_contain`]:
//! in a sandbox, in a folder holding a copy of its own, with the interpreter
//! its user's shell would find) and judged by its protocol
//! ([`crate::protocol::one_move`] for a one-move program); the
//! game's [`result`] becomes a record of the [`log`], which [`replay`]
//! shows again. [`match_play`] plays one game for the `match` command,
//! [`check`] asks each player for one move, and [`tournament`] plays the
//! games of its [`fixtures`] (every pair, or a gauntlet, from a set of
//! openings; [`adjudication`] may end them early), described by its
//! [`manifest`]; its [`results`] rank the players in [`standings`], with a
//! [`crosstable`], [`ratings`], per-player [`figures`], a [`chart`] and a
//! [`page`] to publish. [`merge`] reads the logs of a tournament's shards
//! as one, for the `results` command.

pub mod error;
pub mod playing;
pub mod records;
pub mod results;
pub mod settings;

// Each module by its name before the folders, which its users name.
pub use playing::{
    adjudication, check, class, console, fixtures, game, match_play, player, reporter, result, seat, tournament,
};
pub use records::{annotation, audit, log, manifest, merge, replay};
pub use results::{chart, crosstable, figures, gradebook, page, ratings, standings};

pub use check::check_players;
pub use error::Error;
pub use match_play::{MatchOptions, Start, play_match};
