//! Solving the deepest layer of an opening book under either rules: the
//! positions asked for, taken from one queue by threads a family (the
//! siblings among them) at a time, each thread with an engine of its own
//! ([`Engine`], one search thread each) whose table carries over from one
//! position to the next. The rest of a book, the layers above,
//! is negamax over it ([`Layers::book`](super::book::Layers::book)); which
//! positions a run solves (a shard, those an earlier run did not) is its
//! caller's to say.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::book::Layers;
use super::engine::Engine;
use super::request::Strength;
use super::table::TableTooLarge;

/// One position of the deepest layer solved, as [`solve`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Its place in the deepest layer's list.
    pub place: usize,
    /// Its key in the book.
    pub key: u64,
    /// Its exact value for the player to move.
    pub value: i32,
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
/// measured with `examples/max_solve.rs`). Each is reported to `on_solved` from the
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
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for mut engine in engines {
            let (next, keys, families) = (&next, &keys, &families);
            scope.spawn(move || {
                engine.set_threads(1);
                while let Some(&family) = families.get(next.fetch_add(1, Ordering::Relaxed)) {
                    for &place in family {
                        let solved = engine
                            .exact_value(&layers.board(place), Strength::Strong, None)
                            .expect("no time limit, and a strong solve under either rules");
                        on_solved(Solved { place, key: keys[place], value: solved.value, nodes: solved.nodes });
                    }
                }
            });
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::search::book::BookSpec;
    use std::collections::HashMap;
    use std::sync::Mutex;

    #[test]
    fn threads_and_shards_solve_the_same_values_as_one_thread() {
        let spec = BookSpec { rules: Rules::Classic, root: "52753311433677442422121".to_owned(), depth: 2 };
        let layers = Layers::new(&spec).unwrap();
        let all: Vec<usize> = (0..layers.deepest_keys().count()).collect();
        let run = |places: &[usize], threads| {
            let values = Mutex::new(HashMap::new());
            solve(&layers, places, threads, 1 << 20, &|solved| {
                assert_eq!(values.lock().unwrap().insert(solved.key, solved.value), None, "solved once");
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
