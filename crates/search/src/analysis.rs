//! The analysis of a position: the value of every column, as the solver
//! sites show it, within a budget.
//!
//! A person studying a position, a bot asking which moves are good and a
//! program marking the mistakes of a game all want the same thing: every
//! column's value for the player to move, exact where that can be had and
//! otherwise the deepest depth-limited value reached, saying which. A full
//! column has no value; a finished game has none at all.
//!
//! Values are in the engine's units ([`Analysis::unit`]): under Max-Connect4
//! rules [`POINT`]ths of the final score difference (an exact value is a
//! whole number of points), under classic rules [`WIN_UNIT`]s of the field's
//! score (positive a win, larger sooner; 0 a draw; negative a loss; a
//! depth-limited classic value that proves no result lies strictly between
//! -1 and 1 score). [`ColumnValue::score`] gives the value in points or
//! score.
//!
//! The budget ([`Limits`]) is a depth, which gives the same values on any
//! machine, and perhaps a time limit. A column's value is exact when the
//! search from it reaches the end of the game (then the solver finds it,
//! much faster than a depth-limited search would); when, without a time
//! limit, the solver proves it within [`SOLVE_NODES`] positions on one
//! thread (a budget that gives the same answer on any machine; under
//! Max-Connect4 rules tried from [`MAX_SOLVE_EMPTY`] empty cells on); and
//! under classic rules also when a depth-limited search proves the result
//! (a win or loss within its horizon, or a position of the opening book).
//! The best columns are proven best only where every value is exact
//! ([`Analysis::best_is_proven`]). Where the engine's
//! opening book holds the position and its children, under either rules,
//! every column is read from it, exact, at once. With a time limit the
//! columns are first each given a share of half the time to be solved
//! exactly, and then searched deeper and deeper together until the time or
//! the depth runs out.

use std::cmp::Ordering;
use std::fmt;
use std::time::{Duration, Instant};

use super::classic::WIN_UNIT;
use super::{Engine, Limits, Strength};
use maxconnect4_game::bitboard::WIDTH;
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::rules::Rules;
use maxconnect4_game::value::{POINT, Value};

/// How far a column's value looked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Solved to the end of the game: the value with perfect play.
    Exact,
    /// A depth-limited value, searched this many plies counting the
    /// column's move.
    Depth(u32),
}

/// The value of one column for the player who plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnValue {
    /// In `unit`ths of a point (Max-Connect4) or of the field's score
    /// (classic), from the view of the player who plays the column.
    pub value: Value,
    /// One point or one score in `value`'s units ([`Analysis::unit`]).
    pub unit: Value,
    /// Whether the value is exact, or how deep the search that found it looked.
    pub reach: Reach,
}

impl ColumnValue {
    /// Whether the value is the one with perfect play.
    #[must_use]
    pub const fn is_exact(self) -> bool {
        matches!(self.reach, Reach::Exact)
    }

    /// The value in points (Max-Connect4) or score (classic), rounded to
    /// two decimals for a depth-limited value (an exact one is whole).
    #[must_use]
    pub fn score(self) -> f64 {
        // Adding 0.0 turns a -0.0 into 0.0, so no value prints as "-0".
        (f64::from(self.value) * 100.0 / f64::from(self.unit)).round() / 100.0 + 0.0
    }

    /// The result class of the value: a win (greater), a draw (equal) or a
    /// loss (less) for the player who plays the column. For a
    /// depth-limited value it is only the search's guess.
    #[must_use]
    pub fn class(self) -> Ordering {
        self.value.cmp(&0)
    }
}

/// `3` for an exact value, `1.16` for a depth-limited one.
impl fmt::Display for ColumnValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_exact() { write!(f, "{}", self.value / self.unit) } else { write!(f, "{:.2}", self.score()) }
    }
}

/// A value serialises as the number it prints as: a whole number when
/// exact, two decimals when depth-limited (its [`Reach`] is for the caller
/// to add beside it), as the solver sites' answers and the program's JSON
/// show values.
impl serde::Serialize for ColumnValue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.is_exact() {
            serializer.serialize_i32(self.value / self.unit)
        } else {
            serializer.serialize_f64(self.score())
        }
    }
}

