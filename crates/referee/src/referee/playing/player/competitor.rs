//! The one interface every kind of player has: asked with the position and
//! the turn's time ([`Ask`]), it answers with a column or a forfeit
//! ([`Turn`]), and is told when the game ends ([`End`]).

use std::time::Duration;

use crate::protocol::verdict::Forfeit;
use crate::referee::Error;
use crate::referee::console::Console;
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::rules::Outcome;

/// How long a bot has to get ready when the game starts (a moderator bot's
/// `p`, a coordinator engine's `name` and `readyok`, a web bot's answer to
/// `init`), when the timeout per move is shorter: a Java bot in the sandbox
/// on a loaded machine takes seconds to start. Not counted on its clock.
pub const STARTUP: Duration = Duration::from_secs(30);

/// What a player is asked on its turn.
pub struct Ask<'a> {
    /// The board to move on.
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
#[derive(Clone, Debug)]
pub struct Turn {
    /// The column played, or why the player forfeited.
    pub result: Result<Column, Forfeit>,
    /// The turn's wall-clock time.
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
