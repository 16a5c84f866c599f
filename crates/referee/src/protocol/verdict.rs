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
    #[error("failed to start: {0}")]
    FailedToStart(String),
    #[error("timeout: no move within {} s; the player was stopped", .0.as_secs_f64())]
    Timeout(Duration),
    #[error("timeout: its game clock of {} s ran out", .0.as_secs_f64())]
    OutOfTime(Duration),
    #[error("no output: {0}")]
    NoOutput(String),
    #[error("unparseable output: {error} ({quoted})")]
    Unparseable { error: ParseError, quoted: String },
    #[error("unparseable answer: {0}")]
    Garbage(String),
    #[error("illegal move: {0}")]
    Illegal(IllegalMove),
    #[error("quit: the player gave up at the prompt")]
    Quit,
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
    #[error("column {0} is full; a move goes in a column with room")]
    FullColumn(Column),
    #[error("column {column}, row {row} changed from {was} to {now}; a move changes nothing already on the board")]
    Changed { column: usize, row: usize, was: Cell, now: Cell },
    #[error("the board has no new piece; a move adds exactly one")]
    NoNewPiece,
    #[error("the board has {0} new pieces; a move adds exactly one")]
    NewPieces(u32),
    #[error("the new piece in column {column} is {owner}'s, but {mover} was to move")]
    WrongColour { column: Column, owner: Player, mover: Player },
    #[error("the new piece in column {column}, row {row} floats above an empty cell; a piece falls to the lowest empty cell")]
    Floating { column: Column, row: usize },
    #[error("the turn line names {named}; after {mover}'s move it is {}'s turn", .mover.other())]
    WrongTurn { named: Player, mover: Player },
}
