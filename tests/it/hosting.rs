//! The referee as a host of bots of every protocol: scripted moderator bots
//! and coordinator engines (`tests/bots/protocol_bot.py`) and web arena bots
//! (scripted HTTP servers written here) play whole games under both rules,
//! and each kind of misbehaviour gets its verdict; a tournament mixes every
//! kind; and this program plays itself over every protocol.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use maxconnect4::player::Player;
use maxconnect4::protocol::arena::{Request, Response};
use maxconnect4::referee::log::GameRecord;
use maxconnect4::rules::Outcome;

use super::serve::Server;
use super::util::{assert_gone, bot, maxconnect4, protocol_bot, read, records};

/// A time limit no bot of these tests comes near, even on a loaded
/// machine: only the tests of time limits use a short one.
const GENEROUS: &str = "60";

/// Plays one match in `dir` from the empty board with `args` after the
/// players, expecting the referee to succeed; returns the game's record and
/// what the referee printed.
fn play_in(dir: &Path, red: &str, green: &str, args: &[&str]) -> (GameRecord, String) {
    let timeout = if args.contains(&"--timeout") { &[][..] } else { &["--timeout", GENEROUS][..] };
    let assert = maxconnect4(dir)
        .args(["match", red, green, "--quiet", "--depth", "2"])
        .args(timeout)
        .args(args)
        .assert()
        .success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let mut logged = records(&dir.join("games.jsonl"));
    (logged.pop().expect("a game was logged"), stdout)
}

/// Plays `red` against a one-move bot that plays the leftmost column, under
/// classic rules, and checks that red forfeits with `verdict` and a reason
/// containing `reason`.
pub(super) fn check_forfeit(red: &str, args: &[&str], verdict: &str, reason: &str) -> GameRecord {
    let dir = tempfile::tempdir().unwrap();
    let mut args = args.to_vec();
    args.extend(["--rules", "classic"]);
    let (record, stdout) = play_in(dir.path(), red, &bot("valid", None), &args);
    let forfeit = record.forfeit.as_ref().unwrap_or_else(|| panic!("no forfeit:\n{stdout}"));
    assert_eq!((forfeit.player, forfeit.verdict.as_str()), (Player::One, verdict), "{}", forfeit.reason);
    assert!(forfeit.reason.contains(reason), "expected '{reason}' in\n{}", forfeit.reason);
    assert_eq!(record.result, Outcome::Win(Player::Two));
    assert!(stdout.contains(&format!("forfeits: {}", forfeit.reason)), "{stdout}");
    record
}

/// Checks a whole game between `red` and `green` under `rules`: no forfeit,
/// to its end (a full board under max rules), and its line in the moves
/// file; returns the record and what each side's bot printed (stderr and
/// the exchange), red first.
pub(super) fn check_game(red: &str, green: &str, rules: &str, args: &[&str]) -> (GameRecord, [String; 2]) {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec!["--rules", rules];
    all.extend(args);
    let (record, stdout) = play_in(dir.path(), red, green, &all);
    assert_eq!(record.forfeit, None, "{stdout}");
    if rules == "max" {
        assert_eq!(record.moves.len(), 42, "{stdout}");
    } else {
        assert!(stdout.contains("wins with four in a row") || stdout.contains("draw"), "{stdout}");
    }
    assert_eq!(read(&dir.path().join("games.moves")), format!("{}\n", record.moves));
    let kept = ["red", "green"].map(|colour| {
        std::fs::read_to_string(dir.path().join("games.output").join("1").join(format!("{colour}.txt")))
            .unwrap_or_default()
    });
    (record, kept)
}

/// The end code a moderator bot is sent after `record`'s game, as the
/// exchange the referee keeps shows it.
fn end_code(record: &GameRecord) -> &'static str {
    match record.result {
        Outcome::Win(Player::One) => "> -1\n",
        Outcome::Win(Player::Two) => "> -2\n",
        Outcome::Draw => "> -3\n",
    }
}

#[test]
fn moderator_bots_play_whole_games_and_hear_the_end() {
    let valid = protocol_bot("moderator", &["valid"]);
    // Both play the leftmost column with room: red completes the bottom row.
    let (record, [red, _]) = check_game(&valid, &bot("valid", None), "classic", &[]);
    assert_eq!((record.moves.as_str(), record.result), ("1111112222223333334", Outcome::Win(Player::One)));
    assert!(red.contains("seat 1\n") && red.contains(end_code(&record)), "{red}");
    assert!(red.contains("> 1\n< 1\n> 1\n< 1\n"), "the exchange is kept:\n{red}");
    let (record, [_, green]) = check_game(&bot("valid", None), &valid, "max", &[]);
    assert!(green.contains("seat 2\ngot 1\n") && green.contains(end_code(&record)), "{green}");
}

