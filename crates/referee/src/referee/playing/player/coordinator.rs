//! An engine of the coordinator (seed 001), hosted: asked its `name` and
//! `isready` when the game starts, then each turn told `position startpos
//! MOVES` (columns 0-6 from the empty board), `isready`, and `go ftime X
//! stime Y` (each side's milliseconds left), and read until `bestmove Z V`;
//! `quit` at the end. [`Host`] says what to send and what the answers mean,
//! and `pipe` carries it out.

use std::time::Duration;

use super::pipe::Protocol;
use crate::protocol::coordinator::Host;
use maxconnect4_game::player::Player;

/// `coordinator:COMMAND`, the engine the real coordinator would call
/// `AI 0` (red) or `AI 1` (green).
pub struct Coordinator(pub usize);

impl Protocol for Coordinator {
    type Host = Host;

    fn host(&self, startup: Duration) -> Host {
        Host::new(if self.0 == 0 { Player::One } else { Player::Two }, startup)
    }
}
