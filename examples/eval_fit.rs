//! Fits the evaluation's weights to labelled positions (from
//! `examples/eval_data.rs`) by least squares, and measures what each
//! candidate feature adds.
//!
//! The evaluation predicts a position's final score difference (player 1
//! minus player 2) as the score so far plus a weight per open window by its
//! class. So the fit's target is the label minus the score so far, and its
//! unknowns are the weights. Feature sets are fitted in turn, each adding
//! one idea to the one before, on four games in five, and their errors are
//! measured on the fifth (whole games are held out, since a game's
//! positions share labels). Then the engine's set ([`maxconnect4::score::count`]) is
//! fitted on all the data and printed as the Rust constant to paste into
//! `src/features.rs`, with the error of the rounded weights the engine uses.
//!
//! The candidates after the engine's set were measured and not kept (the
//! `reports/evaluation.md` and `reports/eval_match.md` say why): weights
//! per phase of the game, more playable threats, and who holds the zugzwang.
//!
//! Run: `cargo run --release --example eval_fit -- [--solved-weight W] FILE...`;
//! with `--solved-weight W` each solved position counts W times in the fit.
//! FILE may also hold positions labelled by `examples/eval_relabel.rs`.

use maxconnect4::moves::Moves;
use std::fmt::Write as _;

use maxconnect4::bitboard::{column_cells, completing_cells, ALL_CELLS, CELLS};
use maxconnect4::board::Board;
use maxconnect4::features::{self, Weights, WindowClass, CLASSES, HAND_SET};
use maxconnect4::player::Player;
use maxconnect4::rules::Rules;
use maxconnect4::value::{Value, POINT};

/// One labelled position.
struct Sample {
    board: Board,
    /// Final score difference, player 1 minus player 2.
    label: f64,
    /// Whether the label is the position's own exact value.
    exact: bool,
    /// The game it comes from, counted from 0.
    game: usize,
    /// How many times it counts in the fit.
    weight: f64,
}

/// A candidate feature set: its name, and the features of a position for
/// player 1, in points.
type Design = fn(&Board) -> Vec<f64>;

fn main() -> anyhow::Result<()> {
    let mut files: Vec<String> = std::env::args().skip(1).collect();
    // How many times a solved position counts in the fit, against once for
    // a position labelled by its game's result.
    let mut solved_weight = 1.0;
    if files.first().is_some_and(|first| first == "--solved-weight") {
        let weight = files.get(1).and_then(|weight| weight.parse::<f64>().ok()).filter(|weight| *weight > 0.0);
        solved_weight = weight.unwrap_or_else(|| usage());
        files.drain(..2);
    }
    if files.is_empty() {
        usage();
    }
    let samples = read(&files, solved_weight)?;
    let exact = samples.iter().filter(|sample| sample.exact).count();
    println!(
        "{} positions ({exact} solved exactly) from {} games",
        samples.len(),
        samples.last().map_or(0, |s| s.game + 1)
    );
    println!();
    println!("| features | weights | test error, all | test error, solved | train error |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    let hand = |board: &Board| evaluation(board, &HAND_SET);
    let errors = |predict: &dyn Fn(&Board) -> f64, test: bool| rms_error(&samples, predict, test);
    println!(
        "| today's weights, 1, 4, 12 per 32 (not fitted) | 0 | {:.3} | {:.3} | {:.3} |",
        errors(&hand, true).0,
        errors(&hand, true).1,
        errors(&hand, false).0
    );
    for (name, design) in designs() {
        let weights = fit(&samples, design, |sample| sample.game % 5 != 4);
        let predict = |board: &Board| predict(board, design, &weights);
        let (test, test_exact) = errors(&predict, true);
        println!("| {name} | {} | {test:.3} | {test_exact:.3} | {:.3} |", weights.len(), errors(&predict, false).0);
    }
    println!();
    // The engine's features, fitted on everything.
    let weights = fit(&samples, engine_design, |_| true);
    let constant = to_constant(&weights);
    let in_32nds = |weights: &[f64]| {
        weights.iter().map(|weight| format!("{:.1}", weight * f64::from(POINT))).collect::<Vec<_>>().join(" ")
    };
    println!("Fitted weights in 32nds, before rounding: {}", in_32nds(&weights));
    let engine = |board: &Board| evaluation(board, &constant);
    println!(
        "The engine's weights (its features fitted on all the data, rounded to 32nds and kept between 0 and a \
         point): error {:.3} on all, {:.3} on the solved positions (today's: {:.3} and {:.3}).",
        rms_error(&samples, &engine, false).0,
        rms_error(&samples, &engine, false).1,
        rms_error(&samples, &hand, false).0,
        rms_error(&samples, &hand, false).1,
    );
    println!();
    println!("{}", rust_constant(&constant));
    Ok(())
}

/// What the windows short of complete add to the score so far in the
/// evaluation with `weights`, in points, for player 1.
fn evaluation(board: &Board, weights: &Weights) -> f64 {
    f64::from(maxconnect4::score::weigh(board, weights)) / f64::from(POINT) - score(board)
}

fn usage() -> ! {
    eprintln!("usage: eval_fit [--solved-weight W] FILE...");
    std::process::exit(2);
}

/// Reads `MOVES LABEL KIND` lines.
fn read(files: &[String], solved_weight: f64) -> anyhow::Result<Vec<Sample>> {
    let mut samples = Vec::new();
    let mut game = 0;
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|error| anyhow::anyhow!("{file}: {error}"))?;
        for (number, line) in text.lines().enumerate() {
            let bad = |what: &str| anyhow::anyhow!("{file}:{}: {what}", number + 1);
            let [moves, label, kind] = line.split(' ').collect::<Vec<_>>()[..] else {
                return Err(bad("expected MOVES LABEL KIND"));
            };
            let board = Moves::board(Rules::Max, moves).map_err(|error| bad(&error.to_string()))?;
            let label: f64 = label.parse().map_err(|_| bad("the label is not a number"))?;
            // `search`: a deep search's value (`examples/eval_relabel.rs`).
            let exact = match kind {
                "exact" => true,
                "game" | "search" => false,
                _ => return Err(bad("the kind is not 'exact', 'game' or 'search'")),
            };
            // A game's first position has one move.
            if moves.len() == 1 && !samples.is_empty() {
                game += 1;
            }
            let weight = if exact { solved_weight } else { 1.0 };
            samples.push(Sample { board, label, exact, game, weight });
        }
    }
    Ok(samples)
}

