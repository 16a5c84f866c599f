//! The ways the program is run from the command line. Unlike the core, these
//! read and write files, the terminal and the clock.

mod bench;
pub mod book;
pub mod bot;
mod error;
mod interactive;
mod one_move;
mod position;
mod progress;
mod settings;
mod study;
mod thinking;

pub use bench::{bench, BENCH_POSITIONS, CLASSIC_BENCH_POSITIONS, DEEP_BENCH_POSITIONS};
pub use book::{build_book, list_book, merge_books, read_book, read_book_for, BookBuild, BookChoice};
pub use error::Error;
pub use interactive::{interactive, FirstMove};
pub use one_move::one_move;
pub use position::{save_board, Source};
pub use settings::{default_threads, EngineSettings, Play};
pub use study::{analyse, perft, solve, solve_batch, AnalyseOptions, AnalysisJson, SolveOptions};
