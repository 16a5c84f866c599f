//! `bot moderator` and `bot coordinator` against scripted arenas written
//! here: each test is the other side of the pipe, checking every line the
//! bot prints and playing legal replies until the game ends.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use maxconnect4::board::{Board, Column};
use maxconnect4::rules::{Outcome, Rules};

/// A bot process with its standard input and output piped to the test.
struct Session {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Session {
    fn start(mut command: Command) -> Session {
        let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Session { child, input, output }
    }

    fn bot(args: &[&str]) -> Session {
        let mut command = Command::new(env!("CARGO_BIN_EXE_maxconnect4"));
        command.args(args).env_remove("RUST_BACKTRACE");
        Session::start(command)
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// The next line the bot prints, without its line break ("" at the end).
    fn receive(&mut self) -> String {
        let mut line = String::new();
        self.output.read_line(&mut line).unwrap();
        line.trim_end_matches(['\r', '\n']).to_owned()
    }

    /// Closes stdin and returns the exit code, the rest of stdout and stderr.
    fn finish(self) -> (Option<i32>, String, String) {
        let Session { child, input, mut output } = self;
        drop(input);
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut output, &mut rest).unwrap();
        let result = child.wait_with_output().unwrap();
        (result.status.code(), rest, String::from_utf8(result.stderr).unwrap())
    }
}

fn leftmost(board: &Board) -> Column {
    board.legal_columns().next().unwrap()
}

/// Plays a whole classic game as the moderator: the bot sits in `seat`
/// (1 or 2), its opponent plays the leftmost column. Returns the moves.
fn moderate(session: &mut Session, seat: u8) -> Vec<Column> {
    assert_eq!(session.receive(), "p");
    session.send(&seat.to_string());
    let mut board = Board::empty();
    let mut moves = Vec::new();
    if seat == 2 {
        assert_eq!(session.receive(), "?");
    }
    loop {
        let bots_turn = board.to_move().number() == seat;
        let column = if bots_turn {
            let line = session.receive();
            let column =
                line.parse().ok().and_then(Column::from_number).unwrap_or_else(|| panic!("not a column: {line:?}"));
            assert!(board.can_play(column), "the bot played full column {column}");
            column
        } else {
            let column = leftmost(&board);
            session.send(&column.to_string());
            column
        };
        board.play(column);
        moves.push(column);
        if let Some(outcome) = Rules::Classic.outcome(&board) {
            let code = match outcome {
                Outcome::Win(player) => -i32::from(player.number()),
                Outcome::Draw => -3,
            };
            session.send(&code.to_string());
            return moves;
        }
    }
}

#[test]
fn moderator_bot_beats_the_leftmost_player_from_either_seat() {
    for seat in [1, 2] {
        let mut session = Session::bot(&["bot", "moderator", "--depth", "6"]);
        let moves = moderate(&mut session, seat);
        let mut board = Board::empty();
        moves.iter().for_each(|&column| board.play(column));
        let winner = board.to_move().other().number();
        let (code, rest, errors) = session.finish();
        assert_eq!((code, rest.as_str(), errors.as_str()), (Some(0), "", ""));
        assert_eq!(winner, seat, "the bot lost as player {seat}: {moves:?}");
    }
}

/// Sends `lines` to a new moderator bot and checks its stdout, stderr and exit code.
fn check_moderator(lines: &[&str], stdout: &str, stderr: &str, code: i32) {
    let mut session = Session::bot(&["bot", "moderator", "--depth", "2"]);
    for line in lines {
        session.send(line);
    }
    let (actual_code, rest, errors) = session.finish();
    assert_eq!((rest.as_str(), errors.as_str(), actual_code), (stdout, stderr, Some(code)), "lines {lines:?}");
}

#[test]
fn moderator_bot_rejects_bad_lines() {
    check_moderator(&["2", "-2"], "p\n?\n", "", 0);
    check_moderator(&["1", "-1"], "p\n4\n", "", 0);
    check_moderator(&[], "p\n", "", 0);
    check_moderator(
        &["5"],
        "p\n",
        "error: line 1 from the moderator: the first line must be 1 or 2 (who moves first), got '5'\n",
        1,
    );
    check_moderator(
        &["2", "go"],
        "p\n?\n",
        "error: line 2 from the moderator: expected a column 1-7 or an end code 0, -1, -2 or -3, got 'go'\n",
        1,
    );
}

/// One coordinator session: each pair is a line sent and the line expected
/// back ("" when the command has no answer).
fn check_coordinator(session: &mut Session, exchanges: &[(&str, &str)]) {
    for &(line, expected) in exchanges {
        session.send(line);
        if !expected.is_empty() {
            assert_eq!(session.receive(), expected, "after {line:?}");
        }
    }
}

/// Plays a classic game as the coordinator at `clock_ms` per side, in the
/// real coordinator's words (seed 001's jar: `name AI 0`, `isready AI 0`,
/// `position startpos ` with a trailing space): the bot
/// plays `seat`, the leftmost player the other side, and every move the bot
/// sends must be legal. Returns who won. (The bot's strength under a clock
/// depends on the machine's speed, so only the depth-limited moderator test
/// asserts who wins.)
fn coordinate(session: &mut Session, seat: u8, clock_ms: u64) -> Option<u8> {
    check_coordinator(session, &[("name AI 0", "maxconnect4-c0000000"), ("isready AI 0", "readyok")]);
    let mut board = Board::empty();
    let mut moves = String::new();
    loop {
        if let Some(outcome) = Rules::Classic.outcome(&board) {
            check_coordinator(session, &[("quit", "quitting")]);
            return match outcome {
                Outcome::Win(player) => Some(player.number()),
                Outcome::Draw => None,
            };
        }
        let column = if board.to_move().number() == seat {
            session.send(&format!("position startpos {moves} "));
            check_coordinator(session, &[("isready AI 0", "readyok")]);
            session.send(&format!("go ftime {clock_ms} stime {clock_ms}"));
            let answer = session.receive();
            let words: Vec<&str> = answer.split(' ').collect();
            assert!(matches!(words.as_slice(), ["bestmove", _, value] if value.parse::<i32>().is_ok()), "{answer:?}");
            let column = words[1].parse().ok().and_then(Column::from_index).unwrap_or_else(|| panic!("{answer:?}"));
            assert!(board.can_play(column), "full column in {answer:?}");
            column
        } else {
            leftmost(&board)
        };
        board.play(column);
        moves.push(char::from(b'0' + column.index() as u8));
    }
}

#[test]
fn coordinator_bot_plays_whole_games_and_counts_perft() {
    for seat in [1, 2] {
        let mut session = Session::bot(&["bot", "coordinator"]);
        coordinate(&mut session, seat, 400);
        let (code, rest, errors) = session.finish();
        assert_eq!((code, rest.as_str(), errors.as_str()), (Some(0), "", ""));
    }
    let mut session = Session::bot(&["bot", "coordinator", "--name", "me-c7654321"]);
    check_coordinator(
        &mut session,
        &[
            ("name", "me-c7654321"),
            ("position startpos", ""),
            ("perft 8", "perft 8 5673234"),
            ("position startpos 3333", ""),
            ("perft 2", "perft 2 49"),
            ("position startpos 0101010", ""),
            ("perft 3", "perft 3 0"),
            ("go ftime 1000 stime", ""),
            ("position startpos 9", ""),
            ("go ftime 5 stime 5", ""),
            ("position startpos 00000000", ""),
            ("isready", "readyok"),
            ("perft 4000000000", ""),
            ("quit", "quitting"),
        ],
    );
    let (code, rest, errors) = session.finish();
    assert_eq!((code, rest.as_str()), (Some(0), ""));
    assert_eq!(
        errors,
        "error: line 8 from the coordinator: malformed 'go' line 'go ftime 1000 stime': expected 'go ftime X stime Y' with X and Y whole milliseconds\n\
         error: line 9 from the coordinator: malformed 'position' line 'position startpos 9': expected 'position startpos' and digits 0-6\n\
         error: line 10 from the coordinator: 'go' with no position, or after a position that was refused: send a legal position first\n\
         error: line 11 from the coordinator: move 7 of the position, column 0, is illegal: the column is full\n\
         error: line 13 from the coordinator: perft 4000000000 is refused: at most 14 plies (perft 14 takes 14 s here, each ply more about 7 times as long)\n"
    );
}

/// `--threads` shares a bot's search among threads: playing perfectly 26
/// cells from the end of a Max-Connect4 game (enough for the threads to
/// search together), the coordinator's bot answers the same best move and
/// value on one thread and on two, and says no move is short of perfect
/// play. (That two threads are faster is for a benchmark to show:
/// `examples/max_solve.rs --threads 2`.) No thread count is refused but 0.
#[test]
fn a_bots_threads_search_together_to_the_same_perfect_move() {
    // The moves of a 16-move game, columns 0-6 as the coordinator sends them.
    let position = "position startpos 3342415560123344";
    let answers: Vec<(String, String)> = ["1", "2"]
        .into_iter()
        .map(|threads| {
            let mut session =
                Session::bot(&["bot", "coordinator", "--rules", "max", "--perfect", "--threads", threads]);
            check_coordinator(&mut session, &[(position, ""), ("isready", "readyok")]);
            session.send("go ftime 60000 stime 60000");
            let answer = session.receive();
            check_coordinator(&mut session, &[("quit", "quitting")]);
            let (code, rest, errors) = session.finish();
            assert_eq!((code, rest.as_str(), errors.as_str()), (Some(0), "", ""), "{threads} threads");
            (threads.to_owned(), answer)
        })
        .collect();
    assert!(answers[0].1.starts_with("bestmove "), "{answers:?}");
    assert_eq!(answers[0].1, answers[1].1, "{answers:?}");
    for protocol in ["moderator", "coordinator"] {
        let output = Command::new(env!("CARGO_BIN_EXE_maxconnect4"))
            .args(["bot", protocol, "--threads", "0"])
            .env_remove("RUST_BACKTRACE")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{protocol}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains("--threads"), "{stderr}");
    }
}