#[test]
fn coordinator_engines_play_whole_games_told_the_moves_and_the_clocks() {
    let valid = protocol_bot("coordinator", &["valid"]);
    let (record, [red, _]) = check_game(&valid, "self", "classic", &["--clock", "100"]);
    assert!(
        red.contains(
            "got name AI 0\ngot isready AI 0\ngot position startpos\ngot isready AI 0\ngot go ftime 100000 stime 100000\n"
        ),
        "{red}"
    );
    assert!(red.contains("> quit\n"), "{red}");
    assert_eq!(record.settings.clock, Some(Duration::from_secs(100)));
    assert!(record.turns.iter().all(|turn| turn.clock.is_some_and(|left| left <= 100.0)));
    let (record, [_, green]) = check_game(&bot("valid", None), &valid, "max", &[]);
    assert!(green.contains("got name AI 1\n"), "{green}");
    assert!(green.contains("got position startpos 0\ngot isready AI 1\ngot go ftime 60000 stime 60000\n"), "{green}");
    assert_eq!(record.settings.clock, None);
    assert!(record.turns.iter().all(|turn| turn.clock.is_none()));
}

/// A bot of `protocol` that misbehaves as `behaviour` says, marked with
/// `tag` so that a test can see that none of its processes is left.
fn tagged(protocol: &str, behaviour: &str, tag: &Path) -> String {
    protocol_bot(protocol, &[behaviour, &tag.display().to_string()])
}

#[test]
fn bad_bots_on_pipes_forfeit_with_a_reason() {
    // Each behaviour, the further arguments of the match, the verdict, and
    // part of the reason for a moderator bot and for a coordinator engine.
    // In the sandbox, bubblewrap holds the bot's output open: a bot that
    // closes it is silent until its time is up. Without, it is seen at once.
    let cases: [(&str, &[&str], &str, [&str; 2]); 6] = [
        ("exit", &[], "no-output", ["it ended (exit status 3) without answering"; 2]),
        ("close", &["--no-sandbox"], "no-output", ["it closed its standard output without answering"; 2]),
        (
            "flood",
            &[],
            "unparseable",
            ["it answered 4 and then '4444", "it printed more than 64 KiB without an answer"],
        ),
        (
            "two",
            &[],
            "unparseable",
            ["it answered 1 and then '1'; one move a turn", "it answered bestmove 0 and then 'bestmove 0 0'"],
        ),
        (
            "word",
            &[],
            "unparseable",
            [
                "expected a column 1-7, got 'h'",
                "expected 'bestmove Z V' after 'go ftime 60000 stime 60000', got 'hello'",
            ],
        ),
        ("full", &[], "illegal-move", ["column 1 is full"; 2]),
    ];
    let dir = tempfile::tempdir().unwrap();
    let tag = dir.path().join("tag");
    for (index, protocol) in ["moderator", "coordinator"].into_iter().enumerate() {
        for &(behaviour, args, verdict, reasons) in &cases {
            check_forfeit(&tagged(protocol, behaviour, &tag), args, verdict, reasons[index]);
        }
        check_forfeit(&format!("{protocol}:./no-such-bot"), &[], "failed-to-start", "no-such-bot");
    }
    // The reason ends with what the bot last wrote on stderr (this bot
    // writes every message it is sent there).
    let exited = check_forfeit(&tagged("coordinator", "exit", &tag), &[], "no-output", "without answering");
    let reason = exited.forfeit.unwrap().reason;
    assert!(reason.ends_with("; its last line on stderr: 'got go ftime 60000 stime 60000'"), "{reason}");
    assert_gone(&tag);
}

#[test]
fn a_bot_that_hangs_loses_on_time_and_is_stopped() {
    let tag = tempfile::tempdir().unwrap();
    let tag = tag.path().join("hang-tag");
    for protocol in ["moderator", "coordinator"] {
        let record = check_forfeit(
            &tagged(protocol, "hang", &tag),
            &["--timeout", "0.5"],
            "timeout",
            "timeout: no move within 0.5 s",
        );
        assert!((0.5..5.0).contains(&record.turns[0].wall), "{protocol}: {}", record.turns[0].wall);
    }
    assert_gone(&tag);
}

