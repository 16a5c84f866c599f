//! Building an opening book under either rules, everything but the files:
//! which positions of the deepest layer a build or a shard of one solves
//! ([`places`]), solving them ([`solve`]: the positions asked for, taken
//! from one queue by threads a family (the siblings among them) at a time,
//! each thread with an engine of its own ([`Engine`], one search thread
//! each) whose table carries over from one position to the next), and a
//! build's progress file as data: its first line, which names the build
//! ([`progress_header`]), and its `KEY VALUE MOVE` lines
//! ([`progress_values`]).
//! The rest of a book, the layers above, is negamax over the deepest
//! ([`Layers::book`]); reading and writing the files, and which positions
//! an earlier run solved, are the modes' work.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Mutex;

use super::layers::Layers;
use super::{BookSpec, Known, key_column, largest_value};
use crate::classic::Position;
use crate::engine::Engine;
use crate::request::Strength;
use crate::table::TableTooLarge;
use maxconnect4_game::board::Column;
use maxconnect4_game::rules::Rules;
use maxconnect4_game::shard::Shard;

/// The first words of a progress file's first line.
const PROGRESS_HEADER: &str = "maxconnect4 book progress: ";

/// The first line of the progress file of `shard` of the build of `spec`
/// (all of it with no shard).
#[must_use]
pub fn progress_header(spec: &BookSpec, shard: Option<Shard>) -> String {
    let mut header = format!("{PROGRESS_HEADER}{spec}");
    if let Some(shard) = shard {
        header.push_str(&format!(", shard {shard}"));
    }
    header
}

/// The build and the shard a progress file's first line names, if it is one.
#[must_use]
pub fn parse_progress_header(line: &str) -> Option<(BookSpec, Option<Shard>)> {
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

/// Why a line of a progress file is refused; `line` counts from 1, the
/// header being line 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProgressLineError {
    /// Not `KEY VALUE MOVE` or `KEY VALUE`, or a value beyond the scores.
    #[error("line {line}: expected 'KEY VALUE MOVE' (or 'KEY VALUE'), found '{}'", .text.escape_debug())]
    Malformed {
        /// The line's number in the file.
        line: usize,
        /// The line as read.
        text: String,
    },
    /// A key an earlier line gave another value.
    #[error("line {line}: the position {key} again, with another value")]
    Again {
        /// The line's number in the file.
        line: usize,
        /// The position's key, as the line writes it.
        key: u64,
    },
}

/// Whether a build under `rules` records a best move with each value.
/// Under Max-Connect4 rules the move comes free (the value's proof is its
/// first best move's: `best_move` and the value alone are one search), and
/// knowing the value alone, finding a move for the first player took most
/// of a solve (`223665`: 269 M nodes of 277 M). The classic solver would
/// test every other column for it, and finds one at play time in well
/// under a second 8 moves deep, where the shipped classic book ends.
#[must_use]
pub const fn records_moves(rules: Rules) -> bool {
    matches!(rules, Rules::Max)
}

/// Of two best moves given for one position (moves that tie), the one a
/// book keeps, whatever the order they came in: the leftmost.
#[must_use]
pub fn either_best(one: Option<Column>, other: Option<Column>) -> Option<Column> {
    match (one, other) {
        (Some(one), Some(other)) => Some(if other.index() < one.index() { other } else { one }),
        _ => one.or(other),
    }
}

/// A progress file's line for a position solved: `KEY VALUE MOVE`, the
/// move a column number in the columns of the position the key names
/// (`KEY VALUE` where the build records no move: see [`records_moves`]).
#[must_use]
pub fn progress_line(solved: &Solved) -> String {
    match solved.best {
        Some(best) => format!("{} {} {}", solved.key, solved.value, best.number()),
        None => format!("{} {}", solved.key, solved.value),
    }
}

/// What a progress file's lines after its `header` give, by key: the
/// value and, from `KEY VALUE MOVE` lines, a best move (`KEY VALUE` lines,
/// which earlier builds wrote, have none). Values beyond either rules'
/// scores are refused; a file whose header names its rules is held to
/// theirs.
///
/// # Errors
/// A line that is not `KEY VALUE` or `KEY VALUE MOVE` with a value within
/// the scores and a column 1 to 7, or a key given two values.
pub fn progress_values(header: &str, lines: &[String]) -> Result<HashMap<u64, Known>, ProgressLineError> {
    let largest = parse_progress_header(header)
        .map_or(largest_value(Rules::Max).max(largest_value(Rules::Classic)), |(spec, _)| largest_value(spec.rules));
    let mut values: HashMap<u64, Known> = HashMap::new();
    for (number, line) in (2..).zip(lines) {
        let Some((key, known)) = parse_progress_line(line).filter(|(_, known)| known.value.abs() <= largest) else {
            return Err(ProgressLineError::Malformed { line: number, text: line.clone() });
        };
        let earlier = values.entry(key).or_insert(known);
        if earlier.value != known.value {
            return Err(ProgressLineError::Again { line: number, key });
        }
        earlier.best = either_best(earlier.best, known.best);
    }
    Ok(values)
}

