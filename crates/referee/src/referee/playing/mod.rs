//! Playing games: one game between seats ([`game`]), each played by a
//! [`player`]; a match, a tournament of [`fixtures`], a class's programs,
//! the pre-flight [`check`], adjudication, and what the person running it
//! sees ([`console`], [`reporter`]).

pub mod adjudication;
pub mod check;
pub mod class;
pub mod console;
pub mod fixtures;
pub mod game;
pub mod match_play;
pub mod player;
pub mod reporter;
pub mod result;
pub mod seat;
pub mod tournament;