/// The score so far, player 1 minus player 2.
fn score(board: &Board) -> f64 {
    f64::from(board.score(Player::One)) - f64::from(board.score(Player::Two))
}

/// Root mean square error of `predict` against the labels: over all
/// positions and over the solved ones, on the test games or the others.
fn rms_error(samples: &[Sample], predict: &dyn Fn(&Board) -> f64, test: bool) -> (f64, f64) {
    let mut sums = [(0.0, 0usize); 2];
    for sample in samples.iter().filter(|sample| (sample.game % 5 == 4) == test) {
        let error = (score(&sample.board) + predict(&sample.board) - sample.label).powi(2);
        sums[0].0 += error;
        sums[0].1 += 1;
        if sample.exact {
            sums[1].0 += error;
            sums[1].1 += 1;
        }
    }
    let root = |(sum, n): (f64, usize)| (sum / n.max(1) as f64).sqrt();
    (root(sums[0]), root(sums[1]))
}

fn predict(board: &Board, design: Design, weights: &[f64]) -> f64 {
    design(board).iter().zip(weights).map(|(x, w)| x * w).sum()
}

/// Weighted least squares: the weights minimising the squared error of
/// `score + design · weights` against the labels of the samples chosen,
/// each counted its own weight's times.
fn fit(samples: &[Sample], design: Design, chosen: impl Fn(&Sample) -> bool) -> Vec<f64> {
    let mut normal: Vec<Vec<f64>> = Vec::new();
    let mut right: Vec<f64> = Vec::new();
    for sample in samples.iter().filter(|sample| chosen(sample)) {
        let x = design(&sample.board);
        if normal.is_empty() {
            normal = vec![vec![0.0; x.len()]; x.len()];
            right = vec![0.0; x.len()];
        }
        let target = sample.label - score(&sample.board);
        for i in 0..x.len() {
            right[i] += sample.weight * x[i] * target;
            for j in 0..x.len() {
                normal[i][j] += sample.weight * x[i] * x[j];
            }
        }
    }
    solve(normal, right)
}

/// Solves `a · x = b` by Gaussian elimination with partial pivoting; a tiny
/// ridge keeps a feature that never occurs from making `a` singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += 1e-6;
    }
    for column in 0..n {
        let pivot = (column..n).max_by(|&i, &j| a[i][column].abs().total_cmp(&a[j][column].abs())).expect("rows left");
        a.swap(column, pivot);
        b.swap(column, pivot);
        let (above, below) = a.split_at_mut(column + 1);
        let pivot_row = &above[column];
        for (offset, row) in below.iter_mut().enumerate() {
            let factor = row[column] / pivot_row[column];
            for (entry, pivot_entry) in row[column..].iter_mut().zip(&pivot_row[column..]) {
                *entry -= factor * pivot_entry;
            }
            b[column + 1 + offset] -= factor * b[column];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let known: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - known) / a[row][row];
    }
    x
}

