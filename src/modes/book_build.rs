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
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, BufRead as _, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{anyhow, bail, Context as _};

use super::progress::Counter;
use super::thinking::threads_phrase;
use crate::atomic;
use crate::rules::Rules;
use crate::search::book::{largest_value, BookSpec, Layers};
use crate::search::book_build::{self, Solved};
use crate::shard::Shard;

/// The first words of a progress file's first line.
const PROGRESS_HEADER: &str = "maxconnect4 book progress: ";

/// The layers of the book `spec` names.
///
/// # Errors
/// When the root is not a game that goes on, or the depth reaches past a full board.
fn layers(spec: &BookSpec) -> anyhow::Result<Layers> {
    Layers::new(spec).with_context(|| format!("no book of depth {} from '{}'", spec.depth, spec.root.escape_debug()))
}

/// The first line of the progress file of `shard` of the build of `spec`
/// (all of it with no shard).
fn header(spec: &BookSpec, shard: Option<Shard>) -> String {
    let mut header = format!("{PROGRESS_HEADER}{spec}");
    if let Some(shard) = shard {
        header.push_str(&format!(", shard {shard}"));
    }
    header
}

/// The build and the shard a progress file's first line names, if it is one.
fn parse_header(line: &str) -> Option<(BookSpec, Option<Shard>)> {
    let mut parts = line.strip_prefix(PROGRESS_HEADER)?.split(", ");
    let rules = parts.next()?.strip_prefix("rules ")?.parse().ok()?;
    let root = parts.next()?.strip_prefix("root '")?.strip_suffix('\'')?.to_owned();
    let depth = parts.next()?.strip_prefix("depth ")?.parse().ok()?;
    let shard = match parts.next() {
        Some(part) => Some(part.strip_prefix("shard ")?.parse().ok()?),
        None => None,
    };
    parts.next().is_none().then_some((BookSpec { rules, root, depth }, shard))
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
pub fn list_book(spec: &BookSpec, out: &mut dyn Write) -> anyhow::Result<()> {
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
pub fn build_book(build: &BookBuild, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<()> {
    let spec = &build.spec;
    let layers = layers(spec)?;
    if build.shard.is_none() {
        atomic::check(&build.out)?;
    }
    let progress_path = progress_path(&build.out, build.shard);
    let header = header(spec, build.shard);
    let (file, known) = open_progress(&progress_path, &header)?;
    let keys: Vec<u64> = layers.deepest_keys().collect();
    // A shard takes whole families: siblings solved one after another on
    // one table share much of their trees (see `book_build::solve`).
    let families = layers.families();
    let part: Vec<usize> =
        (0..keys.len()).filter(|&place| build.shard.is_none_or(|shard| shard.holds(families[place]))).collect();
    let todo: Vec<usize> = part.iter().copied().filter(|&place| !known.contains_key(&keys[place])).collect();
    let before = part.len() - todo.len();

    let file = Mutex::new(file);
    let failure: Mutex<Option<io::Error>> = Mutex::new(None);
    let start = Instant::now();
    let solved: Mutex<(HashMap<u64, i32>, u64)> = Mutex::new((HashMap::new(), 0));
    let counter =
        Counter::new("solved", &format!("positions at depth {}", spec.depth), part.len() as u64, before as u64);
    let on_solved = |found: Solved| {
        let mut file = file.lock().expect("no thread panics holding it");
        if let Err(error) = writeln!(file, "{} {}", found.key, found.value).and_then(|()| file.flush()) {
            failure.lock().expect("no thread panics holding it").get_or_insert(error);
        }
        drop(file);
        let mut solved = solved.lock().expect("no thread panics holding it");
        solved.0.insert(found.key, found.value);
        solved.1 += found.nodes;
        counter.add_one();
    };
    book_build::solve(&layers, &todo, build.threads, build.hash_bytes, &on_solved)?;
    counter.finish();
    if let Some(error) = failure.into_inner().expect("the threads have ended") {
        return Err(error).with_context(|| format!("cannot write {}", progress_path.display()));
    }
    let (mut values, nodes) = solved.into_inner().expect("the threads have ended");
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
    values.extend(known);
    let book = layers.book(&values).map_err(|missing| anyhow!("{} positions were not solved", missing.len()))?;
    let bytes = book.to_bytes();
    atomic::write(&build.out, &bytes)?;
    std::fs::remove_file(&progress_path).with_context(|| format!("cannot remove {}", progress_path.display()))?;
    writeln!(err, "{figures}.")?;
    wrote(out, &build.out, spec, book.len(), bytes.len())
}

/// `Wrote FILE: N positions up to D moves from 'ROOT', B bytes.`
fn wrote(out: &mut dyn Write, path: &Path, spec: &BookSpec, positions: usize, bytes: usize) -> anyhow::Result<()> {
    writeln!(
        out,
        "Wrote {}: {positions} positions up to {} moves from '{}', {bytes} bytes.",
        path.display(),
        spec.depth,
        spec.root
    )?;
    Ok(())
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
pub fn merge_books(files: &[PathBuf], book_path: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    atomic::check(book_path)?;
    let mut first: Option<(&Path, BookSpec)> = None;
    let mut shards = Vec::new();
    // Each position's value and the file that gave it first.
    let mut values: HashMap<u64, (i32, &Path)> = HashMap::new();
    for path in files {
        let progress = read_progress(path).map_err(|error| match error {
            ProgressError::Absent => anyhow!("cannot read {}: no such file", path.display()),
            ProgressError::Other(error) => error,
        })?;
        let Some((spec, shard)) = parse_header(&progress.header) else {
            bail!("{} is not a book's progress file: its first line is '{}'", path.display(), progress.header);
        };
        match &first {
            Some((first_path, first_spec)) if *first_spec != spec => bail!(
                "{} is the progress of another build ({spec}) than {} ({first_spec}): merge the files of one build",
                path.display(),
                first_path.display()
            ),
            Some(_) => {}
            None => first = Some((path, spec)),
        }
        shards.push(shard);
        for (key, value) in progress.values {
            match values.entry(key) {
                Entry::Occupied(entry) if entry.get().0 != value => bail!(
                    "{} and {} give the position {key} different values ({} and {value}): they cannot both be right",
                    entry.get().1.display(),
                    path.display(),
                    entry.get().0
                ),
                Entry::Occupied(_) => {}
                Entry::Vacant(entry) => {
                    entry.insert((value, path));
                }
            }
        }
    }
    let (_, spec) = first.ok_or_else(|| anyhow!("no progress file to merge"))?;
    let layers = layers(&spec)?;
    let keys: Vec<u64> = layers.deepest_keys().collect();
    let places: HashMap<u64, usize> = keys.iter().enumerate().map(|(place, &key)| (key, place)).collect();
    if let Some((key, (_, path))) = values.iter().find(|(key, _)| !places.contains_key(key)) {
        bail!(
            "{} names the position {key}, which is not {} moves from '{}': the file is damaged",
            path.display(),
            spec.depth,
            spec.root
        );
    }
    let deepest: HashMap<u64, i32> = values.iter().map(|(&key, &(value, _))| (key, value)).collect();
    let book = layers.book(&deepest).map_err(|missing| {
        let families = layers.families();
        let missing: Vec<usize> = missing.iter().map(|&place| families[place]).collect();
        anyhow!(
            "cannot write {}: {} of the {} positions {} moves from the root are in none of the files{}",
            book_path.display(),
            missing.len(),
            keys.len(),
            spec.depth,
            absent_shards(&shards, &missing)
        )
    })?;
    let bytes = book.to_bytes();
    atomic::write(book_path, &bytes)?;
    wrote(out, book_path, &spec, book.len(), bytes.len())
}

/// Which shards the positions missing belong to, given by their families'
/// places (one for each position), when every file given was a shard of
/// one count N: `; no file of shards 3/8, 5/8; shard 2/8's lacks 5 (run it
/// again: it resumes)`. Empty otherwise.
fn absent_shards(given: &[Option<Shard>], missing: &[usize]) -> String {
    let Some(Some(count)) = given.first().map(|shard| shard.map(Shard::count)) else { return String::new() };
    if !given.iter().all(|shard| shard.is_some_and(|shard| shard.count() == count)) {
        return String::new();
    }
    let mut lacking: Vec<(Shard, usize)> = Vec::new();
    for &family in missing {
        let shard = Shard::of_place(family, count);
        match lacking.iter_mut().find(|(seen, _)| *seen == shard) {
            Some((_, lacks)) => *lacks += 1,
            None => lacking.push((shard, 1)),
        }
    }
    lacking.sort_by_key(|(shard, _)| shard.index());
    let (absent, short): (Vec<_>, Vec<_>) = lacking.iter().partition(|(shard, _)| !given.contains(&Some(*shard)));
    let mut text = String::new();
    if !absent.is_empty() {
        let names: Vec<String> = absent.iter().map(|(shard, _)| shard.to_string()).collect();
        text.push_str(&format!("; no file of shard{} {}", if names.len() == 1 { "" } else { "s" }, names.join(", ")));
    }
    for (shard, lacks) in short {
        text.push_str(&format!("; shard {shard}'s file lacks {lacks} (run it again: it resumes)"));
    }
    text
}

/// Opens the progress file at `path` of the build whose first line is
/// `header` for appending, locked for this build alone, and reads what an
/// earlier run of it solved; a new file gets the header.
///
/// # Errors
/// When the file is not a regular file, cannot be read or written, is the
/// progress of another build, or another build holds it (the same shard
/// run twice at once).
fn open_progress(path: &Path, header: &str) -> anyhow::Result<(File, HashMap<u64, i32>)> {
    let cannot = || format!("cannot write {}", path.display());
    // Read before it is opened for writing: a named pipe or another build's
    // file is refused untouched.
    read_known(path, header)?;
    let mut file = OpenOptions::new().create(true).append(true).open(path).with_context(cannot)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            bail!("{} is being written by another build of the same book: let it finish", path.display())
        }
        Err(TryLockError::Error(error)) => return Err(error).with_context(cannot),
    }
    // Read again now that no other build writes it.
    let (known, whole_lines) = read_known(path, header)?;
    // A last line cut short (the build stopped while writing it) goes, so
    // that the next line starts a line of its own.
    file.set_len(whole_lines).with_context(cannot)?;
    if whole_lines == 0 {
        writeln!(file, "{header}").with_context(cannot)?;
    }
    Ok((file, known))
}

/// The values the progress file at `path` gives and the bytes of its whole
/// lines, if it is the progress of the build whose first line is `header`;
/// none for no file (or no whole line).
///
/// # Errors
/// When the file cannot be read or is another build's.
fn read_known(path: &Path, header: &str) -> anyhow::Result<(HashMap<u64, i32>, u64)> {
    match read_progress(path) {
        Ok(progress) if progress.header == header => Ok((progress.values, progress.whole_lines)),
        // Not one whole line: a build stopped before its first.
        Ok(progress) if progress.header.is_empty() => Ok((HashMap::new(), 0)),
        Ok(progress) => bail!(
            "{} is the progress of another build ('{}', not '{header}'): remove it, or build what it names",
            path.display(),
            progress.header
        ),
        Err(ProgressError::Absent) => Ok((HashMap::new(), 0)),
        Err(ProgressError::Other(error)) => Err(error),
    }
}

/// The progress file of a build writing `out`: `OUT.progress`, or a
/// shard's, `OUT.shard-I-of-N.progress`.
fn progress_path(out: &Path, shard: Option<Shard>) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    if let Some(shard) = shard {
        name.push(format!(".shard-{}-of-{}", shard.index(), shard.count()));
    }
    name.push(".progress");
    PathBuf::from(name)
}

/// A progress file read: its first line and the values it gives, by key.
struct Progress {
    header: String,
    values: HashMap<u64, i32>,
    /// Bytes of its whole lines: a last line cut short lies beyond them.
    whole_lines: u64,
}

/// Why a progress file was not read.
enum ProgressError {
    /// There is none.
    Absent,
    Other(anyhow::Error),
}

impl From<anyhow::Error> for ProgressError {
    fn from(error: anyhow::Error) -> ProgressError {
        ProgressError::Other(error)
    }
}

/// The progress file at `path`. A last line cut short (the build stopped
/// while writing it) is ignored; an empty file is a header of its own
/// (none), which no build names.
///
/// # Errors
/// When the file is absent, cannot be read, or has a bad line: not `KEY
/// VALUE` with a value within the rules' scores, or a key given two values.
fn read_progress(path: &Path) -> Result<Progress, ProgressError> {
    let file = match crate::bounded::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Err(ProgressError::Absent),
        Err(error) => return Err(anyhow!(error).context(format!("cannot read {}", path.display())).into()),
    };
    let mut reader = BufReader::new(file);
    let mut lines = Vec::new();
    let mut whole_lines = 0;
    loop {
        let mut line = String::new();
        let read = reader.read_line(&mut line).with_context(|| format!("cannot read {}", path.display()))?;
        if read == 0 || !line.ends_with('\n') {
            break;
        }
        whole_lines += read as u64;
        lines.push(line.trim_end().to_owned());
    }
    let Some(header) = lines.first().cloned() else {
        return Ok(Progress { header: String::new(), values: HashMap::new(), whole_lines });
    };
    // Values beyond either rules' scores are refused here; a file naming
    // its rules is held to theirs.
    let largest = parse_header(&header)
        .map_or(largest_value(Rules::Max).max(largest_value(Rules::Classic)), |(spec, _)| largest_value(spec.rules));
    let mut values = HashMap::new();
    for (number, line) in (2..).zip(&lines[1..]) {
        let parsed = line.split_once(' ').and_then(|(key, value)| Some((key.parse().ok()?, value.parse().ok()?)));
        let Some((key, value)) = parsed.filter(|&(_, value): &(u64, i32)| value.abs() <= largest) else {
            let error =
                anyhow!("{}, line {number}: expected 'KEY VALUE', found '{}'", path.display(), line.escape_debug());
            return Err(error.into());
        };
        if values.insert(key, value).is_some_and(|earlier| earlier != value) {
            let error = anyhow!("{}, line {number}: the position {key} again, with another value", path.display());
            return Err(error.into());
        }
    }
    Ok(Progress { header, values, whole_lines })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_progress_header_names_the_build_and_the_shard() {
        let spec = BookSpec { rules: Rules::Max, root: "44".to_owned(), depth: 3 };
        let shard: Shard = "2/8".parse().unwrap();
        let line = header(&spec, Some(shard));
        assert_eq!(line, "maxconnect4 book progress: rules max, root '44', depth 3, shard 2/8");
        assert_eq!(parse_header(&line), Some((spec.clone(), Some(shard))));
        assert_eq!(parse_header(&header(&spec, None)), Some((spec, None)));
        for bad in [
            "maxconnect4 book progress: root '44' depth 3",
            "maxconnect4 book progress: rules max, root '44', depth 3, shard 8/8",
            "maxconnect4 book progress: rules max, root '44', depth x",
            "maxconnect4 book progress: rules max, root '44', depth 3, shard 1/8, more",
        ] {
            assert_eq!(parse_header(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_shards_progress_file_is_named_for_it() {
        assert_eq!(progress_path(Path::new("b/max.book"), None), Path::new("b/max.book.progress"));
        let shard = "2/8".parse().ok();
        assert_eq!(progress_path(Path::new("max.book"), shard), Path::new("max.book.shard-2-of-8.progress"));
    }

    #[test]
    fn a_progress_file_is_read_to_its_last_whole_line_and_bad_lines_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.progress");
        let spec = BookSpec { rules: Rules::Classic, root: String::new(), depth: 1 };
        let first = header(&spec, None);
        let read = |text: &str| {
            std::fs::write(&path, text).unwrap();
            match read_progress(&path) {
                Ok(progress) => Ok((progress.header, progress.values.len(), progress.whole_lines)),
                Err(ProgressError::Absent) => Err("absent".to_owned()),
                Err(ProgressError::Other(error)) => Err(error.to_string().replace(&path.display().to_string(), "FILE")),
            }
        };
        let whole = format!("{first}\n12 3\n13 -3\n");
        assert_eq!(read(&format!("{whole}14")), Ok((first.clone(), 2, whole.len() as u64)), "a cut line is not read");
        assert_eq!(read(&format!("{whole}12 3\n")), Ok((first.clone(), 2, whole.len() as u64 + 5)), "a line again");
        assert_eq!(read(""), Ok((String::new(), 0, 0)));
        assert_eq!(
            read(&format!("{whole}12 4\n")),
            Err("FILE, line 4: the position 12 again, with another value".into())
        );
        assert_eq!(read(&format!("{whole}12 19\n")), Err("FILE, line 4: expected 'KEY VALUE', found '12 19'".into()));
        let max = header(&BookSpec { rules: Rules::Max, ..spec }, None);
        assert_eq!(read(&format!("{max}\n12 19\n")).map(|read| read.1), Ok(1), "a Max value beyond a classic score");
        std::fs::remove_file(&path).unwrap();
        assert_eq!(read_progress(&path).err().map(|error| matches!(error, ProgressError::Absent)), Some(true));
    }

    #[test]
    fn missing_positions_name_the_shards_that_lack_them() {
        let shard = |text: &str| Some(text.parse::<Shard>().unwrap());
        let given = [shard("0/4"), shard("2/4")];
        // Positions of families 1, 5 (shard 1/4), 3 (3/4) and 6 (2/4, whose
        // file is short).
        assert_eq!(
            absent_shards(&given, &[1, 3, 5, 6]),
            "; no file of shards 1/4, 3/4; shard 2/4's file lacks 1 (run it again: it resumes)"
        );
        assert_eq!(absent_shards(&given, &[1]), "; no file of shard 1/4");
        assert_eq!(absent_shards(&[shard("0/4"), None], &[1]), "", "a whole build's file among them");
        assert_eq!(absent_shards(&[shard("0/4"), shard("1/3")], &[1]), "", "shards of different counts");
    }
}
