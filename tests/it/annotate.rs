//! `annotate` and `replay --annotate`: each move of a logged game against
//! the best column, with blunders and inaccuracies marked as a player would
//! want them, certain only where the values are exact.

use std::path::Path;
use std::time::Duration;

use maxconnect4::board::{Board, Column};
use maxconnect4::player::Player;
use maxconnect4::random::XorShift;
use maxconnect4::referee::log::{encode_board, GameRecord, Scores, Side, TurnRecord};
use maxconnect4::referee::settings::Settings;
use maxconnect4::rules::{Outcome, Rules};
use maxconnect4::search::{Engine, Strength};

use super::util::maxconnect4;

/// A log in `dir` holding one game under `rules` from `start`: `moves`,
/// between ann (red) and bob (green).
fn log(dir: &Path, rules: Rules, start: Board, moves: &[Column]) {
    let mut board = start;
    let mut turns = Vec::new();
    for &column in moves {
        turns.push(TurnRecord {
            player: board.to_move(),
            column: Some(column.number()),
            wall: 0.01,
            cpu: Some(0.01),
            ending: None,
            clock: None,
        });
        board.play(column);
    }
    let score = Scores { red: board.score(Player::One), green: board.score(Player::Two) };
    let side = |name: &str| Side { name: name.to_owned(), command: "self".to_owned() };
    let record = GameRecord {
        id: "1".to_owned(),
        red: side("ann"),
        green: side("bob"),
        settings: Settings { rules, depth: 5, timeout: Duration::from_secs(10), clock: None, adjudication: None },
        start: encode_board(&start),
        opening: None,
        moves: moves.iter().map(|column| column.number().to_string()).collect(),
        score,
        result: Outcome::Draw,
        forfeit: None,
        adjudicated: None,
        turns,
    };
    std::fs::write(dir.join("games.jsonl"), serde_json::to_string(&record).unwrap() + "\n").unwrap();
}

fn columns(digits: &str) -> Vec<Column> {
    digits.chars().map(|digit| Column::from_number(digit.to_digit(10).unwrap() as usize).unwrap()).collect()
}

fn stdout(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(assert.get_output().stdout.clone()).unwrap()
}

#[test]
fn a_classic_blunder_is_marked_where_the_loss_is_proven() {
    // Red stacks column 1, green column 2; green's third piece in column 2
    // ignores red's three in column 1, and red wins at once.
    let dir = tempfile::tempdir().unwrap();
    log(dir.path(), Rules::Classic, Board::empty(), &columns("1212121"));
    let assert = maxconnect4(dir.path()).args(["annotate", "games.jsonl", "--depth", "8"]).assert().success();
    let text = stdout(&assert);
    assert!(text.starts_with("Game 1 of 1 in games.jsonl (logged as game 1): red ann against green bob.\n"), "{text}");
    // The built-in book holds every position up to 8 moves: green's
    // winning move is known exactly.
    assert!(
        text.contains("Move 6, green (bob) plays 2: -18 exact; best 1: +1 exact. Blunder: a win thrown to a loss.\n"),
        "{text}"
    );
    assert!(text.contains("Move 7, red (ann) plays 1: +18 exact, a best move.\n"), "{text}");
    // Classic Connect-4 is a first player's win through the centre only:
    // red's first move at the edge throws it away, as the solver proves.
    assert!(
        text.contains("Move 1, red (ann) plays 1: -2 exact; best 4: +1 exact. Blunder: a win thrown to a loss.\n"),
        "{text}"
    );
    assert!(text.contains("\nred (ann): 1 blunder"), "{text}");
    assert!(text.contains("\ngreen (bob): 1 blunder"), "{text}");
    // Without the book, a search to depth 8 proves the loss green's move
    // makes, but not that green had a win.
    let assert =
        maxconnect4(dir.path()).args(["annotate", "games.jsonl", "--depth", "8", "--no-book"]).assert().success();
    let text = stdout(&assert);
    assert!(
        text.contains("Move 6, green (bob) plays 2: -18 exact; best 1: ")
            && text.contains("Blunder (at depth 8, not proven): an open result thrown to a loss."),
        "{text}"
    );

    let assert = maxconnect4(dir.path()).args(["annotate", "games.jsonl", "--depth", "8", "--json"]).assert().success();
    let json: serde_json::Value = serde_json::from_str(&stdout(&assert)).unwrap();
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 7);
    assert_eq!(moves[5]["judgement"], "blunder");
    assert_eq!(moves[5]["exact"], true);
    assert_eq!(moves[5]["value"], -18.0);
    assert_eq!(moves[5]["best"], serde_json::json!([1]));
    assert_eq!(json["tally"]["green"]["blunders"], 1);
    assert_eq!(json["tally"]["red"]["blunders"], 1);
    assert_eq!(moves[0]["certain"], true);

    // The same notes under the boards of the replay.
    let assert = maxconnect4(dir.path())
        .args(["replay", "games.jsonl", "--delay", "0", "--annotate", "--depth", "8"])
        .assert()
        .success();
    let text = stdout(&assert);
    let note = text.find("Move 6, green (bob) plays 2: -18 exact").expect("the note is shown");
    let board = text.find("Move 6: green (bob) plays column 2.").unwrap();
    assert!(board < note, "the note follows its move's board:\n{text}");
}

