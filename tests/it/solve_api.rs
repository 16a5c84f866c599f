//! `GET /solve` of `maxconnect4 serve`: connect4.gamesolver.org's solver
//! API, offline, checked against the published scores of the benchmark
//! sets, and bounded like every other request.

use maxconnect4::board::Column;
use maxconnect4::moves::Moves;
use maxconnect4::random::XorShift;
use maxconnect4::rules::Rules;
use maxconnect4::search::{Engine, Strength};
use serde_json::{json, Value};

use super::serve::Server;

/// `GET target`: the status and the body, which must be JSON.
fn get(server: &Server, target: &str) -> (u16, Value) {
    let (status, _, body) = server.request_to("GET", target, &[], b"");
    (status, serde_json::from_str(&body).unwrap_or_else(|_| panic!("not JSON: {body}")))
}

/// The first `count` positions of a benchmark set with their published scores.
fn benchmark(set: &str, count: usize) -> Vec<(String, i64)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/connect4-benchmarks").join(set);
    let text = std::fs::read_to_string(path).unwrap();
    let line = |line: &str| {
        let (moves, score) = line.split_once(' ').unwrap();
        (moves.to_owned(), score.parse().unwrap())
    };
    text.lines().take(count).map(line).collect()
}

#[test]
fn the_solver_sites_answers_for_positions_of_known_score() {
    let server = Server::start(&[]);
    // The empty board, as every solver site shows it: the centre wins.
    let (status, answer) = get(&server, "/solve?pos=");
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["pos"], "");
    assert_eq!(answer["score"], json!([-2, -1, 0, 1, 0, -1, -2]));
    let mut positions = benchmark("Test_L3_R1", 4);
    positions.extend(benchmark("Test_L2_R1", 2));
    for (moves, score) in positions {
        let (status, answer) = get(&server, &format!("/solve?pos={moves}"));
        assert_eq!(status, 200, "{moves}: {answer}");
        assert_eq!(answer["pos"], moves.as_str());
        let board = Moves::board(Rules::Classic, &moves).unwrap();
        let scores = answer["score"].as_array().unwrap();
        assert_eq!(scores.len(), 7);
        for (column, value) in Column::ALL.into_iter().zip(scores) {
            // A column that cannot be played scores 100; the others are exact.
            if board.can_play(column) {
                assert_eq!(answer["exact"][column.index()], true, "{moves}: {answer}");
                assert!(value.as_i64().unwrap().abs() <= 21, "{moves}: {answer}");
            } else {
                assert_eq!(value, 100, "{moves}: {answer}");
            }
        }
        let best = scores.iter().filter_map(Value::as_i64).filter(|&value| value != 100).max();
        assert_eq!(best, Some(score), "{moves}: {answer}");
    }
}

#[test]
fn max_rules_give_the_final_score_differences() {
    let server = Server::start(&[]);
    let moves = "44444433333322222211111";
    let (status, answer) = get(&server, &format!("/solve?pos={moves}&rules=max"));
    assert_eq!(status, 200, "{answer}");
    let board = Moves::board(Rules::Max, moves).unwrap();
    let exact = Engine::max_without_book(1 << 20).move_values(&board, Strength::Strong, None).unwrap();
    let expected: Vec<Value> =
        exact.values.iter().map(|value| value.map_or(json!(100), |value| json!(value))).collect();
    assert_eq!(answer["score"], json!(expected));
    assert_eq!(answer["rules"], "max");
    assert_eq!(answer["exact"], json!([true, null, null, null, true, true, true]));
}

/// What the server cannot solve in its time is left out of `score`
/// (`null`), its depth-limited value given as an estimate; what it solves
/// is in `score`, exact.
#[test]
fn a_value_the_server_cannot_solve_is_left_out_of_score() {
    let server = Server::start(&["--max-time", "1", "--no-book"]);
    let pos = super::util::FAR_FROM_SOLVED;
    let (status, answer) = get(&server, &format!("/solve?pos={pos}&rules=max"));
    assert_eq!(status, 200, "{answer}");
    let mut left_out = 0;
    for column in 0..7 {
        let (score, exact, depth) = (&answer["score"][column], &answer["exact"][column], &answer["depth"][column]);
        if exact == &json!(true) {
            assert!(score.is_i64(), "column {column}: {answer}");
        } else {
            left_out += 1;
            assert_eq!(exact, &json!(false), "column {column}: {answer}");
            assert!(score.is_null() && depth.as_u64().is_some_and(|depth| depth >= 1), "column {column}: {answer}");
            assert!(answer["estimate"][column].is_f64(), "column {column}: {answer}");
        }
    }
    assert!(left_out > 0, "every column solved in a second: {answer}");
}

