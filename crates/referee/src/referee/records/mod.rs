//! The records of games: the [`log`] and its checks ([`audit`]), a
//! tournament's [`manifest`], logs merged ([`merge`]), games replayed and
//! annotated ([`replay`], [`annotation`]).

pub mod annotation;
pub mod audit;
pub mod log;
pub mod manifest;
pub mod merge;
pub mod replay;