#[test]
fn a_bot_that_runs_out_of_its_clock_forfeits_on_time() {
    // Each of red's moves takes 0.4 s, so its 1 s clock runs out within a
    // few moves (only the clock, never the 60 s per move, can end it), while
    // green, a web bot, answers in a moment.
    let dir = tempfile::tempdir().unwrap();
    let arena = ArenaBot::start("valid");
    let slow = protocol_bot("coordinator", &["slow", "0.4"]);
    let (record, _) = play_in(dir.path(), &slow, &arena.url, &["--clock", "1", "--rules", "max"]);
    let forfeit = record.forfeit.expect("red runs out of time");
    assert_eq!(
        (forfeit.player, forfeit.verdict.as_str(), forfeit.reason.as_str()),
        (Player::One, "timeout", "timeout: its game clock of 1 s ran out")
    );
    assert_eq!(record.settings.clock, Some(Duration::from_secs(1)));
    let red: Vec<f64> =
        record.turns.iter().filter(|turn| turn.player == Player::One).map(|turn| turn.clock.unwrap()).collect();
    assert!(red.windows(2).all(|pair| pair[1] <= pair[0]) && red.last() == Some(&0.0), "{red:?}");
}

/// A scripted web arena bot, answering each POST as its behaviour says,
/// and keeping the bodies it was sent.
struct ArenaBot {
    url: String,
    bodies: Arc<Mutex<Vec<String>>>,
}

impl ArenaBot {
    /// Starts the bot on a free port; `behaviour` is `valid` (the leftmost
    /// column with room), `string` (the same as `{"play":"N"}`), `hang`,
    /// `status` (HTTP 500), `json` (not JSON), `column` (`{"play":7}`),
    /// `full` (always column 0) or `huge` (an answer over 64 KiB).
    fn start(behaviour: &'static str) -> ArenaBot {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&bodies);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let kept = Arc::clone(&kept);
                std::thread::spawn(move || answer(stream, behaviour, &kept));
            }
        });
        ArenaBot { url, bodies }
    }
}

