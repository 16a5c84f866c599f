//! `book`: builds a classic opening book into a file, and reads the book the
//! other modes play and solve from (`--book FILE`, `--no-book`, or the one
//! shipped in the program).
//!
//! A build can take long, so it is resumable: each position of the deepest
//! layer is appended, as it is solved, to a side file (`OUT.progress`), and
//! a build started again with the same root and depth solves only what that
//! file lacks. The side file is removed once the book is written.

use crate::moves::Moves;
use std::collections::HashMap;
use std::fs::OpenOptions;
use std::io::{self, BufRead as _, BufReader, IsTerminal as _, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::{bail, Context as _};

use crate::atomic;

use crate::rules::Rules;
use crate::search::classic::book;
use crate::search::classic::build::{self as book_build, BuildOptions, Solved};
use crate::search::classic::Book;
use crate::search::Engine;

/// The largest book file read: a book of every position up to 12 moves
/// from the empty board (about 4 million positions after symmetry) takes
/// some 32 MB; this leaves room while refusing a device or runaway file.
const BOOK_FILE_LIMIT: u64 = 1 << 30;

/// No classic score is larger: a win with the first player's fourth stone.
const MAX_SCORE: i32 = 18;

/// Which opening book a classic engine uses.
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
    /// The book itself under `rules` (never one under Max-Connect4 rules).
    ///
    /// # Errors
    /// When the file cannot be read or is not a book.
    pub fn load(&self, rules: Rules) -> anyhow::Result<Option<Arc<Book>>> {
        Ok(match self {
            _ if !Engine::reads_books(rules) => None,
            BookChoice::Off => None,
            BookChoice::Shipped => Some(Book::shipped()),
            BookChoice::File(path) => Some(Arc::new(read_book(path)?)),
        })
    }
}

/// Reads the book in the file at `path`; errors name the file.
///
/// # Errors
/// When the file cannot be read or is not a valid book.
pub fn read_book(path: &Path) -> anyhow::Result<Book> {
    use std::io::Read as _;
    let cannot = || format!("cannot read the book {}", path.display());
    let mut file = crate::bounded::open(path).with_context(cannot)?;
    // The magic bytes first: a large file of something else is refused
    // before it is read.
    let mut magic = [0; book::MAGIC.len()];
    let read = file.read(&mut magic).with_context(cannot)?;
    if magic[..read] != book::MAGIC[..read] || read == 0 {
        return Err(book::BookError::NotABook)
            .with_context(|| format!("{} is not a valid opening book", path.display()));
    }
    let rest = crate::bounded::read_from(file, BOOK_FILE_LIMIT, "opening book").with_context(cannot)?;
    let bytes = [&magic[..read], &rest].concat();
    Book::parse(&bytes).with_context(|| format!("{} is not a valid opening book", path.display()))
}

/// What `book` is asked for.
#[derive(Clone, Debug)]
pub struct BookBuild {
    /// The root's move string.
    pub root: String,
    pub depth: u32,
    pub threads: usize,
    pub hash_bytes: usize,
    pub out: PathBuf,
}