/// How a move compares with the best one (see [`Analysis::judge`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// As good as the best in result, and in points under Max-Connect4
    /// rules. Under classic rules a slower win is not marked.
    Sound,
    /// Max-Connect4 rules: loses points but keeps the result class.
    Inaccuracy,
    /// Throws the result away: a win to a draw or a loss, a draw to a loss.
    Blunder,
}

/// The value of every column of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The rules the position was analysed under, which set the values' units.
    pub rules: Rules,
    /// By column index; `None` for a full column, and for every column of
    /// a finished game.
    pub columns: [Option<ColumnValue>; WIDTH],
    /// Positions visited, by all searches.
    pub nodes: u64,
}

impl Analysis {
    /// No column's value: the analysis of a finished game under `rules`.
    #[must_use]
    pub const fn none(rules: Rules) -> Analysis {
        Analysis { rules, columns: [None; WIDTH], nodes: 0 }
    }

    /// One point (Max-Connect4) or one score (classic) in the units of the
    /// values: [`POINT`] or [`WIN_UNIT`].
    #[must_use]
    pub const fn unit(rules: Rules) -> Value {
        match rules {
            Rules::Max => POINT,
            Rules::Classic => WIN_UNIT,
        }
    }

    /// The value of `column`, if it can be played.
    #[must_use]
    pub const fn column(&self, column: Column) -> Option<ColumnValue> {
        self.columns[column.index()]
    }

    /// By column: whether its value is exact; `None` for a column that
    /// cannot be played.
    #[must_use]
    pub fn exact(&self) -> [Option<bool>; WIDTH] {
        self.columns.map(|column| column.map(ColumnValue::is_exact))
    }

    /// By column: the plies of a depth-limited value; `None` for an exact
    /// value and for a column that cannot be played.
    #[must_use]
    pub fn depths(&self) -> [Option<u32>; WIDTH] {
        self.columns.map(|column| match column?.reach {
            Reach::Exact => None,
            Reach::Depth(depth) => Some(depth),
        })
    }

    /// The value of the position: its best column's. `None` when the game
    /// is over.
    #[must_use]
    pub fn value(&self) -> Option<ColumnValue> {
        self.columns.iter().flatten().copied().max_by_key(|column| column.value)
    }

    /// The columns of the highest value, left to right; none when the game
    /// is over.
    #[must_use]
    pub fn best(&self) -> Vec<Column> {
        let Some(best) = self.value() else { return Vec::new() };
        Column::ALL.into_iter().filter(|&column| self.column(column).is_some_and(|v| v.value == best.value)).collect()
    }

    /// Whether the best columns ([`best`](Analysis::best)) are proven best:
    /// every column's value is exact. Where one is depth-limited, the best
    /// columns are only the best the search saw at its depth (a column's
    /// exact value may fall below another's estimate that is no better).
    #[must_use]
    pub fn best_is_proven(&self) -> bool {
        self.columns.iter().flatten().all(|column| column.is_exact())
    }

    /// The shallowest depth of a depth-limited value; `None` when every
    /// value is exact.
    #[must_use]
    pub fn shallowest(&self) -> Option<u32> {
        self.depths().into_iter().flatten().min()
    }

    /// What playing `column` loses against the best column, in points
    /// (Max-Connect4) or score (classic), never negative; `None` when it
    /// cannot be played.
    #[must_use]
    pub fn lost(&self, column: Column) -> Option<f64> {
        let (played, best) = (self.column(column)?, self.value()?);
        Some(f64::from(best.value - played.value) / f64::from(played.unit))
    }

    /// How `column` compares with the best column; `None` when it cannot
    /// be played. Judged on depth-limited values the judgement is only as
    /// good as they are (see [`ColumnValue::class`]).
    #[must_use]
    pub fn judge(&self, column: Column) -> Option<Judgement> {
        let (played, best) = (self.column(column)?, self.value()?);
        Some(if played.class() < best.class() {
            Judgement::Blunder
        } else if self.rules == Rules::Max && played.value < best.value {
            Judgement::Inaccuracy
        } else {
            Judgement::Sound
        })
    }
}

