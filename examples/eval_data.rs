//! Positions labelled with how the game really ends, to fit the evaluation's
//! weights to (see `examples/eval_fit.rs` and `docs/evaluation.md`).
//!
//! Each game starts with a few random moves (none to twelve), then both sides
//! are played by the engine at a depth drawn per game and per side (1 to 8),
//! with one move in ten random, so that the positions cover every stage and
//! both good and bad play. Positions are labelled with the final score
//! difference, player 1 minus player 2, in points:
//! - from 24 empty cells on, some positions of every game (up to four, drawn
//!   at random) are solved exactly, and so labelled with perfect play's result;
//! - earlier positions, where solving takes too long, are labelled with the
//!   exact value of the position the game reached at 24 empty cells: the
//!   result of the game's own continuation, then perfect play.
//!
//! Output, one position a line: `MOVES LABEL KIND`, with MOVES the columns
//! played from the empty board (1 to 7), and KIND `exact` or `game`.
//! The same seed gives the same lines.
//!
//! Run: `cargo run --release --example eval_data -- GAMES SEED > eval.txt`

use maxconnect4::moves::Moves;
use std::io::Write;

use maxconnect4::board::{Board, Column};
use maxconnect4::search::{Engine, Limits, Strength};

/// Positions with this many empty cells or fewer are solved exactly: about
/// 0.05 s each (`solve input_files/solve/empty24_a.txt`).
const SOLVE_EMPTY: u32 = 24;

/// Positions solved per game, at most.
const SOLVED_PER_GAME: usize = 4;

/// The fewest empty cells a labelled position has: later ones hold too few
/// open windows to teach the weights anything.
const MIN_EMPTY: u32 = 4;

/// A small, seeded generator (SplitMix64): the data must not change with a
/// crate's version.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number from 0 to `n - 1`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn usage() -> ! {
    eprintln!("usage: eval_data GAMES SEED");
    std::process::exit(2);
}

fn main() -> anyhow::Result<()> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let [games, seed] = arguments.as_slice() else { usage() };
    let (Ok(games), Ok(seed)) = (games.parse::<u64>(), seed.parse::<u64>()) else { usage() };
    let mut random = Random(seed);
    let mut engine = Engine::max_without_book(16 << 20);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for _ in 0..games {
        for line in play_game(&mut random, &mut engine) {
            writeln!(out, "{line}")?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Plays one game and returns its labelled positions' lines.
fn play_game(random: &mut Random, engine: &mut Engine) -> Vec<String> {
    let random_moves = random.below(13) as u32;
    let depths = [1 + random.below(8) as u32, 1 + random.below(8) as u32];
    let mut board = Board::empty();
    let mut moves = String::new();
    // Every position of the game, as a move string.
    let mut positions = Vec::new();
    while !board.is_full() {
        positions.push(moves.clone());
        let legal: Vec<Column> = board.legal_columns().collect();
        let column = if board.pieces_played() < random_moves || random.below(10) == 0 {
            legal[random.below(legal.len() as u64) as usize]
        } else {
            let depth = depths[board.to_move().index()];
            engine.search(&board, &Limits::depth(depth)).expect("the board is not full").column
        };
        board.play(column);
        moves.push(char::from(b'0' + column.number() as u8));
    }
    let board_of = |moves: &str| Moves::board(maxconnect4::rules::Rules::Max, moves).expect("a game's moves");
    let mut solve = |board: &Board| {
        let value = engine.solve(board, Strength::Strong, None).expect("no time limit").value;
        // `solve` gives the mover's view; labels are player 1's.
        match board.to_move() {
            maxconnect4::player::Player::One => value,
            maxconnect4::player::Player::Two => -value,
        }
    };
    let at_solve_empty = &positions[(42 - SOLVE_EMPTY) as usize];
    let game_label = solve(&board_of(at_solve_empty));
    let mut lines = Vec::new();
    // The empty board (no moves) says nothing a weight could learn.
    for moves in &positions[1..(42 - SOLVE_EMPTY) as usize] {
        lines.push(format!("{moves} {game_label} game"));
    }
    // The solved positions: drawn without repeats from those with
    // SOLVE_EMPTY to MIN_EMPTY empty cells.
    let mut candidates: Vec<&String> =
        positions[(42 - SOLVE_EMPTY) as usize..=(42 - MIN_EMPTY) as usize].iter().collect();
    for _ in 0..SOLVED_PER_GAME {
        let moves = candidates.swap_remove(random.below(candidates.len() as u64) as usize);
        lines.push(format!("{moves} {} exact", solve(&board_of(moves))));
    }
    lines
}