/// The candidate feature sets, each adding one idea to the one before.
fn designs() -> Vec<(&'static str, Design)> {
    vec![
        ("windows by pieces (1, 2, 3), one weight each for both players", by_pieces),
        ("+ each player's windows weighed apart", by_owner),
        ("+ threat parity: a three's empty cell on an odd or an even row", by_threat_parity),
        ("+ twos by the rows of their empty cells (both odd, both even, mixed)", by_class),
        ("+ who moves next (weights per player to move)", by_class_per_mover),
        ("+ playable threats the player to move takes or blocks: the engine's set", engine_design),
        ("+ centre control (pieces in column 4)", with_centre),
        ("+ a constant per player to move (the tempo)", with_tempo),
        ("playable threats, and windows by class with an early and a late weight, not per player to move", tapered),
        ("playable threats, and windows by class per player to move, one set per 10 empty cells", buckets),
        ("the engine's set, with each window weight as an early and a late one (tapered)", tapered_per_mover),
        ("the engine's set + playable threats on the player to move's own rows", with_own_rows),
        ("the engine's set + who holds the zugzwang: odd and even threats of each, stacked threats", with_zugzwang),
    ]
}

/// Open windows per player and [`WindowClass`].
fn counts(board: &Board) -> [[f64; CLASSES]; 2] {
    maxconnect4::score::count(board).map(|classes| classes.map(f64::from))
}

/// The counts of `classes` added up, for each player.
fn sum(c: &[[f64; CLASSES]; 2], classes: &[WindowClass]) -> [f64; 2] {
    [0, 1].map(|player| classes.iter().map(|class| c[player][class.index()]).sum())
}

const TWOS: [WindowClass; 3] = [WindowClass::TwoOnOddRows, WindowClass::TwoOnEvenRows, WindowClass::TwoOnMixedRows];
const THREES: [WindowClass; 2] = [WindowClass::ThreeOnOddRow, WindowClass::ThreeOnEvenRow];

fn by_pieces(board: &Board) -> Vec<f64> {
    let c = counts(board);
    let (one, two, three) = (sum(&c, &[WindowClass::One]), sum(&c, &TWOS), sum(&c, &THREES));
    vec![one[0] - one[1], two[0] - two[1], three[0] - three[1]]
}

fn by_owner(board: &Board) -> Vec<f64> {
    let c = counts(board);
    let (one, two, three) = (sum(&c, &[WindowClass::One]), sum(&c, &TWOS), sum(&c, &THREES));
    vec![one[0], two[0], three[0], -one[1], -two[1], -three[1]]
}

fn by_threat_parity(board: &Board) -> Vec<f64> {
    let c = counts(board);
    let (one, two) = (sum(&c, &[WindowClass::One]), sum(&c, &TWOS));
    let [odd, even] = THREES.map(|class| [c[0][class.index()], c[1][class.index()]]);
    vec![one[0], two[0], odd[0], even[0], -one[1], -two[1], -odd[1], -even[1]]
}

/// Every class of [`maxconnect4::score::count`], player 2's negated.
fn by_class(board: &Board) -> Vec<f64> {
    let c = counts(board);
    c[0].iter().copied().chain(c[1].iter().map(|x| -x)).collect()
}

/// `x` as features of player 1 to move, then of player 2 to move (zero for
/// the other).
fn per_mover(board: &Board, x: Vec<f64>) -> Vec<f64> {
    let zeros = vec![0.0; x.len()];
    match board.to_move() {
        Player::One => [x, zeros].concat(),
        Player::Two => [zeros, x].concat(),
    }
}

/// The classes of [`maxconnect4::score::count`], per player to move.
fn by_class_per_mover(board: &Board) -> Vec<f64> {
    per_mover(board, by_class(board))
}

/// [`features::playable_threats`] per player to move, for player 1: the
/// player to move's gain, negated when it is player 2's.
fn playable(board: &Board) -> Vec<f64> {
    let mover = board.to_move();
    let threats =
        features::playable_threats(board.pieces(mover), board.pieces(mover.other()), board.playable_cells(), mover);
    let sign = if mover == Player::One { 1.0 } else { -1.0 };
    per_mover(board, threats.map(|count| sign * f64::from(count)).to_vec())
}

/// The engine's features, in the order of [`Weights`]: the classes per
/// player to move, then [`features::playable_threats`] per player to move.
fn engine_design(board: &Board) -> Vec<f64> {
    [by_class_per_mover(board), playable(board)].concat()
}

fn with_centre(board: &Board) -> Vec<f64> {
    let centre = |player: Player| f64::from((board.pieces(player) & column_cells(3)).count_ones());
    [engine_design(board), per_mover(board, vec![centre(Player::One) - centre(Player::Two)])].concat()
}

fn with_tempo(board: &Board) -> Vec<f64> {
    [with_centre(board), per_mover(board, vec![1.0])].concat()
}