/// The value of every column of `board` under `engine`'s rules, within
/// `budget` (see the module's documentation).
#[must_use]
pub fn analyse(engine: &mut Engine, board: &Board, budget: &Limits) -> Analysis {
    if let Some(known) = known_at_once(engine, board) {
        return known;
    }
    let mut analysis = Analysis::none(engine.rules());
    let deadline = budget.time_limit.and_then(|limit| Instant::now().checked_add(limit));
    let mut work = Work { engine, board, analysis: &mut analysis, deadline };
    let deepest = budget.depth.clamp(1, board.empty_cells());
    // Depth 1 never runs out of time, so every column has a value.
    work.iteration(1, false);
    if deadline.is_some() {
        work.try_solving();
        for depth in 2..=deepest {
            if work.settled() || !work.iteration(depth, true) {
                break;
            }
        }
    } else {
        if worth_solving(work.analysis.rules, board) {
            if work.analysis.rules == Rules::Max {
                // The Max engine's one table also serves its searches on
                // several threads, which leave it different from run to run;
                // a budget of nodes gives the same answer every time only
                // from the same table (the classic solver keeps its own).
                work.engine.clear();
            }
            work.try_solving_within(SOLVE_NODES);
        }
        if deepest > 1 {
            // Without a clock there is nothing to gain from the depths on the way.
            work.iteration(deepest, false);
        }
    }
    analysis
}

/// What is known of `board` without a search: no column of a finished
/// game; where the engine's book holds the position and its children,
/// every column exact, whatever the budget.
fn known_at_once(engine: &Engine, board: &Board) -> Option<Analysis> {
    let rules = engine.rules();
    if rules.is_over(board) {
        return Some(Analysis::none(rules));
    }
    engine.book().and_then(|book| from_book(book, rules, board))
}

/// Every column's value from `book`, exact, where it holds `board` and its
/// children under `rules`.
#[must_use]
pub fn from_book(book: &super::book::Book, rules: Rules, board: &Board) -> Option<Analysis> {
    let values = book.move_values(rules, board, Strength::Strong)?;
    let unit = Analysis::unit(rules);
    let columns = values.map(|value| value.map(|value| ColumnValue { value: value * unit, unit, reach: Reach::Exact }));
    Some(Analysis { rules, columns, nodes: 0 })
}

/// Every column's exact value that can be had within `time`, as the solver
/// sites give them: the book's at once; else each column solved in turn,
/// given an even share of the time left (a column solved early leaves its
/// time to the rest). A column not solved in time keeps its depth-1 value,
/// marked as such, for the caller to leave out of what it calls exact.
#[must_use]
pub fn solve_columns(engine: &mut Engine, board: &Board, time: Duration) -> Analysis {
    if let Some(known) = known_at_once(engine, board) {
        return known;
    }
    let rules = engine.rules();
    let mut analysis = Analysis::none(rules);
    let deadline = Instant::now().checked_add(time);
    let mut work = Work { engine, board, analysis: &mut analysis, deadline };
    work.iteration(1, false);
    let columns: Vec<Column> = work.board.legal_columns().collect();
    let unit = Analysis::unit(rules);
    for (solved, &column) in columns.iter().enumerate() {
        if work.analysis.column(column).is_some_and(ColumnValue::is_exact) {
            continue;
        }
        let Some(left) = work.left().filter(|left| !left.is_zero()) else { break };
        let share = left / u32::try_from(columns.len() - solved).unwrap_or(1).max(1);
        if let Some(value) = work.solve(column, Some(share)) {
            work.analysis.columns[column.index()] = Some(ColumnValue { value, unit, reach: Reach::Exact });
        }
    }
    analysis
}

/// The positions the classic solver may visit for each column of an
/// analysis without a time limit before it gives up and the column is
/// searched to the budget's depth: about a tenth of a second, and the same
/// answer on any machine.
pub const SOLVE_NODES: u64 = 1_000_000;

/// Under Max-Connect4 rules, the most empty cells of a position whose
/// columns an analysis without a time limit tries to solve within
/// [`SOLVE_NODES`] each: farther from the end the tries settle almost no
/// column and cost as much again as the analysis (`reports/solving.md`,
/// "Exact columns in an analysis"). The classic solver always tries.
pub const MAX_SOLVE_EMPTY: u32 = 30;

