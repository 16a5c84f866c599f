//! Who plays a side, behind one interface: a player is seated with the
//! game's settings (its rules among them), then [`Competitor::play`] is
//! given the position (and, when known, the moves from the empty board) and
//! the turn's time, and returns a column or a forfeit, whatever the player
//! is: our own engine (`self`), a person at the terminal (`human`), a
//! one-move program run from a command template ([`program`]), a Connect 4
//! Moderator bot ([`moderator`]), a coordinator engine ([`coordinator`]), a
//! web arena bot ([`http`]) or a Kaggle ConnectX agent ([`connectx`]). The
//! game never asks which kind it has.
//!
//! How a player is named is [`spec`] (its command a `contain::template`),
//! the interface is [`competitor`], and
//! [`seating`] makes the player a spec names. The bots that talk on their
//! standard input and output are started once per game, contained like
//! one-move programs, and spoken to through `pipe`, which reads their
//! output bounded and against the turn's deadline.

pub mod competitor;
pub mod connectx;
pub mod coordinator;
pub mod http;
pub mod human;
pub mod moderator;
pub(crate) mod pipe;
pub mod program;
pub mod seating;
pub mod spec;

pub use competitor::{Ask, Competitor, End, STARTUP, Turn};
pub use seating::{Seating, seat};
pub use spec::{PlayerKind, PlayerSpec, SpecError};
