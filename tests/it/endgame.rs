//! Searches that reach the end of the game must play perfectly. Checked
//! against a brute force written here, independent of the bitboards.

use std::collections::HashMap;

use maxconnect4::board::{Board, Column};

use maxconnect4::player::Player;
use maxconnect4::search::{alpha_beta, minimax, Engine, Strength};
use maxconnect4::value::POINT;

use super::util::{engines_with_threads, Rng};

/// The board as a plain grid: `cells[row][column]`, row 0 at the bottom,
/// 0 empty, 1 and 2 the players.
#[derive(Clone)]
struct Grid {
    cells: [[u8; 7]; 6],
    mover: u8,
}

impl Grid {
    fn from(board: &Board) -> Grid {
        let mut cells = [[0; 7]; 6];
        for (row, line) in cells.iter_mut().enumerate() {
            for (column, cell) in line.iter_mut().enumerate() {
                *cell = board.at(column, row).map_or(0, Player::number);
            }
        }
        Grid { cells, mover: board.to_move().number() }
    }

    /// Each player's number of four-in-a-rows, by walking every window.
    fn scores(&self) -> [i32; 3] {
        let mut scores = [0; 3];
        for row in 0..6i32 {
            for column in 0..7i32 {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (-1, 1)] {
                    let cells: Vec<(i32, i32)> = (0..4).map(|i| (row + i * dr, column + i * dc)).collect();
                    if cells.iter().all(|&(r, c)| (0..6).contains(&r) && (0..7).contains(&c)) {
                        let first = self.cells[cells[0].0 as usize][cells[0].1 as usize];
                        if cells.iter().all(|&(r, c)| self.cells[r as usize][c as usize] == first) {
                            scores[first as usize] += 1;
                        }
                    }
                }
            }
        }
        scores
    }

    fn play(&self, column: usize) -> Option<Grid> {
        let row = (0..6).find(|&row| self.cells[row][column] == 0)?;
        let mut next = self.clone();
        next.cells[row][column] = self.mover;
        next.mover = 3 - self.mover;
        Some(next)
    }

    /// The final score difference for the player to move with perfect play.
    fn solve(&self) -> i32 {
        self.solve_remembering(&mut HashMap::new())
    }

    /// Plain minimax over every move, remembering the value of each grid seen.
    fn solve_remembering(&self, seen: &mut HashMap<([[u8; 7]; 6], u8), i32>) -> i32 {
        if let Some(&value) = seen.get(&(self.cells, self.mover)) {
            return value;
        }
        let children: Vec<Grid> = (0..7).filter_map(|column| self.play(column)).collect();
        let value = if children.is_empty() {
            let scores = self.scores();
            scores[self.mover as usize] - scores[3 - self.mover as usize]
        } else {
            children.iter().map(|child| -child.solve_remembering(seen)).max().unwrap()
        };
        seen.insert((self.cells, self.mover), value);
        value
    }
}

/// Checks that a search to the end chooses a move of the perfect-play value.
fn check_optimal(board: &Board) {
    let grid = Grid::from(board);
    let best = grid.solve();
    let depth = board.empty_cells();
    let result = alpha_beta(board, depth).unwrap();
    assert_eq!(result.value, best * POINT, "value of\n{}", maxconnect4::format::write(board, Default::default()));
    let chosen = grid.play(result.column.index()).expect("the chosen column is legal");
    assert_eq!(-chosen.solve(), best, "column {} is not optimal", result.column);
}

#[test]
fn searches_to_the_end_choose_optimal_moves() {
    let mut rng = Rng::new(2);
    for _ in 0..24 {
        check_optimal(&rng.position(34));
    }
    for _ in 0..3 {
        check_optimal(&rng.position(32));
    }
}

/// Checks `Engine::solve` against the brute force: the value and the set of
/// best columns.
fn check_solution(board: &Board, engine: &mut Engine) {
    let grid = Grid::from(board);
    let best = grid.solve();
    let best_columns: Vec<Column> = Column::ALL
        .into_iter()
        .filter(|column| grid.play(column.index()).is_some_and(|child| -child.solve() == best))
        .collect();
    let solution = engine.solve(board, Strength::Strong, None).unwrap();
    let text = maxconnect4::format::write(board, Default::default());
    assert_eq!(solution.value, best, "value of\n{text}");
    assert_eq!(solution.best, best_columns, "best columns of\n{text}");
}

#[test]
fn solve_agrees_with_the_brute_force() {
    let mut rng = Rng::new(5);
    let mut engine = Engine::max_without_book(1 << 20);
    for moves in [30, 31, 32, 33, 34, 35, 36, 38, 40, 41] {
        for _ in 0..3 {
            check_solution(&rng.position(moves), &mut engine);
        }
    }
}

/// Every pruning rule of the solver (the score bounds, the follow-up
/// strategy's bounds, the table) must keep the value and the best columns
/// exact in rare positions too: many random ones with 10 to 14 empty cells,
/// where the brute force is still quick.
#[test]
fn solve_agrees_with_the_brute_force_from_10_to_14_empty_cells() {
    let mut rng = Rng::new(7);
    let mut engine = Engine::max_without_book(1 << 20);
    for round in 0..60 {
        check_solution(&rng.position(28 + round % 5), &mut engine);
    }
}

#[test]
fn solve_gives_the_same_solution_whatever_the_threads() {
    let mut rng = Rng::new(7);
    let mut engines = engines_with_threads(&[1, 2, 4]);
    // Against the brute force where it is quick, against one thread where
    // there are enough empty cells for the helper threads to join in.
    for moves in [30, 32, 34] {
        let board = rng.position(moves);
        for engine in &mut engines[1..] {
            check_solution(&board, engine);
        }
    }
    for moves in [18, 19, 20, 21, 22] {
        let board = rng.position(moves);
        let text = maxconnect4::format::write(&board, Default::default());
        let solutions: Vec<_> = engines
            .iter_mut()
            .map(|engine| {
                engine.clear();
                let solution = engine.solve(&board, Strength::Strong, None).unwrap();
                (solution.value, solution.best)
            })
            .collect();
        assert!(solutions.iter().all(|solution| *solution == solutions[0]), "{solutions:?}\n{text}");
    }
}

#[test]
fn solve_works_without_a_table() {
    let mut rng = Rng::new(6);
    let mut engine = Engine::max_without_book(0);
    for _ in 0..4 {
        check_solution(&rng.position(32), &mut engine);
    }
}

#[test]
fn the_brute_force_agrees_with_the_board_score() {
    let mut rng = Rng::new(3);
    for _ in 0..50 {
        let board = rng.position(42);
        let scores = Grid::from(&board).scores();
        assert_eq!([scores[1], scores[2]], [board.score(Player::One) as i32, board.score(Player::Two) as i32]);
    }
}

#[test]
fn minimax_to_the_end_agrees() {
    let mut rng = Rng::new(4);
    for _ in 0..5 {
        let board = rng.position(35);
        let result = minimax(&board, 7).unwrap();
        let grid = Grid::from(&board);
        let best = grid.solve();
        assert_eq!(result.value, best * POINT);
        let chosen = grid.play(result.column.index()).expect("the chosen column is legal");
        assert_eq!(-chosen.solve(), best, "column {} is not optimal", result.column);
    }
}
