//! Reading opening books: the book the other modes play and solve from
//! (`--book FILE`, `--no-book`, or the one shipped in the program), checked
//! to be for the rules of the game. Building one is `modes::book::build`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::Error;
use crate::rules::Rules;
use crate::search::book::format::{BookError, MAGIC};
use crate::search::book::Book;

/// The largest book file read: a book of every position up to 12 moves
/// from the empty board (about 4 million positions after symmetry) takes
/// some 32 MB; this leaves room while refusing a device or runaway file.
const BOOK_FILE_LIMIT: u64 = 1 << 30;

/// Which opening book an engine uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookChoice {
    /// The book shipped in the program.
    Shipped,
    /// A book file.
    File(PathBuf),
    /// No book: every position is searched.
    Off,
}

impl BookChoice {
    /// The book the engine plays and solves from under `rules`: the
    /// shipped one of those rules, the file's, or none.
    ///
    /// # Errors
    /// When the file cannot be read, is not a book, or is one for other rules.
    pub fn load(&self, rules: Rules) -> Result<Option<Arc<Book>>, Error> {
        Ok(match self {
            BookChoice::Off => None,
            BookChoice::Shipped => Some(Book::shipped_for(rules)),
            BookChoice::File(path) => Some(Arc::new(read_book_for(path, rules)?)),
        })
    }
}

/// Reads the book in the file at `path` and checks it is for `rules`.
///
/// # Errors
/// As [`read_book`], and when the book is for the other rules.
pub fn read_book_for(path: &Path, rules: Rules) -> Result<Book, Error> {
    let book = read_book(path)?;
    if book.rules() != rules {
        return Err(Error::OtherRules { path: path.to_owned(), found: book.rules(), wanted: rules });
    }
    Ok(book)
}

/// Reads the book in the file at `path`, under whichever rules it is for;
/// errors name the file.
///
/// # Errors
/// When the file cannot be read or is not a valid book.
pub fn read_book(path: &Path) -> Result<Book, Error> {
    use std::io::Read as _;
    let cannot = |source| Error::ReadBook { path: path.to_owned(), source };
    let invalid = |source| Error::NotABook { path: path.to_owned(), source };
    let mut file = crate::bounded::open(path).map_err(cannot)?;
    // The magic bytes first: a large file of something else is refused
    // before it is read.
    let mut magic = [0; MAGIC.len()];
    let read = file.read(&mut magic).map_err(cannot)?;
    if magic[..read] != MAGIC[..read] || read == 0 {
        return Err(invalid(BookError::NotABook));
    }
    let rest = crate::bounded::read_from(file, BOOK_FILE_LIMIT, "opening book").map_err(cannot)?;
    let bytes = [&magic[..read], &rest].concat();
    Book::parse(&bytes).map_err(invalid)
}
