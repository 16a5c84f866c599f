//! The verdict on a player that loses the game without finishing it
//! ([`Forfeit`]), whatever it is and whatever protocol it speaks: the
//! hosts' faults ([`super::host::Fault`]) and the one-move protocol's
//! judgement ([`super::one_move`]) come to it, the referee records it, the
//! timing report says it of a run that gave no move.
//!
//! Programs written by others get no benefit of the doubt and no second try:
//! a valid answer is a move, anything else ends the game against the player,
//! with a reason precise enough for its author to find the bug. The exit
//! code is not a verdict (the course's C++ starter exits 1 after a good move).

use std::fmt;
use std::time::Duration;

use maxconnect4_contain::limits::Passed;
use maxconnect4_game::board::Column;
use maxconnect4_game::format::ParseError;
use maxconnect4_game::player::Player;

/// Why a player loses the game without finishing it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Forfeit {
    /// The player could not be started or kept running, with the reason
    /// (a missing program, a failed launch, an early crash).
    #[error("failed to start: {0}")]
    FailedToStart(String),
    /// The player gave no move within the time for one move, held here;
    /// it was stopped.
    #[error("timeout: no move within {} s; the player was stopped", .0.as_secs_f64())]
    Timeout(Duration),
    /// The player's game clock, of the time held here, ran out.
    #[error("timeout: its game clock of {} s ran out", .0.as_secs_f64())]
    OutOfTime(Duration),
    /// The player ended without an answer (no output file, an empty one,
    /// a closed pipe), with what is known of why.
    #[error("no output: {0}")]
    NoOutput(String),
    /// The output board file does not parse.
    #[error("unparseable output: {error} ({quoted})")]
    Unparseable {
        /// Why the board file does not parse.
        error: ParseError,
        /// The offending line of the output, quoted for the message.
        quoted: String,
    },
    /// An answer in a message protocol is not a move, with what was said.
    #[error("unparseable answer: {0}")]
    Garbage(String),
    /// The answer is a board or a move the rules do not allow.
    #[error("illegal move: {0}")]
    Illegal(IllegalMove),
    /// A person at the prompt gave up.
    #[error("quit: the player gave up at the prompt")]
    Quit,
    /// The player passed a containment limit: which, and the limit (bytes
    /// for memory and disk, a count for processes, milliseconds for CPU).
    #[error("{}", describe_limit(*.0, *.1))]
    Limit(Passed, u64),
}

/// A passed limit in words, with the limit (bytes or processes).
fn describe_limit(passed: Passed, limit: u64) -> String {
    match passed {
        Passed::Memory => format!("memory limit: it used more than {} MB of memory (--memory)", limit >> 20),
        Passed::Processes => {
            format!("process limit: it ran more than {limit} processes and threads at once (--processes)")
        }
        Passed::Disk => format!("disk limit: its folder or a file it wrote grew past {} MB (--disk)", limit >> 20),
        Passed::Cpu => format!(
            "CPU limit: its processes used more than {} s of CPU time on one move (--cpu, or --timeout)",
            Duration::from_millis(limit).as_secs_f64()
        ),
    }
}

impl Forfeit {
    /// A one-word name for the kind of verdict, as written in the log.
    #[must_use]
    pub const fn kind(&self) -> &'static str {
        match self {
            Forfeit::FailedToStart(_) => "failed-to-start",
            Forfeit::Timeout(_) | Forfeit::OutOfTime(_) => "timeout",
            Forfeit::NoOutput(_) => "no-output",
            Forfeit::Unparseable { .. } | Forfeit::Garbage(_) => "unparseable",
            Forfeit::Illegal(_) => "illegal-move",
            Forfeit::Quit => "quit",
            Forfeit::Limit(Passed::Memory, _) => "memory-limit",
            Forfeit::Limit(Passed::Processes, _) => "process-limit",
            Forfeit::Limit(Passed::Disk, _) => "disk-limit",
            Forfeit::Limit(Passed::Cpu, _) => "cpu-limit",
        }
    }
}

/// A cell's content, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell(pub Option<Player>);

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(player) => write!(f, "{player}'s piece"),
            None => write!(f, "empty"),
        }
    }
}

/// The rule an output board breaks. Rows count from 1 at the bottom,
/// columns from 1 at the left.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The move is in a column with no room.
    #[error("column {0} is full; a move goes in a column with room")]
    FullColumn(Column),
    /// A cell already on the input board differs in the output.
    #[error("column {column}, row {row} changed from {was} to {now}; a move changes nothing already on the board")]
    Changed {
        /// The cell's column, from 1 at the left.
        column: usize,
        /// The cell's row, from 1 at the bottom.
        row: usize,
        /// The cell's content on the input board.
        was: Cell,
        /// The cell's content on the output board.
        now: Cell,
    },
    /// The output board is the input board: no piece was played.
    #[error("the board has no new piece; a move adds exactly one")]
    NoNewPiece,
    /// The output board has this many new pieces, more than one.
    #[error("the board has {0} new pieces; a move adds exactly one")]
    NewPieces(u32),
    /// The new piece is the opponent's colour.
    #[error("the new piece in column {column} is {owner}'s, but {mover} was to move")]
    WrongColour {
        /// The column of the new piece.
        column: Column,
        /// The player whose piece it is.
        owner: Player,
        /// The player who was to move.
        mover: Player,
    },
    /// The new piece is not at the bottom of its column's pile.
    #[error(
        "the new piece in column {column}, row {row} floats above an empty cell; a piece falls to the lowest empty cell"
    )]
    Floating {
        /// The column of the new piece.
        column: Column,
        /// The piece's row, from 1 at the bottom.
        row: usize,
    },
    /// The output's turn line names the wrong player to move next.
    #[error("the turn line names {named}; after {mover}'s move it is {}'s turn", .mover.other())]
    WrongTurn {
        /// The player the turn line names.
        named: Player,
        /// The player who moved.
        mover: Player,
    },
}