#[test]
fn a_max_move_that_loses_points_is_an_inaccuracy_with_the_points_it_lost() {
    // A near-full position where the columns' exact values (in points)
    // differ: play the worst column, as the exact solver values it, then
    // the best ones.
    let mut engine = Engine::for_rules(Rules::Max, 1 << 20).unwrap();
    let mut random = XorShift::new(0x2545_F491_4F6C_DD1D);
    let (start, worst, lost) = loop {
        let mut board = Board::empty();
        random.play_until(&mut board, Rules::Max, 7);
        let values = engine.move_values(&board, Strength::Strong, None).unwrap().values;
        let playable: Vec<(usize, i32)> = values.iter().enumerate().filter_map(|(i, v)| Some((i, (*v)?))).collect();
        let best = playable.iter().map(|&(_, v)| v).max().unwrap();
        let (worst, value) = *playable.iter().min_by_key(|&&(_, v)| v).unwrap();
        // A loss of points that keeps the result: an inaccuracy.
        if value < best && value.signum() == best.signum() {
            break (board, Column::from_index(worst).unwrap(), f64::from(best - value));
        }
    };
    let mut moves = vec![worst];
    let mut board = start.after(worst);
    while !board.is_full() {
        let values = engine.move_values(&board, Strength::Strong, None).unwrap().values;
        let best = (0..7).filter(|&i| values[i].is_some()).max_by_key(|&i| values[i]).unwrap();
        let column = Column::from_index(best).unwrap();
        moves.push(column);
        board.play(column);
    }
    let dir = tempfile::tempdir().unwrap();
    log(dir.path(), Rules::Max, start, &moves);
    let assert = maxconnect4(dir.path()).args(["annotate", "games.jsonl", "--json"]).assert().success();
    let json: serde_json::Value = serde_json::from_str(&stdout(&assert)).unwrap();
    let first = &json["moves"][0];
    assert_eq!(first["judgement"], "inaccuracy", "{first}");
    assert_eq!(first["certain"], true, "7 empty cells are solved within the default depth");
    assert_eq!(first["lost"], lost, "{first}");
    let mover = if first["player"] == "red" { "red" } else { "green" };
    assert_eq!(json["tally"][mover]["inaccuracies"], 1);
    assert_eq!(json["tally"][mover]["points_lost"], lost);
    for note in json["moves"].as_array().unwrap().iter().skip(1) {
        assert_eq!(note["judgement"], "sound", "the best moves are sound: {note}");
    }
}

#[test]
fn annotation_options_without_annotate_are_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    log(dir.path(), Rules::Classic, Board::empty(), &columns("44"));
    let assert = maxconnect4(dir.path()).args(["replay", "games.jsonl", "--depth", "3"]).assert().code(2);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("--depth and --time-limit set the annotation's budget: give --annotate"), "{stderr}");
    maxconnect4(dir.path()).args(["annotate", "missing.jsonl"]).assert().code(1);
}
