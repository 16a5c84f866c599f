//! Opening books from the command line, the files around
//! `search::book`: reading the book the other modes play and solve from
//! ([`file`]), and `book` itself ([`build`]: listing, building on one
//! machine or in shards, merging), which keeps its progress in a file of
//! its own ([`progress_file`]).

mod build;
mod error;
mod file;
mod progress_file;

pub use build::{build_book, list_book, merge_books, BookBuild};
pub use error::Error;
pub use file::{read_book, read_book_for, BookChoice};