/// Reads one request from `stream` and answers it as `behaviour` says.
fn answer(mut stream: TcpStream, behaviour: &str, bodies: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = value.trim().parse().unwrap();
        }
        if line == "\r\n" {
            break;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let body = String::from_utf8(body).unwrap();
    bodies.lock().unwrap().push(body.clone());
    let turn = match body.parse::<Request>().unwrap() {
        Request::Init { .. } => None,
        Request::PlayTurn(turn) => Some(turn.position().unwrap()),
    };
    let leftmost = turn.map(|board| board.legal_columns().next().unwrap());
    let (status, answer) = match (behaviour, leftmost) {
        (_, None) => ("200 OK", r#"{"name":"scripted"}"#.to_owned()),
        ("hang", _) => {
            // Holds the connection until the referee gives up on it.
            let _ = reader.read_to_end(&mut Vec::new());
            return;
        }
        ("string", Some(column)) => ("200 OK", format!(r#"{{"play":"{}"}}"#, column.index())),
        ("status", _) => ("500 Internal Server Error", "oops".to_owned()),
        ("json", _) => ("200 OK", "I resign".to_owned()),
        ("column", _) => ("200 OK", r#"{"play":7}"#.to_owned()),
        ("full", _) => ("200 OK", r#"{"play":0}"#.to_owned()),
        ("huge", _) => ("200 OK", " ".repeat(100_000)),
        (_, Some(column)) => ("200 OK", Response::play(column).to_string()),
    };
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
        answer.len()
    );
}

#[test]
fn web_bots_play_whole_games_sent_the_arenas_json() {
    let arena = ArenaBot::start("valid");
    let (record, kept) = check_game(&format!("http:{}", arena.url), &bot("valid", None), "classic", &[]);
    let bodies = arena.bodies.lock().unwrap().clone();
    assert_eq!(bodies.len(), 1 + record.moves.len().div_ceil(2), "init, then one play-turn per move");
    assert!(
        bodies[0].starts_with(r#"{"action":"init","game-id":"1","game":"connectFour","players":2,"player-index":0}"#),
        "{}",
        bodies[0]
    );
    let first = bodies[1].replace(r#"["","","","","","",""]"#, "E");
    assert!(
        first.starts_with(r#"{"action":"play-turn","game-id":"1","game":"connectFour","players":2,"player-index":0,"board":[E,E,E,E,E,E],"you":"X","rules":"classic""#),
        "{first}"
    );
    assert!(
        bodies[2].contains(r#""board":[["X","","","","","",""],["O","","","","","",""],["","#),
        "row 0 is the bottom row: {}",
        bodies[2]
    );
    assert!(kept[0].contains("> POST http://") && kept[0].contains(r#"< 200 {"play":"#), "{}", kept[0]);
    // The seed's own answer, a string, is read too; green under max rules.
    let arena = ArenaBot::start("string");
    check_game(&bot("valid", None), &arena.url, "max", &[]);
    assert!(arena.bodies.lock().unwrap()[1].contains(r#""you":"O","rules":"max""#));
}

#[test]
fn bad_web_bots_forfeit_with_a_reason() {
    let http = |behaviour| format!("http:{}", ArenaBot::start(behaviour).url);
    check_forfeit(&http("status"), &[], "no-output", "answered HTTP 500 ('oops')");
    check_forfeit(
        &http("json"),
        &[],
        "unparseable",
        "not JSON: expected value at line 1 column 1 (the answer reads 'I resign')",
    );
    check_forfeit(&http("column"), &[], "unparseable", "not a move: expected a column 0-6, got 7");
    check_forfeit(&http("full"), &[], "illegal-move", "column 1 is full");
    check_forfeit(&http("huge"), &[], "unparseable", "the answer is over 64 KiB");
    let record = check_forfeit(&http("hang"), &["--timeout", "0.5"], "timeout", "no move within 0.5 s");
    assert!((0.5..5.0).contains(&record.turns[0].wall), "{}", record.turns[0].wall);
    let closed = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    check_forfeit(
        &format!("http://{closed}/"),
        &[],
        "failed-to-start",
        &format!("no answer from http://{closed}/ to init"),
    );
}

#[test]
fn this_program_plays_itself_over_every_protocol() {
    let exe = shell_words::quote(env!("CARGO_BIN_EXE_maxconnect4")).into_owned();
    let server = Server::start(&["--depth", "2"]);
    let moderator = format!("moderator:{exe} bot moderator --depth 2");
    let coordinator = format!("coordinator:{exe} bot coordinator");
    let http = format!("http://{}/", server.addr);
    // The coordinator engine spreads its 10 s clock over its moves.
    check_game(&moderator, &coordinator, "classic", &["--clock", "10"]);
    check_game(&http, &moderator, "classic", &[]);
    let moderator = format!("moderator:{exe} bot moderator --depth 2 --rules max");
    let coordinator = format!("coordinator:{exe} bot coordinator --rules max");
    // Told 5 s a side, it thinks about half a second a move, well inside
    // the 5 s a move.
    check_game(&coordinator, &http, "max", &["--timeout", "5"]);
    check_game(&moderator, "self", "max", &[]);
}

#[test]
fn a_tournament_mixes_every_kind_of_player() {
    let dir = tempfile::tempdir().unwrap();
    let arena = ArenaBot::start("valid");
    let players = [
        format!("moderator={}", protocol_bot("moderator", &["valid"])),
        format!("coordinator={}", protocol_bot("coordinator", &["valid"])),
        format!("web=http:{}", arena.url),
        "me=self".to_owned(),
        format!("files={}", bot("valid", None)),
    ];
    let mut command = maxconnect4(dir.path());
    command.args(["tournament", "--openings", "0", "--rules", "classic", "--depth", "2", "--jobs", "2"]);
    command.args(["--timeout", GENEROUS, "--out", "t"]);
    for player in &players {
        command.args(["--player", player]);
    }
    let assert = command.assert().success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let logged = records(&dir.path().join("t").join("games.jsonl"));
    assert_eq!(logged.len(), 20, "every ordered pair once, from the empty board:\n{stdout}");
    assert!(logged.iter().all(|record| record.forfeit.is_none() && record.opening.as_deref() == Some("")), "{stdout}");
    let moves = read(&dir.path().join("t").join("games.moves"));
    assert_eq!(moves.lines().count(), 20);
    assert!(moves.lines().all(|line| !line.is_empty() && line.bytes().all(|b| (b'1'..=b'7').contains(&b))), "{moves}");
    // With openings, a moderator bot cannot start: refused before any game.
    let refused = maxconnect4(dir.path())
        .args(["tournament", "--openings", "1", "--out", "u", "--player", &players[0], "--player", "me=self"])
        .assert()
        .code(1);
    let stderr = String::from_utf8(refused.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("a moderator bot plays from the empty board only"), "{stderr}");
}

#[test]
fn bots_that_cannot_play_from_the_start_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    super::util::write(dir.path(), "start.txt", super::util::INPUT2);
    let refuse = |args: &[&str], expected: &str| {
        let assert = maxconnect4(dir.path()).args(args).assert().code(1);
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains(expected), "{stderr}");
        assert!(!dir.path().join("games.jsonl").exists() || read(&dir.path().join("games.jsonl")).is_empty());
    };
    let moderator = protocol_bot("moderator", &["valid"]);
    let coordinator = protocol_bot("coordinator", &["valid"]);
    refuse(&["match", &moderator, "self", "--start-moves", "44"], "a moderator bot plays from the empty board only");
    refuse(&["match", "self", &coordinator, "--start", "start.txt"], "a coordinator engine is told the moves");
}
