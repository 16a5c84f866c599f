//! The rules of a game and the limits every program in it plays under, as
//! the command line gave them.

use std::time::Duration;

use maxconnect4_game::rules::Rules;

/// The rules of a game and what every program in it is given.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The game played: when it ends and who wins.
    pub rules: Rules,
    /// Substituted for `{depth}`, and the depth `self` searches.
    pub depth: u32,
    /// Per move, for programs; people have all the time they want. `self`
    /// stops searching at half of it, so that it never loses on time.
    pub timeout: Duration,
    /// Each side's total time for the game, beside the timeout per move.
    pub clock: Option<Duration>,
    /// Under classic rules, the positions the solver may search to prove
    /// the result of each position reached, ending the game once it does
    /// (see [`adjudication`](super::adjudication)); none to play every game
    /// to its end.
    pub adjudicate: Option<u64>,
}
