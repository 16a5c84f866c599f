//! `book`: builds an opening book, under either rules, on one machine or on
//! many. The deepest layer of a book is a list of independent positions
//! (`search::book::Layers`), always in the same order, so a build can be
//! shared out with nothing to agree on but the list:
//! - `book --list` prints it, `KEY MOVES` a line;
//! - `book --shard I/N` solves only the families (siblings, neighbours in
//!   the list: [`Layers::families`]) whose place among them is I modulo N
//!   ([`Shard`]) into a progress file of its own
//!   (`OUT.shard-I-of-N.progress`), and stops;
//! - `book --merge FILES...` reads the shards' progress files, refuses
//!   files of another build, values that disagree and a list with holes,
//!   and writes the book: the layers above the deepest by negamax.
//!
//! Without `--shard` a build does it all on one machine. Either way a build
//! can take long, so it is resumable: each position solved is appended, as
//! it is solved, to the progress file, whose first line names the build;
//! the build started again solves only what the file lacks. A whole build
//! removes its progress file once the book is written; a shard's is what
//! it delivers.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use super::progress_file::{open_progress, progress_path, read_progress};
use super::Error;
use crate::modes::progress::Counter;
use crate::modes::thinking::threads_phrase;
use crate::modes::Error as ModeError;
use crate::search::book::build::{
    absent_shards, either_best, parse_progress_header, places, progress_header, progress_line, records_moves, Solved,
};
use crate::search::book::layers::Layers;
use crate::search::book::{BookSpec, Known};
use crate::shard::Shard;
use crate::whole;

/// The layers of the book `spec` names.
///
/// # Errors
/// When the root is not a game that goes on, or the depth reaches past a full board.
fn layers(spec: &BookSpec) -> Result<Layers, Error> {
    Layers::new(spec).map_err(|source| Error::NoBook { depth: spec.depth, root: spec.root.clone(), source })
}

/// What `book` (a build, not `--list` or `--merge`) is asked for.
#[derive(Clone, Debug)]
pub struct BookBuild {
    pub spec: BookSpec,
    pub threads: usize,
    pub hash_bytes: usize,
    /// The book file (a shard writes only its progress file, named from it).
    pub out: PathBuf,
    /// Only this part of the deepest layer, into its own progress file.
    pub shard: Option<Shard>,
}

