//! Perfect play from the shipped Max-Connect4 opening book: `one-move
//! --perfect`, the server's "perfect" strength, and the depth-limited
//! search left as it was without them. The positions come from the
//! shipped book's own API (its root and the moves from it), so the tests
//! hold whichever positions the shipped book holds. Opt-in, both shipped
//! books (classic and Max) against fresh solves.

use std::io::Write;

use maxconnect4::board::{Board, Column};
use maxconnect4::moves::Moves;
use maxconnect4::player::Player;
use maxconnect4::protocol::arena::{PlayTurn, Request};
use maxconnect4::rules::Rules;
use maxconnect4::search::book::{layers::Layers, Book, BookSpec};
use maxconnect4::search::classic::Position;
use maxconnect4::search::{Engine, Limits, Strength};

use super::util::{maxconnect4, Rng};

/// The shipped Max book, its root's move string and board, and the root's
/// best columns read from the book.
fn shipped_root() -> (std::sync::Arc<Book>, String, Board, Vec<Column>) {
    let book = Book::shipped_for(Rules::Max);
    let root = book.root().to_owned();
    let board = Moves::board(Rules::Max, &root).unwrap();
    let best = book.solution(Rules::Max, &board, Strength::Strong).unwrap().best;
    (book, root, board, best)
}

/// Runs one-move from the position after `moves` with `args` added; the
/// column played and the standard output.
fn one_move(moves: &str, args: &[&str]) -> (Column, String) {
    let dir = tempfile::tempdir().unwrap();
    let assert =
        maxconnect4(dir.path()).args(["one-move", "--rules", "max", "--moves", moves, "out.txt"]).args(args).assert();
    let output = assert.success().get_output().clone();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let written = std::fs::read(dir.path().join("out.txt")).unwrap();
    let after = maxconnect4::format::parse(&written).unwrap().board;
    let before = Moves::board(Rules::Max, moves).unwrap();
    let column = before.legal_columns().find(|&column| before.after(column) == after).expect("one move was played");
    (column, stdout)
}

#[test]
fn one_move_perfect_plays_a_best_move_of_the_book_and_without_it_the_depth_limited_one() {
    let (_, root, board, best) = shipped_root();
    let (column, stdout) = one_move(&root, &["3", "--perfect"]);
    assert!(best.contains(&column), "column {column} is not among the book's best {best:?}\n{stdout}");
    assert!(stdout.contains("Perfect play from the opening book"), "{stdout}");
    // Without --perfect: the assignment's depth-limited search, whatever the book holds.
    let expected = Engine::max_without_book(1 << 20).search(&board, &Limits::depth(3)).unwrap().column;
    let (column, stdout) = one_move(&root, &["3"]);
    assert_eq!(column, expected, "{stdout}");
    assert!(!stdout.contains("Perfect play"), "{stdout}");
    assert!(stdout.contains("to depth 3"), "{stdout}");
}

#[test]
fn interactive_perfect_plays_the_computers_move_from_the_book() {
    let (_, _, board, best) = shipped_root();
    let dir = tempfile::tempdir().unwrap();
    let text = maxconnect4::format::write(&board, maxconnect4::format::LineEnding::Lf);
    std::fs::write(dir.path().join("in.txt"), text).unwrap();
    let args = ["interactive", "in.txt", "computer-next", "2", "--rules", "max", "--perfect"];
    let output = maxconnect4(dir.path()).args(args).write_stdin("quit\n").assert().success().get_output().clone();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("Perfect play from the opening book"), "{stdout}");
    let saved = std::fs::read(dir.path().join("computer.txt")).unwrap();
    let after = maxconnect4::format::parse(&saved).unwrap().board;
    let column = board.legal_columns().find(|&column| board.after(column) == after).expect("one move was played");
    assert!(best.contains(&column), "column {column} is not among the book's best {best:?}\n{stdout}");
}

/// The number before ` nodes` in a solve's or a move's report.
fn nodes_in(report: &str) -> u64 {
    let before = report.split(" nodes").next().unwrap();
    before.rsplit(' ').next().unwrap().parse().unwrap_or_else(|_| panic!("no node count in {report}"))
}