/// A progress line's key, value and best move, if it is one.
fn parse_progress_line(line: &str) -> Option<(u64, Known)> {
    let mut words = line.split(' ');
    let key = words.next()?.parse().ok()?;
    let value = words.next()?.parse().ok()?;
    let best = match words.next() {
        Some(word) => Some(Column::from_number(word.parse().ok()?)?),
        None => None,
    };
    words.next().is_none().then_some((key, Known { value, best }))
}

/// The places in the deepest layer of `layers` that a build solves: all of
/// them, or with a shard the whole families it holds (siblings solved one
/// after another on one table share much of their trees: see [`solve`]).
#[must_use]
pub fn places(layers: &Layers, shard: Option<Shard>) -> Vec<usize> {
    let families = layers.families();
    (0..families.len()).filter(|&place| shard.is_none_or(|shard| shard.holds(families[place]))).collect()
}

/// Which shards the positions missing belong to, given by their families'
/// places (one for each position), when every file given was a shard of
/// one count N: `; no file of shards 3/8, 5/8; shard 2/8's lacks 5 (run it
/// again: it resumes)`. Empty otherwise.
#[must_use]
pub fn absent_shards(given: &[Option<Shard>], missing: &[usize]) -> String {
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

/// One position of the deepest layer solved, as [`solve`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Its place in the deepest layer's list.
    pub place: usize,
    /// Its key in the book.
    pub key: u64,
    /// Its exact value for the player to move.
    pub value: i32,
    /// One best move, in the columns of the position `key` names, where
    /// the build records it ([`records_moves`]).
    pub best: Option<Column>,
    /// Positions visited by the search of this one.
    pub nodes: u64,
}

/// Solves the positions at `places` of `layers`' deepest layer with
/// `threads` threads, each with a table of `hash_bytes`, taking them in the
/// order given, a thread all the siblings next to each other in `places`:
/// siblings share much of their trees, and a sibling solved after another
/// on the same table took half the nodes and 1.8 times less time (the
/// seven positions `111x` of the Max book 4 moves deep, on one thread, took
/// 315 s in all each on a new table and 175 s one after another on one,
/// measured with `examples/max_solve.rs`). Neighbouring families share
/// much too (their parents are siblings), so each thread takes a run of
/// families of its own (see [`Runs`]). Each is reported to `on_solved` from the
/// thread that solved it, as soon as it is.
///
/// # Errors
/// When a table cannot be had.
pub fn solve(
    layers: &Layers,
    places: &[usize],
    threads: usize,
    hash_bytes: usize,
    on_solved: &(dyn Fn(Solved) + Sync),
) -> Result<(), TableTooLarge> {
    let keys: Vec<u64> = layers.deepest_keys().collect();
    let engines: Vec<Engine> = (0..threads.clamp(1, places.len().max(1)))
        .map(|_| Engine::with_book(layers.spec().rules, hash_bytes, None))
        .collect::<Result<_, _>>()?;
    let family = layers.families();
    let families: Vec<&[usize]> = places.chunk_by(|&one, &next| family[one] == family[next]).collect();
    let runs = Runs::new(families.len(), engines.len());
    let records_moves = records_moves(layers.spec().rules);
    std::thread::scope(|scope| {
        for (thread, mut engine) in engines.into_iter().enumerate() {
            let (runs, keys, families) = (&runs, &keys, &families);
            scope.spawn(move || {
                engine.set_threads(1);
                while let Some(family) = runs.next(thread).map(|index| families[index]) {
                    for &place in family {
                        let board = layers.board(place);
                        let (value, best, nodes) = if records_moves {
                            // The move is the first, in the root's order, that
                            // reaches the value: the same in any build, since
                            // the table never holds a move for the root (no
                            // position of the layer is in another's tree).
                            let solved = engine.best_move(&board, None).expect("no time limit, and a strong solve");
                            let best = solved.best.first().map(|&best| key_column(&Position::of(&board), best));
                            (solved.value, best, solved.nodes)
                        } else {
                            let solved = engine.exact_value(&board, Strength::Strong, None).expect("a strong solve");
                            (solved.value, None, solved.nodes)
                        };
                        on_solved(Solved { place, key: keys[place], value, best, nodes });
                    }
                }
            });
        }
    });
    Ok(())
}

/// The families (by index) each thread of a build has yet to solve: a run
/// of neighbours each, taken from its front, so that a thread's table
/// holds what its next family shares with the one before. A thread whose
/// run is done takes the back half of the longest run left.
///
/// Handing out families one at a time, in turn, left each thread every
/// other family: 28 positions of the Max book 6 moves deep (seven
/// families from `223665`, one thread, values alone) took 1.93 G nodes
/// each family on a new table and 1.61 G one after another on one table.
struct Runs {
    runs: Mutex<Vec<Range<usize>>>,
}