/// Classic positions 8 to 16 moves in, reached by seeded random moves:
/// every score the server gives is the exact value (a column it could not
/// solve in its time is `null`, never a guess). How many it solves in its
/// time depends on the machine's load; with half a minute, some at least.
#[test]
fn every_score_is_exact_on_random_positions() {
    let server = Server::start(&["--time-limit", "30"]);
    let mut engine = Engine::for_rules(Rules::Classic, 64 << 20).unwrap();
    let mut generator = XorShift::new(0x2545_f491_4f6c_dd1d);
    let mut random = move |below: u64| generator.below(below);
    let (mut exact, mut left_out) = (0, 0);
    for _ in 0..12 {
        let length = 8 + random(9);
        let mut moves = String::new();
        let mut board = Moves::board(Rules::Classic, "").unwrap();
        while (moves.len() as u64) < length {
            let column = Column::ALL[random(7) as usize];
            let mut next = board;
            if next.try_play(column).is_ok() && !Rules::Classic.is_over(&next) {
                board = next;
                moves.push(char::from(b'1' + column.index() as u8));
            }
        }
        let (status, answer) = get(&server, &format!("/solve?pos={moves}"));
        assert_eq!(status, 200, "{answer}");
        let solved = engine.move_values(&board, Strength::Strong, None).unwrap();
        for (column, value) in solved.values.iter().enumerate() {
            let given = &answer["score"][column];
            match value {
                None => assert_eq!(given, 100, "{moves}: {answer}"),
                Some(_) if given.is_null() => left_out += 1,
                Some(value) => {
                    assert_eq!(given, &json!(value), "{moves}, column {}: {answer}", column + 1);
                    exact += 1;
                }
            }
        }
    }
    assert!(exact > 0, "none of the {left_out} columns was solved");
}

/// A position of the book is answered at once, even when every search's
/// place is taken.
#[test]
fn a_position_of_the_book_never_waits_for_a_search() {
    let server = Server::start(&["--searches", "1", "--queue", "0"]);
    // A move searched to the end of the game within 2 s, past the book:
    // the depth-limited search never gets there, so it holds the one place
    // for its 2 s, however fast the solver.
    let board = Moves::board(Rules::Max, &super::util::beyond_the_max_book()).unwrap();
    let mut turn = maxconnect4::protocol::arena::PlayTurn::new(&board, Rules::Max);
    (turn.depth, turn.time_limit) = (Some(42), Some(2.0));
    let busy = maxconnect4::protocol::arena::Request::PlayTurn(turn).to_string();
    let mut checked = false;
    for _ in 0..20 {
        if checked {
            break;
        }
        std::thread::scope(|scope| {
            let search = scope.spawn(|| server.post(&busy));
            // Most often the thread's request comes first after a moment;
            // when it does not, the loop tries again.
            std::thread::sleep(std::time::Duration::from_millis(200));
            // Refused: the search above holds the one place (answered: this
            // request took it first, and the other was refused; again).
            if server.post(&busy).0 == 503 {
                for pos in ["44", "4453", "", "44&rules=max"] {
                    let (status, answer) = get(&server, &format!("/solve?pos={pos}"));
                    assert_eq!(status, 200, "{pos}: {answer}");
                    assert!(answer["exact"].as_array().unwrap().iter().all(|exact| exact != false), "{answer}");
                }
                assert_eq!(search.join().unwrap().0, 200, "the search was still running");
                checked = true;
            }
        });
    }
    assert!(checked, "in 20 tries, no search held the server's place while a book position was asked for");
}

#[test]
fn a_bad_request_gets_a_400_with_a_json_error() {
    let server = Server::start(&["--depth", "2"]);
    let check = |target: &str, message: &str| {
        let (status, answer) = get(&server, target);
        assert_eq!((status, answer), (400, json!({ "error": message })), "{target}");
    };
    check("/solve?pos=44x", "bad pos '44x': move 3 is 'x', not a column 1-7");
    check("/solve?pos=1111111", "bad pos '1111111': move 7 plays column 1, which is full");
    check(
        "/solve?pos=12121213",
        "bad pos '12121213': move 8 plays column 3 after the game ended: player 1 has four in a row",
    );
    check("/solve?pos=4&rules=chess", "bad rules: unknown rules 'chess': expected 'max' or 'classic'");
    check("/solve", "give the position as pos=MOVES, the columns 1-7 played from the empty board");
    // A finished game is a position: no column can be played.
    let (status, answer) = get(&server, "/solve?pos=1212121");
    assert_eq!((status, &answer["score"]), (200, &json!([100, 100, 100, 100, 100, 100, 100])));
}

#[test]
fn other_pages_may_call_it() {
    let server = Server::start(&["--depth", "2"]);
    let (status, head, _) = server.request_to("GET", "/solve?pos=4", &[("Origin", "http://bots.example")], b"");
    assert_eq!(status, 200);
    assert!(head.contains("access-control-allow-origin: *"), "{head}");
}

#[test]
fn its_searches_share_the_servers_budget_and_beyond_its_queue_it_is_refused() {
    // One search at a time and one request waiting: of four clients at once
    // asking for an early Max-Connect4 position, searched without the book,
    // which the server cannot solve and searches for its whole 4 seconds,
    // two are served in turn and two refused at once.
    let server = Server::start(&["--searches", "1", "--queue", "1", "--time-limit", "4", "--no-book"]);
    let target = format!("/solve?pos={}&rules=max", super::util::FAR_FROM_SOLVED);
    let answers: Vec<(u16, Value)> = std::thread::scope(|scope| {
        let clients: Vec<_> = (0..4).map(|_| scope.spawn(|| get(&server, &target))).collect();
        clients.into_iter().map(|client| client.join().unwrap()).collect()
    });
    let refused = json!({
        "error": "busy: 1 searches are running and 1 waiting, the most this server takes; try again shortly"
    });
    let count = |status| answers.iter().filter(|(code, _)| *code == status).count();
    assert_eq!((count(200), count(503)), (2, 2), "{answers:?}");
    assert!(answers.iter().filter(|(code, _)| *code == 503).all(|(_, body)| *body == refused), "{answers:?}");
}