/// A book's deepest positions have their values and one best move each,
/// but not their children's values: perfect play there is the book's move
/// at once, and a solve (every best move) is searched knowing the value,
/// with the answers of a solve without the book, in fewer nodes. Built as
/// a user builds a book, one move deep from a position of 24 empty cells.
#[test]
fn the_deepest_positions_of_a_book_are_played_at_once_and_solved_knowing_the_value() {
    let dir = tempfile::tempdir().unwrap();
    let root = "445352667123445566";
    let args = ["book", "--rules", "max", "--moves", root, "--depth", "1", "--threads", "1", "--out", "max.book"];
    maxconnect4(dir.path()).args(args).assert().success();
    let run = |args: &[&str]| {
        let output =
            maxconnect4(dir.path()).args(args).args(["--threads", "1"]).assert().success().get_output().clone();
        // The answer on standard output, the report of the search on standard error.
        String::from_utf8(output.stdout).unwrap() + &String::from_utf8(output.stderr).unwrap()
    };
    for column in 1..=7 {
        let moves = format!("{root}{column}");
        let with = run(&["solve", "--moves", &moves, "--book", "max.book"]);
        let without = run(&["solve", "--moves", &moves, "--no-book"]);
        let answer = without.lines().next().unwrap();
        assert_eq!(with.lines().next(), Some(answer), "{moves}: the value and best moves");
        assert!(nodes_in(&with) < nodes_in(&without), "{moves}:\n{with}\n{without}");
        // `value V best C,C`: the move played is one of them.
        let (value, best) = answer.strip_prefix("value ").unwrap().split_once(" best ").unwrap();
        let perfect =
            ["one-move", "--rules", "max", "--moves", &moves, "out.txt", "3", "--perfect", "--book", "max.book"];
        let played = run(&perfect);
        assert!(
            played.contains(&format!("Perfect play from the opening book: the position's value is {value}.")),
            "{played}"
        );
        let column = played.split("plays column ").nth(1).unwrap().split('.').next().unwrap();
        assert!(best.split(',').any(|best| best == column), "{moves}: column {column}, best {best}\n{played}");
    }
}

#[test]
fn a_classic_book_with_max_rules_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let classic = concat!(env!("CARGO_MANIFEST_DIR"), "/data/classic.book");
    for args in [
        &["one-move", "--rules", "max", "--moves", "44", "out.txt", "3", "--perfect", "--book", classic][..],
        &["solve", "--rules", "max", "--moves", "44", "--book", classic],
    ] {
        let output = maxconnect4(dir.path()).args(args).assert().code(1).get_output().clone();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr, format!("error: {classic} is a classic book; --rules max needs a Max-Connect4 one\n"));
    }
    assert!(!dir.path().join("out.txt").exists());
}

#[test]
fn the_servers_perfect_strength_plays_a_best_move_of_the_book() {
    let (_, _, board, best) = shipped_root();
    let server = super::serve::Server::start(&["--depth", "1"]);
    let mut turn = PlayTurn::new(&board, Rules::Max);
    turn.perfect = true;
    turn.time_limit = Some(1.0);
    let (status, body) = server.post(&Request::PlayTurn(turn).to_string());
    assert_eq!(status, 200, "{body}");
    let value: serde_json::Value = serde_json::from_str(&body).unwrap();
    let column = Column::from_index(value["play"].as_u64().unwrap() as usize).unwrap();
    assert!(best.contains(&column), "column {column} is not among the book's best {best:?}");
    // The answer says the move is perfect play, and the position's value.
    let book_value = Book::shipped_for(Rules::Max).board_value(Rules::Max, &board, Strength::Strong).unwrap();
    assert_eq!((&value["perfect"], &value["value"]), (&serde_json::json!(true), &serde_json::json!(book_value)));
}