impl Runs {
    /// `families` shared out among `threads` runs, as even as can be.
    fn new(families: usize, threads: usize) -> Runs {
        let runs = (0..threads).map(|thread| families * thread / threads..families * (thread + 1) / threads).collect();
        Runs { runs: Mutex::new(runs) }
    }

    /// The next family for `thread`, if any is left.
    fn next(&self, thread: usize) -> Option<usize> {
        // A thread that panicked held the lock only to take a family.
        let mut runs = self.runs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if runs[thread].is_empty() {
            let longest = (0..runs.len()).max_by_key(|&other| runs[other].len())?;
            let Range { start, end } = runs[longest].clone();
            let middle = start + (end - start) / 2;
            runs[longest].end = middle;
            runs[thread] = middle..end;
        }
        runs[thread].next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_progress_header_names_the_build_and_the_shard() {
        let spec = BookSpec { rules: Rules::Max, root: "44".to_owned(), depth: 3 };
        let shard: Shard = "2/8".parse().unwrap();
        let line = progress_header(&spec, Some(shard));
        assert_eq!(line, "maxconnect4 book progress: rules max, root '44', depth 3, shard 2/8");
        assert_eq!(parse_progress_header(&line), Some((spec.clone(), Some(shard))));
        assert_eq!(parse_progress_header(&progress_header(&spec, None)), Some((spec, None)));
        for bad in [
            "maxconnect4 book progress: root '44' depth 3",
            "maxconnect4 book progress: rules max, root '44', depth 3, shard 8/8",
            "maxconnect4 book progress: rules max, root '44', depth x",
            "maxconnect4 book progress: rules max, root '44', depth 3, shard 1/8, more",
        ] {
            assert_eq!(parse_progress_header(bad), None, "{bad}");
        }
    }

    #[test]
    fn progress_lines_give_values_and_best_moves() {
        let header = progress_header(&BookSpec { rules: Rules::Max, root: String::new(), depth: 1 }, None);
        let lines = |text: &str| text.lines().map(str::to_owned).collect::<Vec<_>>();
        let values = progress_values(&header, &lines("12 3 4\n13 -1\n13 -1 2\n12 3 5")).unwrap();
        assert_eq!(values[&12], Known { value: 3, best: Column::from_number(4) }, "the first move given");
        assert_eq!(values[&13], Known { value: -1, best: Column::from_number(2) }, "a move given later");
        for bad in ["12 3 8", "12 3 0", "12 3 4 5", "12 3 x", "12 3 "] {
            let refused = progress_values(&header, &lines(bad));
            assert!(matches!(refused, Err(ProgressLineError::Malformed { line: 2, .. })), "{bad}");
        }
        let solved = Solved { place: 0, key: 12, value: 3, best: Column::from_number(4), nodes: 9 };
        assert_eq!(progress_line(&solved), "12 3 4");
        assert_eq!(progress_line(&Solved { best: None, ..solved }), "12 3");
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

    #[test]
    fn each_thread_takes_a_run_of_neighbours_then_half_of_the_longest_left() {
        let runs = Runs::new(10, 3);
        let mut taken = Vec::new();
        let mut take = |thread| {
            let family = runs.next(thread);
            taken.extend(family);
            family
        };
        // The runs are 0..3, 3..6 and 6..10.
        assert_eq!([take(0), take(0), take(2)], [Some(0), Some(1), Some(6)]);
        assert_eq!([take(1), take(1), take(1)], [Some(3), Some(4), Some(5)]);
        // Thread 1's run is done: it takes 8..10 of thread 2's 7..10.
        assert_eq!([take(1), take(2), take(2)], [Some(8), Some(7), Some(9)]);
        assert_eq!([take(0), take(0), take(1), take(2)], [Some(2), None, None, None]);
        taken.sort_unstable();
        assert_eq!(taken, (0..10).collect::<Vec<_>>(), "every family once");
    }

    #[test]
    fn threads_and_shards_solve_the_same_values_as_one_thread() {
        let spec = BookSpec { rules: Rules::Classic, root: "52753311433677442422121".to_owned(), depth: 2 };
        let layers = Layers::new(&spec).unwrap();
        let all: Vec<usize> = (0..layers.deepest_keys().count()).collect();
        let run = |places: &[usize], threads| {
            let values = Mutex::new(HashMap::new());
            solve(&layers, places, threads, 1 << 20, &|solved| {
                let known = Known { value: solved.value, best: solved.best };
                assert_eq!(values.lock().unwrap().insert(solved.key, known), None, "solved once");
            })
            .unwrap();
            values.into_inner().unwrap()
        };
        let one = run(&all, 1);
        assert_eq!(one.len(), all.len());
        let mut shards = HashMap::new();
        for index in 0..3 {
            let shard: Vec<usize> = all.iter().copied().filter(|place| place % 3 == index).collect();
            shards.extend(run(&shard, 2));
        }
        assert_eq!(shards, one);
        assert_eq!(layers.book(&shards).unwrap(), layers.book(&one).unwrap());
    }
}