/// Builds the book and writes it to `build.out` atomically, resuming from
/// (and at the end removing) its side file; progress goes to `err` (a line
/// that updates itself on a terminal), the summary to `out`.
///
/// # Errors
/// When the root is not a game that goes on, a file cannot be read or
/// written, or the side file belongs to another build.
pub fn build_book(build: &BookBuild, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<()> {
    let root = Moves::board(Rules::Classic, &build.root)
        .with_context(|| format!("bad move string '{}'", build.root.escape_debug()))?;
    atomic::check(&build.out)?;
    let progress_path = progress_path(&build.out);
    let header = format!("maxconnect4 book progress: root '{}' depth {}", build.root, build.depth);
    let known = read_progress(&progress_path, &header)?;
    let mut progress = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&progress_path)
        .with_context(|| format!("cannot write {}", progress_path.display()))?;
    if known.is_empty() && progress.metadata().map(|metadata| metadata.len()).unwrap_or(0) == 0 {
        writeln!(progress, "{header}").with_context(|| format!("cannot write {}", progress_path.display()))?;
    }
    let progress = Mutex::new(progress);
    let failure: Mutex<Option<io::Error>> = Mutex::new(None);
    let terminal = io::stderr().is_terminal();
    let start = Instant::now();
    // Positions solved and nodes searched.
    let searched = Mutex::new((0u64, 0u64));
    let on_solved = |solved: Solved| {
        let mut counts = searched.lock().expect("no thread panics holding it");
        *counts = (counts.0 + 1, counts.1 + solved.nodes);
        drop(counts);
        let mut file = progress.lock().expect("no thread panics holding it");
        if let Err(error) = writeln!(file, "{} {}", solved.key, solved.value).and_then(|()| file.flush()) {
            failure.lock().expect("no thread panics holding it").get_or_insert(error);
        }
        if terminal {
            eprint!("\rsolved {} of {} positions at depth {}", solved.done, solved.total, build.depth);
        }
    };
    let options =
        BuildOptions { depth: build.depth, threads: build.threads, hash_bytes: build.hash_bytes, known: &known };
    let book = book_build::build(&root, &build.root, &options, &on_solved)?;
    if terminal {
        eprintln!();
    }
    if let Some(error) = failure.into_inner().expect("the threads have ended") {
        return Err(error).with_context(|| format!("cannot write {}", progress_path.display()));
    }
    let bytes = book.to_bytes();
    atomic::write(&build.out, &bytes)?;
    std::fs::remove_file(&progress_path).with_context(|| format!("cannot remove {}", progress_path.display()))?;
    let solved = searched.into_inner().expect("the threads have ended");
    let mut figures = format!(
        "Solved {} positions {} moves from the root: {} nodes in {:.1} s on {} threads",
        solved.0,
        build.depth,
        solved.1,
        start.elapsed().as_secs_f64(),
        build.threads
    );
    if !known.is_empty() {
        figures.push_str(&format!("; {} more were read from {}", known.len(), progress_path.display()));
    }
    writeln!(err, "{figures}.")?;
    writeln!(
        out,
        "Wrote {}: {} positions up to {} moves from '{}', {} bytes.",
        build.out.display(),
        book.len(),
        build.depth,
        build.root,
        bytes.len()
    )?;
    Ok(())
}

/// The side file of a build writing `out`.
fn progress_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

/// The positions an earlier build with the same `header` solved, from its
/// side file at `path` (none if there is none). A last line cut short (the
/// build stopped while writing it) is ignored.
///
/// # Errors
/// When the file cannot be read, belongs to another build, or has a bad line.
fn read_progress(path: &Path, header: &str) -> anyhow::Result<HashMap<u64, i32>> {
    let mut known = HashMap::new();
    let file = match crate::bounded::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(known),
        Err(error) => return Err(error).with_context(|| format!("cannot read {}", path.display())),
    };
    let mut lines = Vec::new();
    let mut reader = BufReader::new(file);
    loop {
        let mut line = String::new();
        let read = reader.read_line(&mut line).with_context(|| format!("cannot read {}", path.display()))?;
        if read == 0 || !line.ends_with('\n') {
            break;
        }
        lines.push(line.trim_end().to_owned());
    }
    let Some(first) = lines.first() else { return Ok(known) };
    if first != header {
        bail!(
            "{} is the progress of another build ('{first}', not '{header}'): remove it, or build what it names",
            path.display()
        );
    }
    for (number, line) in (2..).zip(&lines[1..]) {
        let parsed = line.split_once(' ').and_then(|(key, value)| Some((key.parse().ok()?, value.parse().ok()?)));
        let Some((key, value)) = parsed.filter(|&(_, value): &(u64, i32)| value.abs() <= MAX_SCORE) else {
            bail!("{}, line {number}: expected 'KEY VALUE', found '{}'", path.display(), line.escape_debug());
        };
        known.insert(key, value);
    }
    Ok(known)
}
