//! A bot of the Connect 4 Moderator (seed 000), hosted: it prints `p`, is
//! told `1` (it moves first) or `2` (it answers `?`), then each of the
//! opponent's columns, and answers each with its own column 1-7; at the end
//! it is sent the end code (`-1`, `-2`, `-3`, or `0` after a forfeit).
//! [`Host`] says what to send and what the answers mean (the bot's output
//! read as the moderator reads it, one non-blank character at a time), and
//! `pipe` carries it out. Its protocol has no start
//! position, so it plays from the empty board only.

use std::time::Duration;

use super::pipe::Protocol;
use crate::protocol::moderator::Host;
use maxconnect4_game::player::Player;

/// `moderator:COMMAND`, playing `colour`.
pub struct Moderator(pub Player);

impl Protocol for Moderator {
    type Host = Host;

    fn host(&self, startup: Duration) -> Host {
        Host::new(self.0, startup)
    }
}
