//! Adjudication (`tournament --adjudicate`, classic rules): after each
//! move the classic solver tries to prove the position's result, and once it
//! does the game ends at once with that result, as a chess tournament ends a
//! game its tablebase has decided. Once a result is proven the rest of the
//! game can only lose time (or hand a lost game to a player who blunders
//! back, which is not what the standings should measure).
//!
//! The solver gets a budget of positions, not of time, so that a tournament
//! replayed on another machine, or under another load, adjudicates the same
//! games at the same moves. Each game has its own solver, new at its start,
//! so what the solver's table holds, and so what it proves within the
//! budget, depends only on the game's moves. It plays from no opening book:
//! a book would "prove" the openings themselves, and every game would end
//! at its first move.

use maxconnect4_game::board::Board;
use maxconnect4_game::rules::{Outcome, Rules};
use maxconnect4_search::{Engine, TableTooLarge};

/// The positions the solver may search after each move when
/// `--adjudicate` names no number. Measured on 160 classic games between
/// `one-move` at depths 1 to 5 from the first 8 openings (29.6 moves each
/// after the opening): with 10,000 a game ends after 11.3 moves on average,
/// the solver taking 5 ms a game; 100,000 ends it after 8.5 moves for 33 ms,
/// 1,000 after 14.6 moves for 1 ms. The earlier a game ends, the more often
/// the proven result is not the one the players would have reached (40 of
/// the 160 games at 10,000, 56 at 100,000, 24 at 1,000): such players lose
/// won positions.
pub const DEFAULT_BUDGET: u64 = 10_000;

/// The most positions `--adjudicate` may give: 10 million, at most a few
/// seconds after each move.
pub const MAX_BUDGET: u64 = 10_000_000;

/// The most memory the solver's table may take. It grows with the positions
/// searched, so a game's table stays far smaller; its maximum is fixed, not
/// taken from the machine, so that every machine's solver finds the same.
const TABLE_BYTES: usize = 16 << 20;

/// A game the solver ended: after how many moves from the start, and the
/// result it proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// The moves played from the start when the solver ended the game.
    pub after: usize,
    /// The result the solver proved.
    pub outcome: Outcome,
}

/// The solver of one game.
pub struct Adjudicator {
    engine: Engine,
    budget: u64,
}

impl Adjudicator {
    /// The adjudicator of a game under `rules` whose solver searches at most
    /// `budget` positions for each position; none under Max-Connect4 rules,
    /// where no solver proves a game's end early.
    ///
    /// # Errors
    /// When the memory for the solver's table cannot be had.
    pub fn new(rules: Rules, budget: u64) -> Result<Option<Adjudicator>, TableTooLarge> {
        if rules != Rules::Classic {
            return Ok(None);
        }
        Ok(Some(Adjudicator { engine: Engine::with_book(Rules::Classic, TABLE_BYTES, None)?, budget }))
    }

    /// The result of the game on `board` (which goes on) with perfect play,
    /// if the solver proves it within the budget.
    pub fn proven(&mut self, board: &Board) -> Option<Outcome> {
        // The engine is a classic one, which solves weakly: no error.
        let value = self.engine.proven_result(board, self.budget).ok().flatten()?;
        let mover = board.to_move();
        Some(match value.signum() {
            1 => Outcome::Win(mover),
            -1 => Outcome::Win(mover.other()),
            _ => Outcome::Draw,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use maxconnect4_game::moves::Moves;
    use maxconnect4_game::player::Player;

    #[test]
    fn a_decided_position_is_proven_and_an_open_one_is_not() {
        assert!(Adjudicator::new(Rules::Max, DEFAULT_BUDGET).unwrap().is_none());
        let mut adjudicator = Adjudicator::new(Rules::Classic, DEFAULT_BUDGET).unwrap().unwrap();
        // Red (player 1) to move completes a four in column 1.
        let won = Moves::board(Rules::Classic, "121212").unwrap();
        assert_eq!(adjudicator.proven(&won), Some(Outcome::Win(Player::One)));
        // Green to move cannot stop both of red's threats on the bottom row
        // (red holds columns 3 to 5 there).
        let lost = Moves::board(Rules::Classic, "33445").unwrap();
        assert_eq!(adjudicator.proven(&lost), Some(Outcome::Win(Player::One)));
        assert_eq!(adjudicator.proven(&Board::empty()), None, "the empty board needs millions of positions");
    }
}