/// Past the book, the server solves within nine tenths of the time and
/// says whether it did: a position 16 cells from the end is solved at once
/// (its value as the solver finds it); one 7 moves from the empty board,
/// past any book the program carries, takes 17.5 M nodes (0.9 s on two
/// threads), never done in a tenth of a second, and the answer says its
/// move is not perfect play.
#[test]
fn the_servers_perfect_strength_says_whether_its_move_is_perfect_play() {
    let server = super::serve::Server::start(&["--depth", "3"]);
    let ask = |moves: &str, seconds: f64| {
        let mut turn = PlayTurn::new(&Moves::board(Rules::Max, moves).unwrap(), Rules::Max);
        turn.perfect = true;
        turn.time_limit = Some(seconds);
        let (status, body) = server.post(&Request::PlayTurn(turn).to_string());
        assert_eq!(status, 200, "{body}");
        serde_json::from_str::<serde_json::Value>(&body).unwrap()
    };
    let late = Moves::board(Rules::Max, LATE).unwrap();
    let solution = Engine::with_book(Rules::Max, 1 << 24, None).unwrap().solve(&late, Strength::Strong, None).unwrap();
    let answer = ask(LATE, 5.0);
    let column = Column::from_index(answer["play"].as_u64().unwrap() as usize).unwrap();
    assert!(solution.best.contains(&column), "{answer} is not among the best {:?}", solution.best);
    assert_eq!((&answer["perfect"], &answer["value"]), (&serde_json::json!(true), &serde_json::json!(solution.value)));

    let early = ask("7752475", 0.1);
    assert_eq!(early["perfect"], serde_json::json!(false), "{early}");
    assert!(early.get("value").is_none(), "no value for a move not proven: {early}");
    assert!(early["play"].as_u64().is_some_and(|column| column < 7), "{early}");
}

/// A position 26 moves in (16 empty cells, red to move), which the solver
/// proves in milliseconds.
const LATE: &str = "44443333555522226666111177";

/// The referee's `perfect` player plays perfectly where its time allows,
/// and its output says so: from a position 16 cells from the end, every
/// move is solved, and it ends the game with at least the position's
/// value against `self`.
#[test]
fn the_referees_perfect_player_gets_at_least_the_value_and_says_each_move_is_perfect() {
    let dir = tempfile::tempdir().unwrap();
    let late = Moves::board(Rules::Max, LATE).unwrap();
    let value =
        Engine::with_book(Rules::Max, 1 << 24, None).unwrap().solve(&late, Strength::Strong, None).unwrap().value;
    maxconnect4(dir.path())
        .args(["match", "perfect", "self", "--start-moves", LATE, "--quiet", "--timeout", "5", "--depth", "1"])
        .assert()
        .success();
    let records = super::util::records(&dir.path().join("games.jsonl"));
    let difference = records[0].score_difference(Player::One);
    assert!(difference >= i64::from(value), "red got {difference}, the position is worth {value}");
    let output = std::fs::read_to_string(dir.path().join("games.output/1/red.txt")).unwrap();
    assert_eq!(output.matches("=== move ").count(), 8, "{output}");
    assert_eq!(output.matches("Perfect play, solved: the position's value is ").count(), 8, "{output}");
    assert!(!output.contains("Not perfect play"), "{output}");
}

/// `bot moderator --perfect` plays the book's moves, and says on standard
/// error when a move is not perfect play: its moves from positions where
/// the shipped book has no best move. It plays first, answered in column 1
/// each time; the positions past the book it can reach are `414141` (past a
/// book 5 moves deep: 15.9 M nodes, 1.7 s of one core for the value and a
/// best move) and `41414141` (past one 6 moves deep: 12.8 M nodes, 1.2 s),
/// each some 60 times the 18 ms (nine tenths of 0.02 s) the bot gives a
/// solve.
#[test]
fn the_moderator_bot_says_which_moves_are_not_perfect_play() {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_maxconnect4"));
    command
        .args(["bot", "moderator", "--rules", "max", "--perfect", "--time-limit", "0.02"])
        .env_remove("RUST_BACKTRACE");
    let output = command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            // Red; then column 1 after each of the bot's moves, then the end.
            child.stdin.take().unwrap().write_all(b"1\n1\n1\n1\n1\n-1\n")?;
            child.wait_with_output()
        })
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    let moves: Vec<&str> = stdout.lines().skip(1).collect();
    assert_eq!(moves.len(), 5, "{stdout}");
    // The book's move from the empty board, the root of the shipped book.
    let (book, _, _, best) = shipped_root();
    assert!(best.contains(&Column::from_index(moves[0].parse::<usize>().unwrap() - 1).unwrap()), "{stdout}");
    // The bot's moves 1, 3, 5, 7 and 9 (from 0 to 8 moves deep): where
    // the book has no best move (past its children, or at its deepest
    // positions when it stores none), not perfect.
    let mut played = String::new();
    let mut beyond = Vec::new();
    for (index, column) in moves.iter().enumerate() {
        let board = Moves::board(Rules::Max, &played).unwrap();
        if book.one_best(Rules::Max, &board).is_none() {
            beyond.push(2 * index + 1);
        }
        played.push_str(column);
        played.push('1');
    }
    let expected: String = beyond
        .into_iter()
        .map(|number| {
            format!(
                "note: move {number} is not perfect play: the book does not hold the position's best moves and no \
                 solve finished within 18 ms; the depth-limited search's move\n"
            )
        })
        .collect();
    assert!(!expected.is_empty(), "the shipped book holds the best moves 8 moves deep: move the test deeper");
    assert_eq!(stderr, expected);
    assert_eq!(output.status.code(), Some(0));
}

