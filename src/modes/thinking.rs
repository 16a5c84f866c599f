//! A search as the modes run it and word it: timed in CPU time, announced
//! and shown while it runs on a terminal, and reported in one line.

use std::io::{self, Write};
use std::time::Duration;

use super::progress;
use super::settings::Play;
use crate::board::Board;
use crate::search::{Analysis, Chosen, Engine, Limits, PerfectMove, SearchResult};

/// A search for the computer's move with the CPU time it took.
pub(super) struct Thought {
    pub(super) result: SearchResult,
    pub(super) cpu: Duration,
    /// Playing perfectly: how the move was chosen, and the exact value in
    /// points or score where it is known.
    perfect: Option<(Chosen, i32)>,
    /// Whether the move had a time limit.
    timed: bool,
}

/// Chooses a move on `board` (which must not be finished) within `limits`
/// as `play` says, timing the search in CPU time of all its threads. On a
/// terminal, a search that will plainly take long is announced on stderr
/// first, and a long one shows its progress there.
pub(super) fn think(engine: &mut Engine, board: &Board, limits: &Limits, play: Play) -> Thought {
    let start = cpu_time::ProcessTime::now();
    let progress = engine.progress();
    let unit = Analysis::unit(engine.rules());
    let played = match play {
        Play::Search => None,
        Play::BookThenSearch => engine.book_move(board).map(|result| PerfectMove { result, chosen: Chosen::Book }),
        Play::Perfect => Some(progress::while_searching(&progress, || {
            engine.play_perfectly(board, limits).expect("the game is not over")
        })),
    };
    if let Some(played) = played {
        let perfect = Some((played.chosen, played.result.value / unit));
        return Thought { result: played.result, cpu: start.elapsed(), perfect, timed: limits.time_limit.is_some() };
    }
    progress::warn_if_long(engine, board, limits, &mut io::stderr());
    let result = progress::while_searching(&progress, || engine.search(board, limits).expect("the board is not full"));
    Thought { result, cpu: start.elapsed(), perfect: None, timed: limits.time_limit.is_some() }
}

impl Thought {
    /// One line a student can copy figures from; playing perfectly, one
    /// before it that says how the move was chosen.
    pub(super) fn report(&self, out: &mut dyn Write) -> io::Result<()> {
        let SearchResult { nodes, depth, .. } = self.result;
        match self.perfect {
            Some((Chosen::Book, value)) => {
                return writeln!(out, "Perfect play from the opening book: the position's value is {value}.");
            }
            Some((Chosen::Solved, value)) => writeln!(out, "Perfect play, solved: the position's value is {value}.")?,
            Some((Chosen::Searched, _)) => writeln!(
                out,
                "Not perfect play: the book does not hold the position's best moves and {}; \
                 the depth-limited search's move.",
                if self.timed {
                    "the solve did not finish within nine tenths of the time limit"
                } else {
                    "there is no time limit to solve within"
                }
            )?,
            None => {}
        }
        writeln!(out, "Searched {nodes} nodes to depth {depth} in {}.", cpu_and_rate(nodes, self.cpu))
    }
}

/// `1 thread`, `2 threads`.
pub(super) fn threads_phrase(threads: usize) -> String {
    format!("{threads} thread{}", if threads == 1 { "" } else { "s" })
}

/// `X s of CPU time (Y M nodes/s)`.
pub(super) fn cpu_and_rate(nodes: u64, cpu: Duration) -> String {
    let seconds = cpu.as_secs_f64();
    let rate = if seconds > 0.0 {
        format!("{:.1} M nodes/s", nodes as f64 / seconds / 1e6)
    } else {
        "too fast to time".to_owned()
    };
    format!("{seconds:.6} s of CPU time ({rate})")
}
