//! The opening book as the classic searches read it: the [`Book`] of
//! `search::book`, one type for both rules, which the classic solver and
//! player consult before they search ([`Book::value`], [`Book::children`])
//! and the classic engine holds (the shipped one, [`Book::shipped`], unless
//! told otherwise). The classic searches name it here, beside themselves;
//! its format, its layers and its build are the same for both rules and
//! live in `search::book` and `search::book_build`.

pub use crate::search::book::Book;