/// Prints the deepest layer of the book `spec` names, in the order a build
/// solves it: `KEY MOVES` a line (the key a progress file names the
/// position by, and a move string from the empty board that reaches it).
///
/// # Errors
/// When the book cannot be, or `out` cannot be written.
pub fn list_book(spec: &BookSpec, out: &mut dyn Write) -> Result<(), ModeError> {
    let layers = layers(spec)?;
    let mut out = io::BufWriter::new(out);
    for (place, key) in layers.deepest_keys().enumerate() {
        let moves = layers.moves(place);
        if moves.is_empty() {
            writeln!(out, "{key}")?;
        } else {
            writeln!(out, "{key} {moves}")?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Builds the book, or with a shard its part of the deepest layer: solves
/// what the progress file lacks, appending each position as it is solved;
/// then, for a whole build, writes the book to `build.out` atomically and
/// removes the progress file. Progress goes to `err` (a line that updates
/// itself on a terminal) with the figures, the summary to `out`.
///
/// # Errors
/// When the book cannot be, a file cannot be read or written, or the
/// progress file belongs to another build.
pub fn build_book(build: &BookBuild, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), ModeError> {
    let spec = &build.spec;
    let layers = layers(spec)?;
    if build.shard.is_none() {
        whole::check(&build.out)?;
    }
    let progress_path = progress_path(&build.out, build.shard);
    let header = progress_header(spec, build.shard);
    let (file, known) = open_progress(&progress_path, &header)?;
    let keys: Vec<u64> = layers.deepest_keys().collect();
    let part = places(&layers, build.shard);
    // A position an earlier build recorded without its best move (`KEY
    // VALUE`) is solved again for it, where the rules' builds record one.
    let done =
        |place: usize| known.get(&keys[place]).is_some_and(|known| known.best.is_some() || !records_moves(spec.rules));
    let todo: Vec<usize> = part.iter().copied().filter(|&place| !done(place)).collect();
    let before = part.len() - todo.len();

    let file = Mutex::new(file);
    let failure: Mutex<Option<io::Error>> = Mutex::new(None);
    let start = Instant::now();
    let solved: Mutex<(HashMap<u64, Known>, u64)> = Mutex::new((HashMap::new(), 0));
    let counter =
        Counter::new("solved", &format!("positions at depth {}", spec.depth), part.len() as u64, before as u64);
    let on_solved = |found: Solved| {
        let mut file = file.lock().expect("no thread panics holding it");
        if let Err(error) = writeln!(file, "{}", progress_line(&found)).and_then(|()| file.flush()) {
            failure.lock().expect("no thread panics holding it").get_or_insert(error);
        }
        drop(file);
        let mut solved = solved.lock().expect("no thread panics holding it");
        solved.0.insert(found.key, Known { value: found.value, best: found.best });
        solved.1 += found.nodes;
        counter.add_one();
    };
    crate::search::book::build::solve(&layers, &todo, build.threads, build.hash_bytes, &on_solved)?;
    counter.finish();
    if let Some(error) = failure.into_inner().expect("the threads have ended") {
        return Err(Error::Write { path: progress_path, source: error }.into());
    }
    let (values, nodes) = solved.into_inner().expect("the threads have ended");
    let mut figures = format!(
        "Solved {} positions {} moves from the root: {nodes} nodes in {:.1} s on {}",
        todo.len(),
        spec.depth,
        start.elapsed().as_secs_f64(),
        threads_phrase(build.threads)
    );
    if before > 0 {
        figures.push_str(&format!("; {before} more were read from {}", progress_path.display()));
    }
    if let Some(shard) = build.shard {
        writeln!(err, "{figures}.")?;
        writeln!(
            out,
            "Solved shard {shard}: {} of the {} positions {} moves from '{}', in {}; merge the shards' progress files with book --merge.",
            part.len(),
            keys.len(),
            spec.depth,
            spec.root,
            progress_path.display()
        )?;
        return Ok(());
    }
    // What this run solved wins over a line without a move.
    let values: HashMap<u64, Known> = known.into_iter().chain(values).collect();
    let book = layers.book(&values).map_err(|missing| Error::Unsolved(missing.len()))?;
    let bytes = book.to_bytes();
    whole::write(&build.out, &bytes)?;
    std::fs::remove_file(&progress_path).map_err(|source| Error::Remove { path: progress_path.clone(), source })?;
    writeln!(err, "{figures}.")?;
    Ok(wrote(out, &build.out, spec, book.len(), bytes.len())?)
}

/// `Wrote FILE: N positions up to D moves from 'ROOT', B bytes.`
fn wrote(out: &mut dyn Write, path: &Path, spec: &BookSpec, positions: usize, bytes: usize) -> io::Result<()> {
    writeln!(
        out,
        "Wrote {}: {positions} positions up to {} moves from '{}', {bytes} bytes.",
        path.display(),
        spec.depth,
        spec.root
    )
}

/// Writes the book whose deepest layer the progress files `files` hold
/// between them (the shards' of one build) to `book_path` atomically; the
/// summary goes to `out`.
///
/// # Errors
/// When a file cannot be read or is not a progress file, the files are of
/// different builds, two give one position different values, a position of
/// the deepest layer is in none of them (the message counts them and names
/// the shards that look absent), or the book cannot be written.
pub fn merge_books(files: &[PathBuf], book_path: &Path, out: &mut dyn Write) -> Result<(), ModeError> {
    whole::check(book_path)?;
    let mut first: Option<(&Path, BookSpec)> = None;
    let mut shards = Vec::new();
    // Each position's value and the file that gave it first.
    let mut values: HashMap<u64, (Known, &Path)> = HashMap::new();
    for path in files {
        let progress = read_progress(path)?;
        let Some((spec, shard)) = parse_progress_header(&progress.header) else {
            return Err(Error::NotProgress { path: path.clone(), header: progress.header }.into());
        };
        match &first {
            Some((first_path, first_spec)) if *first_spec != spec => {
                let first = first_path.to_path_buf();
                return Err(
                    Error::MixedBuilds { path: path.clone(), spec, first, first_spec: first_spec.clone() }.into()
                );
            }
            Some(_) => {}
            None => first = Some((path, spec)),
        }
        shards.push(shard);
        for (key, known) in progress.values {
            match values.entry(key) {
                Entry::Occupied(entry) if entry.get().0.value != known.value => {
                    let (first_value, first) = (entry.get().0.value, entry.get().1.to_path_buf());
                    let value = known.value;
                    return Err(Error::Disagree { first, path: path.clone(), key, first_value, value }.into());
                }
                Entry::Occupied(mut entry) => entry.get_mut().0.best = either_best(entry.get().0.best, known.best),
                Entry::Vacant(entry) => {
                    entry.insert((known, path));
                }
            }
        }
    }
    let (_, spec) = first.ok_or(Error::NothingToMerge)?;
    let layers = layers(&spec)?;
    let keys: Vec<u64> = layers.deepest_keys().collect();
    let places: HashMap<u64, usize> = keys.iter().enumerate().map(|(place, &key)| (key, place)).collect();
    if let Some((key, (_, path))) = values.iter().find(|(key, _)| !places.contains_key(key)) {
        return Err(Error::Stranger { path: path.to_path_buf(), key: *key, spec }.into());
    }
    let deepest: HashMap<u64, Known> = values.iter().map(|(&key, &(known, _))| (key, known)).collect();
    let book = layers.book(&deepest).map_err(|missing| {
        let families = layers.families();
        let missing: Vec<usize> = missing.iter().map(|&place| families[place]).collect();
        Error::Missing {
            path: book_path.to_owned(),
            missing: missing.len(),
            total: keys.len(),
            depth: spec.depth,
            shards: absent_shards(&shards, &missing),
        }
    })?;
    let bytes = book.to_bytes();
    whole::write(book_path, &bytes)?;
    Ok(wrote(out, book_path, &spec, book.len(), bytes.len())?)
}