/// Weights in points, in [`engine_design`]'s order, as the engine's
/// constant: in 32nds, each window worth between 0 and a point to its owner
/// (a playable threat's weight within what its window's weight leaves).
fn to_constant(weights: &[f64]) -> Weights {
    let in_32nds = |weight: f64| (weight * f64::from(POINT)).round() as Value;
    let mut constant = Weights { windows: [[[0; CLASSES]; 2]; 2], playable: [[0; 2]; 2] };
    for mover in 0..2 {
        for owner in 0..2 {
            for class in WindowClass::ALL {
                let weight = weights[mover * 2 * CLASSES + owner * CLASSES + class.index()];
                constant.windows[mover][owner][class.index()] = in_32nds(weight).clamp(0, POINT);
            }
        }
    }
    for mover in Player::BOTH {
        // The threats on the rows parity gives the opponent.
        let class = if mover == Player::One { WindowClass::ThreeOnEvenRow } else { WindowClass::ThreeOnOddRow };
        let windows = constant.windows[mover.index()];
        let [take, block] = [0, 1].map(|i| in_32nds(weights[4 * CLASSES + 2 * mover.index() + i]));
        constant.playable[mover.index()] = [
            take.clamp(0, POINT - windows[mover.index()][class.index()]),
            block.clamp(0, windows[mover.other().index()][class.index()]),
        ];
    }
    constant
}

fn rust_constant(weights: &Weights) -> String {
    let mut text = String::from("pub const WEIGHTS: Weights = Weights {\n    windows: [\n");
    for (mover, by_owner) in weights.windows.iter().enumerate() {
        let _ = writeln!(text, "        // Player {} to move: player 1's windows, then player 2's.", mover + 1);
        let _ = writeln!(text, "        [{:?}, {:?}],", by_owner[0], by_owner[1]);
    }
    let _ = write!(text, "    ],\n    playable: {:?},\n}};", weights.playable);
    text
}

/// `x` twice, for a *tapered* evaluation, whose every weight is two, one
/// for the empty board and one for the full board, blended in proportion to
/// the cells still empty: `x` times the share of cells still empty, then
/// times the share filled.
fn taper(board: &Board, x: Vec<f64>) -> Vec<f64> {
    let early = f64::from(board.empty_cells()) / CELLS as f64;
    x.iter().map(|v| v * early).chain(x.iter().map(|v| v * (1.0 - early))).collect()
}

fn tapered(board: &Board) -> Vec<f64> {
    [taper(board, by_class(board)), playable(board)].concat()
}

/// [`by_class_per_mover`] once for each tenth of the game: 0 to 9 empty
/// cells, 10 to 19, 20 to 29, and 30 or more.
fn buckets(board: &Board) -> Vec<f64> {
    let x = by_class_per_mover(board);
    let bucket = (board.empty_cells() as usize / 10).min(3);
    let mut all = vec![0.0; 4 * x.len()];
    all[bucket * x.len()..(bucket + 1) * x.len()].copy_from_slice(&x);
    [all, playable(board)].concat()
}

/// The engine's set with its windows' weights [`taper`]ed.
fn tapered_per_mover(board: &Board) -> Vec<f64> {
    [taper(board, by_class_per_mover(board)), playable(board)].concat()
}

/// The engine's set and the playable threats on the rows parity gives the
/// player to move: those they take, and those they block, per player to
/// move. (Weighed by row alone, such a threat is already its owner's late
/// in the game, but not early.)
fn with_own_rows(board: &Board) -> Vec<f64> {
    let mover = board.to_move();
    let cells = board.playable_cells() & features::parity_rows(mover);
    let count = |player: Player| f64::from((completing_cells(board.pieces(player)) & cells).count_ones());
    let sign = if mover == Player::One { 1.0 } else { -1.0 };
    [engine_design(board), per_mover(board, vec![sign * count(mover), sign * count(mover.other())])].concat()
}

/// The engine's set and, per player to move, Allis' rules of the zugzwang
/// in classic Connect-4 as features for player 1: whether player 1 has a
/// threat (an empty cell that completes a window of theirs) on an odd row,
/// whether player 2 has one on an even row, both at once, and for each
/// player the threats with another of theirs right above (the lower one is
/// filled first, and forces the upper).
fn with_zugzwang(board: &Board) -> Vec<f64> {
    let empty = ALL_CELLS & !board.occupied();
    let threats = |player: Player| completing_cells(board.pieces(player)) & empty;
    let (one, two) = (threats(Player::One), threats(Player::Two));
    let odd_one = f64::from(u8::from(one & features::ODD_ROWS != 0));
    let even_two = f64::from(u8::from(two & features::EVEN_ROWS != 0));
    let stacked = |cells: u64| f64::from((cells & (cells >> 1)).count_ones());
    let x = vec![odd_one, -even_two, odd_one * even_two, stacked(one), -stacked(two)];
    [engine_design(board), per_mover(board, x)].concat()
}