/// The shipped Max book against fresh solves without it: the root's best
/// moves, and positions of its deepest layer picked at random (seeded).
/// Opt-in (`cargo test --release --test it -- --ignored shipped_max_book`):
/// each deepest position of the book from the empty board, 6 moves deep,
/// has 36 empty cells and the first player to move, a value and a best
/// move of a tenth of a second to some fifteen seconds on two threads.
#[test]
#[ignore = "solves positions of the shipped book afresh: seconds per position"]
fn the_shipped_max_book_agrees_with_fresh_solves() {
    the_shipped_book_agrees_with_fresh_solves(Rules::Max, 12);
}

/// The shipped classic book against fresh solves without it, as the Max
/// one above. Opt-in (`cargo test --release --test it -- --ignored
/// shipped_classic_book`): each deepest position of the book, 8 moves
/// deep, takes the classic solver up to a few seconds, and its root (the
/// empty board) half a minute on two threads.
#[test]
#[ignore = "solves positions of the shipped book afresh: a minute or more"]
fn the_shipped_classic_book_agrees_with_fresh_solves() {
    the_shipped_book_agrees_with_fresh_solves(Rules::Classic, 40);
}

/// The shipped book of `rules` against fresh solves without it: its
/// root's value and best moves when the root is small enough to solve in
/// a test (a classic root always is), and `sample` positions of its
/// deepest layer picked at random (seeded).
fn the_shipped_book_agrees_with_fresh_solves(rules: Rules, sample: usize) {
    let book = Book::shipped_for(rules);
    let spec = BookSpec { rules, root: book.root().to_owned(), depth: book.depth() };
    let layers = Layers::new(&spec).unwrap();
    let deepest: Vec<u64> = layers.deepest_keys().collect();
    let fresh = || {
        let mut engine = Engine::with_book(rules, 1 << 30, None).unwrap();
        engine.set_threads(std::thread::available_parallelism().map_or(1, usize::from));
        engine
    };
    let root = Moves::board(rules, book.root()).unwrap();
    if rules == Rules::Classic || (book.depth() <= 6 && root.empty_cells() <= 26) {
        let solution = fresh().solve(&root, Strength::Strong, None).unwrap();
        assert_eq!(
            book.solution(rules, &root, Strength::Strong).map(|s| (s.value, s.best)),
            Some((solution.value, solution.best))
        );
    }
    let mut rng = Rng::new(24);
    for _ in 0..sample.min(deepest.len()) {
        let place = rng.below(deepest.len());
        let board = layers.board(place);
        let solved = fresh().exact_value(&board, Strength::Strong, None).unwrap().value;
        let moves = layers.moves(place);
        assert_eq!(book.board_value(rules, &board, Strength::Strong), Some(solved), "'{moves}'");
        eprintln!("'{moves}': {solved}, as the book says");
        // The best move it stores (books built since they were recorded) reaches the value.
        if let Some(best) = book.stored_best(&Position::of(&board)) {
            assert_eq!(fresh().move_value(&board, best, None).unwrap().value, solved, "'{moves}': column {best}");
            eprintln!("'{moves}': column {best} reaches it");
        }
    }
}