/// Whether an analysis without a time limit tries to solve the columns of
/// `board` under `rules` (see [`MAX_SOLVE_EMPTY`]).
fn worth_solving(rules: Rules, board: &Board) -> bool {
    rules == Rules::Classic || board.empty_cells() <= MAX_SOLVE_EMPTY
}

/// An analysis under way.
struct Work<'a> {
    engine: &'a mut Engine,
    board: &'a Board,
    analysis: &'a mut Analysis,
    deadline: Option<Instant>,
}

impl Work<'_> {
    /// Whether every column's value is exact.
    fn settled(&self) -> bool {
        self.analysis.best_is_proven()
    }

    /// The time left, if there is a clock.
    fn left(&self) -> Option<Duration> {
        self.deadline.map(|deadline| deadline.saturating_duration_since(Instant::now()))
    }

    /// Gives every column not yet exact its value at `depth`, on the clock
    /// if `timed`. Returns false, leaving the columns it did not reach as
    /// they were, when the time ran out.
    fn iteration(&mut self, depth: u32, timed: bool) -> bool {
        let unit = Analysis::unit(self.analysis.rules);
        for column in self.board.legal_columns() {
            if self.analysis.column(column).is_some_and(ColumnValue::is_exact) {
                continue;
            }
            let time_limit = if timed { self.left() } else { None };
            if time_limit.is_some_and(|left| left.is_zero()) {
                return false;
            }
            let Some(value) = self.column_value(column, depth, time_limit) else { return false };
            self.analysis.columns[column.index()] = Some(ColumnValue { value: value.0, unit, reach: value.1 });
        }
        true
    }

    /// The value of `column` searched to `depth` plies (its move included),
    /// within `time_limit`: exact if the search reaches the end of the game
    /// or proves the result. `None` when the time ran out first.
    fn column_value(&mut self, column: Column, depth: u32, time_limit: Option<Duration>) -> Option<(Value, Reach)> {
        let rules = self.analysis.rules;
        let child = self.board.after(column);
        if depth > child.empty_cells() || rules.is_over(&child) {
            return self.solve(column, time_limit).map(|value| (value, Reach::Exact));
        }
        if depth == 1 {
            return Some((-self.engine.horizon_value(&child), Reach::Depth(1)));
        }
        let wanted = depth - 1;
        let result = self.engine.search(&child, &Limits { depth: wanted, time_limit })?;
        self.analysis.nodes += result.nodes;
        let proven = rules == Rules::Classic && result.value.abs() >= WIN_UNIT;
        if proven || result.depth >= child.empty_cells() {
            return Some((-result.value, Reach::Exact));
        }
        (result.depth >= wanted).then_some((-result.value, Reach::Depth(depth)))
    }

    /// The exact value of `column` in the analysis' units, within `time_limit`.
    fn solve(&mut self, column: Column, time_limit: Option<Duration>) -> Option<Value> {
        let solved = self.engine.move_value(self.board, column, time_limit);
        let solved = solved.ok()?;
        self.analysis.nodes += solved.nodes;
        Some(solved.value * Analysis::unit(self.analysis.rules))
    }

    /// Tries to solve every column exactly within `nodes` positions each.
    fn try_solving_within(&mut self, nodes: u64) {
        let unit = Analysis::unit(self.analysis.rules);
        for column in self.board.legal_columns() {
            match self.engine.move_value_within(self.board, column, nodes) {
                Err(spent) => self.analysis.nodes += spent.nodes,
                Ok(solved) => {
                    self.analysis.nodes += solved.nodes;
                    let value = ColumnValue { value: solved.value * unit, unit, reach: Reach::Exact };
                    self.analysis.columns[column.index()] = Some(value);
                }
            }
        }
    }

    /// Tries to solve every column exactly, each within its share of half
    /// the time left: the solvers are far faster at proving a value than
    /// deepening is, so this settles the positions they can settle at all.
    fn try_solving(&mut self) {
        let columns: Vec<Column> = self
            .board
            .legal_columns()
            .filter(|&column| !self.analysis.column(column).is_some_and(ColumnValue::is_exact))
            .collect();
        let Some(half) = self.left().map(|left| left / 2) else { return };
        let share = half / u32::try_from(columns.len()).unwrap_or(1).max(1);
        let unit = Analysis::unit(self.analysis.rules);
        for column in columns {
            if let Some(value) = self.solve(column, Some(share)) {
                self.analysis.columns[column.index()] = Some(ColumnValue { value, unit, reach: Reach::Exact });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Strength;
    use maxconnect4_game::moves::Moves;

    fn engine(rules: Rules) -> Engine {
        Engine::with_book(rules, 1 << 20, None).unwrap()
    }

    /// Near the end every column is exact, and the values are the solver's.
    #[test]
    fn a_depth_to_the_end_gives_the_exact_values_of_every_move() {
        for (rules, moves) in [(Rules::Max, "4444443333332222221"), (Rules::Classic, "52753311433677442422121")] {
            let board = Moves::board(rules, moves).unwrap();
            let exact = engine(rules).move_values(&board, Strength::Strong, None).unwrap();
            let analysis = analyse(&mut engine(rules), &board, &Limits::depth(Limits::TO_THE_END));
            for column in Column::ALL {
                let got = analysis.column(column);
                assert_eq!(got.map(|v| v.value / v.unit), exact.values[column.index()], "{moves} {column}");
                assert!(got.is_none_or(ColumnValue::is_exact));
            }
            let solution = engine(rules).solve(&board, Strength::Strong, None).unwrap();
            assert_eq!(analysis.best(), solution.best);
            assert_eq!(analysis.value().map(|v| v.value / v.unit), Some(solution.value));
        }
    }

    /// A shallow depth gives each column the value a search of the board
    /// after it finds, one ply shorter, and says so.
    #[test]
    fn a_shallow_depth_gives_depth_limited_values() {
        let board = Moves::board(Rules::Max, "4453").unwrap();
        let analysis = analyse(&mut engine(Rules::Max), &board, &Limits::depth(3));
        for column in Column::ALL {
            let got = analysis.column(column).unwrap();
            let search = engine(Rules::Max).search(&board.after(column), &Limits::depth(2)).unwrap();
            assert_eq!(got, ColumnValue { value: -search.value, unit: POINT, reach: Reach::Depth(3) });
        }
        // The best columns are those of the best depth-3 move.
        let chosen = engine(Rules::Max).search(&board, &Limits::depth(3)).unwrap();
        assert!(analysis.best().contains(&chosen.column));
        assert_eq!(analysis.value().unwrap().value, chosen.value);
        // Depth 1 judges the board each move leaves.
        let analysis = analyse(&mut engine(Rules::Max), &board, &Limits::depth(1));
        let column = Column::from_number(4).unwrap();
        assert_eq!(analysis.column(column).unwrap().value, -maxconnect4_game::score::evaluate(&board.after(column)));
    }

    /// Under classic rules a result seen within the horizon is exact at
    /// any depth; the rest is not.
    #[test]
    fn a_classic_result_within_the_horizon_is_exact() {
        // Both players have three in a column (1 and 2); player one to move.
        let board = Moves::board(Rules::Classic, "121212").unwrap();
        let analysis = analyse(&mut engine(Rules::Classic), &board, &Limits::depth(2));
        let value = |number| analysis.column(Column::from_number(number).unwrap()).unwrap();
        // One wins at once with its fourth stone: 22 - 4.
        assert_eq!((value(1).to_string(), value(1).reach), ("18".to_owned(), Reach::Exact));
        // Anywhere but 1 or 2, two wins at once with its fourth stone.
        for number in 3..=7 {
            assert_eq!((value(number).to_string(), value(number).reach), ("-18".to_owned(), Reach::Exact));
        }
        // Blocking in 2 lets two block in turn: nothing is proven at depth 2.
        assert_eq!(value(2).reach, Reach::Depth(2));
        assert!(value(2).value.abs() < WIN_UNIT);
        assert_eq!(analysis.best(), [Column::from_number(1).unwrap()]);
        assert_eq!(analysis.judge(Column::from_number(2).unwrap()), Some(Judgement::Blunder));
    }

    /// Without a time limit the classic solver gets a budget of nodes for
    /// each column: a position of 27 empty cells (from `Test_L2_R2`, score
    /// 0) is solved even at depth 2, the same way every time.
    #[test]
    fn a_classic_position_the_solver_settles_is_exact_at_any_depth() {
        let board = Moves::board(Rules::Classic, "274552224131661").unwrap();
        let analysis = analyse(&mut engine(Rules::Classic), &board, &Limits::depth(2));
        assert!(analysis.columns.iter().flatten().all(|column| column.is_exact()), "{analysis:?}");
        assert_eq!(analysis.value().map(|value| value.to_string()), Some("0".to_owned()));
        assert_eq!(analysis, analyse(&mut engine(Rules::Classic), &board, &Limits::depth(2)));
    }

    /// Under Max-Connect4 rules a move that keeps the result but loses
    /// points is an inaccuracy, one that changes it a blunder.
    #[test]
    fn moves_are_judged_by_class_and_points() {
        let unit = POINT;
        let value = |points: i32| Some(ColumnValue { value: points * unit, unit, reach: Reach::Exact });
        let analysis = Analysis {
            rules: Rules::Max,
            columns: [value(3), value(1), None, value(0), value(-2), value(3), value(2)],
            nodes: 0,
        };
        let judge = |number| analysis.judge(Column::from_number(number).unwrap());
        assert_eq!(judge(1), Some(Judgement::Sound));
        assert_eq!(judge(2), Some(Judgement::Inaccuracy));
        assert_eq!(judge(3), None);
        assert_eq!(judge(4), Some(Judgement::Blunder));
        assert_eq!(judge(5), Some(Judgement::Blunder));
        assert_eq!(analysis.lost(Column::from_number(5).unwrap()), Some(5.0));
        assert_eq!(analysis.best(), [Column::from_number(1).unwrap(), Column::from_number(6).unwrap()]);
        let classic = Analysis { rules: Rules::Classic, ..analysis };
        assert_eq!(classic.judge(Column::from_number(2).unwrap()), Some(Judgement::Sound));
    }

    #[test]
    fn a_finished_game_has_no_values() {
        let won = Moves::board(Rules::Classic, "1212121").unwrap();
        let analysis = analyse(&mut engine(Rules::Classic), &won, &Limits::depth(4));
        assert_eq!(analysis.columns, [None; WIDTH]);
        assert!(analysis.best().is_empty() && analysis.value().is_none());
    }

    /// With a time limit (a generous one: the position is near the end)
    /// the columns are solved.
    #[test]
    fn a_time_limit_solves_what_it_can() {
        let board = Moves::board(Rules::Max, "44444433333322222211111").unwrap();
        let analysis = analyse(&mut engine(Rules::Max), &board, &Limits::time(Duration::from_secs(60)));
        let exact = engine(Rules::Max).move_values(&board, Strength::Strong, None).unwrap();
        for column in Column::ALL {
            let got = analysis.column(column);
            assert_eq!(
                got.map(|v| (v.value / v.unit, v.reach)),
                exact.values[column.index()].map(|v| (v, Reach::Exact))
            );
        }
    }

    #[test]
    fn values_print_as_points_or_score() {
        let exact = ColumnValue { value: -3 * POINT, unit: POINT, reach: Reach::Exact };
        let guess = ColumnValue { value: 37, unit: POINT, reach: Reach::Depth(5) };
        assert_eq!((exact.to_string(), guess.to_string()), ("-3".to_owned(), "1.16".to_owned()));
        assert_eq!((exact.score(), guess.score()), (-3.0, 1.16));
        assert_eq!(serde_json::to_string(&[Some(exact), Some(guess), None]).unwrap(), "[-3,1.16,null]");
        let nearly_nothing = ColumnValue { value: -1, unit: WIN_UNIT, reach: Reach::Depth(5) };
        assert_eq!(
            (nearly_nothing.to_string(), nearly_nothing.score().to_string()),
            ("0.00".to_owned(), "0".to_owned())
        );
    }
}