/// Whether a test needing `tool` runs: it must where `MAXCONNECT4_REQUIRE_<WHAT>`
/// is set (CI), and is skipped with a reason elsewhere when the tool is missing.
pub fn tool_available(tool: &str, requirement: &str) -> bool {
    let found = Command::new(tool).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok();
    if !found {
        assert!(std::env::var_os(requirement).is_none(), "{requirement} is set but {tool} cannot be run");
        eprintln!("skipped: {tool} is not installed (set {requirement}=1 to make this a failure)");
    }
    found
}

#[test]
fn the_java_launcher_plays_through_to_the_bot() {
    if !tool_available("javac", "MAXCONNECT4_REQUIRE_JDK") {
        return;
    }
    let classes = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters/coordinator/Interface.java");
    let status = Command::new("javac").arg("-d").arg(classes.path()).arg(&source).status().unwrap();
    assert!(status.success(), "javac failed on {}", source.display());
    let launcher = |program: &str| {
        let mut command = Command::new("java");
        command.arg("-classpath").arg(classes.path()).arg("Interface").env("MAXCONNECT4", program);
        Session::start(command)
    };
    let mut session = launcher(env!("CARGO_BIN_EXE_maxconnect4"));
    coordinate(&mut session, 1, 400);
    let (code, rest, errors) = session.finish();
    assert_eq!((code, rest.as_str(), errors.as_str()), (Some(0), "", ""));

    let (code, _, errors) = launcher("/nonexistent/maxconnect4").finish();
    assert_eq!(code, Some(1));
    assert!(errors.starts_with("error: cannot run /nonexistent/maxconnect4"), "{errors}");
}
