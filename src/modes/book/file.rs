//! Reading opening books: the book the other modes play and solve from
//! (`--book FILE`, `--no-book`, or the one shipped in the program), checked
//! to be for the rules of the game. Building one is `modes::book::build`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context as _};

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
    pub fn load(&self, rules: Rules) -> anyhow::Result<Option<Arc<Book>>> {
        Ok(match self {
            BookChoice::Off => None,
            BookChoice::Shipped => Some(Book::shipped_for(rules)),
            BookChoice::File(path) => Some(Arc::new(read_book_for(path, rules)?)),
        })
    }
}

/// The game a book's rules are, in words.
#[must_use]
pub const fn rules_words(rules: Rules) -> &'static str {
    match rules {
        Rules::Max => "Max-Connect4",
        Rules::Classic => "classic",
    }
}

/// Reads the book in the file at `path` and checks it is for `rules`.
///
/// # Errors
/// As [`read_book`], and when the book is for the other rules.
pub fn read_book_for(path: &Path, rules: Rules) -> anyhow::Result<Book> {
    let book = read_book(path)?;
    if book.rules() != rules {
        bail!(
            "{} is a {} book; --rules {} needs a {} one",
            path.display(),
            rules_words(book.rules()),
            rules.name(),
            rules_words(rules)
        );
    }
    Ok(book)
}

/// Reads the book in the file at `path`, under whichever rules it is for;
/// errors name the file.
///
/// # Errors
/// When the file cannot be read or is not a valid book.
pub fn read_book(path: &Path) -> anyhow::Result<Book> {
    use std::io::Read as _;
    let cannot = || format!("cannot read the book {}", path.display());
    let mut file = crate::bounded::open(path).with_context(cannot)?;
    // The magic bytes first: a large file of something else is refused
    // before it is read.
    let mut magic = [0; MAGIC.len()];
    let read = file.read(&mut magic).with_context(cannot)?;
    if magic[..read] != MAGIC[..read] || read == 0 {
        return Err(BookError::NotABook).with_context(|| format!("{} is not a valid opening book", path.display()));
    }
    let rest = crate::bounded::read_from(file, BOOK_FILE_LIMIT, "opening book").with_context(cannot)?;
    let bytes = [&magic[..read], &rest].concat();
    Book::parse(&bytes).with_context(|| format!("{} is not a valid opening book", path.display()))
}
