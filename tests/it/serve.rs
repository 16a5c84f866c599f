//! `maxconnect4 serve` against scripted HTTP clients written here: the web
//! arena's requests, a whole game, every kind of bad request, CORS, and 16
//! clients at once.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use maxconnect4::board::{Board, Column};
use maxconnect4::protocol::arena::{PlayTurn, Request};
use maxconnect4::rules::Rules;

/// A running server, killed when dropped.
pub struct Server {
    child: Child,
    pub addr: String,
    /// The first line the server printed.
    pub banner: String,
}

impl Server {
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_maxconnect4"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_owned();
        Server { child, addr, banner: line }
    }

    /// Sends one request and returns the status, the headers (lowercase) and the body.
    pub fn request(&self, method: &str, headers: &[(&str, &str)], body: &[u8]) -> (u16, String, String) {
        self.request_to(method, "/", headers, body)
    }

    /// Sends one request for `target` (a path and a query) and returns the
    /// status, the headers (lowercase) and the body.
    pub fn request_to(
        &self,
        method: &str,
        target: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> (u16, String, String) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        let mut request = format!(
            "{method} {target} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        stream.write_all(request.as_bytes()).unwrap();
        // The server may answer a body over the limit before reading it all.
        let _ = stream.write_all(body);
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        let response = String::from_utf8(response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no body in {response:?}"));
        let status = head.split(' ').nth(1).and_then(|code| code.parse().ok()).unwrap();
        (status, head.to_lowercase(), body.to_owned())
    }

    pub fn post(&self, body: &str) -> (u16, String) {
        let (status, _, body) = self.request("POST", &[("Content-Type", "application/json")], body.as_bytes());
        (status, body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The column in `{"play":N}`, checked to be a JSON number.
fn played(body: &str) -> Column {
    let value: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {body}"));
    let index = value["play"].as_u64().unwrap_or_else(|| panic!("no numeric play in {body}"));
    assert_eq!(value.as_object().unwrap().len(), 1, "{body}");
    Column::from_index(index as usize).unwrap_or_else(|| panic!("column out of range in {body}"))
}

const SEED_TURN: &str = r#"{"game-id":"9916","action":"play-turn","game":"connectFour","players":2,"board":[["","","","","","",""],["","","","","","",""],["","","","","","",""],["","","","","","",""],["","","","","","",""],["","","","","","",""]],"you":"X","player-index":0}"#;

#[test]
fn the_arenas_requests_and_a_whole_game() {
    let server = Server::start(&["--depth", "5"]);
    let init = r#"{"game-id":"1126","action":"init","game":"connectFour","players":2,"board":"","player-index":0}"#;
    assert_eq!(server.post(init), (200, r#"{"name":"maxconnect4"}"#.to_owned()));
    assert_eq!(server.post(r#"{"action":"init","game":"connectfour"}"#), (200, r#"{"name":"maxconnect4"}"#.to_owned()));
    let (status, body) = server.post(SEED_TURN);
    assert_eq!(status, 200, "{body}");
    played(&body);
    let (status, body) = server.post(&SEED_TURN.replace(r#","player-index":0"#, "").replace(r#""players":2,"#, ""));
    assert_eq!(status, 200, "{body}");

    // The server plays O against a leftmost X, and wins.
    let mut board = Board::empty();
    while !Rules::Classic.is_over(&board) {
        let column = if board.to_move().number() == 1 {
            board.legal_columns().next().unwrap()
        } else {
            let mut turn = PlayTurn::new(&board, Rules::Classic);
            turn.rules = None;
            let (status, body) = server.post(&Request::PlayTurn(turn).to_string());
            assert_eq!(status, 200, "{body}");
            let column = played(&body);
            assert!(board.can_play(column), "full column {column} in {body}");
            column
        };
        board.play(column);
    }
    assert_eq!(board.to_move().number(), 1, "the server lost to the leftmost player");
}

/// Posts `body` and checks the status and the one-line JSON error.
fn check(server: &Server, body: &str, status: u16, error: &str) {
    let (actual, response) = server.post(body);
    let expected = serde_json::json!({ "error": error }).to_string();
    assert_eq!((actual, response.as_str()), (status, expected.as_str()), "body {body}");
}

#[test]
fn bad_requests_get_a_4xx_with_a_json_error() {
    let server = Server::start(&["--depth", "2"]);
    let rows = |cells: &[&str]| -> String {
        let mut rows: Vec<String> = cells.iter().map(|row| (*row).to_owned()).collect();
        rows.resize(6, r#"["","","","","","",""]"#.to_owned());
        format!(r#"{{"action":"play-turn","game":"connectFour","board":[{}],"you":"O"}}"#, rows.join(","))
    };
    check(&server, "", 400, "not JSON: EOF while parsing a value at line 1 column 0");
    check(&server, "{\"action\":", 400, "not JSON: EOF while parsing a value at line 1 column 10");
    check(
        &server,
        r#"[1,2]"#,
        400,
        "not a request: invalid type: integer `1`, expected variant identifier at line 1 column 2",
    );
    check(
        &server,
        r#"{"action":"play-turn","board":"","you":"X"}"#,
        400,
        "not a request: invalid type: string \"\", expected a sequence",
    );
    check(
        &server,
        r#"{"action":"init","game":"chess"}"#,
        400,
        "not a request: unknown variant `chess`, expected `connectFour` or `connectfour`",
    );
    check(
        &server,
        &rows(&[r#"["X","Y","","","","",""]"#]),
        400,
        "not a request: unknown symbol \"Y\" on the board: expected \"\", \"X\" or \"O\"",
    );
    check(
        &server,
        &rows(&[]).replace("\"O\"", "\"Z\""),
        400,
        "not a request: unknown variant `Z`, expected one of `X`, `0`, `O`",
    );
    check(
        &server,
        &rows(&[r#"["X","","","","","",""]"#, r#"["","X","","","","",""]"#]),
        422,
        "X has 2 pieces and O 0; X moves first, so X has as many as O or one more",
    );
    check(
        &server,
        &rows(&[r#"["X","","","","","",""]"#, r#"["","O","","","","",""]"#]).replace("\"you\":\"O\"", "\"you\":\"X\""),
        422,
        "the board is not a position of a game: the piece in column 2, row 2 floats above an empty cell",
    );
    check(
        &server,
        &rows(&[r#"["X","","","","","",""]"#]).replace("\"you\":\"O\"", "\"you\":\"X\""),
        422,
        "it is O's turn, not X's",
    );
    check(
        &server,
        &rows(&[
            r#"["X","O","","","","",""]"#,
            r#"["X","O","","","","",""]"#,
            r#"["X","O","","","","",""]"#,
            r#"["X","","","","","",""]"#,
        ]),
        422,
        "the game is already over under classic rules",
    );
    let mut full = Board::empty();
    while !full.is_full() {
        let column = full.legal_columns().next().unwrap();
        full.play(column);
    }
    let full = Request::PlayTurn(PlayTurn::new(&full, Rules::Max)).to_string();
    check(&server, &full, 422, "the board is full");
    check(
        &server,
        &SEED_TURN.replace("\"you\":\"X\"", "\"you\":\"X\",\"depth\":0"),
        422,
        "depth 0 is out of range: expected 1 to 42",
    );
    check(
        &server,
        &SEED_TURN.replace("\"you\":\"X\"", "\"you\":\"X\",\"time-limit\":60"),
        422,
        "time-limit 60 is out of range: expected more than 0 and at most 10 seconds",
    );
    let huge = format!("{{\"action\":\"init\",\"pad\":\"{}\"}}", "x".repeat(maxconnect4::serve::BODY_LIMIT));
    check(&server, &huge, 413, "payload too large");
    let (status, _, body) = server.request("PUT", &[], b"");
    assert_eq!((status, body.as_str()), (405, r#"{"error":"method not allowed"}"#));
    let (status, _, body) = server.request("POST", &[], &[0xff, 0xfe]);
    assert_eq!((status, body.as_str()), (400, r#"{"error":"not JSON: the body is not UTF-8"}"#));
    // The server is still there and well.
    assert_eq!(server.post(SEED_TURN).0, 200);
}

#[test]
fn cors_lets_the_arenas_page_call_the_bot() {
    let server = Server::start(&["--depth", "2"]);
    let (status, head, _) = server.request(
        "OPTIONS",
        &[
            ("Origin", "http://arena.example"),
            ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "content-type"),
        ],
        b"",
    );
    assert_eq!(status, 200);
    assert!(head.contains("access-control-allow-origin: *"), "{head}");
    assert!(head.contains("access-control-allow-methods:") && head.contains("post"), "{head}");
    let (status, head, _) = server.request("POST", &[("Origin", "http://arena.example")], SEED_TURN.as_bytes());
    assert_eq!(status, 200);
    assert!(head.contains("access-control-allow-origin: *"), "{head}");
}

/// The server says how many searches it runs at once and with how many
/// threads each: the cores shared out among them, so that one search at a
/// time (`--searches 1`) has them all. Either way it solves a position 26
/// cells from the end (enough for threads to search together) to the same
/// perfect move and value.
#[test]
fn the_server_shares_the_cores_among_its_searches() {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let plural = |count: usize, word: &str, many: &str| format!("{count} {word}{}", if count == 1 { "" } else { many });
    let board = maxconnect4::moves::Moves::board(Rules::Max, "4453526671234455").unwrap();
    let mut answers = Vec::new();
    for (args, searches, threads) in [(&[][..], cores, 1), (&["--searches", "1"][..], 1, cores)] {
        let server = Server::start(args);
        let said = format!("{} at once, {} each\n", plural(searches, "search", "es"), plural(threads, "thread", "s"));
        assert!(server.banner.ends_with(&format!(": {said}")), "{args:?}: {:?}", server.banner);
        let mut turn = PlayTurn::new(&board, Rules::Max);
        (turn.perfect, turn.time_limit) = (true, Some(10.0));
        let (status, body) = server.post(&Request::PlayTurn(turn).to_string());
        assert_eq!(status, 200, "{body}");
        assert!(body.contains(r#""perfect":true"#), "{args:?}: {body}");
        answers.push(body);
    }
    assert_eq!(answers[0], answers[1]);
}

#[test]
fn sixteen_clients_at_once_are_all_answered() {
    let server = Server::start(&["--depth", "6", "--searches", "2"]);
    std::thread::scope(|scope| {
        for client in 0..16usize {
            let server = &server;
            scope.spawn(move || {
                let mut board = Board::empty();
                for step in 0..4 {
                    board.play(Column::ALL[(client + step) % 7]);
                    if Rules::Classic.is_over(&board) {
                        break;
                    }
                    let (status, body) =
                        server.post(&Request::PlayTurn(PlayTurn::new(&board, Rules::Classic)).to_string());
                    assert_eq!(status, 200, "client {client}: {body}");
                    board.play(played(&body));
                }
            });
        }
    });
}

/// A play-turn on a position early in the game that the opening book does
/// not hold, asking for a search to `depth` of at most `seconds`.
fn search(depth: u32, seconds: f64) -> String {
    let board = maxconnect4::moves::Moves::board(Rules::Max, &super::util::beyond_the_max_book()).unwrap();
    let mut turn = PlayTurn::new(&board, Rules::Max);
    turn.depth = Some(depth);
    turn.time_limit = Some(seconds);
    Request::PlayTurn(turn).to_string()
}

#[test]
fn the_servers_searches_are_one_budget_and_beyond_its_queue_a_request_is_refused() {
    // One search at a time and one request waiting: of four clients at once
    // asking for 4-second searches, two are served in turn and two refused
    // at once, while the first search runs.
    let server = Server::start(&["--searches", "1", "--queue", "1"]);
    let answers: Vec<(u16, String)> = std::thread::scope(|scope| {
        let clients: Vec<_> = (0..4).map(|_| scope.spawn(|| server.post(&search(42, 4.0)))).collect();
        clients.into_iter().map(|client| client.join().unwrap()).collect()
    });
    let refused = serde_json::json!({
        "error": "busy: 1 searches are running and 1 waiting, the most this server takes; try again shortly"
    })
    .to_string();
    let count = |status| answers.iter().filter(|(code, _)| *code == status).count();
    assert_eq!((count(200), count(503)), (2, 2), "{answers:?}");
    assert!(answers.iter().filter(|(code, _)| *code == 503).all(|(_, body)| *body == refused), "{answers:?}");
}

#[test]
fn a_request_may_not_ask_beyond_the_servers_caps() {
    let server = Server::start(&["--max-depth", "8", "--max-time", "0.5"]);
    check(&server, &search(9, 0.5), 422, "depth 9 is out of range: expected 1 to 8");
    check(
        &server,
        &search(8, 0.6),
        422,
        "time-limit 0.6 is out of range: expected more than 0 and at most 0.5 seconds",
    );
    let (status, _) = server.post(&search(8, 0.5));
    assert_eq!(status, 200);
}

#[test]
fn clients_that_never_finish_their_headers_hold_no_connection_for_long() {
    // As a slowloris attacker: every connection the server takes at once,
    // each with half a request's headers, never finished.
    let server = Server::start(&["--depth", "2", "--max-connections", "20", "--header-timeout", "1"]);
    let attackers: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut stream = TcpStream::connect(&server.addr).unwrap();
            stream.write_all(b"POST / HTTP/1.1\r\nHost: x\r\nX-Slow: ").unwrap();
            stream
        })
        .collect();
    // A normal client waits for a connection to be freed, and is answered.
    let (status, body) = server.post(&Request::PlayTurn(PlayTurn::new(&Board::empty(), Rules::Classic)).to_string());
    assert_eq!(status, 200, "{body}");
    // Every attacker's connection was closed by the server.
    // Every attacker's connection was closed by the server (the timeout on
    // this side only turns a hang into a failure).
    for mut attacker in attackers {
        attacker.set_read_timeout(Some(std::time::Duration::from_secs(60))).unwrap();
        let mut rest = Vec::new();
        // Closed, or reset (closed to make room before the server read what
        // it sent); only the timeout says it was kept.
        let kept = attacker
            .read_to_end(&mut rest)
            .is_err_and(|error| matches!(error.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut));
        assert!(!kept, "a half-open connection was kept");
    }
}

#[test]
fn a_crowd_of_half_open_connections_shuts_no_client_out() {
    // Three times as many half-open connections as the server takes, with
    // a header timeout far longer than the test: only the eviction of the
    // oldest waiting connection lets the normal client in.
    let server = Server::start(&["--depth", "2", "--max-connections", "20", "--header-timeout", "3600"]);
    let mut attackers: Vec<TcpStream> = (0..60)
        .map(|_| {
            let mut stream = TcpStream::connect(&server.addr).unwrap();
            stream.write_all(b"POST / HTTP/1.1\r\nHost: x\r\nX-Slow: ").unwrap();
            stream
        })
        .collect();
    // The normal client (the timeout on this side only turns a hang into a
    // failure: it is answered at once).
    let mut client = TcpStream::connect(&server.addr).unwrap();
    client.set_read_timeout(Some(std::time::Duration::from_secs(60))).unwrap();
    client
        .write_all(
            format!("GET /solve?pos=44 HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", server.addr).as_bytes(),
        )
        .unwrap();
    let mut answer = String::new();
    let _ = client.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "no answer: {answer:?}");
    // The server closed the oldest attackers to make room: at most 20
    // connections are still open (the timeout on this side only turns a
    // hang into a failure).
    let mut closed = 0;
    for attacker in &mut attackers[..40] {
        attacker.set_read_timeout(Some(std::time::Duration::from_secs(60))).unwrap();
        let mut rest = Vec::new();
        // Closed, or reset (closed before the server read what it sent);
        // only the timeout says it is open.
        match attacker.read_to_end(&mut rest) {
            Err(error) if matches!(error.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            Ok(_) | Err(_) => closed += 1,
        }
    }
    assert_eq!(closed, 40, "the 40 oldest were closed");
}

#[test]
fn a_client_that_never_finishes_its_body_is_answered_408() {
    let server = Server::start(&["--depth", "2", "--header-timeout", "1"]);
    let mut slow = TcpStream::connect(&server.addr).unwrap();
    // Headers promising 100 bytes, then 10 of them, then nothing.
    slow.write_all(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"init\": ").unwrap();
    // The timeout on this side only turns a hang into a failure.
    slow.set_read_timeout(Some(std::time::Duration::from_secs(60))).unwrap();
    let mut answer = String::new();
    let _ = slow.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.ends_with(r#"{"error":"request timeout: the body did not arrive within 1 s of the headers"}"#),
        "{answer}"
    );
    // The server goes on serving.
    let (status, body) = server.post(&Request::PlayTurn(PlayTurn::new(&Board::empty(), Rules::Classic)).to_string());
    assert_eq!(status, 200, "{body}");
}

#[test]
fn a_client_that_hangs_up_stops_its_search() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_maxconnect4"))
        .args(["serve", "--addr", "127.0.0.1:0", "--searches", "1", "--queue", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).unwrap().split('/').next().unwrap().to_owned();
    let server = Server { addr, child, banner: line };
    // A client asks for a 10-second search...
    let body = search(42, 10.0);
    let ask = || {
        let mut client = TcpStream::connect(&server.addr).unwrap();
        let head = format!("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n", body.len());
        client.write_all(format!("{head}{body}").as_bytes()).unwrap();
        client
    };
    let mut gone = ask();
    // ...which runs: the one search slot is taken, so another is refused.
    // A probe that reaches the server first takes the slot, and the long
    // search is refused: then it is asked for again. (However slowly a
    // loaded machine gets to it: the time only turns a hang into a failure.)
    let quick = search(1, 1.0);
    let waited = std::time::Instant::now();
    loop {
        let (status, answer) = server.post(&quick);
        if status == 503 {
            break;
        }
        gone.set_read_timeout(Some(std::time::Duration::from_millis(1))).unwrap();
        if gone.peek(&mut [0; 1]).is_ok_and(|read| read > 0) {
            gone = ask();
        }
        let waiting = waited.elapsed() < std::time::Duration::from_secs(60);
        assert!(waiting, "the long search never ran: the last answer was {status} {answer}");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // The client hangs up; the server stops its search and says so.
    drop(gone);
    let mut server = server;
    let stderr = BufReader::new(server.child.stderr.take().unwrap());
    let (sender, said) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let said = stderr.lines().map_while(Result::ok).find(|line| line.starts_with("a search stopped after "));
        let _ = sender.send(said);
    });
    // The time only turns a hang into a failure.
    let said = said.recv_timeout(std::time::Duration::from_secs(60)).ok().flatten();
    let said = said.expect("the server said the search stopped");
    assert!(said.ends_with("of its 10 s: its client hung up"), "{said}");
    // Its slot is free again.
    assert_eq!(server.post(&quick).0, 200);
}
