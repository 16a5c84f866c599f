//! The referee of maxconnect4 and the protocols it speaks: [`protocol`]
//! holds both sides of every arena's protocol and of the one-move board
//! files, without I/O; [`referee`] plays programs, people and bots against
//! each other (matches, tournaments, classes), keeps the records and makes
//! the results.

#![warn(missing_docs)]

pub mod protocol;
pub mod referee;
