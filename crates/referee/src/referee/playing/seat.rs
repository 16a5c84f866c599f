//! A player in its seat: the name it is shown and logged by and what plays
//! it. Whether a seat can play from a game's start is checked here, once,
//! before a match or a tournament begins; and the seats say what
//! containment their programs need.

use std::path::Path;

use crate::referee::Error;
use crate::referee::log::Side;
use crate::referee::player::{PlayerKind, PlayerSpec};
use maxconnect4_contain::Containment;
use maxconnect4_contain::sandbox::Isolation;
use maxconnect4_game::board::{Board, Column};

/// A player and how it is shown and logged.
#[derive(Clone, Debug)]
pub struct Seat {
    /// The name shown and logged: a tournament entrant's name, a match's
    /// player as given, a checked player's number.
    pub name: String,
    /// What plays the seat.
    pub spec: PlayerSpec,
}

impl Seat {
    /// `spec` shown as `name`.
    #[must_use]
    pub fn new(name: &str, spec: PlayerSpec) -> Seat {
        Seat { name: name.to_owned(), spec }
    }

    /// The player as logged: its name and its command as given.
    #[must_use]
    pub fn side(&self) -> Side {
        Side { name: self.name.clone(), command: self.spec.command().to_owned() }
    }

    /// Whether this player can play a game that starts at `start`, reached
    /// by `history` from the empty board when it was given by moves.
    ///
    /// # Errors
    /// Names the player and says why it cannot
    /// ([`PlayerSpec::cannot_start`]).
    pub fn check_start(&self, start: &Board, history: Option<&[Column]>) -> Result<(), Error> {
        match self.spec.cannot_start(start, history) {
            Some(reason) => Err(Error::CannotStart { name: self.name.clone(), reason }),
            None => Ok(()),
        }
    }
}

/// The means to run the programs among `seats`, none if there are none,
/// with the sandbox's warning written to `warnings` when it is unavailable.
/// Players never see the `private` files.
///
/// # Errors
/// When the programs cannot be contained here.
pub fn containment(
    seats: &[Seat],
    isolation: Isolation,
    private: &[&Path],
    warnings: &mut dyn std::io::Write,
) -> Result<Option<Containment>, Error> {
    if !seats.iter().any(|seat| seat.spec.runs_here()) {
        return Ok(None);
    }
    let with_self = seats.iter().any(|seat| matches!(seat.spec.kind(), PlayerKind::Engine(_)));
    let (containment, warning) = Containment::start(isolation, with_self, private)?;
    if let Some(warning) = warning {
        crate::referee::error::warn(warnings, &warning);
    }
    Ok(Some(containment))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_that_cannot_play_from_the_start_is_named() {
        let seat = |command: &str| Seat::new("bot", PlayerSpec::parse(command).unwrap());
        let moved = Board::empty().after(Column::from_number(4).unwrap());
        let moves = [Column::from_number(4).unwrap()];
        assert!(seat("moderator:./bot").check_start(&Board::empty(), Some(&[])).is_ok());
        let error = seat("moderator:./bot").check_start(&moved, Some(&moves)).unwrap_err().to_string();
        assert!(error.starts_with("bot: a moderator bot plays from the empty board only"), "{error}");
        assert!(seat("coordinator:./engine").check_start(&moved, Some(&moves)).is_ok());
        let error = seat("coordinator:./engine").check_start(&moved, None).unwrap_err().to_string();
        assert!(error.starts_with("bot: a coordinator engine is told the moves"), "{error}");
        assert!(seat("self").check_start(&moved, None).is_ok());
    }
}
